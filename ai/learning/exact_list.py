"""The shortest rule list that explains the observations, found by CP-SAT: directions and rules at once.

The decision-list search of :func:`ai.learning.physics_learner.decision_list` is a beam over one table,
and with positions only that table comes from directions named beforehand; both steps can miss the
shortest list.  :func:`shortest_list` asks one model for both: a direction per lemming and frame (as
:func:`ai.learning.hidden_directions.infer_directions`; fixed where observed) and a list of ``K`` rules
(per rule and neighbour cell: ignored, needs solid, needs free; one move of the 3x3 neighbourhood, its
cell needed free; a turn or not) such that in every configuration a step saw, the first rule that holds
(none: stay) gives the step's move.  ``K`` rises from 0 until a list exists, and for that ``K`` the
fewest conditions, then turns, are asked for: the answer is the smallest physics of the class that
explains every step, when CP-SAT settles each ``K`` within its deterministic work cap (:data:`LIST_WORK`),
else ``None`` (the caller keeps its own answer).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ai.context import SolveContext
from ai.learning.hidden_directions import direction_model
from ai.learning.observations import Steps
from game.physics import NEIGHBOURS, Physics, Rule

IntArray = npt.NDArray[np.int64]

#: CP-SAT's deterministic work cap (about seconds of one core) for each rule count tried.
LIST_WORK = 3.0
#: The most rules :func:`shortest_list` tries.
MOST_RULES = 7
STAY = 8  #: outcome number of "stay, no turn" (as :func:`ai.learning.physics_learner.outcome_id`)


def _outcome(index: int) -> tuple[int, int, bool]:
    return index // 6 - 1, (index // 2) % 3 - 1, bool(index % 2)


def shortest_list(steps: Steps, *, name: str = "learned", targets_stop: bool | None = None,
                  most_rules: int = MOST_RULES, work: float = LIST_WORK,
                  ctx: SolveContext | None = None) -> Physics | None:
    """The shortest list of rules (then fewest conditions, then turns) that explains ``steps``, or
    ``None`` when it needs more than ``most_rules`` rules or CP-SAT does not settle a rule count in time.
    ``targets_stop``: as the caller decided it (default: unless some lemming moved on a target).

    >>> from game.physics_catalog import SHIPPED
    >>> from ai.learning.observations import random_game, steps_of
    >>> games = [random_game(np.random.default_rng(0), SHIPPED["climber"])]
    >>> shortest_list(steps_of(games)).same_behaviour(SHIPPED["climber"])
    True
    """
    ctx = ctx or SolveContext.create()
    if not steps.count:
        return None
    stop_on_targets = (not bool((steps.on_target & ((steps.moves != 0).any(axis=1))).any())
                       if targets_stop is None else targets_stop)
    for rules in range(most_rules + 1):
        ctx.check()
        status, found = _solve(steps, rules, stop_on_targets, work, ctx)
        if status == "infeasible":
            continue
        if found is None:
            return None
        return Physics(name, stop_on_targets, found)
    return None


def _solve(steps: Steps, k: int, stop_on_targets: bool, work: float,
           ctx: SolveContext) -> tuple[str, tuple[Rule, ...] | None]:
    """One rule count: ``("infeasible", None)``, ``("found", rules)`` or ``("unknown", None)``."""
    from ortools.sat.python import cp_model

    from ai.cpsat_run import solve_under

    dm = direction_model(steps, stop_on_targets, ctx)
    model, entries = dm.model, dm.entries
    outcomes = sorted({o for _, o in entries} | {STAY})
    care = [[model.new_bool_var("") for _ in NEIGHBOURS] for _ in range(k)]
    solid = [[model.new_bool_var("") for _ in NEIGHBOURS] for _ in range(k)]
    free = [[model.new_bool_var("") for _ in NEIGHBOURS] for _ in range(k)]
    move = [{o: model.new_bool_var("") for o in outcomes} for _ in range(k)]
    for j in range(k):
        model.add_exactly_one(move[j].values())
        for b in range(len(NEIGHBOURS)):
            model.add(care[j][b] == solid[j][b] + free[j][b])  # a needed cell is solid or free
        for o, var in move[j].items():
            dr, da, _ = _outcome(o)
            if (dr, da) != (0, 0):  # a move needs its cell free
                model.add_implication(var, free[j][NEIGHBOURS.index((dr, da))])
    configs = sorted({c for c, _ in entries})
    none_before: dict[int, Any] = {}
    for x in configs:
        ctx.check()
        earlier: Any = True
        for j in range(k):
            wrong = [solid[j][b] if not x >> b & 1 else free[j][b] for b in range(len(NEIGHBOURS))]
            holds = model.new_bool_var("")
            for lit in wrong:
                model.add_implication(holds, lit.Not())
            model.add_bool_or([holds, *wrong])
            first = holds if earlier is True else model.new_bool_var("")
            if earlier is not True:
                model.add_implication(first, holds)
                model.add_implication(first, earlier)
                model.add_bool_or([first, holds.Not(), earlier.Not()])
            for o, var in move[j].items():
                entry = entries.get((x, o))
                if entry is not None:
                    model.add_bool_or([entry.Not(), first.Not(), var])
            later = model.new_bool_var("")
            model.add_implication(later, holds.Not())
            if earlier is not True:
                model.add_implication(later, earlier)
                model.add_bool_or([later, holds, earlier.Not()])
            else:
                model.add_bool_or([later, holds])
            earlier = later
        none_before[x] = earlier
    for (x, o), entry in entries.items():
        if o != STAY:  # no rule holds: the lemming stays
            if none_before[x] is True:
                model.add_bool_or([entry.Not()])
            else:
                model.add_bool_or([entry.Not(), none_before[x].Not()])
    turns = [var for j in range(k) for o, var in move[j].items() if o % 2]
    model.minimize(16 * sum(v for row in care for v in row) + sum(turns))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # one worker and a work cap: the same answer on every machine
    solver.parameters.max_deterministic_time = work
    status = solve_under(solver, model, ctx)
    ctx.check()
    if status == cp_model.INFEASIBLE:
        return "infeasible", None
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "unknown", None
    rules = []
    for j in range(k):
        when = tuple(sorted((NEIGHBOURS[b], bool(solver.value(solid[j][b])))
                            for b in range(len(NEIGHBOURS)) if solver.value(care[j][b])))
        o = next(o for o, var in move[j].items() if solver.value(var))
        dr, da, turn = _outcome(o)
        rules.append(Rule(when, (dr, da), turn))
    return "found", tuple(rules)


__all__ = ["LIST_WORK", "MOST_RULES", "shortest_list"]
