"""The MILP solver: the state-space dynamics linearised, built from numpy index arrays.

Three formulations (``MilpSolver(formulation=...)``, ``build_milp(formulation=...)``):

* ``path`` (the MILP default, :mod:`ai.solvers.milp.flow`): per lemming a unit flow over the
  graph of states ``(r, c, d)`` with brick-gated arcs, a deadline of ``N − 1`` moves and
  "every brick is read" cuts; about ``N`` times smaller than the others and its LP bound
  met the optimum on every benchmark level tried;
* ``flow`` (:mod:`ai.solvers.milp.flow`): the same gated flow, time-expanded over frames; its LP
  bound is the optimum on the original level (3, against 5/3 below);
* ``product`` (the LP-relaxation default, described here): the original per-frame model
  whose relaxation splits a lemming by a 2/3 brick as in the design notes.

Variables of ``product`` (only for live states and read cells, see :mod:`ai.reach`):

* ``b`` (binary): a brick on a read cell;
* ``x`` (continuous in [0, 1], integral at any integer ``b``): lemming occupancy of a live state;
* ``g = x·below`` (grounded) where the cell below may or may not be a brick;
* ``u = g·ahead`` (turning) where the cell ahead may or may not be a brick.

Each product ``a = p·q`` of 0/1 values is linearised as ``a ≤ p``, ``a ≤ q``,
``a ≥ p + q − 1``.  The mass of a state flows to ``fall = x − g``, ``walk = g − u`` and
``turn = u`` (or stays, on a target); each live state at frame ``t+1`` receives the sum
of its inflows, and all the mass must be on targets (live) at the last frame.  Flows
towards states that are not live are dropped, so they must be zero.

The matrix is assembled as coordinate triplets with numpy, handed to OR-Tools'
``model_builder`` in one call (``fill_model_from_sparse_data``), exported to a proto
and loaded into ``pywraplp``, which offers CBC (the research notes' choice), SCIP and
HiGHS for the MILP and GLOP or CLP for the LP relaxation (``lp=True``), whose
fractional brick and lemming densities come back in ``SolveResult.relaxed``.

Mode ``all`` finds the minimum, then repeatedly solves with ``Σ b = min`` and a cut
``Σ_{i∈S} b_i ≤ min − 1`` for every solution ``S`` found, until infeasible.

Cancellation: model assembly holds the GIL and CBC, HiGHS and CLP can neither be
interrupted nor release the GIL, so when a cancel event is given the whole solve runs
in a child process (:func:`ai.process.run_in_child`) that is killed when the event is set.

>>> from game.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> MilpSolver(backend="scip").solve(level, mode=SolveMode.ALL).solutions
(((1, 2),),)
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ai.base import BrickSet, ProgressCallback, RelaxedSolution, SolveMode, SolveResult, SolveStatus
from ai.reach import ReachInfo, analyse, losing_reads
from ai.solver_util import (
    Deadline,
    infeasible_by_reachability,
    is_set,
    make_result,
    report,
    stopped_status,
)
from game.level import Level

IntArray = npt.NDArray[np.int64]

#: Backend names accepted by :class:`MilpSolver` and their pywraplp solver ids.
MIP_BACKENDS = {"cbc": "CBC", "scip": "SCIP", "highs": "HIGHS"}
LP_BACKENDS = {"glop": "GLOP", "clp": "CLP"}
#: Backends whose solve can be interrupted in place.
INTERRUPTIBLE = {"SCIP", "GLOP"}


class _Triplets:
    """Growing coordinate lists of the constraint matrix plus row bounds."""

    def __init__(self) -> None:
        self.rows: list[IntArray] = []
        self.cols: list[IntArray] = []
        self.vals: list[npt.NDArray[np.float64]] = []
        self.lower: list[npt.NDArray[np.float64]] = []
        self.upper: list[npt.NDArray[np.float64]] = []
        self.count = 0

    def new_rows(self, n: int, lower: float, upper: float) -> IntArray:
        """Reserve ``n`` rows with the given bounds; returns their indices."""
        self.lower.append(np.full(n, lower))
        self.upper.append(np.full(n, upper))
        idx = np.arange(self.count, self.count + n, dtype=np.int64)
        self.count += n
        return idx

    def add(self, rows: IntArray, cols: IntArray, coef: float | npt.NDArray[np.float64]) -> None:
        """Add ``coef`` at ``(rows[i], cols[i])`` (entries with ``cols < 0`` mean 'zero', skipped)."""
        rows, cols = np.broadcast_arrays(np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64))
        vals = np.broadcast_to(np.asarray(coef, dtype=np.float64), rows.shape)
        keep = cols >= 0
        self.rows.append(rows[keep])
        self.cols.append(cols[keep])
        self.vals.append(vals[keep])


@dataclass
class MilpModel:
    """The assembled problem: bounds, objective, sparse matrix, and where things are."""

    lower: npt.NDArray[np.float64]
    upper: npt.NDArray[np.float64]
    objective: npt.NDArray[np.float64]
    row_lower: npt.NDArray[np.float64]
    row_upper: npt.NDArray[np.float64]
    matrix: object  #: scipy.sparse.csr_matrix
    brick_cells: list[tuple[int, int]]  #: cell of brick variable i (variables 0..len-1)
    states: list[tuple[IntArray, IntArray]]  #: per lemming: (state coords (n, 4) t,r,c,ch; var indices)
    #: per lemming: (state coords, sparse map from the variables to each state's occupancy), when
    #: occupancy is not a variable (the flow formulation); ``states`` is then empty
    occupancy: list[tuple[IntArray, object]] | None = None

    @property
    def n_bricks(self) -> int:
        """Number of brick variables (the first ones)."""
        return len(self.brick_cells)


class _Builder:
    """Assembles :class:`MilpModel` from a level and its reachability analysis."""

    def __init__(self, level: Level, info: ReachInfo, *, cut_depth: int = 0) -> None:
        self.cut_depth = cut_depth
        self.level = level
        self.info = info
        self.tri = _Triplets()
        self.brick_cells = list(info.read_cells)
        self.n_vars = len(self.brick_cells)
        h, w = level.height, level.width
        # cell code on the padded map: -2 wall, -1 free, >= 0 brick variable
        self.code = np.full((h + 2, w + 2), -2, dtype=np.int64)
        self.code[1:-1, 1:-1] = np.where(level.wall_map, -2, -1)
        for i, (r, c) in enumerate(self.brick_cells):
            self.code[r + 1, c + 1] = i
        self.states: list[tuple[IntArray, IntArray]] = []

    def new_vars(self, n: int) -> IntArray:
        """Indices of ``n`` fresh variables."""
        idx = np.arange(self.n_vars, self.n_vars + n, dtype=np.int64)
        self.n_vars += n
        return idx

    def assemble(self, lower: npt.NDArray[np.float64], upper: npt.NDArray[np.float64],
                 states: list[tuple[IntArray, IntArray]],
                 occupancy: list[tuple[IntArray, object]] | None = None) -> MilpModel:
        """The model from the rows added so far, with the brick-count objective."""
        import scipy.sparse

        objective = np.zeros(self.n_vars)
        objective[: len(self.brick_cells)] = 1.0
        tri = self.tri
        matrix = scipy.sparse.csr_matrix(
            (np.concatenate(tri.vals), (np.concatenate(tri.rows), np.concatenate(tri.cols))),
            shape=(tri.count, self.n_vars),
        )
        matrix.sum_duplicates()
        return MilpModel(lower, upper, objective, np.concatenate(tri.lower), np.concatenate(tri.upper),
                         matrix, self.brick_cells, states, occupancy=occupancy)

    def build(self) -> MilpModel:
        """Every lemming's dynamics, the budget and the objective."""
        for reach in self.info.lemmings:
            self.add_lemming(reach.live)
        self.add_free_where_occupied()
        self.add_run_cuts(self.cut_depth)
        self.add_budget()
        lower = np.zeros(self.n_vars)
        upper = np.ones(self.n_vars)
        for coords, var in self.states:
            first = coords[:, 0] == 0
            lower[var[first]] = 1.0  # the start state (the only live state at frame 0)
        return self.assemble(lower, upper, self.states)

    def add_lemming(self, live: npt.NDArray[np.bool_]) -> None:
        """Variables and constraints of one lemming."""
        n, h, w, _ = live.shape
        coords = np.argwhere(live)
        var = self.new_vars(len(coords))
        self.states.append((coords, var))
        shape = (n + 1, h + 2, w + 2, 2)
        later = coords[:, 0] > 0  # frame 0 holds only the start, fixed by its bounds
        rows = self.tri.new_rows(int(later.sum()), 0.0, 0.0)  # conservation row of each later state
        row_of = np.full(shape, -1, dtype=np.int64)
        lc = coords[later]
        row_of[lc[:, 0], lc[:, 1] + 1, lc[:, 2] + 1, lc[:, 3]] = rows
        self.tri.add(rows, var[later], 1.0)
        self.add_flows(coords, var, row_of)
        final = coords[:, 0] == n - 1
        row = self.tri.new_rows(1, 1.0, 1.0)
        self.tri.add(np.full(int(final.sum()), row[0]), var[final], 1.0)

    def add_products(self, p: IntArray, q: IntArray) -> IntArray:
        """New variables ``a = p·q`` for 0/1 variables ``p``, ``q`` (linearised); returns ``a``."""
        a = self.new_vars(len(p))
        le_p = self.tri.new_rows(len(p), -math.inf, 0.0)
        self.tri.add(le_p, a, 1.0)
        self.tri.add(le_p, p, -1.0)
        le_q = self.tri.new_rows(len(p), -math.inf, 0.0)
        self.tri.add(le_q, a, 1.0)
        self.tri.add(le_q, q, -1.0)
        ge = self.tri.new_rows(len(p), -1.0, math.inf)
        self.tri.add(ge, a, 1.0)
        self.tri.add(ge, p, -1.0)
        self.tri.add(ge, q, -1.0)
        return a

    def add_flows(self, coords: IntArray, var: IntArray, row_of: IntArray) -> None:
        """Outflows of every live state at frames < N-1 into the conservation rows of frame t+1."""
        t, r, c, ch = (coords[:, k] for k in range(4))
        pr, pc = r + 1, c + 1
        d = np.where(ch == 1, 1, -1)
        going = t < self.level.frames - 1
        on_target = self.level.target_map[r, c]
        stay = going & on_target
        self.tri.add(row_of[t[stay] + 1, pr[stay], pc[stay], ch[stay]], var[stay], -1.0)
        m = going & ~on_target
        t, pr, pc, ch, d, x = t[m], pr[m], pc[m], ch[m], d[m], var[m]
        below, ahead = self.code[pr + 1, pc], self.code[pr, pc + d]
        grounded = self.expr_product(x, below)
        turning = self.expr_product_expr(grounded, ahead)
        fall_row = row_of[t + 1, pr + 1, pc, ch]
        walk_row = row_of[t + 1, pr, pc + d, ch]
        turn_row = row_of[t + 1, pr, pc, 1 - ch]
        self.add_flow(fall_row, [(x, 1.0), (grounded, -1.0)])
        self.add_flow(walk_row, [(grounded, 1.0), (turning, -1.0)])
        self.add_flow(turn_row, [(turning, 1.0)])

    def expr_product(self, x: IntArray, cell: IntArray) -> IntArray:
        """Per state, the variable equal to ``x·blocked(cell)``: ``x`` (wall), none (-1, free) or new."""
        out = np.where(cell == -2, x, -1)
        is_var = cell >= 0
        out[is_var] = self.add_products(x[is_var], cell[is_var])
        return out

    def expr_product_expr(self, g: IntArray, cell: IntArray) -> IntArray:
        """Like :meth:`expr_product` for ``g`` that may be absent (-1 = 0)."""
        present = g >= 0
        out = np.full(len(g), -1, dtype=np.int64)
        out[present] = self.expr_product(g[present], cell[present])
        return out

    def add_flow(self, dest_row: IntArray, terms: list[tuple[IntArray, float]]) -> None:
        """Subtract a flow (a signed sum of variables) from the destination's conservation row."""
        live = dest_row >= 0
        for cols, sign in terms:
            self.tri.add(dest_row[live], cols[live], -sign)

    def add_free_where_occupied(self) -> None:
        """Valid cut: ``Σ_k Σ_d x[k, t, r, c, d] / L + b[r, c] ≤ 1`` (no lemming inside a brick)."""
        n_lem = len(self.states)
        keys: dict[tuple[int, int, int], int] = {}
        cols, rows = [], []
        for coords, var in self.states:
            cell = self.code[coords[:, 1] + 1, coords[:, 2] + 1]
            on_var = cell >= 0
            for (t, r, c), v, b in zip(coords[on_var][:, :3].tolist(), var[on_var].tolist(), cell[on_var].tolist()):
                key = (t, r, c)
                if key not in keys:
                    keys[key] = len(keys)
                    rows.append(keys[key])
                    cols.append(b)
                rows.append(keys[key])
                cols.append(v)
        if not keys:
            return
        base = self.tri.new_rows(len(keys), -math.inf, 1.0)
        r_arr, c_arr = np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
        is_brick = c_arr < len(self.brick_cells)
        coef = np.where(is_brick, 1.0, 1.0 / n_lem)
        self.tri.add(base[r_arr], c_arr, coef)

    def add_run_cuts(self, depth: int) -> None:
        """Valid cuts from losing runs: ``Σ_{c∉P} b_c − Σ_{c∈P} b_c ≥ 1 − |P|`` over read cells.

        ``P`` ranges over the brick-free set and (depth 2) one brick on each cell the
        brick-free runs read; see :func:`ai.reach.losing_reads`.
        """
        index = {cell: i for i, cell in enumerate(self.brick_cells)}
        frontier: list[tuple[tuple[int, int], ...]] = [()]
        for _ in range(depth):
            nxt: list[tuple[tuple[int, int], ...]] = []
            for bricks in frontier:
                for reads in losing_reads(self.level, bricks):
                    cells = [c for c in reads if c in index]
                    placed = [c for c in cells if c in bricks]
                    row = self.tri.new_rows(1, 1.0 - len(placed), math.inf)
                    cols = np.array([index[c] for c in cells], dtype=np.int64)
                    coef = np.array([-1.0 if c in bricks else 1.0 for c in cells])
                    self.tri.add(np.full(len(cols), row[0]), cols, coef)
                    nxt += [tuple(sorted((*bricks, c))) for c in cells if c not in bricks]
            frontier = sorted(set(nxt))

    def add_budget(self) -> None:
        """``Σ b ≤ B``."""
        n = len(self.brick_cells)
        if n:
            row = self.tri.new_rows(1, -math.inf, float(self.level.budget))
            self.tri.add(np.full(n, row[0]), np.arange(n), 1.0)


