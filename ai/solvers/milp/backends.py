"""The MILP and LP backends: a model loaded into a solver, rows over its variables added between solves.

* **HiGHS** (the default) through SciPy (:func:`scipy.optimize.milp`): the sparse model is handed over in
  one call at each solve (HiGHS starts each MILP solve afresh anyway);
* **CBC** (the research notes' choice) and **SCIP** through OR-Tools' ``pywraplp``, and **GLOP** or **CLP**
  for the LP relaxation: the model is handed to ``model_builder`` in one call
  (``fill_model_from_sparse_data``), exported to a proto and loaded.

A solve gets the context's remaining time as the backend's time limit.  SCIP and GLOP can be
interrupted in place: the context's stop-watcher does it.  HiGHS, CBC and CLP cannot (nor do they
release the GIL), so :class:`ai.solvers.milp.solver.MilpSolver` runs them in a child process when the
caller can cancel.

>>> import scipy.sparse
>>> from ai.solvers.milp.model import MilpModel
>>> model = MilpModel(np.zeros(2), np.ones(2), np.ones(2), np.array([1.0]), np.array([np.inf]),
...                   scipy_sparse.csr_matrix(np.ones((1, 2))), [(0, 0), (0, 1)], [])   # min b0 + b1, b0 + b1 >= 1
>>> for name in ("highs", "cbc"):
...     backend = load_backend(model, name, integer=True)
...     first = backend.solve(SolveContext.create())
...     row = backend.add_row([0, 1], 2.0, np.inf)                    # now both
...     print(name, first.status.value, backend.solve(SolveContext.create()).values.tolist())
highs optimal [1.0, 1.0]
cbc optimal [1.0, 1.0]
"""

from __future__ import annotations

import contextlib
import enum
import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np
import numpy.typing as npt
from ai.kernel.libraries import model_builder as mb, pywraplp, scipy_optimize, scipy_sparse
from ai.kernel.context import SolveContext, SolveStopped, StopReason
from ai.solvers.milp.model import MilpModel

FloatArray = npt.NDArray[np.float64]

#: MILP backends by name: HiGHS through SciPy, the others by their pywraplp solver id.
MIP_BACKENDS = {"cbc": "CBC", "scip": "SCIP", "highs": "HIGHS"}
#: LP backends by name (pywraplp solver ids).
LP_BACKENDS = {"glop": "GLOP", "clp": "CLP"}
#: Backends whose solve can be interrupted in place.
INTERRUPTIBLE = {"SCIP", "GLOP"}


class BackendStatus(enum.Enum):
    """How one backend solve ended."""

    OPTIMAL = "optimal"        #: the values are an optimum
    FEASIBLE = "feasible"      #: the time limit, with a solution in hand
    INFEASIBLE = "infeasible"  #: proved: no solution


@dataclass
class BackendOutcome:
    """Status and variable values of one backend solve."""

    status: BackendStatus
    values: FloatArray | None = None


class Backend(ABC):
    """A model loaded into one solver; rows (all coefficients 1) added and relaxed between solves."""

    name: str  #: the solver id: HIGHS, CBC, SCIP, GLOP or CLP

    @abstractmethod
    def add_row(self, columns: Iterable[int], lower: float, upper: float) -> int:
        """A row ``lower <= Σ x[columns] <= upper``; returns its handle for :meth:`set_row`."""

    @abstractmethod
    def set_row(self, row: int, lower: float, upper: float) -> None:
        """New bounds for an added row (``-inf, inf``: the row no longer binds)."""

    @abstractmethod
    def solve(self, ctx: SolveContext, *, feasibility: bool = False) -> BackendOutcome:
        """Solve within ``ctx`` (its deadline; its cancel events when the backend is interruptible);
        ``feasibility``: any solution will do (no objective: the solver stops at the first one).

        Raises :class:`ai.kernel.context.SolveStopped` when stopped before a solution or a proof.
        """


class HighsBackend(Backend):
    """HiGHS through :func:`scipy.optimize.milp` (integer brick variables; the others continuous)."""

    name = "HIGHS"

    def __init__(self, model: MilpModel, *, integer: bool = True) -> None:
        self.model = model
        self.integrality = np.zeros(len(model.objective))
        if integer:
            self.integrality[: model.n_bricks] = 1
        self.rows: list[tuple[list[int], float, float]] = []

    def add_row(self, columns: Iterable[int], lower: float, upper: float) -> int:
        self.rows.append((list(columns), lower, upper))
        return len(self.rows) - 1

    def set_row(self, row: int, lower: float, upper: float) -> None:
        self.rows[row] = (self.rows[row][0], lower, upper)

    def solve(self, ctx: SolveContext, *, feasibility: bool = False) -> BackendOutcome:
        ctx.check()
        m = self.model
        matrix: Any = m.matrix
        lower, upper = m.row_lower, m.row_upper
        live = [(cols, lo, hi) for cols, lo, hi in self.rows if lo > -math.inf or hi < math.inf]
        if live:
            extra = scipy_sparse.csr_matrix(
                (np.ones(sum(len(cols) for cols, _, _ in live)),
                 (np.repeat(np.arange(len(live)), [len(cols) for cols, _, _ in live]),
                  np.concatenate([np.asarray(cols, dtype=np.int64) for cols, _, _ in live]))),
                shape=(len(live), len(m.objective)))
            matrix = scipy_sparse.vstack([matrix, extra], format="csr")
            lower = np.concatenate([lower, [lo for _, lo, _ in live]])
            upper = np.concatenate([upper, [hi for _, _, hi in live]])
        options: dict[str, Any] = {}
        remaining = ctx.remaining()
        if remaining is not None:
            options["time_limit"] = max(remaining, 0.001)
        constraints = scipy_optimize.LinearConstraint(matrix, lower, upper) if matrix.shape[0] else None
        objective = np.zeros_like(m.objective) if feasibility else m.objective
        res = scipy_optimize.milp(objective, integrality=self.integrality, bounds=scipy_optimize.Bounds(m.lower, m.upper),
                   constraints=constraints, options=options)
        if res.status == 0:
            return BackendOutcome(BackendStatus.OPTIMAL, np.asarray(res.x, dtype=np.float64))
        if res.status == 2:
            return BackendOutcome(BackendStatus.INFEASIBLE)
        if res.status == 1 and res.x is not None:
            return BackendOutcome(BackendStatus.FEASIBLE, np.asarray(res.x, dtype=np.float64))
        if res.status == 1:
            raise SolveStopped(ctx.stop_reason() or StopReason.TIMEOUT)
        raise RuntimeError(f"HiGHS ended with status {res.status}: {res.message}")


