"""The CP-SAT solver: the lemmings' dynamics as Boolean constraints, solved by OR-Tools.

Brick variables ``b[r, c]`` exist only on brickable cells that some live lemming state
reads (see :mod:`ai.solvers.reach`).  Two encodings of the runs are offered:

**time** (:class:`CpSatModel`), the state-space formulation of the design notes:
``x[k][t, r, c, d]`` = lemming ``k`` is at ``(r, c)`` facing ``d`` at frame ``t``, one
variable per *live* state and frame (a frame with a single live state uses the
constant 1).  Constraint groups, each in its own method:

* exactly one state per lemming and frame;
* transitions: per branch of the level's physics, ``x ∧ (its needed cells) → its move``,
  and ``x`` on a target → stay when targets stop lemmings (a successor that is not live
  is the constant 0, so the clause forbids the move);
* support (redundant): a state is occupied only if one of its predecessors is;
* free where occupied (redundant): a lemming never stands in a brick.

**path** (:class:`PathModel`, the default, N times smaller): one visit literal and one
frame variable per lemming state, edges that depend on the bricks (see its docstring).

Both share the budget ``Σ b ≤ B`` (CP-SAT's native linear cardinality) and the brick
objective.  Modes: ``min`` minimises ``Σ b``; ``any`` stops at the first solution;
``all`` solves ``min`` and then enumerates every assignment with ``Σ b = min``.  In both
encodings a brick assignment extends to exactly one full assignment, so the
enumeration yields each brick set once.

The transition clauses and path edges are built from the branches of the level's physics,
:attr:`game.core.physics_views.PhysicsViews.branches` (:func:`conditions`, :func:`predecessor`), and which cells are brick variables comes from the
gate map of :mod:`ai.solvers.gates`.  The solve context reaches the model building (checked
every :data:`CHECK_EVERY` states) and CP-SAT itself (its time limit, and ``stop_search`` from the
context's stop-watcher, :func:`run_solver`).

>>> from game.core.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> r = CpSatSolver().solve_in(level, SolveMode.ALL, SolveContext.create())
>>> r.status.value, r.solutions, r.complete
('optimal', (((1, 2),),), True)
"""

from __future__ import annotations

from typing import Any

from ai.kernel.libraries import cp_model
from ai.kernel.base import BrickSet, SolveMode, SolveStatus
from ai.kernel.context import SolveContext, SolveStopped, StopReason
from ai.kernel.cpsat_run import solution_callback, solve_under
from ai.solvers.cpsat_min import minimise
from ai.solvers.reach import analyse, reach_for
from ai.solvers.reach_bounded import BoundedReach, Scope
from ai.solvers.base import Outcome, Partial, SolverBase
from ai.solvers.climb import CLIMBS, BoundedScopes
from ai.solvers.cpsat_model import LARGE_MODEL, CpSatModel
from ai.solvers.cpsat_path import PathModel
from game.core.level import Level


#: The encodings :class:`CpSatSolver` offers.
ENCODINGS = {"time": CpSatModel, "path": PathModel}


def build_model(level: Level, info: Scope | None = None, *, redundant: bool = True,
                ctx: SolveContext | None = None, encoding: str = "path") -> CpSatModel:
    """The full model of ``level`` with its budget (no objective); ``ctx`` may stop the building
    (:class:`ai.kernel.context.SolveStopped`).  Where targets do not stop lemmings a winning run may pass a
    state twice, which the *path* encoding cannot express: such levels use the *time* encoding."""
    if not level.physics.targets_stop:
        encoding = "time"
    m = ENCODINGS[encoding](level, info or analyse(level, ctx), ctx=ctx)
    m.add_dynamics(redundant=redundant)
    m.add_budget(level.budget)
    return m


#: Below this many variables CP-SAT skips its probing and symmetry detection at the root: on the small
#: models of a capped solve they took a third of the time (drifter's bounded models 24 -> 14 ms, classic's
#: 4.9 -> 3.3 ms), while larger, harder models gain from them (pack level 040, 2,172 variables: 0.43 s with,
#: 0.63 s without).
SMALL_MODEL = 2000

