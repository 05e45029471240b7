"""The MILP and LP backends behind OR-Tools' ``pywraplp``: loading a model, solving under a context.

The model is handed to ``model_builder`` in one call (``fill_model_from_sparse_data``), exported
to a proto and loaded into ``pywraplp``, which offers CBC (the research notes' choice), SCIP and
HiGHS for the MILP, and GLOP or CLP for the LP relaxation.

A solve gets the context's remaining time as the backend's time limit.  SCIP and GLOP can be
interrupted in place: the context's stop-watcher does it.  CBC, HiGHS and CLP cannot (nor do
they release the GIL), so :class:`ai.solvers.milp.solver.MilpSolver` runs them in a child
process when the caller can cancel.
"""

from __future__ import annotations

import contextlib

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from ortools.linear_solver import pywraplp  # type: ignore[attr-defined]  # (absent from OR-Tools' stubs)
from ortools.linear_solver.python import model_builder as mb

from ai.context import SolveContext, SolveStopped, StopReason
from ai.solvers.milp.model import MilpModel

#: Backend names accepted by :class:`ai.solvers.milp.solver.MilpSolver` and their pywraplp solver ids.
MIP_BACKENDS = {"cbc": "CBC", "scip": "SCIP", "highs": "HIGHS"}
LP_BACKENDS = {"glop": "GLOP", "clp": "CLP"}
#: Backends whose solve can be interrupted in place.
INTERRUPTIBLE = {"SCIP", "GLOP"}


def _pywraplp() -> Any:
    return pywraplp


def load_pywraplp(model: MilpModel, backend: str, *, integer: bool) -> Any:
    """A pywraplp solver holding ``model`` (via model_builder's sparse import and a proto)."""
    builder = mb.Model()  # type: ignore[no-untyped-call]  # (untyped in OR-Tools' stubs)
    builder.helper.fill_model_from_sparse_data(  # the stubs mistype numpy arrays as ndarray[float64]
        model.lower, model.upper, model.objective, model.row_lower, model.row_upper,  # type: ignore[arg-type]
        model.matrix,
    )
    if integer:
        for i in range(model.n_bricks):
            builder.helper.set_var_integrality(i, True)
    solver = _pywraplp().Solver.CreateSolver(backend)
    if solver is None:
        raise RuntimeError(f"OR-Tools has no {backend} backend here")
    solver.SuppressOutput()
    if backend == "HIGHS":
        solver.SetSolverSpecificParametersAsString("log_to_console=false")  # also hides the banner
    error = solver.LoadModelFromProto(builder.export_to_proto())
    if error:
        raise RuntimeError(f"cannot load the model into {backend}: {error}")
    return solver


@dataclass
class BackendOutcome:
    """Status (a pywraplp status code) and variable values of one backend solve."""

    status: int
    values: npt.NDArray[np.float64] | None = None

    @property
    def decided(self) -> bool:
        """True for a proved optimum or proved infeasibility."""
        pw = _pywraplp()
        return self.status in (pw.Solver.OPTIMAL, pw.Solver.INFEASIBLE)


def values_of(solver: Any) -> npt.NDArray[np.float64]:
    """Every variable's value in the current solution of a pywraplp solver."""
    return np.array([v.solution_value() for v in solver.variables()])


def solve_interruptibly(solver: Any, backend: str, ctx: SolveContext, cancel: Any = None) -> BackendOutcome:
    """Run the backend within ``ctx`` (its deadline; its cancel events, and ``cancel`` if given).

    Raises :class:`ai.context.SolveStopped` when the context stopped the solve before it was
    decided; an interruptible backend (:data:`INTERRUPTIBLE`) is stopped by the context's
    stop-watcher, the others run to their time limit.
    """
    if cancel is not None:
        ctx = ctx.child(cancel=cancel)
    ctx.check()
    pw = _pywraplp()
    remaining = ctx.remaining()
    if remaining is not None:
        solver.SetTimeLimit(max(1, int(remaining * 1000)))
    watch = ctx.watch(solver.InterruptSolve) if backend in INTERRUPTIBLE else contextlib.nullcontext()
    with watch:
        status = int(solver.Solve())
    outcome = BackendOutcome(status, values_of(solver) if status in (pw.Solver.OPTIMAL, pw.Solver.FEASIBLE) else None)
    if outcome.decided or outcome.values is not None:
        return outcome
    if status in (pw.Solver.UNBOUNDED, pw.Solver.MODEL_INVALID):
        raise RuntimeError(f"{backend} ended with status {status}")
    raise SolveStopped(ctx.stop_reason() or StopReason.TIMEOUT)  # its time limit, or the stop-watcher
