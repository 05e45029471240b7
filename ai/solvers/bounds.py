"""Cheap facts the exact solvers use to stop ``min`` early: a lower bound, a first solution.

* :func:`bound_and_witness`: a lower bound, 0 when the level is won with no brick, else 2 when no single
  brick wins, else 1, with the winning brick (which is then the minimum).
  A brick changes a lemming's run only on a cell the run reads, so one brick can win only on a cell
  that every losing lemming's brick-free run reads (:func:`ai.solvers.reach.losing_reads`): those few
  one-brick sets are simulated at once (:func:`game.core.batch.simulate_brick_sets`).  The bound closes
  the gap without a model whenever the first solution has as many bricks (levels whose minimum is 2
  are common under physics where lemmings keep moving);
* :func:`first_bounds`: both, as the exact solvers start from them;
* :func:`search_primal`: what the exact search in mode ``min`` (iterative deepening on the brick count)
  settles within a few tenths of a second: the proved minimum, or else the bound of the budgets it
  exhausted and a first set from mode ``any`` (straight to the whole budget) in as much time again.  On
  the small levels most players meet mode ``min`` proves the minimum in a few milliseconds, where mode
  ``any`` alone often wandered to a set of 4-6 bricks (so a model had to close the gap); on levels whose
  minimum is far above what the search can exhaust (many lemmings, 14-18 bricks) the set of mode ``any``
  is still the upper bound the models descend from.

>>> from game.core.level import Level
>>> from ai.kernel.context import SolveContext
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> ctx = SolveContext.create()
>>> bound_and_witness(level, ctx), search_primal(level, ctx, 1.0)
((1, ((1, 2),)), Primal(bricks=((1, 2),), bound=1.0, searched=True))
>>> bound_and_witness(Level.from_rows(["> . .T", "XX.X.XX"], frames=9, budget=2), ctx)
(2, None)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ai.kernel.base import BrickSet, SolveMode, SolveStatus
from ai.kernel.context import SolveContext
from ai.solvers.base import won_without_bricks
from ai.solvers.reach import losing_reads
from ai.solvers.search import SearchSolver
from game.core.batch import simulate_brick_sets
from game.core.level import Level


#: Levels with more lemming steps than this (frames x lemmings) stop the bound at 1: reading the
#: brick-free runs' cells is a Python loop over every step.
ONE_BRICK_STEPS = 20_000


def bound_and_witness(level: Level, ctx: SolveContext) -> tuple[int, BrickSet | None]:
    """A proved lower bound on the fewest bricks that win ``level`` (0 when it is won without bricks, 2 when
    no single brick wins, else 1) and, when it is met, a winning set of that many bricks (``()`` or the
    winning brick; ``None`` when the bound is 2 or the single bricks were not tried)."""
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


@dataclass(frozen=True)
class Primal:
    """What the search settled in its time: a winning set (the minimum when it has ``bound`` bricks) and a
    proved lower bound on the brick count (``inf`` when no set within the budget wins)."""

    bricks: BrickSet | None
    bound: float
    searched: bool = False  #: the search ran (so a set that meets the bound is the search's proof)

    @property
    def infeasible(self) -> bool:
        """No set within the budget wins."""
        return math.isinf(self.bound)


#: The message of a minimum the search proved before any model was built (the CLI prints it).
PROVED_BY_SEARCH = "proved by the exact search before a model was needed"


def first_bounds(level: Level, ctx: SolveContext, seconds: float) -> Primal:
    """Where the exact solvers start: the one-brick trials (:func:`bound_and_witness`) and, when they leave
    the minimum open, what the search settles in ``seconds`` (:func:`search_primal`; a bound it raises is
    reported to ``ctx``)."""
    lb, witness = bound_and_witness(level, ctx)
    if witness is not None:
        return Primal(witness, float(lb))
    primal = search_primal(level, ctx, seconds)
    if primal.bound <= lb:
        return Primal(primal.bricks, float(lb), primal.searched)
    if not primal.infeasible:
        ctx.report("bound raised", best_bound=int(primal.bound))
    return primal


def search_primal(level: Level, ctx: SolveContext, seconds: float) -> Primal:
    """The exact search in mode ``min`` within ``seconds``: its minimum; else the budgets it exhausted
    and a set from mode ``any`` within ``seconds`` more, if it finds one (``Primal(None, 0.0)`` when
    ``seconds`` is 0)."""
    if seconds <= 0:
        return Primal(None, 0.0)
    quiet = replace(ctx.child(time_limit=seconds, solver="search"), progress=None)
    found = SearchSolver().solve_in(level, SolveMode.MIN, quiet)
    ctx.check()
    if found.status == SolveStatus.OPTIMAL and found.bricks is not None:
        return Primal(found.bricks, float(len(found.bricks)), True)
    if found.status == SolveStatus.INFEASIBLE:
        return Primal(None, math.inf, True)
    bound = found.stats.best_bound or 0.0
    quiet = replace(ctx.child(time_limit=seconds, solver="search"), progress=None)
    found = SearchSolver().solve_in(level, SolveMode.ANY, quiet)
    ctx.check()
    return Primal(found.bricks, bound, True)
