"""A tiny exhaustive solver over the reference simulator (any physics), for the physics tests.

It tries every brick subset by size through :func:`game.core.simulation.simulate`, so it follows the level's
physics by construction; the tests register it as the solver ``"tiny"`` and compare the assistant,
analysis, rating and generator against it.
"""

from __future__ import annotations

import itertools

import numpy as np

from ai.kernel.base import SolveMode, SolveResult, SolveStats, SolveStatus
from ai.kernel.context import SolveContext
from game.core.level import Brick, Level
from game.core.physics import Physics, random_physics
from game.core.physics_catalog import SHIPPED
from game.core.simulation import simulate

#: Shipped physics plus random ones drawn from the class.
PHYSICS: list[Physics] = [*SHIPPED.values(),
                          *(random_physics(np.random.default_rng(s), name=f"random{s}") for s in range(8))]


def optimal_sets(level: Level, budget: int | None = None) -> tuple[BrickSet, ...]:
    """Every minimum winning brick set within ``budget`` (default the level's): ``()`` when none."""
    cells = level.brickable_cells
    for k in range(min(level.budget if budget is None else budget, len(cells)) + 1):
        found = tuple(s for s in itertools.combinations(cells, k) if simulate(level, s, enforce_budget=False).won)
        if found:
            return found
    return ()


BrickSet = tuple[Brick, ...]


class TinySolver:
    """Exhaustive over brick subsets, exact (for levels with a handful of brickable cells)."""

    name = "tiny"
    exact = True

    def solve_in(self, level: Level, mode: SolveMode, ctx: SolveContext) -> SolveResult:
        """Solve ``level`` in ``mode`` (``any`` and ``min`` give the first minimum set); ``ctx`` is not checked."""
        mode = SolveMode(mode)
        sets = optimal_sets(level)
        stats = SolveStats(seconds=ctx.elapsed(), nodes=1)
        if not sets:
            return SolveResult(SolveStatus.INFEASIBLE, self.name, mode, complete=True, stats=stats)
        status = SolveStatus.FEASIBLE if mode == SolveMode.ANY else SolveStatus.OPTIMAL
        sols = sets if mode == SolveMode.ALL else sets[:1]
        return SolveResult(status, self.name, mode, sols[0], sols, complete=mode == SolveMode.ALL, stats=stats)


def tiny_solver(**_: object) -> TinySolver:
    """The registry factory."""
    return TinySolver()
