"""Cheap facts the exact solvers use to stop ``min`` early: a lower bound, a first solution.

* :func:`bound_and_witness`: a lower bound, 0 when the level is won with no brick, else 2 when no single
  brick wins, else 1, with the winning brick (which is then the minimum).
  A brick changes a lemming's run only on a cell the run reads, so one brick can win only on a cell
  that every losing lemming's brick-free run reads (:func:`ai.reach.losing_reads`): those few
  one-brick sets are simulated at once (:func:`game.batch.simulate_brick_sets`).  The bound closes
  the gap without a model whenever the first solution has as many bricks (levels whose minimum is 2
  are common under physics where lemmings keep moving);
* :func:`search_primal`: a first winning set from the exact search in mode ``any``, within a few
  tenths of a second (``None`` when it finds none in that time).

>>> from game.level import Level
>>> from ai.context import SolveContext
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> ctx = SolveContext.create()
>>> bound_and_witness(level, ctx), search_primal(level, ctx, 1.0)
((1, ((1, 2),)), ((1, 2),))
>>> bound_and_witness(Level.from_rows(["> . .T", "XX.X.XX"], frames=9, budget=2), ctx)
(2, None)
"""

from __future__ import annotations

from dataclasses import replace

from ai.base import BrickSet, SolveMode
from ai.context import SolveContext
from game.level import Level


#: Levels with more lemming steps than this (frames x lemmings) stop the bound at 1: reading the
#: brick-free runs' cells is a Python loop over every step.
ONE_BRICK_STEPS = 20_000


def bound_and_witness(level: Level, ctx: SolveContext) -> tuple[int, BrickSet | None]:
    """A proved lower bound on the fewest bricks that win ``level`` (0 when it is won without bricks, 2 when
    no single brick wins, else 1) and, when it is met, a winning set of that many bricks (``()`` or the
    winning brick; ``None`` when the bound is 2 or the single bricks were not tried)."""
    from ai.reach import losing_reads
    from ai.solvers.base import won_without_bricks
    from game.batch import simulate_brick_sets

    if won_without_bricks(level, ctx):
        return 0, ()
    if level.budget < 1 or level.frames * len(level.lemmings) > ONE_BRICK_STEPS:
        return 1, None
    reads = losing_reads(level, ())
    ctx.check()
    cells = sorted(set.intersection(*(set(r) for r in reads))) if reads else []
    if cells:
        won = simulate_brick_sets(level, [(cell,) for cell in cells], check=False).won
        if won.any():
            return 1, (cells[int(won.argmax())],)
    return 2, None


def search_primal(level: Level, ctx: SolveContext, seconds: float) -> BrickSet | None:
    """A winning brick set from the exact search in mode ``any`` within ``seconds`` (or ``None``)."""
    if seconds <= 0:
        return None
    from ai.solvers.search import SearchSolver

    quiet = replace(ctx.child(time_limit=seconds, solver="search"), progress=None)
    found = SearchSolver().solve_in(level, SolveMode.ANY, quiet)
    ctx.check()
    return found.bricks
