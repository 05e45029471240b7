"""CP-SAT's ``min`` mode: the fewest bricks, proved, by a sequence of capped feasibility solves.

:func:`minimise` (used by :class:`ai.solvers.cpsat.CpSatSolver`):

1. (:func:`ai.solvers.bounds.first_bounds`) a lower bound ``lb`` (:func:`ai.solvers.bounds.bound_and_witness`:
   0, 1, or 2 when no single brick wins) and a first solution ``S``: the winning brick when one wins, else the search's minimum when it
   finishes within ``primal_seconds`` (:func:`ai.solvers.bounds.search_primal`; a search stopped there
   still raises ``lb`` to the budgets it exhausted, and ``S`` is then its first set in mode ``any``); when
   ``|S| = lb`` the minimum is proved and no model is built;
2. **ascending**: caps ``k = lb, lb+1, ...`` up to ``lb +`` :data:`ASCEND_GAP` when there is no ``S``,
   up to ``|S| - 1`` when the gap ``|S| - lb`` is at most :data:`ASCEND_GAP`, else the cap ``lb`` alone
   (one probe); each infeasible cap raises the bound, the first feasible one is the minimum.  Small caps
   are strongly constrained, so CP-SAT settles them fast, whereas a solve under a loose cap may take
   seconds even with ``S`` as hint (a restless level whose search found 6 bricks and whose minimum is
   2: caps 5, 4, 3 took 1.6-1.9 s each, caps 1 and 2 under 0.15 s; ascending through every small cap
   instead cost pack levels whose minimum is 5-6 a third more time).  Each cap gets its own model over
   the bounded scope of :mod:`ai.solvers.climb` while one is given (the runs that meet at most that many
   bricks), then the full model;
3. then, when the ascent ended below the minimum, **descending** from ``S`` (or from a feasibility
   solve with the whole budget when there is no ``S``): caps ``|S| - 1, ...`` with the best set as
   hint, until infeasible or down to ``lb``.

The full model is built lazily (``build(None)``), and its cap is reset to the budget at the end (for ``all``; a
bounded model keeps its cap, which holds every set of the minimum's size).

>>> from game.core.level import Level
>>> from ai.kernel.base import SolveMode
>>> from ai.solvers.cpsat import CpSatSolver
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> CpSatSolver(primal_seconds=0).solve_in(level, SolveMode.MIN, SolveContext.create()).describe()[:18]
'optimal: 1 brick, '
"""

from __future__ import annotations

import math
from typing import Any, Callable, NamedTuple, Protocol

from ai.kernel.libraries import cp_model
from ai.kernel.base import BrickSet, SolveStatus
from ai.kernel.context import SolveContext, SolveStopped, StopReason
from ai.solvers.base import Outcome, Partial
from ai.solvers.reach_bounded import BoundedReach
from ai.solvers.bounds import PROVED_BY_SEARCH, first_bounds
from ai.solvers.climb import BoundedScopes
from game.core.level import Brick, Level

#: Largest gap between the first solution and the lower bound for which the caps ascend.
ASCEND_GAP = 2


class CappedModel(Protocol):
    """What :func:`minimise` needs of a CP-SAT model (:class:`ai.solvers.cpsat.CpSatModel`)."""

    level: Level
    model: cp_model.CpModel

    def set_cap(self, limit: int) -> None:
        """At most ``limit`` bricks."""

    def hint(self, bricks: BrickSet) -> None:
        """Suggest a brick set."""

    def bricks_of(self, values: cp_model.CpSolver) -> tuple[Brick, ...]:
        """The brick set of the current solution."""


Runner = Callable[[Any, SolveContext], tuple[Any, "cp_model.CpSolver"]]
"""Solves a model under a context: ``(status, solver)``."""


def _undecided(ctx: SolveContext, status: Any) -> SolveStopped:
    if status == cp_model.MODEL_INVALID:
        raise RuntimeError("CP-SAT rejected the model as invalid")
    return SolveStopped(ctx.stop_reason() or StopReason.TIMEOUT)


class _Ascent(NamedTuple):
    """Where the ascent stopped: the bound, the minimum when a cap was feasible, the models, the last solver."""

    lb: int
    found: BrickSet | None
    m: CappedModel | None
    full: CappedModel | None
    solver: cp_model.CpSolver | None


