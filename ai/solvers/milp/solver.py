"""The MILP solver: a formulation (:mod:`ai.solvers.milp.formulations`) solved by a backend.

The model is built from numpy index arrays (:mod:`ai.solvers.milp.model`) in one of three
formulations (``path``, the default, ``flow`` or ``product``), loaded into a backend
(:mod:`ai.solvers.milp.backends`: HiGHS through SciPy, CBC or SCIP through pywraplp), or relaxed to an
LP (``lp=True``, :mod:`ai.solvers.milp.relaxation`: GLOP or CLP) whose fractional brick and
lemming densities come back in ``SolveResult.relaxed``.

Modes ``min`` and ``all`` first climb through small caps on *bounded* models: for ``k`` from the proved
lower bound up, the model over the states of runs that meet at most ``k`` bricks
(:mod:`ai.solvers.reach_bounded`) under ``Σ b ≤ k``; the first cap with a solution holds the minimum.  Such a
model is a fraction of the full one (a quarter of the per-frame model under physics whose targets do not
stop lemmings, at ``k = 2`` on 16x24 maps); once the bounded pass would not be much smaller than the full
model, the full model takes over from the bound reached.

Mode ``all`` finds the minimum, then repeatedly solves with ``Σ b = min`` and a cut
``Σ_{i∈S} b_i ≤ min − 1`` for every solution ``S`` found, until infeasible.

The solve context reaches the model building (checked between groups of rows) and the backend
(its time limit; SCIP and GLOP are interrupted by the context's stop-watcher).  CBC, HiGHS and
CLP can neither be interrupted nor release the GIL, so when the caller can cancel (the context
has a cancel event) the whole solve runs in a child process (:func:`ai.kernel.process.run_in_child`, which
also works inside the UI's worker child) that is killed on cancel.

>>> from game.core.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> MilpSolver(backend="scip").solve_in(level, SolveMode.ALL, SolveContext.create()).solutions
(((1, 2),),)
"""

from __future__ import annotations

import copy
import math
import threading
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt

from ai.kernel.base import BrickSet, SolveMode, SolveResult, SolveStatus
from ai.kernel.context import SolveContext, SolveStopped, StopReason
from ai.kernel.process import JobCancelled, JobFailed, run_in_child
from ai.solvers.reach import ReachInfo, reach_for
from ai.solvers.base import Outcome, Partial, SolverBase
from ai.solvers.bounds import PROVED_BY_SEARCH, first_bounds
from ai.solvers.climb import CLIMBS, BoundedScopes
from ai.solvers.milp.backends import INTERRUPTIBLE, LP_BACKENDS, MIP_BACKENDS, Backend, BackendStatus, load_backend
from ai.solvers.milp.formulations import FORMULATIONS, build_milp
from ai.solvers.milp.model import MilpModel
from ai.solvers.milp.relaxation import solve_lp
from game.core.level import Level

#: A child process still running this long after the deadline is killed (its result is lost).
CHILD_GRACE = 0.15

__all__ = ["INTERRUPTIBLE", "LP_BACKENDS", "MIP_BACKENDS", "MilpSolver", "build_milp", "load_backend"]