#: CP-SAT's SAT inprocessing (vivification, subsumption between restarts) stays off: on these models it costs
#: more than it finds.  Solves of the bounded models (one worker, no presolve): climber 942 -> 191 ms for 34
#: models, classic 153 -> 38 ms for 31; suites, CP-SAT's model alone, mode ``min``: large2 36.8 s with one level
#: unproved at 30 s -> 17.6 s with all four proved, compartments 13.4 -> 9.3 s (pack level 030 1.4 -> 2.4 s the
#: one loss); as shipped, mode ``all``: compartments 35.4-36.5 s -> 29.8-30.4 s.
INPROCESSING = False


def run_solver(
    m: CpSatModel,
    ctx: SolveContext,
    *,
    workers: int = 1,
    enumerate_all: bool = False,
    callback: cp_model.CpSolverSolutionCallback | None = None,
    presolve: bool = True,
) -> tuple[Any, cp_model.CpSolver]:
    """Solve ``m.model`` within ``ctx`` (its deadline and cancel events).

    Returns (status, solver); a stop ends CP-SAT within a few milliseconds (status ``UNKNOWN``
    or ``FEASIBLE``) through the context's stop-watcher.
    """
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers = 1 if enumerate_all else workers
    params.cp_model_presolve = presolve
    size = len(m.model.proto.variables)
    if size < SMALL_MODEL or (presolve and size > LARGE_MODEL):
        # (on large models CP-SAT's presolve probing and symmetry detection take seconds)
        params.cp_model_probing_level = 0
        params.symmetry_level = 0
    params.use_sat_inprocessing = INPROCESSING
    if enumerate_all:
        params.enumerate_all_solutions = True
    return solve_under(solver, m.model, ctx, callback), solver


def stopped(ctx: SolveContext, status: Any) -> SolveStopped:
    """The stop behind an undecided CP-SAT ``status``: a cancel, or the time limit CP-SAT was given."""
    if status == cp_model.MODEL_INVALID:
        raise RuntimeError("CP-SAT rejected the model as invalid")
    return SolveStopped(ctx.stop_reason() or StopReason.TIMEOUT)