def minimise(level: Level, build: Callable[[BoundedReach | None], Any], run: Runner, ctx: SolveContext,
             partial: Partial, primal_seconds: float, scopes: BoundedScopes | None = None
             ) -> tuple[Outcome, Any, cp_model.CpSolver | None]:
    """The proved minimum of ``level`` (see the module docstring): ``(outcome, model or None, last solver)``.

    ``build(None)`` is the full model, ``build(scope)`` the model over a bounded scope, which the ascent
    takes for each cap that ``scopes`` gives one (:mod:`ai.solvers.climb`).
    The outcome is OPTIMAL or INFEASIBLE (or :class:`ai.kernel.context.SolveStopped` is raised).
    """
    first = first_bounds(level, ctx, primal_seconds)
    partial.bound(first.bound)
    if first.infeasible:
        return Outcome(SolveStatus.INFEASIBLE, complete=True, best_bound=math.inf), None, None
    lb, best, message = int(first.bound), first.bricks, PROVED_BY_SEARCH if first.searched else ""
    if best is not None:
        partial.found(best)
        ctx.report("first solution", best_bricks=len(best))
        if len(best) <= lb:
            partial.bound(float(len(best)))
            ctx.report("optimum proved", best_bricks=len(best), best_bound=len(best))
            return Outcome(SolveStatus.OPTIMAL, solutions=[best], best_bound=float(len(best)),
                           message=message), None, None
    if best is None:
        top = min(level.budget, lb + ASCEND_GAP)
    else:  # a small gap is closed by ascending; a large one gets one probe at the bound, then the descent
        top = len(best) - 1 if len(best) - lb <= ASCEND_GAP else lb
    lb, found, m, full, solver = _ascend(build, run, ctx, partial, scopes, lb, top)
    if found is not None:  # the first feasible cap of the ascent is the minimum
        assert m is not None
        if m is full:
            m.set_cap(level.budget)  # (a bounded model keeps its cap: it holds the sets of at most that many)
        partial.bound(float(len(found)))
        ctx.report("optimum proved", best_bricks=len(found), best_bound=len(found))
        return Outcome(SolveStatus.OPTIMAL, solutions=[found], best_bound=float(len(found))), m, solver
    return _descend(level, full if full is not None else build(None), run, ctx, partial, lb, best, solver)


def _ascend(build: Callable[[BoundedReach | None], Any], run: Runner, ctx: SolveContext, partial: Partial,
            scopes: BoundedScopes | None, lb: int, top: int) -> _Ascent:
    """Caps ``lb, lb + 1, ...`` up to ``top``: each infeasible one raises the bound, the first feasible one
    is the minimum (a bounded scope's model while ``scopes`` gives one, then the full model)."""
    full: CappedModel | None = None
    m: CappedModel | None = None
    solver: cp_model.CpSolver | None = None
    while lb <= top:
        scope = scopes.at(lb) if scopes is not None and full is None else None
        if scope is not None and not scope.feasible:
            status = cp_model.INFEASIBLE
        else:
            if scope is not None:
                m = build(scope)
            else:
                if full is None:
                    full = build(None)
                m = full
            m.set_cap(lb)
            status, solver = run(m, ctx)
        if status == cp_model.INFEASIBLE:
            lb += 1
            partial.bound(float(lb))
            ctx.report("bound raised", best_bound=lb)
            continue
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise _undecided(ctx, status)
        assert m is not None and solver is not None
        candidate = m.bricks_of(solver)
        if scope is not None and scope.relaxed and scopes is not None and scopes.widen(candidate):
            continue  # it loses a lemming the scope did not cover: the same cap again, with that lemming
        partial.found(candidate)
        return _Ascent(lb, candidate, m, full, solver)
    return _Ascent(lb, None, m, full, solver)


def _descend(level: Level, m: CappedModel, run: Runner, ctx: SolveContext, partial: Partial, lb: int,
             best: BrickSet | None, solver: cp_model.CpSolver | None
             ) -> tuple[Outcome, Any, cp_model.CpSolver | None]:
    """Caps ``|best| - 1, ...`` on the full model ``m`` down to ``lb`` (``best`` from a feasibility solve
    with the whole budget when there is none), until infeasible."""
    if best is None:  # nothing up to lb + ASCEND_GAP: a feasibility solve with the whole budget
        m.set_cap(level.budget)
        if lb > level.budget:
            return Outcome(SolveStatus.INFEASIBLE, complete=True, best_bound=float("inf")), m, solver
        status, solver = run(m, ctx)
        if status == cp_model.INFEASIBLE:
            return Outcome(SolveStatus.INFEASIBLE, complete=True, best_bound=float("inf")), m, solver
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise _undecided(ctx, status)
        best = m.bricks_of(solver)
        partial.found(best)
    while len(best) > lb:
        m.set_cap(len(best) - 1)
        m.hint(best)
        status, solver = run(m, ctx)
        if status == cp_model.INFEASIBLE:
            break
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise _undecided(ctx, status)
        best = m.bricks_of(solver)
        partial.found(best)
        ctx.report("better solution", best_bricks=len(best))
    m.set_cap(level.budget)
    partial.bound(float(len(best)))
    ctx.report("optimum proved", best_bricks=len(best), best_bound=len(best))
    return Outcome(SolveStatus.OPTIMAL, solutions=[best], best_bound=float(len(best))), m, solver