class MilpSolver(SolverBase):
    """Exact MILP solver (``backend`` cbc, scip or highs) or LP relaxation (``lp=True``).

    ``lp_backend`` is ``glop`` or ``clp``.  ``primal_seconds``: time given to the exact
    search (:func:`ai.solvers.bounds.search_primal`) before the MILP: its minimum settles the level
    (in mode ``all`` the MILP then only has to list the sets of that size), a stopped search raises the
    lower bound.  0 (the default) = the MILP alone, its own models doing all the work.  ``bounded``: which caps get a bounded model,
    :data:`ai.solvers.climb.CLIMBS` (``auto``: while it pays; ``off``: the full model only).
    """

    name = "milp"
    exact = True

    def __init__(self, *, backend: str = "highs", lp: bool = False, lp_backend: str = "glop",
                 primal_seconds: float = 0.0, formulation: str | None = None, bounded: str = "auto") -> None:
        if backend not in MIP_BACKENDS:
            raise ValueError(f"unknown MILP backend {backend!r}; choose from {', '.join(MIP_BACKENDS)}")
        if lp_backend not in LP_BACKENDS:
            raise ValueError(f"unknown LP backend {lp_backend!r}; choose from {', '.join(LP_BACKENDS)}")
        if formulation is None:
            formulation = "product" if lp else "path"
        if formulation not in FORMULATIONS or (lp and formulation == "path"):
            raise ValueError(f"unknown MILP formulation {formulation!r}; choose from {', '.join(FORMULATIONS)}"
                             + (" (the LP relaxation needs flow or product)" if lp else ""))
        if bounded not in CLIMBS:
            raise ValueError(f"unknown bounded choice {bounded!r}; choose from {', '.join(CLIMBS)}")
        self.formulation = formulation
        self.bounded = bounded
        self.backend = backend
        self.lp = lp
        self.lp_backend = lp_backend
        self.primal_seconds = primal_seconds
        self.exact = not lp
        self.shortcuts = not lp  # the relaxation is asked for its densities, even on a level won without bricks

    def _shortcut(self, level: Level, mode: SolveMode, ctx: SolveContext) -> SolveResult | None:
        """The base's shortcuts, here or (when the caller can cancel) in the child process."""
        if ctx.cancel_events:
            return None  # the child answers them, where a cancel can kill the reachability analysis
        return super()._shortcut(level, mode, ctx)

    def core(self, level: Level, mode: SolveMode, ctx: SolveContext, partial: Partial) -> Outcome:
        """Solve here, or (when the caller can cancel) in a child process that is killed on cancel."""
        if ctx.cancel_events:
            return self._solve_in_child(level, mode, ctx)
        return self._solve_here(level, mode, ctx, partial)

    def _solve_here(self, level: Level, mode: SolveMode, ctx: SolveContext, partial: Partial) -> Outcome:
        """The solve itself, in this process."""
        info = reach_for(level, ctx)
        if not info.feasible:  # (only the relaxation gets here: the base answers this for the MILP)
            return Outcome(SolveStatus.INFEASIBLE, complete=True, best_bound=math.inf,
                           message="some lemming cannot reach a target in time, whatever the bricks")
        if self.lp:
            model = build_milp(level, info, formulation=self.formulation, ctx=ctx)
            ctx.report(f"model built: {len(model.objective)} variables")
            return solve_lp(level, model, self.lp_backend, ctx)
        first = first_bounds(level, ctx, self.primal_seconds)  # a winning brick when one wins: the minimum
        if first.infeasible:
            return Outcome(SolveStatus.INFEASIBLE, complete=True, best_bound=math.inf,
                           message=f"no set of at most {level.budget} bricks wins")
        partial.bound(first.bound)
        lb, known, message = int(first.bound), first.bricks, PROVED_BY_SEARCH if first.searched else ""
        proved = known is not None and len(known) <= lb
        if proved and mode == SolveMode.MIN:
            assert known is not None
            partial.bound(float(len(known)))
            return Outcome(SolveStatus.OPTIMAL, solutions=[known], best_bound=float(len(known)), message=message)
        if mode != SolveMode.ANY and self.bounded != "off":  # (mode all with a proved minimum: its enumeration)
            climbed = self._climb(level, info, mode, ctx, partial, lb, known)
            if isinstance(climbed, Outcome):
                return climbed
            lb = climbed
        run = self._run(level, build_milp(level, info, formulation=self.formulation, ctx=ctx), mode, ctx, partial)
        return run.run(known, lb)

    def _run(self, level: Level, model: MilpModel, mode: SolveMode, ctx: SolveContext, partial: Partial) -> MipRun:
        """``model`` loaded into the backend, ready to solve."""
        ctx.report(f"model built: {len(model.objective)} variables")
        backend = load_backend(model, self.backend, integer=True)
        ctx.check()
        return MipRun(level, model, backend, mode, ctx, partial)

    def _climb(self, level: Level, info: ReachInfo, mode: SolveMode, ctx: SolveContext, partial: Partial,
               lower: int, known: BrickSet | None) -> Outcome | int:
        """Caps ``k = lower, lower + 1, ...`` on bounded models (see the module docstring): the outcome once
        a cap holds a solution (or none within the budget), else the lower bound proved when a bounded
        model would no longer be much smaller than the full one."""
        scopes = BoundedScopes(level, info, per_frame=self.formulation != "path" or not level.physics.targets_stop,
                               ctx=ctx, choice=self.bounded, relax=mode == SolveMode.MIN)
        top = level.budget if known is None else len(known)
        for k in range(lower, top + 1):
            if known is not None and k == len(known) and mode != SolveMode.ALL:
                return Outcome(SolveStatus.OPTIMAL, solutions=[known], best_bound=float(k))
            scope = scopes.at(k)
            while scope is not None and scope.feasible:
                run = self._run(level, build_milp(level, scope, formulation=self.formulation, ctx=ctx), mode, ctx,
                                partial)
                if scope.relaxed:  # its set wins the lemmings watched: replayed, it may lose others
                    candidate = run.first_under(k)
                    if candidate is None:
                        break
                    if not scopes.widen(candidate):
                        return run.finish(candidate)
                    scope = scopes.at(k)
                    continue
                found = run.run(known, k) if known is not None and k == len(known) else run.within(k)
                if found is not None:
                    return found
                break
            if scope is None:
                return k
            partial.bound(float(k + 1))
            ctx.report(f"no solution of {k} bricks", best_bound=float(k + 1))
        return Outcome(SolveStatus.INFEASIBLE, complete=True, best_bound=math.inf,
                       message=f"no set of at most {level.budget} bricks wins")

    def _solve_in_child(self, level: Level, mode: SolveMode, ctx: SolveContext) -> Outcome:
        """Run :meth:`solve_in` in a child process (:func:`ai.kernel.process.run_in_child`, which also works
        inside the UI's worker child); kill it on cancel, or :data:`CHILD_GRACE` s past the deadline."""
        here = copy.copy(self)

        def job(report: Any) -> SolveResult:
            # ctx's deadline holds in the child; its cancel request kills the child (below), so the child's
            # context has no cancel event (and so solves in its own process)
            return here.solve_in(level, mode, replace(ctx.child(), cancel_events=(), progress=report))

        kill = threading.Event()
        late = replace(ctx, deadline=None if ctx.deadline is None else ctx.deadline + CHILD_GRACE, progress=None)
        try:
            with late.watch(kill.set):
                result: SolveResult = run_in_child(job, kill, ctx.progress, nice=0, preload=False)
        except JobCancelled:
            raise SolveStopped(ctx.stop_reason() or StopReason.TIMEOUT) from None
        except JobFailed as exc:
            return Outcome(SolveStatus.UNKNOWN, message=f"MILP process: {exc}")
        ctx.report(result.describe())
        return outcome_of(result)


