"""The *product* formulation: the per-frame state-space dynamics, linearised with products.

Variables (only for live states and read cells, see :mod:`ai.solvers.reach`):

* ``b`` (binary): a brick on a read cell;
* ``x`` (continuous in [0, 1], integral at any integer ``b``): lemming occupancy of a live state;
* per inner node of the physics' decision tree (:attr:`game.core.physics_views.PhysicsViews.tree`) whose cell
  may or may not be a brick, the mass that reaches the node times that cell (classic:
  ``g = x·below``, grounded, and ``u = g·ahead``, turning).

Each product ``a = p·q`` of 0/1 values is linearised as ``a ≤ p``, ``a ≤ q``,
``a ≥ p + q − 1``.  The mass of a state flows down the tree to the branches of the physics
(classic: ``fall = x − g``, ``walk = g − u`` and ``turn = u``; or stays, on a target that stops
lemmings); a free part that is split again gets a variable of its own.  Each live state at
frame ``t+1`` receives the sum of its inflows, and all the mass must be on targets (live) at
the last frame.  Flows towards states that are not live are dropped, so they must be zero.

Its LP relaxation is the one of the research notes (a lemming split by a 2/3 brick), which is
why the LP relaxation uses it by default; the exact solver uses :mod:`ai.solvers.milp.flow`.

>>> from game.core.level import Level
>>> m = ProductBuilder(Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)).build()
>>> m.n_bricks, len(m.states[0][1])
(3, 5)
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from ai.solvers.gates import FREE, SOLID, destination
from ai.solvers.milp.model import IntArray, MilpModel, ModelBuilder
from game.core.physics_views import views

Terms = list[tuple[IntArray, float]]
"""A signed sum of variables, per state: ``[(variable indices, sign), ...]`` (index -1: zero)."""


def split(whole: IntArray, solid_part: IntArray, solid: bool) -> Terms:
    """The part of ``whole`` that goes the ``solid`` way, when ``solid_part = whole·cell``."""
    return [(solid_part, 1.0)] if solid else [(whole, 1.0), (solid_part, -1.0)]


class ProductBuilder(ModelBuilder):
    """Assembles the product formulation (see the module docstring)."""

    def build(self) -> MilpModel:
        """Every lemming's dynamics, the budget and the objective."""
        self.states: list[tuple[IntArray, IntArray]] = []
        for reach in self.info.lemmings:
            self.ctx.check()
            self.add_lemming(reach.dense(self.ctx))
        self.ctx.check()
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
        self.ctx.check()
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
        on_target = self.level.target_map[r, c] & self.level.physics.targets_stop
        stay = going & on_target
        self.tri.add(row_of[t[stay] + 1, pr[stay], pc[stay], ch[stay]], var[stay], -1.0)
        m = going & ~on_target
        t, pr, pc, ch, d, x = t[m], pr[m], pc[m], ch[m], d[m], var[m]
        root, nodes = views(self.level.physics).tree
        branches = views(self.level.physics).branches

        def down(node: int, mass: Terms, whole: IntArray) -> None:
            """Send ``mass`` (equal to the variable ``whole``, -1: zero) down the tree from ``node``."""
            self.ctx.check()
            if node < 0:
                dr, dc, dch = destination(branches[~node], pr, pc, ch)
                self.add_flow(row_of[t + 1, dr, dc, dch], mass)
                return
            offset = nodes[node].offset
            cell = self.code[pr + offset[0], pc + offset[1] * d]
            solid = self.expr_product_expr(whole, cell)
            down(nodes[node].solid, split(whole, solid, True), solid)
            free = split(whole, solid, False)
            child = nodes[node].free
            down(child, free, whole if child < 0 else self.expr_difference(whole, solid, cell))

        down(root, [(x, 1.0)], x)

    def expr_difference(self, whole: IntArray, solid: IntArray, cell: IntArray) -> IntArray:
        """Per state, a variable equal to ``whole − solid`` (``solid = whole·blocked(cell)``): ``whole``
        (free cell), none (-1, solid cell) or new, with an equality row."""
        out: IntArray = np.where(cell == FREE, whole, -1)
        new = (cell >= 0) & (whole >= 0)
        y = self.new_vars(int(new.sum()))
        rows = self.tri.new_rows(len(y), 0.0, 0.0)
        self.tri.add(rows, y, 1.0)
        self.tri.add(rows, whole[new], -1.0)
        self.tri.add(rows, solid[new], 1.0)
        out[new] = y
        return out

    def expr_product(self, x: IntArray, cell: IntArray) -> IntArray:
        """Per state, the variable equal to ``x·blocked(cell)``: ``x`` (solid), none (-1, free) or new."""
        out: IntArray = np.where(cell == SOLID, x, -1)
        is_var = cell >= 0
        out[is_var] = self.add_products(x[is_var], cell[is_var])
        return out

    def expr_product_expr(self, g: IntArray, cell: IntArray) -> IntArray:
        """Like :meth:`expr_product` for ``g`` that may be absent (-1 = 0)."""
        present = g >= 0
        out = np.full(len(g), -1, dtype=np.int64)
        out[present] = self.expr_product(g[present], cell[present])
        return out

    def add_flow(self, dest_row: IntArray, terms: Terms) -> None:
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
            self.ctx.check()
            cell = self.code[coords[:, 1] + 1, coords[:, 2] + 1]
            on_var = cell >= 0
            triples = zip(coords[on_var][:, :3].tolist(), var[on_var].tolist(), cell[on_var].tolist())
            for i, ((t, r, c), v, b) in enumerate(triples):
                if i % 4096 == 0:
                    self.ctx.check()
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
