"""Cheap facts the exact solvers use to stop ``min`` early: a lower bound, a first solution.

* :func:`lower_bound`: 0 when the level is won with no brick, else 1 (the brick-free run is a
  single simulation; every exact solver already runs it as a shortcut, here it also closes the
  gap: a first solution with one brick is the minimum, no model has to prove it);
* :func:`search_primal`: a first winning set from the exact search in mode ``any``, within a few
  tenths of a second (``None`` when it finds none in that time).

>>> from game.level import Level
>>> from ai.context import SolveContext
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> ctx = SolveContext.create()
>>> lower_bound(level, ctx), search_primal(level, ctx, 1.0)
(1, ((1, 2),))
"""

from __future__ import annotations

from dataclasses import replace

from ai.base import BrickSet, SolveMode
from ai.context import SolveContext
from game.level import Level


def lower_bound(level: Level, ctx: SolveContext) -> int:
    """A proved lower bound on the fewest bricks that win ``level``: 1 when the brick-free run loses, else 0."""
    from ai.solvers.base import won_without_bricks

    return 0 if won_without_bricks(level, ctx) else 1


def search_primal(level: Level, ctx: SolveContext, seconds: float) -> BrickSet | None:
    """A winning brick set from the exact search in mode ``any`` within ``seconds`` (or ``None``)."""
    if seconds <= 0:
        return None
    from ai.solvers.search import SearchSolver

    quiet = replace(ctx.child(time_limit=seconds, solver="search"), progress=None)
    found = SearchSolver().solve_in(level, SolveMode.ANY, quiet)
    ctx.check()
    return found.bricks