def outcome_of(result: SolveResult) -> Outcome:
    """The :class:`Outcome` that gives ``result`` back (for a result computed elsewhere)."""
    stats = result.stats
    return Outcome(result.status, solutions=result.solutions, complete=result.complete,
                   best_bound=stats.best_bound, nodes=stats.nodes, variables=stats.variables,
                   constraints=stats.constraints, message=result.message, relaxed=result.relaxed,
                   extra=dict(stats.extra))


#: The smallest proved lower bound at which :meth:`MipRun.run` first solves under the cap ``Σ b ≤ bound``
#: (2: the single-brick check ran and found no winner).
PROBE_FROM = 2


class MipRun:
    """One MILP solve: minimum, then (mode ``all``) enumeration with no-good cuts."""

    def __init__(self, level: Level, model: MilpModel, backend: Backend, mode: SolveMode, ctx: SolveContext,
                 partial: Partial) -> None:
        self.level, self.model, self.backend = level, model, backend
        self.mode, self.ctx, self.partial = mode, ctx, partial
        self.bricks = range(model.n_bricks)  #: the brick variables' columns
        self.values: npt.NDArray[np.float64] | None = None

    def size(self) -> dict[str, Any]:
        """Model size and backend for the :class:`Outcome`."""
        return {"variables": len(self.model.objective), "constraints": len(self.model.row_lower),
                "extra": {"backend": self.backend.name.lower()}}

    def current(self) -> BrickSet:
        """The brick set of the current MILP solution."""
        assert self.values is not None
        return tuple(cell for cell, v in zip(self.model.brick_cells, self.values) if v > 0.5)

    def solve_once(self, *, feasibility: bool = False) -> BackendStatus:
        """One backend solve (``feasibility``: any solution is a minimum, the cap being a proved bound or
        the count being fixed); keeps the values (raises :class:`SolveStopped` when stopped first, and when
        the caller cancelled while it ran)."""
        outcome = self.backend.solve(self.ctx, feasibility=feasibility)
        self.values = outcome.values
        if self.ctx.cancelled():
            raise SolveStopped(StopReason.CANCELLED)
        return outcome.status

    def run(self, known: BrickSet | None, lower: int = 0) -> Outcome:
        """Minimise (below ``known``, a winning set, when given: proved optimal at once when it has no
        more than ``lower`` bricks, a proved bound), then enumerate in mode ``all``.  Without a known set
        and with a bound of :data:`PROBE_FROM` or more, one solve under the cap ``Σ b ≤ lower`` comes
        first: a strongly constrained model HiGHS settles fast (the restless benchmark levels of minimum 2:
        median 3.0 -> 1.0 s); a solution there is the minimum."""
        if known is not None and self.mode == SolveMode.ANY:
            return Outcome(SolveStatus.FEASIBLE, solutions=[known], **self.size())
        if known is not None and len(known) <= lower:
            return self.finish(known)
        if known is None and lower >= PROBE_FROM and self.mode != SolveMode.ANY:
            probe = self.backend.add_row(self.bricks, -math.inf, lower)
            status = self.solve_once(feasibility=True)
            self.backend.set_row(probe, -math.inf, math.inf)
            if status != BackendStatus.INFEASIBLE:  # a solution under the cap: as few bricks as the bound allows
                return self.finish(self.current())
        cap: int | None = None
        if known is not None:
            self.partial.found(known)
            if not known:  # the empty set wins: nothing can be smaller
                return self.finish(known)
            cap = self.backend.add_row(self.bricks, -math.inf, len(known) - 1)
        status = self.solve_once()
        if status == BackendStatus.INFEASIBLE:
            if known is not None:  # nothing below the known solution: it is optimal
                assert cap is not None
                self.backend.set_row(cap, -math.inf, math.inf)
                return self.finish(known)
            return Outcome(SolveStatus.INFEASIBLE, complete=True, best_bound=math.inf, **self.size())
        if status != BackendStatus.OPTIMAL:  # the time limit, with a solution in hand
            return Outcome(SolveStatus.FEASIBLE, solutions=[self.current()], **self.size())
        if cap is not None:
            self.backend.set_row(cap, -math.inf, math.inf)
        return self.finish(self.current())

    def _under(self, cap: int) -> BackendStatus:
        """One feasibility solve with the row ``Σ b ≤ cap`` added."""
        self.backend.add_row(self.bricks, -math.inf, cap)
        return self.solve_once(feasibility=True)

    def first_under(self, cap: int) -> BrickSet | None:
        """A set of at most ``cap`` bricks that the model allows, or ``None`` when it allows none (found,
        not yet reported)."""
        return None if self._under(cap) == BackendStatus.INFEASIBLE else self.current()

    def within(self, cap: int) -> Outcome | None:
        """A set of ``cap`` bricks (and in mode ``all`` every one), or ``None`` when no set of at most ``cap``
        bricks wins; ``cap`` must be a proved lower bound (so any solution under it is a minimum)."""
        status = self._under(cap)
        if status == BackendStatus.INFEASIBLE:
            return None
        if status != BackendStatus.OPTIMAL:  # the time limit, with a solution in hand
            return Outcome(SolveStatus.FEASIBLE, solutions=[self.current()], **self.size())
        return self.finish(self.current())

    def finish(self, best: BrickSet) -> Outcome:
        """The proved optimum ``best``: the outcome, or (mode ``all``) the enumeration."""
        self.partial.found(best)
        self.partial.bound(float(len(best)))
        self.ctx.report("optimum proved", best_bricks=len(best))
        if self.mode != SolveMode.ALL:
            status = SolveStatus.FEASIBLE if self.mode == SolveMode.ANY else SolveStatus.OPTIMAL
            return Outcome(status, solutions=[best], best_bound=float(len(best)), **self.size())
        return self.enumerate(best)

    def enumerate(self, best: BrickSet) -> Outcome:
        """Every solution with ``len(best)`` bricks, by re-solving with no-good cuts."""
        k = len(best)
        self.backend.add_row(self.bricks, k, k)
        found = [best]
        complete = False
        index = {cell: i for i, cell in enumerate(self.model.brick_cells)}
        while True:
            self.backend.add_row([index[cell] for cell in found[-1]], -math.inf, k - 1)
            try:
                status = self.solve_once(feasibility=True)
            except SolveStopped as stop:
                if stop.reason is StopReason.CANCELLED:
                    raise
                break  # the time limit: the minimum is proved, the list may be incomplete
            if status == BackendStatus.INFEASIBLE:
                complete = True
                break
            found.append(self.current())
            self.partial.found(found[-1])
            self.ctx.report("solution found", best_bricks=k, solutions_found=len(found))
        message = "" if complete else (f"stopped at the time limit after {len(found)} optimal solution"
                                       f"{'' if len(found) == 1 else 's'}; the count is incomplete")
        return Outcome(SolveStatus.OPTIMAL, solutions=found, complete=complete, best_bound=float(k),
                       message=message, **self.size())
