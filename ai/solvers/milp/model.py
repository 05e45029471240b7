"""The MILP model every formulation builds: a sparse matrix from numpy index arrays.

A formulation subclasses :class:`ModelBuilder`, which owns the brick variables (the first
variables, one per cell that some live state reads, see :mod:`ai.solvers.reach`; over a bounded scope, one per
cell that some bounded run meets, :mod:`ai.solvers.reach_bounded`), the gate map of
:mod:`ai.solvers.gates` (``code[r+1, c+1]``: brick variable, or a cell fixed solid or free),
the growing coordinate lists of the constraint matrix, the shared rows (budget, run cuts) and
the assembly into a :class:`MilpModel`.  Building checks the solve context between groups of
rows, so a stop ends it promptly.

>>> from game.core.level import Level
>>> b = ModelBuilder(Level.from_rows(["> .T", "XX.X"], frames=5, budget=1))
>>> b.brick_cells, int(b.code[2, 3])
([(0, 1), (0, 2), (1, 2)], 2)
>>> b.add_budget()
>>> m = b.assemble(np.zeros(3), np.ones(3), [])
>>> m.matrix.shape, m.row_upper.tolist()
((1, 3), [1.0])
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from ai.kernel.libraries import scipy_sparse

from ai.kernel.context import SolveContext
from ai.solvers.reach import analyse, losing_reads
from ai.solvers.reach_bounded import BoundedReach, Scope
from ai.solvers.gates import gate_codes
from game.core.level import Level

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


class Triplets:
    """Growing coordinate lists of the constraint matrix plus row bounds."""

    def __init__(self) -> None:
        self.rows: list[IntArray] = []
        self.cols: list[IntArray] = []
        self.vals: list[FloatArray] = []
        self.lower: list[FloatArray] = []
        self.upper: list[FloatArray] = []
        self.count = 0

    def new_rows(self, n: int, lower: float, upper: float | FloatArray) -> IntArray:
        """Reserve ``n`` rows with the given bounds (``upper``: one for all, or one per row); returns their
        indices."""
        self.lower.append(np.full(n, lower))
        self.upper.append(np.full(n, upper))
        idx = np.arange(self.count, self.count + n, dtype=np.int64)
        self.count += n
        return idx

    def add(self, rows: IntArray, cols: IntArray, coef: float | FloatArray) -> None:
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

    lower: FloatArray
    upper: FloatArray
    objective: FloatArray
    row_lower: FloatArray
    row_upper: FloatArray
    matrix: object  #: scipy_sparse.csr_matrix
    brick_cells: list[tuple[int, int]]  #: cell of brick variable i (variables 0..len-1)
    states: list[tuple[IntArray, IntArray]]  #: per lemming: (state coords (n, 4) t,r,c,ch; var indices)
    #: per lemming: (state coords, sparse map from the variables to each state's occupancy), when
    #: occupancy is not a variable (the flow formulation); ``states`` is then empty
    occupancy: list[tuple[IntArray, object]] | None = None

    @property
    def n_bricks(self) -> int:
        """Number of brick variables (the first ones)."""
        return len(self.brick_cells)


class ModelBuilder:
    """What every formulation shares: brick variables, gate map, matrix rows, budget, run cuts."""

    def __init__(self, level: Level, info: Scope | None = None, *, cut_depth: int = 0,
                 ctx: SolveContext | None = None) -> None:
        self.ctx = ctx or SolveContext.create()
        self.cut_depth = cut_depth
        self.level = level
        self.info = info or analyse(level, self.ctx)
        self.tri = Triplets()
        self.brick_cells = list(self.info.read_cells)
        self.n_vars = len(self.brick_cells)
        #: padded gate map: brick variable index (>= 0), or gates.SOLID / gates.FREE
        self.code = gate_codes(level, self.brick_cells)

    def build(self) -> MilpModel:
        """The whole model (each formulation writes its own)."""
        raise NotImplementedError

    def new_vars(self, n: int) -> IntArray:
        """Indices of ``n`` fresh variables."""
        idx = np.arange(self.n_vars, self.n_vars + n, dtype=np.int64)
        self.n_vars += n
        return idx

    def assemble(self, lower: FloatArray, upper: FloatArray, states: list[tuple[IntArray, IntArray]],
                 occupancy: list[tuple[IntArray, object]] | None = None) -> MilpModel:
        """The model from the rows added so far, with the brick-count objective."""
        self.ctx.check()
        objective = np.zeros(self.n_vars)
        objective[: len(self.brick_cells)] = 1.0
        tri = self.tri
        empty = np.zeros(0)
        matrix = scipy_sparse.csr_matrix(
            (np.concatenate([empty, *tri.vals]),
             (np.concatenate([empty.astype(np.int64), *tri.rows]), np.concatenate([empty.astype(np.int64), *tri.cols]))),
            shape=(tri.count, self.n_vars),
        )
        matrix.sum_duplicates()
        self.ctx.check()
        return MilpModel(lower, upper, objective, np.concatenate([empty, *tri.lower]),
                         np.concatenate([empty, *tri.upper]), matrix, self.brick_cells, states, occupancy=occupancy)

    def add_run_cuts(self, depth: int) -> None:
        """Valid cuts from losing runs: ``Σ_{c∉P} b_c − Σ_{c∈P} b_c ≥ 1 − |P|`` over read cells.

        ``P`` ranges over the brick-free set and (depth 2) one brick on each cell the
        brick-free runs read; see :func:`ai.solvers.reach.losing_reads`.  None over a relaxed scope
        (:attr:`ai.solvers.reach_bounded.BoundedReach.relaxed`): a cut from a lemming it does not cover, over its
        brick cells only, could remove the sets that win the lemmings it covers.
        """
        if isinstance(self.info, BoundedReach) and self.info.relaxed:
            return
        index = {cell: i for i, cell in enumerate(self.brick_cells)}
        frontier: list[tuple[tuple[int, int], ...]] = [()]
        for _ in range(depth):
            nxt: list[tuple[tuple[int, int], ...]] = []
            for bricks in frontier:
                self.ctx.check()
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