#: The formulations :class:`MilpSolver` offers (see :mod:`ai.solvers.milp.flow` for ``flow``).
FORMULATIONS = ("path", "flow", "product")


def build_milp(level: Level, info: ReachInfo | None = None, *, cut_depth: int = 0,
               formulation: str = "path") -> MilpModel:
    """The model of ``level`` in ``formulation`` (``path``, the default, or ``flow``, see
    :mod:`ai.solvers.milp.flow`, or the per-frame ``product`` linearisation of the module
    docstring), with run cuts to ``cut_depth``."""
    if formulation not in FORMULATIONS:
        raise ValueError(f"unknown MILP formulation {formulation!r}; choose from {', '.join(FORMULATIONS)}")
    if formulation in ("flow", "path"):
        from ai.solvers.milp.flow import build_flow, build_path

        return (build_flow if formulation == "flow" else build_path)(level, info, cut_depth=cut_depth)
    return _Builder(level, info or analyse(level), cut_depth=cut_depth).build()


def load_pywraplp(model: MilpModel, backend: str, *, integer: bool) -> object:
    """A pywraplp solver holding ``model`` (via model_builder's sparse import and a proto)."""
    from ortools.linear_solver import pywraplp  # type: ignore[attr-defined]  # (absent from OR-Tools' stubs)
    from ortools.linear_solver.python import model_builder as mb

    builder = mb.Model()  # type: ignore[no-untyped-call]  # (untyped in OR-Tools' stubs)
    builder.helper.fill_model_from_sparse_data(  # the stubs mistype numpy arrays as ndarray[float64]
        model.lower, model.upper, model.objective, model.row_lower, model.row_upper,  # type: ignore[arg-type]
        model.matrix,
    )
    if integer:
        for i in range(model.n_bricks):
            builder.helper.set_var_integrality(i, True)
    solver = pywraplp.Solver.CreateSolver(backend)
    if solver is None:
        raise RuntimeError(f"OR-Tools has no {backend} backend here")
    solver.SuppressOutput()
    if backend == "HIGHS":
        solver.SetSolverSpecificParametersAsString("log_to_console=false")  # also hides the banner
    error = solver.LoadModelFromProto(builder.export_to_proto())
    if error:
        raise RuntimeError(f"cannot load the model into {backend}: {error}")
    return solver


