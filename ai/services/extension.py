"""Winning sets that keep the player's bricks: the player's bricks become walls (a brick and a wall block
alike) and an exact solver places the fewest more within what is left of the budget.

>>> from ai.kernel.context import SolveContext
>>> from game.core.level import Level
>>> level = Level.from_rows(["> . .T", "XX.X.X"], frames=9, budget=3)
>>> extension_target(level, [(1, 4)], (), SolveContext.create())
(((1, 2), (1, 4)), None)
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ai.kernel.base import BrickSet, SolveMode, SolveStatus
from ai.kernel.context import SolveContext
from ai.solvers import registry
from game.core.level import Brick, Level
from game.core.level_text import WALL
from game.core.simulation import simulate

#: The solver extensions use by default: the cheap exact portfolio.
EXTENSION_SOLVER = "auto"


def with_walls(level: Level, cells: Iterable[Brick], budget: int) -> Level:
    """``level`` with ``cells`` turned into walls (a brick and a wall block alike) and budget ``budget``."""
    return level.with_cells(dict.fromkeys(cells, WALL)).with_limits(budget=budget)


def extend_within_budget(level: Level, keep: Sequence[Brick], ctx: SolveContext,
                         solver: str = EXTENSION_SOLVER) -> BrickSet | None:
    """The fewest-brick winning set within the budget that holds every brick of ``keep`` (replayed by the
    reference simulator), or ``None``: none exists, or no answer in the time ``ctx`` allows."""
    if len(keep) > level.budget:
        return None
    fixed = with_walls(level, keep, level.budget - len(keep))
    result = registry.solve(fixed, solver=solver, mode=SolveMode.MIN, ctx=ctx)
    if result.status != SolveStatus.OPTIMAL or result.bricks is None:
        return None
    found = tuple(sorted(set(keep) | set(result.bricks)))
    if len(found) > level.budget or not simulate(level, found).won:
        return None
    return found


def extension_target(level: Level, player: Sequence[Brick], never_useful: Iterable[Brick], ctx: SolveContext,
                     solver: str = EXTENSION_SOLVER) -> tuple[BrickSet | None, Brick | None]:
    """A winning set within the budget that extends the player's bricks, and the one brick of theirs it
    drops (None: it keeps them all).  Tries all of them, then every set without one brick (never-useful
    bricks first); ``(None, None)`` when none of those extends.  ``ctx`` bounds the tries (raises
    :class:`ai.kernel.context.SolveStopped`)."""
    mine = tuple(sorted(set(player)))
    found = extend_within_budget(level, mine, ctx, solver)
    if found is not None:
        return found, None
    never = set(never_useful)
    for dropped in sorted(mine, key=lambda b: (b not in never, b)):
        ctx.check()
        found = extend_within_budget(level, tuple(b for b in mine if b != dropped), ctx, solver)
        if found is not None:
            return found, dropped
    return None, None


__all__ = ["EXTENSION_SOLVER", "extend_within_budget", "extension_target", "with_walls"]
