"""The shortest rule list that explains the observations, found by CP-SAT: directions and rules at once.

The decision-list search of :func:`ai.learning.decision_list.decision_list` is a beam over one table,
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

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from ai.kernel.libraries import cp_model
from ai.kernel.context import SolveContext
from ai.kernel.cpsat_run import solve_under
from ai.learning.hidden_directions import STAY_OUTCOME, direction_model, outcome_ids, outcome_of, targets_stop_seen
from ai.learning.observations import Steps
from game.core.physics import NEIGHBOURS, Physics, Rule
from game.core.physics_views import views

IntArray = npt.NDArray[np.int64]

#: CP-SAT's deterministic work cap (about seconds of one core) for each rule count tried.
LIST_WORK = 3.0
#: The most rules :func:`shortest_list` tries.
MOST_RULES = 7


def shortest_list(steps: Steps, *, name: str = "learned", targets_stop: bool | None = None,
                  most_rules: int = MOST_RULES, work: float = LIST_WORK,
                  ctx: SolveContext | None = None) -> Physics | None:
    """The shortest list of rules (then fewest conditions, then turns) that explains ``steps``, or
    ``None`` when it needs more than ``most_rules`` rules or CP-SAT does not settle a rule count in time.
    ``targets_stop``: as the caller decided it (default: unless some lemming moved on a target).

    >>> from game.core.physics_catalog import SHIPPED
    >>> from ai.learning.observations import random_game, steps_of
    >>> games = [random_game(np.random.default_rng(0), SHIPPED["climber"])]
    >>> from game.core.physics_views import same_behaviour
    >>> same_behaviour(shortest_list(steps_of(games)), SHIPPED["climber"])
    True
    """
    ctx = ctx or SolveContext.create()
    if not steps.count:
        return None
    stop_on_targets = targets_stop_seen(steps) if targets_stop is None else targets_stop
    for rules in range(most_rules + 1):
        ctx.check()
        status, found = _solve(steps, rules, stop_on_targets, work, ctx)
        if status == "infeasible":
            continue
        if found is None:
            return None
        return Physics(name, stop_on_targets, found)
    return None


@dataclass
class _ListModel:
    """A CP-SAT model of ``k`` rules explaining the steps (see the module docstring)."""

    model: Any
    care: list[list[Any]]
    solid: list[list[Any]]
    move: list[dict[int, Any]]
    first: dict[int, list[Any]]  #: per configuration: rule j is the first that holds
    none: dict[int, Any]  #: per configuration: no rule holds (True: a constant)

    @classmethod
    def build(cls, steps: Steps, k: int, stop_on_targets: bool, ctx: SolveContext, *,
              every_config: bool = False) -> _ListModel:
        """The model; ``every_config``: the first-rule structure over all 256 configurations and every
        move (for :func:`rival`), not only those the steps saw."""
        dm = direction_model(steps, stop_on_targets, ctx)
        model, entries = dm.model, dm.entries
        outcomes = list(range(18)) if every_config else sorted({o for _, o in entries} | {STAY_OUTCOME})
        care = [[model.new_bool_var("") for _ in NEIGHBOURS] for _ in range(k)]
        solid = [[model.new_bool_var("") for _ in NEIGHBOURS] for _ in range(k)]
        free = [[model.new_bool_var("") for _ in NEIGHBOURS] for _ in range(k)]
        move = [{o: model.new_bool_var("") for o in outcomes} for _ in range(k)]
        for j in range(k):
            model.add_exactly_one(move[j].values())
            for b in range(len(NEIGHBOURS)):
                model.add(care[j][b] == solid[j][b] + free[j][b])  # a needed cell is solid or free
            for o, var in move[j].items():
                dr, da, _ = outcome_of(o)
                if (dr, da) != (0, 0):  # a move needs its cell free
                    model.add_implication(var, free[j][NEIGHBOURS.index((dr, da))])
        configs = range(256) if every_config else sorted({c for c, _ in entries})
        first: dict[int, list[Any]] = {}
        none: dict[int, Any] = {}
        for x in configs:
            ctx.check()
            earlier: Any = True
            first[x] = []
            for j in range(k):
                wrong = [solid[j][b] if not x >> b & 1 else free[j][b] for b in range(len(NEIGHBOURS))]
                holds = model.new_bool_var("")
                for lit in wrong:
                    model.add_implication(holds, lit.Not())
                model.add_bool_or([holds, *wrong])
                here = holds if earlier is True else model.new_bool_var("")
                if earlier is not True:
                    model.add_implication(here, holds)
                    model.add_implication(here, earlier)
                    model.add_bool_or([here, holds.Not(), earlier.Not()])
                for o, var in move[j].items():
                    entry = entries.get((x, o))
                    if entry is not None:
                        model.add_bool_or([entry.Not(), here.Not(), var])
                later = model.new_bool_var("")
                model.add_implication(later, holds.Not())
                if earlier is not True:
                    model.add_implication(later, earlier)
                    model.add_bool_or([later, holds, earlier.Not()])
                else:
                    model.add_bool_or([later, holds])
                first[x].append(here)
                earlier = later
            none[x] = earlier
        for (x, o), entry in entries.items():
            if o != STAY_OUTCOME:  # no rule holds: the lemming stays
                if none[x] is True:
                    model.add_bool_or([entry.Not()])
                else:
                    model.add_bool_or([entry.Not(), none[x].Not()])
        return cls(model, care, solid, move, first, none)

    def conditions(self) -> Any:
        """How many cell conditions the rules hold."""
        return sum(v for row in self.care for v in row)

    def turns(self) -> Any:
        """How many rules turn."""
        return sum(var for rule in self.move for o, var in rule.items() if o % 2)

    def differs_from(self, table: IntArray) -> list[Any]:
        """Literals, one per configuration, each forcing the rules to move otherwise than ``table``
        (per configuration an outcome number) there; one of them must hold."""
        out = []
        for x, rules in self.first.items():
            differ = self.model.new_bool_var("")
            for here, move in zip(rules, self.move):
                self.model.add_bool_or([differ.Not(), here.Not(), move[int(table[x])].Not()])
            if int(table[x]) == STAY_OUTCOME:
                self.model.add_bool_or([differ.Not(), self.none[x].Not()] if self.none[x] is not True
                                       else [differ.Not()])
            out.append(differ)
        self.model.add_bool_or(out)
        return out

    def solve(self, work: float, ctx: SolveContext) -> tuple[str, tuple[Rule, ...] | None]:
        """``("infeasible", None)``, ``("found", rules)`` or ``("unknown", None)``."""
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1  # one worker and a work cap: the same answer on every machine
        solver.parameters.max_deterministic_time = work
        status = solve_under(solver, self.model, ctx)
        ctx.check()
        if status == cp_model.INFEASIBLE:
            return "infeasible", None
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return "unknown", None
        rules = []
        for care, solid, move in zip(self.care, self.solid, self.move):
            when = tuple(sorted((NEIGHBOURS[b], bool(solver.value(solid[b])))
                                for b in range(len(NEIGHBOURS)) if solver.value(care[b])))
            o = next(o for o, var in move.items() if solver.value(var))
            dr, da, turn = outcome_of(o)
            rules.append(Rule(when, (dr, da), turn))
        return "found", tuple(rules)


def _solve(steps: Steps, k: int, stop_on_targets: bool, work: float,
           ctx: SolveContext) -> tuple[str, tuple[Rule, ...] | None]:
    """One rule count: the fewest conditions, then turns."""
    lm = _ListModel.build(steps, k, stop_on_targets, ctx)
    lm.model.minimize(16 * lm.conditions() + lm.turns())
    return lm.solve(work, ctx)


def outcome_table(physics: Physics) -> IntArray:
    """Per configuration (seen from the lemming) the outcome number of ``physics``' move."""
    table = views(physics).table
    return outcome_ids(table[:, 0], table[:, 1], table[:, 2])


