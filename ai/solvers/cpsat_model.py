"""The CP-SAT model of a level's runs: brick variables, the per-frame *time* encoding and the helpers
every encoding shares (literals with constants folded, a branch's conditions and predecessor).

:class:`CpSatModel` is the *time* encoding of :mod:`ai.solvers.cpsat` (one variable per live state and
frame); :class:`ai.solvers.cpsat_path.PathModel` derives the compact *path* encoding from it.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Union

import numpy as np
from ai.kernel.libraries import cp_model
from ai.kernel.base import BrickSet
from ai.kernel.context import SolveContext
from ai.solvers.reach_bounded import BoundedLemming, Scope
from ai.solvers.gates import SOLID, gate_codes
from game.core.level import Brick, Level
from game.core.physics_views import Branch, views


Literal = Union[bool, Any]
"""A model literal (a CP-SAT Boolean variable or its negation), or a Python constant
for a value fixed by the analysis."""

#: Model building checks the solve context every this many states.
CHECK_EVERY = 128

#: Models with more variables than this skip presolve probing (when presolve is on).
LARGE_MODEL = 5000

StateKey = tuple[int, int, int, int]
"""``(frame, row, col, direction)``."""

State = tuple[int, int, int]
"""``(row, col, direction)``."""


def negate(lit: Literal) -> Literal:
    """The negation of a literal or constant."""
    return (not lit) if isinstance(lit, bool) else lit.Not()


def add_clause(model: cp_model.CpModel, lits: Iterable[Literal]) -> None:
    """Add the disjunction of ``lits``, simplifying constants (an empty clause is infeasible)."""
    kept: list[cp_model.IntVar] = []
    for lit in lits:
        if lit is True:
            return
        if lit is not False:
            kept.append(lit)
    model.add_bool_or(kept)


def conditions(branch: Branch, blocked: Callable[[int, int], Literal], state: State) -> list[Literal]:
    """The literals that must hold for ``branch`` to apply in ``state`` (``blocked(r, c)``: a cell's literal)."""
    return [blocked(*cell) if solid else negate(blocked(*cell)) for cell, solid in branch.cells(state)]


def predecessor(branch: Branch, state: State) -> State:
    """The state from which ``branch`` leads to ``state`` (the move undone)."""
    row, col, direction = state
    before = -direction if branch.turn else direction
    return (row - branch.move[0], col - branch.move[1] * before, before)


class CpSatModel:
    """Owns the CP-SAT model and its variables for one level.

    ``extra_cells`` adds brick variables on cells no live state reads (used by hints,
    whose player bricks may sit anywhere).
    """

    def __init__(self, level: Level, info: Scope, *, extra_cells: Iterable[Brick] = (),
                 ctx: SolveContext | None = None) -> None:
        self.level = level
        self.info = info
        self.ctx = ctx or SolveContext.create()
        self.model = cp_model.CpModel()
        cells = sorted(set(info.read_cells) | set(extra_cells))
        self.bricks: dict[Brick, cp_model.IntVar] = {
            cell: self.model.new_bool_var(f"b{cell[0]}_{cell[1]}") for cell in cells
        }
        self.gates = gate_codes(level, cells)
        self._brick_of = list(self.bricks.values())
        self._moves: dict[State, list[tuple[list[Literal], State]]] = {}  # see moves_from
        self._bounded = [reach if isinstance(reach, BoundedLemming) else None for reach in info.lemmings]
        self._make_variables()

    def _make_variables(self) -> None:
        """The lemming variables (here: one occupancy literal per live state and frame)."""
        self.occ: list[dict[StateKey, Literal]] = [self._make_states(k) for k in range(len(self.info.lemmings))]

    def checkpoint(self) -> None:
        """Raise :class:`ai.kernel.context.SolveStopped` when the solve must stop (called while building)."""
        self.ctx.check()

    # ------------------------------------------------------------ variables
    def _make_states(self, k: int) -> dict[StateKey, Literal]:
        """Occupancy literals of lemming ``k``: a variable per live state, constant 1 if alone."""
        states: dict[StateKey, Literal] = {}
        reach = self.info.lemmings[k]
        for t in range(self.level.frames):
            self.checkpoint()
            live = reach.states(t)
            for r, c, d in live:
                states[(t, r, c, d)] = True if len(live) == 1 else self.model.new_bool_var(f"x{k}_{t}_{r}_{c}_{d}")
        return states

    def blocked(self, r: int, c: int) -> Literal:
        """Whether cell ``(r, c)`` is an obstacle: constant for walls/outside/free cells."""
        code = int(self.gates[r + 1, c + 1])
        if code < 0:
            return code == SOLID
        return self._brick_of[code]

    def state(self, k: int, key: StateKey) -> Literal:
        """The literal of lemming ``k`` in state ``key`` (constant 0 when not live)."""
        return self.occ[k].get(key, False)

    def made(self, k: int, source: State, dest: State, frame: int | None = None) -> bool:
        """Whether lemming ``k`` may move from ``source`` to ``dest`` (at ``frame``; ``None``: at some frame):
        always over the live states, only as its bounded runs do over a bounded scope."""
        bounded = self._bounded[k]
        return bounded is None or bounded.makes(source, dest, frame)

    @property
    def brick_vars(self) -> list[cp_model.IntVar]:
        """The brick variables in cell order."""
        return list(self.bricks.values())

    # ----------------------------------------------------- constraint groups
    def add_dynamics(self, *, redundant: bool = True) -> None:
        """Every constraint group that defines the lemmings' runs."""
        for k in range(len(self.occ)):
            self.checkpoint()
            self.add_exactly_one(k)
            self.checkpoint()
            self.add_transitions(k)
            if redundant:
                self.checkpoint()
                self.add_support(k)
                self.checkpoint()
                self.add_free_where_occupied(k)

    def add_exactly_one(self, k: int) -> None:
        """Lemming ``k`` is in exactly one state at each frame."""
        by_frame: dict[int, list[Literal]] = {}
        for (t, _, _, _), lit in self.occ[k].items():
            by_frame.setdefault(t, []).append(lit)
        for t in range(self.level.frames):
            if t % CHECK_EVERY == 0:
                self.checkpoint()
            lits = by_frame.get(t, [])
            if len(lits) != 1 or lits[0] is not True:
                self.model.add_exactly_one(lits)

    def moves_from(self, state: State) -> list[tuple[list[Literal], State]]:
        """Per branch of the physics that can apply in ``state``: the negations of its needed cells'
        literals (constants dropped) and the state it leads to; the same at every frame, so computed once."""
        cache = self._moves
        if state not in cache:
            out = []
            for branch in views(self.level.physics).branches:
                negated = [negate(lit) for lit in conditions(branch, self.blocked, state)]
                if not any(lit is True for lit in negated):  # else a needed cell never is as needed
                    out.append(([lit for lit in negated if lit is not False], branch.apply(state)))
            cache[state] = out
        return cache[state]

    def add_transitions(self, k: int) -> None:
        """The movement rule, one clause per live state and branch of the physics."""
        targets = self.level.target_map if self.level.physics.targets_stop else np.zeros_like(self.level.target_map)
        for i, ((t, r, c, d), x) in enumerate(self.occ[k].items()):
            if i % CHECK_EVERY == 0:
                self.checkpoint()
            if t == self.level.frames - 1:
                continue
            nx = negate(x)
            if targets[r, c]:
                add_clause(self.model, [nx, self.state(k, (t + 1, r, c, d))])
                continue
            for negated, dest in self.moves_from((r, c, d)):
                after = self.state(k, (t + 1, *dest)) if self.made(k, (r, c, d), dest, t) else False
                add_clause(self.model, [nx, *negated, after])

    def add_support(self, k: int) -> None:
        """Redundant: a state at frame t+1 needs an occupied predecessor at frame t."""
        targets = self.level.target_map if self.level.physics.targets_stop else np.zeros_like(self.level.target_map)
        branches = views(self.level.physics).branches
        before: dict[State, list[State]] = {}  # per state, the states it can come from (the same every frame)
        for i, ((t, r, c, d), y) in enumerate(self.occ[k].items()):
            if i % CHECK_EVERY == 0:
                self.checkpoint()
            if t == 0 or y is True:
                continue
            if (r, c, d) not in before:
                preds = [predecessor(branch, (r, c, d)) for branch in branches]
                if targets[r, c]:
                    preds.append((r, c, d))
                before[(r, c, d)] = [p for p in preds if not (targets[p[0], p[1]] if self.level.in_bounds(p[0], p[1])
                                                              else False) or p == (r, c, d)]
            lits = [self.state(k, (t - 1, *p)) for p in before[(r, c, d)]]
            add_clause(self.model, [negate(y), *lits])

    def add_free_where_occupied(self, k: int) -> None:
        """Redundant: a lemming never stands in a brick cell."""
        for i, ((t, r, c, d), x) in enumerate(self.occ[k].items()):
            if i % CHECK_EVERY == 0:
                self.checkpoint()
            brick = self.bricks.get((r, c))
            if brick is not None:
                add_clause(self.model, [negate(x), brick.Not()])

    def brick_count(self) -> cp_model.LinearExpr:
        """``Σ b`` over every brick variable."""
        return sum(self.brick_vars)  # type: ignore[return-value]

    def add_budget(self, budget: int) -> None:
        """At most ``cap ≤ budget`` bricks (native linear cardinality); see :meth:`set_cap`."""
        self.cap = self.model.new_int_var(0, budget, "cap")
        self.model.add(self.brick_count() <= self.cap)

    def set_cap(self, limit: int) -> None:
        """Tighten (or reset) the brick cap to ``limit`` in place (edits the variable's domain)."""
        domain = self.model.proto.variables[self.cap.index].domain
        domain.clear()
        domain.extend([0, limit])

    def add_exact_count(self, count: int) -> None:
        """Exactly ``count`` bricks."""
        self.model.add(self.brick_count() == count)

    def minimise_bricks(self) -> None:
        """Objective: the fewest bricks."""
        self.model.minimize(self.brick_count())

    def add_search_order(self) -> None:
        """Branch on bricks first, trying 'no brick' first."""
        self.model.add_decision_strategy(
            self.brick_vars, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE
        )

    # ------------------------------------------------------------- solutions
    def bricks_of(self, values: cp_model.CpSolver | cp_model.CpSolverSolutionCallback) -> BrickSet:
        """The brick set of the current solution (solver or callback)."""
        return tuple(cell for cell, var in self.bricks.items() if values.boolean_value(var))

    def hint(self, bricks: Iterable[Brick]) -> None:
        """Suggest a brick set to the solver."""
        chosen = set(bricks)
        self.model.clear_hints()  # type: ignore[no-untyped-call]  # (untyped in OR-Tools' stubs)
        for cell, var in self.bricks.items():
            self.model.add_hint(var, cell in chosen)