class Outcome:
    """Status and variable values of one backend solve (``status`` None: cancelled)."""

    def __init__(self, status: int | None, values: npt.NDArray[np.float64] | None = None) -> None:
        self.status = status
        self.values = values


def _values(solver: object) -> npt.NDArray[np.float64]:
    """Every variable's value in the current solution of a pywraplp solver."""
    return np.array([v.solution_value() for v in solver.variables()])  # type: ignore[attr-defined]


def solve_interruptibly(solver: object, backend: str, deadline: Deadline, cancel: threading.Event | None) -> Outcome:
    """Run the backend within the deadline; the outcome's status is ``None`` if cancelled first.

    With a cancel event the backend runs in a thread; SCIP and GLOP are interrupted in
    place, the others are abandoned (:class:`MilpSolver` avoids that by solving in a
    child process when it is given a cancel event).
    """
    from ortools.linear_solver import pywraplp  # type: ignore[attr-defined]  # (absent from OR-Tools' stubs)

    remaining = deadline.remaining()
    millis = None if remaining is None else max(1, int(remaining * 1000))
    if millis is not None:
        solver.SetTimeLimit(millis)  # type: ignore[attr-defined]
    if cancel is None:
        status = int(solver.Solve())  # type: ignore[attr-defined]
    else:
        box: list[int] = []
        worker = threading.Thread(target=lambda: box.append(solver.Solve()), daemon=True)  # type: ignore[attr-defined]
        worker.start()
        while worker.is_alive():
            if cancel.wait(0.01):
                if backend in INTERRUPTIBLE:
                    solver.InterruptSolve()  # type: ignore[attr-defined]
                    worker.join(0.08)
                return Outcome(None)
        status = box[0]
    has_values = status in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE)
    return Outcome(status, _values(solver) if has_values else None)