class PywraplpBackend(Backend):
    """CBC, SCIP, GLOP or CLP through OR-Tools' ``pywraplp``."""

    def __init__(self, model: MilpModel, name: str, *, integer: bool) -> None:
        builder = mb.Model()  # type: ignore[no-untyped-call]  # (untyped in OR-Tools' stubs)
        builder.helper.fill_model_from_sparse_data(  # the stubs mistype numpy arrays as ndarray[float64]
            model.lower, model.upper, model.objective, model.row_lower, model.row_upper,  # type: ignore[arg-type]
            model.matrix,
        )
        if integer:
            for i in range(model.n_bricks):
                builder.helper.set_var_integrality(i, True)
        solver = pywraplp.Solver.CreateSolver(name)
        if solver is None:
            raise RuntimeError(f"OR-Tools has no {name} backend here")
        solver.SuppressOutput()
        error = solver.LoadModelFromProto(builder.export_to_proto())
        if error:
            raise RuntimeError(f"cannot load the model into {name}: {error}")
        self.name, self.solver = name, solver
        self.variables = solver.variables()
        self.n_bricks, self.costs = model.n_bricks, model.objective[: model.n_bricks]
        self.rows: list[Any] = []

    def add_row(self, columns: Iterable[int], lower: float, upper: float) -> int:
        row = self.solver.Constraint(_finite(lower, self.solver), _finite(upper, self.solver))
        for i in columns:
            row.SetCoefficient(self.variables[i], 1)
        self.rows.append(row)
        return len(self.rows) - 1

    def set_row(self, row: int, lower: float, upper: float) -> None:
        self.rows[row].SetBounds(_finite(lower, self.solver), _finite(upper, self.solver))

    def solve(self, ctx: SolveContext, *, feasibility: bool = False) -> BackendOutcome:
        ctx.check()
        remaining = ctx.remaining()
        if remaining is not None:
            self.solver.SetTimeLimit(max(1, int(remaining * 1000)))
        objective = self.solver.Objective()
        for i in range(self.n_bricks):
            objective.SetCoefficient(self.variables[i], 0.0 if feasibility else float(self.costs[i]))
        interruptible = self.name in INTERRUPTIBLE
        with ctx.watch(self.solver.InterruptSolve) if interruptible else contextlib.nullcontext():
            status = int(self.solver.Solve())
        if status == pywraplp.Solver.INFEASIBLE:
            return BackendOutcome(BackendStatus.INFEASIBLE)
        if status in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
            values = np.array([v.solution_value() for v in self.variables])
            return BackendOutcome(BackendStatus.OPTIMAL if status == pywraplp.Solver.OPTIMAL
                                  else BackendStatus.FEASIBLE, values)
        if status in (pywraplp.Solver.UNBOUNDED, pywraplp.Solver.MODEL_INVALID):
            raise RuntimeError(f"{self.name} ended with status {status}")
        raise SolveStopped(ctx.stop_reason() or StopReason.TIMEOUT)  # its time limit, or the stop-watcher


def _finite(value: float, solver: Any) -> float:
    """``value`` with infinities as the pywraplp solver's own."""
    return value if math.isfinite(value) else math.copysign(solver.infinity(), value)


def load_backend(model: MilpModel, name: str, *, integer: bool) -> Backend:
    """``model`` loaded into the backend ``name`` (a key of :data:`MIP_BACKENDS` or :data:`LP_BACKENDS`);
    ``integer``: the brick variables are integer (else the LP relaxation)."""
    solver_id = MIP_BACKENDS.get(name) or LP_BACKENDS.get(name)
    if solver_id is None:
        raise ValueError(f"unknown backend {name!r}")
    if solver_id == "HIGHS":
        return HighsBackend(model, integer=integer)
    return PywraplpBackend(model, solver_id, integer=integer)


__all__ = ["INTERRUPTIBLE", "LP_BACKENDS", "MIP_BACKENDS", "Backend", "BackendOutcome", "BackendStatus",
           "HighsBackend", "PywraplpBackend", "load_backend"]