class CpSatSolver(SolverBase):
    """Exact solver on OR-Tools CP-SAT (see the module docstring for the model).

    Options: ``encoding`` (``path``, the compact default, or ``time``, one literal per
    state and frame), ``presolve`` (CP-SAT's presolve: off by default, it costs more than
    it saves here), ``primal_seconds`` (time given to the exact search, mode ``min``, before
    a model is built: its minimum settles the level, a stopped search raises the lower bound; 0 = CP-SAT
    alone),
    ``workers`` (CP-SAT search workers; 1 is fastest on these models),
    ``redundant`` (add the redundant support / free-cell clauses),
    ``fixed_search`` (branch on bricks, no-brick first; always on for large models),
    ``bounded`` (which caps of ``min`` get a model over a bounded scope, :data:`ai.solvers.climb.CLIMBS`).
    """

    name = "cpsat"
    exact = True

    def __init__(self, *, workers: int = 1, redundant: bool = True, fixed_search: bool = False,
                 encoding: str = "path", presolve: bool = False, primal_seconds: float = 0.2,
                 bounded: str = "auto") -> None:
        if encoding not in ENCODINGS:
            raise ValueError(f"unknown encoding {encoding!r}; choose from {', '.join(ENCODINGS)}")
        if bounded not in CLIMBS:
            raise ValueError(f"unknown bounded choice {bounded!r}; choose from {', '.join(CLIMBS)}")
        self.bounded = bounded
        self.workers = workers
        self.redundant = redundant
        self.fixed_search = fixed_search
        self.encoding = encoding
        self.presolve = presolve
        self.primal_seconds = primal_seconds

    def core(self, level: Level, mode: SolveMode, ctx: SolveContext, partial: Partial) -> Outcome:
        """Build the model (for ``min``/``all`` only when needed), then solve in ``mode`` (``all``: the
        minimum, :func:`ai.solvers.cpsat_min.minimise`, then the enumeration)."""
        def build(scope: BoundedReach | None = None) -> CpSatModel:
            m = build_model(level, scope or reach_for(level, ctx), redundant=self.redundant, ctx=ctx,
                            encoding=self.encoding)
            if self.fixed_search:
                m.add_search_order()
            ctx.report(f"model built: {len(m.bricks)} brick variables")
            return m

        if mode == SolveMode.ANY:
            return self._solve_any(build(), ctx, partial)
        scopes = None
        if self.bounded != "off":
            per_frame = self.encoding == "time" or not level.physics.targets_stop
            scopes = BoundedScopes(level, reach_for(level, ctx), per_frame=per_frame, ctx=ctx, choice=self.bounded,
                                   relax=mode == SolveMode.MIN)
        outcome, m, solver = minimise(level, build, self._run, ctx, partial, self.primal_seconds, scopes)
        if m is not None and solver is not None:
            outcome = self._outcome(outcome.status, m, solver, solutions=outcome.solutions,
                                    complete=outcome.complete, best_bound=outcome.best_bound)
        if mode == SolveMode.ALL and outcome.status == SolveStatus.OPTIMAL:
            if m is None:  # proved without a model: enumerate on the bounded scope of the minimum when it pays
                count = len(tuple(next(iter(outcome.solutions))))
                scope = scopes.at(count) if scopes is not None else None
                m = build(scope if scope is not None and scope.feasible else None)
            return self._enumerate(m, outcome, ctx, partial)
        return outcome

    # ------------------------------------------------------------------ modes
    def _run(self, m: CpSatModel, ctx: SolveContext, **options: Any) -> tuple[Any, cp_model.CpSolver]:
        return run_solver(m, ctx, workers=self.workers, presolve=self.presolve, **options)

    @staticmethod
    def _outcome(status: SolveStatus, m: CpSatModel, solver: cp_model.CpSolver, **fields: Any) -> Outcome:
        """An :class:`Outcome` with the model's size and the search's counters."""
        proto = m.model.proto
        try:
            branches, conflicts = int(solver.num_branches), int(solver.num_conflicts)
        except RuntimeError:  # stopped before the solve started
            branches = conflicts = 0
        return Outcome(status, variables=len(proto.variables), constraints=len(proto.constraints),
                       nodes=branches, extra={"conflicts": conflicts}, **fields)

    def _solve_any(self, m: CpSatModel, ctx: SolveContext, partial: Partial) -> Outcome:
        status, solver = self._run(m, ctx)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return self._outcome(SolveStatus.FEASIBLE, m, solver, solutions=[m.bricks_of(solver)])
        if status == cp_model.INFEASIBLE:
            return self._outcome(SolveStatus.INFEASIBLE, m, solver, complete=True)
        raise stopped(ctx, status)

    def _enumerate(self, m: CpSatModel, first: Outcome, ctx: SolveContext, partial: Partial) -> Outcome:
        """Every solution with the proved minimum count (``complete`` once CP-SAT has proved it)."""
        best = next(iter(first.solutions))
        count = len(tuple(best))
        m.model.clear_objective()  # type: ignore[no-untyped-call]  # (untyped in OR-Tools' stubs)
        m.add_exact_count(count)

        found: list[BrickSet] = []

        def on_solution(values: cp_model.CpSolverSolutionCallback) -> None:
            found.append(m.bricks_of(values))
            partial.found(found[-1])
            ctx.report("solution found", best_bricks=count, best_bound=count, solutions_found=len(found))

        status, solver = run_solver(m, ctx, enumerate_all=True, callback=solution_callback(on_solution),
                                    presolve=self.presolve)
        complete = status == cp_model.OPTIMAL and not ctx.cancelled()
        return self._outcome(SolveStatus.OPTIMAL, m, solver, solutions=[*found, best],
                             complete=complete, best_bound=float(count))