def rival(steps: Steps, found: Physics, *, mirror: Physics | None = None, work: float = LIST_WORK,
          ctx: SolveContext | None = None) -> tuple[str, Physics | None]:
    """Another physics with as many rules and no more conditions than ``found`` (a shortest list) that
    explains ``steps`` just as well but moves otherwise in some neighbourhood (and otherwise than
    ``mirror``, ``found`` with left and right named the other way round, when the directions were
    hidden): ``("found", it)``, ``("none", None)`` when CP-SAT proves there is none (the games decide
    every neighbourhood the shortest lists could differ on), or ``("unknown", None)``.

    >>> from game.core.physics_catalog import SHIPPED
    >>> from ai.learning.observations import random_game, steps_of
    >>> steps = steps_of([random_game(np.random.default_rng(0), SHIPPED["climber"])])
    >>> rival(steps, shortest_list(steps))[0] in ("found", "none")
    True
    """
    ctx = ctx or SolveContext.create()
    lm = _ListModel.build(steps, len(found.rules), found.targets_stop, ctx, every_config=True)
    lm.model.add(lm.conditions() <= sum(len(rule.when) for rule in found.rules))
    lm.differs_from(outcome_table(found))
    if mirror is not None:
        lm.differs_from(outcome_table(mirror))
    status, rules = lm.solve(work, ctx)
    if rules is None:
        return ("none" if status == "infeasible" else "unknown"), None
    return "found", Physics(found.name, found.targets_stop, rules)


__all__ = ["LIST_WORK", "MOST_RULES", "outcome_table", "rival", "shortest_list"]