class MilpSolver:
    """Exact MILP solver (``backend`` cbc, scip or highs) or LP relaxation (``lp=True``).

    ``lp_backend`` is ``glop`` or ``clp``.  ``primal_seconds``: time given to the exact
    search for a first solution ``S``; the MILP then only has to show that nothing
    smaller than ``|S|`` wins (a cap row ``Σ b ≤ |S| − 1``), which the LP bound often
    settles at the root.  0 (the default) = the MILP alone; on the large suite the cap
    did not pay off, the LP itself being the bottleneck.
    """

    name = "milp"
    exact = True

    def __init__(self, *, backend: str = "highs", lp: bool = False, lp_backend: str = "glop",
                 primal_seconds: float = 0.0, formulation: str | None = None) -> None:
        if backend not in MIP_BACKENDS:
            raise ValueError(f"unknown MILP backend {backend!r}; choose from {', '.join(MIP_BACKENDS)}")
        if lp_backend not in LP_BACKENDS:
            raise ValueError(f"unknown LP backend {lp_backend!r}; choose from {', '.join(LP_BACKENDS)}")
        if formulation is None:
            formulation = "product" if lp else "path"
        if formulation not in FORMULATIONS or (lp and formulation == "path"):
            raise ValueError(f"unknown MILP formulation {formulation!r}; choose from {', '.join(FORMULATIONS)}"
                             + (" (the LP relaxation needs flow or product)" if lp else ""))
        self.formulation = formulation
        self.backend = backend
        self.lp = lp
        self.lp_backend = lp_backend
        self.primal_seconds = primal_seconds
        self.exact = not lp

    def solve(
        self,
        level: Level,
        *,
        mode: SolveMode = SolveMode.MIN,
        time_limit: float | None = None,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> SolveResult:
        """Solve ``level``; see :class:`ai.base.Solver`.

        With a ``cancel`` event the whole solve (model assembly, which holds the GIL,
        and backends that cannot be interrupted) runs in a forked child process that is
        killed when the event is set; progress is then reported only at the end.
        """
        mode = SolveMode(mode)
        if cancel is None:
            return self._solve(level, mode, Deadline(time_limit), progress)
        return self._solve_in_child(level, mode, Deadline(time_limit), progress, cancel)

    def _solve_in_child(self, level: Level, mode: SolveMode, deadline: Deadline,
                        progress: ProgressCallback | None, cancel: threading.Event) -> SolveResult:
        """Run :meth:`_solve` in a child process (:func:`ai.process.run_in_child`, also inside the
        UI's worker child); kill it on cancel."""
        from dataclasses import replace

        from ai.process import JobCancelled, JobFailed, run_in_child

        remaining = deadline.remaining()
        try:
            result: SolveResult = run_in_child(
                lambda child_report: self._solve(level, mode, Deadline(remaining), child_report),
                cancel, progress, nice=0)
        except JobCancelled:
            return make_result(self.name, mode, stopped_status(cancel), deadline, message="cancelled")
        except JobFailed as exc:
            return make_result(self.name, mode, SolveStatus.UNKNOWN, deadline, message=f"MILP process: {exc}")
        report(progress, self.name, deadline, result.describe())
        return replace(result, stats=replace(result.stats, seconds=deadline.elapsed()))

    def _solve(self, level: Level, mode: SolveMode, deadline: Deadline,
               progress: ProgressCallback | None, cancel: threading.Event | None = None) -> SolveResult:
        """The solve itself, in this process."""
        info = analyse(level)
        if not info.feasible:
            return infeasible_by_reachability(self.name, mode, deadline)
        model = build_milp(level, info, formulation=self.formulation)
        report(progress, self.name, deadline, f"model built: {len(model.objective)} variables")
        if self.lp:
            return self._solve_lp(level, model, mode, deadline, cancel)
        backend = MIP_BACKENDS[self.backend]
        solver = load_pywraplp(model, backend, integer=True)
        run = _MipRun(self.name, level, model, solver, backend, mode, deadline, progress, cancel)
        run.primal = self._primal(level, deadline, cancel)
        return run.run()

    def _primal(self, level: Level, deadline: Deadline, cancel: threading.Event | None) -> BrickSet | None:
        """A first solution from the exact search in mode ``any`` (capped in time), or None."""
        if self.primal_seconds <= 0:
            return None
        from ai.solvers.search import SearchSolver

        remaining = deadline.remaining()
        limit = self.primal_seconds if remaining is None else min(self.primal_seconds, remaining)
        return SearchSolver().solve(level, mode=SolveMode.ANY, time_limit=limit, cancel=cancel).bricks

    def _solve_lp(self, level: Level, model: MilpModel, mode: SolveMode, deadline: Deadline,
                  cancel: threading.Event | None) -> SolveResult:
        """The LP relaxation: fractional densities in ``relaxed``."""
        from ortools.linear_solver import pywraplp  # type: ignore[attr-defined]  # (absent from OR-Tools' stubs)

        backend = LP_BACKENDS[self.lp_backend]
        solver = load_pywraplp(model, backend, integer=False)
        outcome = solve_interruptibly(solver, backend, deadline, cancel)
        status = outcome.status
        stats: dict[str, Any] = {"variables": len(model.objective), "constraints": len(model.row_lower)}
        if status is None:
            return make_result(self.name, mode, stopped_status(cancel), deadline, **stats)
        if status == pywraplp.Solver.INFEASIBLE:
            return make_result(self.name, mode, SolveStatus.INFEASIBLE, deadline, complete=True, **stats)
        if status != pywraplp.Solver.OPTIMAL:
            return make_result(self.name, mode, stopped_status(cancel), deadline, **stats)
        assert outcome.values is not None
        relaxed = _relaxed(level, model, outcome.values)
        result = make_result(self.name, mode, SolveStatus.UNKNOWN, deadline,
                             message=f"LP relaxation: at least {relaxed.objective:.3f} bricks",
                             best_bound=relaxed.objective, **stats)
        from dataclasses import replace

        return replace(result, relaxed=relaxed)


def _relaxed(level: Level, model: MilpModel, values: npt.NDArray[np.float64]) -> RelaxedSolution:
    """Brick densities and the LP's own lemming densities as a :class:`RelaxedSolution`."""
    obst = np.zeros((level.height, level.width))
    for i, (r, c) in enumerate(model.brick_cells):
        obst[r, c] = values[i]
    occ = np.zeros((level.frames, level.height, level.width, 2))
    for coords, mapping in model.occupancy or ():
        density = mapping.dot(values)  # type: ignore[attr-defined]
        np.add.at(occ, (coords[:, 0], coords[:, 1], coords[:, 2], coords[:, 3]), density)
    if model.occupancy is not None and level.frames == 1:  # no arcs: each lemming at its start
        for lem in level.lemmings:
            occ[0, lem.row, lem.col, 1 if lem.direction == 1 else 0] += 1.0
    for coords, var in model.states:
        np.add.at(occ, (coords[:, 0], coords[:, 1], coords[:, 2], coords[:, 3]), values[var])
    return RelaxedSolution(obstacles=obst, occupancy=occ, objective=float(values[: model.n_bricks].sum()))


class _MipRun:
    """One MILP solve: minimum, then (mode ``all``) enumeration with no-good cuts."""

    def __init__(self, name: str, level: Level, model: MilpModel, solver: object, backend: str,
                 mode: SolveMode, deadline: Deadline, progress: ProgressCallback | None,
                 cancel: threading.Event | None) -> None:
        self.name, self.level, self.model, self.solver = name, level, model, solver
        self.backend, self.mode, self.deadline = backend, mode, deadline
        self.progress, self.cancel = progress, cancel
        self.bricks = solver.variables()[: model.n_bricks]  # type: ignore[attr-defined]
        self.values: npt.NDArray[np.float64] | None = None
        self.primal: BrickSet | None = None  #: a known winning brick set (upper bound)

    def stats(self) -> dict[str, Any]:
        """Model size for :class:`SolveStats`."""
        return {"variables": len(self.model.objective), "constraints": len(self.model.row_lower),
                "extra": {"backend": self.backend.lower()}}

    def current(self) -> BrickSet:
        """The brick set of the current MILP solution."""
        assert self.values is not None
        return tuple(cell for cell, v in zip(self.model.brick_cells, self.values) if v > 0.5)

    def solve_once(self) -> int | None:
        """One backend solve; keeps the values; ``None`` when cancelled."""
        outcome = solve_interruptibly(self.solver, self.backend, self.deadline, self.cancel)
        self.values = outcome.values
        return outcome.status

    def run(self) -> SolveResult:
        """Minimise (below a known solution when one is given), then enumerate in mode ``all``."""
        from ortools.linear_solver import pywraplp  # type: ignore[attr-defined]  # (absent from OR-Tools' stubs)

        known = self.primal
        if known is not None and self.mode == SolveMode.ANY:
            return make_result(self.name, self.mode, SolveStatus.FEASIBLE, self.deadline, solutions=[known],
                               **self.stats())
        cap = None
        if known is not None:
            if not known:  # the empty set wins: nothing can be smaller
                return self.finish(known)
            cap = self.solver.Constraint(-self.solver.infinity(), len(known) - 1)  # type: ignore[attr-defined]
            for v in self.bricks:
                cap.SetCoefficient(v, 1)
        status = self.solve_once()
        if status is None or is_set(self.cancel):
            return make_result(self.name, self.mode, SolveStatus.CANCELLED, self.deadline, **self.stats())
        if status == pywraplp.Solver.INFEASIBLE:
            if known is not None:  # nothing below the known solution: it is optimal
                cap.SetUb(self.solver.infinity())  # type: ignore[union-attr, attr-defined]
                return self.finish(known)
            return make_result(self.name, self.mode, SolveStatus.INFEASIBLE, self.deadline, complete=True,
                               **self.stats())
        if status == pywraplp.Solver.FEASIBLE:
            return make_result(self.name, self.mode, SolveStatus.FEASIBLE, self.deadline,
                               solutions=[self.current()], **self.stats())
        if status != pywraplp.Solver.OPTIMAL:
            return make_result(self.name, self.mode, stopped_status(self.cancel), self.deadline,
                               solutions=[known] if known is not None else [], **self.stats())
        if cap is not None:
            cap.SetUb(self.solver.infinity())  # type: ignore[attr-defined]
        return self.finish(self.current())

    def finish(self, best: BrickSet) -> SolveResult:
        """The proved optimum ``best``: the result, or (mode ``all``) the enumeration."""
        report(self.progress, self.name, self.deadline, "optimum proved", best_bricks=len(best))
        if self.mode != SolveMode.ALL:
            status_out = SolveStatus.FEASIBLE if self.mode == SolveMode.ANY else SolveStatus.OPTIMAL
            return make_result(self.name, self.mode, status_out, self.deadline, solutions=[best],
                               best_bound=float(len(best)), **self.stats())
        return self.enumerate(best)

    def enumerate(self, best: BrickSet) -> SolveResult:
        """Every solution with ``len(best)`` bricks, by re-solving with no-good cuts."""
        from ortools.linear_solver import pywraplp  # type: ignore[attr-defined]  # (absent from OR-Tools' stubs)

        k = len(best)
        solver = self.solver
        fix = solver.Constraint(k, k)  # type: ignore[attr-defined]
        for v in self.bricks:
            fix.SetCoefficient(v, 1)
        found = [best]
        while True:
            cut = solver.Constraint(-solver.infinity(), k - 1)  # type: ignore[attr-defined]
            for cell, v in zip(self.model.brick_cells, self.bricks):
                if cell in found[-1]:
                    cut.SetCoefficient(v, 1)
            status = self.solve_once()
            if status == pywraplp.Solver.INFEASIBLE:
                complete = True
                break
            if status not in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE) or is_set(self.cancel):
                complete = False
                break
            found.append(self.current())
            report(self.progress, self.name, self.deadline, "solution found", best_bricks=k,
                   solutions_found=len(found))
        status_out = SolveStatus.CANCELLED if is_set(self.cancel) and not complete else SolveStatus.OPTIMAL
        return make_result(self.name, SolveMode.ALL, status_out, self.deadline, solutions=found,
                           complete=complete, best_bound=float(k), **self.stats())
