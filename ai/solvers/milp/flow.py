"""The *flow* and *path* formulations of the MILP: per lemming, a unit flow over brick-gated arcs.

Per lemming, the live states ``(t, r, c, d)`` of :mod:`ai.solvers.reach` are the nodes of a
time-expanded network; a node at frame ``t < N-1`` has continuous arc variables in
``[0, 1]`` to frame ``t+1``, one per effect of the level's physics (its branches grouped by move and
turn, :attr:`game.core.physics_views.PhysicsViews.effect_groups`; classic: ``fall``, ``walk``, ``turn``;
climber's two ways to turn are one arc), or ``stay`` on a target where targets stop lemmings.  Arcs that walls and free
cells rule out are dropped (classic: a wall below, no fall; a free cell below, fall only; likewise
ahead), and so are arcs into states that are not live.
Rows:

* conservation: inflow = outflow at every node of frames ``1..N-2``, outflow = 1 at
  the start (frame 0);
* gates, only where the gating cell is a brick variable, **aggregated over frames**
  per state ``s = (r, c, d)``: per cell read and value, the arcs of the branches that need
  it free sum to at most ``1 − b``, those that need it solid to ``b`` (classic:
  ``Σ_t fall ≤ 1 − b_below``, ``Σ_t (walk + turn) ≤ b_below``, ``Σ_t walk ≤ 1 − b_ahead``,
  ``Σ_t turn ≤ b_ahead``); an effect that needs one of several cells (climber turns when the cell above
  or the one above ahead is solid) gets a row of its own, ``Σ_t turn ≤ b_above + b_above_ahead``.

Where targets stop lemmings the aggregation is valid because a winning run visits a non-target
state at most once (a second visit would repeat the run forever, away from every target); where
they do not, a winning run may circle over a target, and the gates are per node (frame).  The aggregation and it makes
the LP bound much stronger than the per-frame products of the *product* formulation
(:mod:`ai.solvers.milp.product`).  At any integer ``b`` each node keeps a single usable arc, so the unit flow
is the run itself: every brick set extends to exactly one assignment, and the flows
are integral although continuous (only ``b`` is integer).  No product variables are
needed, so the model has about one variable and one row per live state.

The *path* formulation (:class:`PathBuilder`, the exact solver's default) is the same flow on
the graph of states without frames.

>>> from game.core.level import Level
>>> m = FlowBuilder(Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)).build()
>>> m.n_bricks, len(m.objective) - m.n_bricks
(3, 1)
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from ai.kernel.libraries import scipy_sparse

from ai.solvers.reach import LemmingReach
from ai.solvers.reach_bounded import BoundedLemming, BoundedReach
from ai.solvers.gates import FREE, SOLID, destination, possible
from ai.solvers.milp.model import IntArray, MilpModel, ModelBuilder
from game.core.physics import Offset, Physics
from game.core.physics_views import EffectGroup, views

BoolArray = npt.NDArray[np.bool_]

#: Arc kinds: the index of a branch of the physics, or :data:`STAY` (on a target that stops lemmings).
STAY = -1


def read_order(physics: Physics) -> list[Offset]:
    """The offsets the branches need, in order of first need (classic: below, then ahead)."""
    return list(dict.fromkeys(offset for branch in views(physics).branches for offset, _ in branch.needs))


def moves_of(reach: object) -> IntArray | None:
    """The moves a bounded scope's lemming makes (:attr:`ai.solvers.reach_bounded.BoundedLemming.moves`), or ``None``
    for the full analysis (every possible move between live states)."""
    return reach.moves if isinstance(reach, BoundedLemming) else None


def made(moves: IntArray, frame: IntArray | None, src: IntArray, dst: IntArray, plane: int) -> BoolArray:
    """Which arcs ``src -> dst`` (state columns below ``plane``) leaving at ``frame`` are among the ``moves``
    made (rows ``(frame, from, to)``); ``frame`` ``None``: at any frame."""
    if frame is None:
        return np.isin(src * plane + dst, moves[:, 1] * plane + moves[:, 2])
    return np.isin((frame * plane + src) * plane + dst, (moves[:, 0] * plane + moves[:, 1]) * plane + moves[:, 2])


class FlowBuilder(ModelBuilder):
    """Assembles the flow formulation (see the module docstring)."""

    def build(self) -> MilpModel:
        """Every lemming's flow, the run cuts, the budget and the objective."""
        if isinstance(self.info, BoundedReach) and not self.info.timed:
            raise ValueError("the flow formulation needs a bounded scope taken frame by frame")
        occupancy = []
        for reach in self.info.lemmings:
            self.ctx.check()
            occupancy.append(self.add_flow_lemming(reach.dense(self.ctx), moves_of(reach)))
        self.add_run_cuts(self.cut_depth)
        self.add_budget()
        lower = np.zeros(self.n_vars)
        upper = np.ones(self.n_vars)
        occ: list[tuple[IntArray, object]] = [
            (coords, scipy_sparse.csr_matrix((vals, (rows, cols)), shape=(len(coords), self.n_vars)))
            for coords, rows, cols, vals in occupancy
        ]
        return self.assemble(lower, upper, [], occ)

    def add_flow_lemming(self, live: BoolArray, moves: IntArray | None = None
                         ) -> tuple[IntArray, IntArray, IntArray, npt.NDArray[np.float64]]:
        """Arcs, conservation and gate rows of one lemming (only the ``moves`` made, rows ``(frame, from,
        to)`` of state columns, when given: a bounded scope); returns its occupancy map."""
        n = live.shape[0]
        coords, sid, a_src, a_dst, a_kind, cells = self._arcs(live, moves)
        n_nodes = len(coords)
        t = coords[:, 0]
        inner = (t > 0) & (t < n - 1)
        a_var, chain = self._arc_vars(inner, a_src, a_dst, n_nodes)
        inner &= ~chain
        # conservation: frames 1..N-2 in = out; frame 0 (the start) out = 1
        row_of = np.full(n_nodes, -1, dtype=np.int64)
        row_of[inner] = self.tri.new_rows(int(inner.sum()), 0.0, 0.0)
        for end, sign in ((a_src, 1.0), (a_dst, -1.0)):
            m = row_of[end] >= 0
            self.tri.add(row_of[end][m], a_var[m], sign)
        if n > 1:
            start = self.tri.new_rows(1, 1.0, 1.0)[0]
            first = t[a_src] == 0
            self.tri.add(np.full(int(first.sum()), start), a_var[first], 1.0)
        self.add_gates(a_src, sid[a_src], a_var, a_kind, cells)
        # occupancy of a node: its outflow, or its inflow at the last frame (the start alone if N = 1)
        last = t[a_dst] == n - 1
        occ_rows = np.concatenate([a_src, a_dst[last]])
        occ_cols = np.concatenate([a_var, a_var[last]])
        return coords, occ_rows, occ_cols, np.ones(len(occ_rows))

    def _arcs(self, live: BoolArray, moves: IntArray | None) -> tuple[
            IntArray, IntArray, IntArray, IntArray, IntArray, dict[Offset, IntArray]]:
        """The nodes (the live states' coordinates), their state ids for the gates, the arcs ``(source,
        destination, kind)`` between them (only the ``moves`` made, when given) and the cells read."""
        n, h, w, _ = live.shape
        coords = np.argwhere(live)
        n_nodes = len(coords)
        node_of = np.full((n + 1, h + 2, w + 2, 2), -1, dtype=np.int64)
        t, r, c, ch = (coords[:, k] for k in range(4))
        pr, pc = r + 1, c + 1
        node_of[t, pr, pc, ch] = np.arange(n_nodes)
        # state id (r, c, ch), for the gates aggregated over frames
        physics = self.level.physics
        _, sid = np.unique((r * w + c) * 2 + ch, return_inverse=True)
        sid = sid.reshape(-1)
        if not physics.targets_stop:
            sid = np.arange(n_nodes)  # a run may pass a state twice: gates per node
        d = np.where(ch == 1, 1, -1)
        going = t < n - 1
        target = self.level.target_map[r, c] if physics.targets_stop else np.zeros(n_nodes, dtype=bool)
        cells = {(dr, da): self.code[pr + dr, pc + da * d] for dr, da in read_order(physics)}
        nodes = np.arange(n_nodes)
        # candidate arcs: (source node, destination node, kind); kind: a branch's index, or STAY
        src, dst, kind = [], [], []

        def arcs(mask: BoolArray, dest: IntArray, k: int) -> None:
            m = mask & going
            dn = np.full(n_nodes, -1, dtype=np.int64)
            dn[m] = dest[m]
            keep = dn >= 0
            src.append(nodes[keep])
            dst.append(dn[keep])
            kind.append(np.full(int(keep.sum()), k, dtype=np.int64))

        safe_t = np.minimum(t + 1, n)
        moving = ~target
        arcs(target, node_of[safe_t, pr, pc, ch], STAY)
        for k, group in enumerate(self.groups):
            dr, dc, dch = destination(views(physics).branches[group.branches[0]], pr, pc, ch)
            arcs(moving & self.possible(group, pr, pc, ch), node_of[safe_t, dr, dc, dch], k)
        self.ctx.check()
        a_src, a_dst, a_kind = np.concatenate(src), np.concatenate(dst), np.concatenate(kind)
        if moves is not None:
            state = (r * w + c) * 2 + ch
            keep = made(moves, t[a_src], state[a_src], state[a_dst], h * w * 2)
            a_src, a_dst, a_kind = a_src[keep], a_dst[keep], a_kind[keep]
        return coords, sid, a_src, a_dst, a_kind, cells

    def _arc_vars(self, inner: BoolArray, a_src: IntArray, a_dst: IntArray, n_nodes: int
                  ) -> tuple[IntArray, BoolArray]:
        """The variable of each arc, and the chain nodes: a node with one arc in and one arc out passes its
        inflow on, so both arcs share one variable and the node needs no conservation row."""
        indeg = np.bincount(a_dst, minlength=n_nodes)
        outdeg = np.bincount(a_src, minlength=n_nodes)
        chain = inner & (indeg == 1) & (outdeg == 1)
        in_arc = np.full(n_nodes, -1, dtype=np.int64)
        in_arc[a_dst] = np.arange(len(a_dst))
        out_arc = np.full(n_nodes, -1, dtype=np.int64)
        out_arc[a_src] = np.arange(len(a_src))
        parent = np.arange(len(a_src))
        parent[out_arc[chain]] = in_arc[chain]
        while True:
            nxt = parent[parent]
            if np.array_equal(nxt, parent):
                break
            parent = nxt
            self.ctx.check()
        _, root = np.unique(parent, return_inverse=True)
        a_var: IntArray = self.new_vars(int(root.max()) + 1 if len(root) else 0)[root.reshape(-1)]
        return a_var, chain

    @property
    def groups(self) -> tuple[EffectGroup, ...]:
        """The arc kinds: the physics' branches grouped by effect
        (:attr:`game.core.physics_views.PhysicsViews.effect_groups`)."""
        return views(self.level.physics).effect_groups

    def possible(self, group: EffectGroup, pr: IntArray, pc: IntArray, ch: IntArray) -> BoolArray:
        """Where some branch of ``group`` can apply."""
        branches = views(self.level.physics).branches
        mask: BoolArray = np.zeros(np.shape(pr), dtype=bool)
        for k in group.branches:
            mask |= possible(branches[k], self.code, pr, pc, ch)
        return mask

    def add_gates(self, a_src: IntArray, a_sid: IntArray, a_var: IntArray, a_kind: IntArray,
                  cells: dict[Offset, IntArray]) -> None:
        """The gates of every move: per state and cell read that is a brick variable, the arcs of
        the kinds that need it free sum to at most ``1 − b``, those that need it solid to ``b``; a kind
        whose branches need one of several cells (a clause of its group) gets its own row per state:
        its arcs sum to at most the clause's value (``Σ b`` of the cells it needs solid, ``Σ (1 − b)``
        of those it needs free)."""
        groups = self.groups
        for offset, cell in cells.items():
            for solid in (False, True):
                kinds = [k for k, group in enumerate(groups) if ((offset, solid),) in group.clauses]
                if not kinds:
                    continue
                self.add_gate(a_sid, a_var, np.isin(a_kind, kinds), cell[a_src],
                              upper=0.0 if solid else 1.0, sign=-1.0 if solid else 1.0)
        for k, group in enumerate(groups):
            of_kind = a_kind == k
            for clause in group.clauses:
                if len(clause) > 1:
                    self.add_clause_gate(a_sid[of_kind], a_var[of_kind], a_src[of_kind], clause, cells)

    def add_clause_gate(self, a_sid: IntArray, a_var: IntArray, a_src: IntArray,
                        clause: tuple[tuple[Offset, bool], ...], cells: dict[Offset, IntArray]) -> None:
        """Rows ``Σ arcs ≤ Σ_solid b + Σ_free (1 − b)`` per state of these arcs (the brick-variable cells of
        ``clause``; a state where a fixed cell already satisfies it gets no row)."""
        if not len(a_var):
            return
        codes = [(cells[offset][a_src], solid) for offset, solid in clause]
        settled = np.zeros(len(a_var), dtype=bool)
        for code, solid in codes:
            settled |= code == (SOLID if solid else FREE)
        keep = ~settled
        if not keep.any():
            return
        states, first, arc_row = np.unique(a_sid[keep], return_index=True, return_inverse=True)
        frees = sum(((code[keep][first] >= 0) & (not solid)).astype(np.float64) for code, solid in codes)
        rows = self.tri.new_rows(len(states), -math.inf, frees)
        self.tri.add(rows[arc_row.reshape(-1)], a_var[keep], 1.0)
        for code, solid in codes:
            at = code[keep][first]
            var = at >= 0
            self.tri.add(rows[var], at[var], 1.0 if not solid else -1.0)

    def add_gate(self, a_sid: IntArray, a_var: IntArray, arc_mask: BoolArray, arc_cell: IntArray, *,
                 upper: float, sign: float) -> None:
        """Rows ``Σ arcs + sign·b ≤ upper`` per state with arcs of ``arc_mask`` whose gating cell (``arc_cell``,
        the same for every arc of a state) is a brick variable (a state without such arcs needs no row)."""
        m = arc_mask & (arc_cell >= 0)
        if not m.any():
            return
        states, first, row_of_arc = np.unique(a_sid[m], return_index=True, return_inverse=True)
        rows = self.tri.new_rows(len(states), -math.inf, upper)
        self.tri.add(rows, arc_cell[m][first], sign)
        self.tri.add(rows[row_of_arc.reshape(-1)], a_var[m], 1.0)


class PathBuilder(FlowBuilder):
    """The *path* formulation: the flow on the graph of states ``(r, c, d)``, without frames (only where
    targets stop lemmings: elsewhere a winning run may pass a state twice, see :class:`FlowBuilder`).

    Per lemming, one arc variable per possible move between states live at some frame,
    conservation at every non-target state (the start emits one unit, the targets absorb
    it), the same gates as the flow formulation (a run visits a non-target state at most
    once) and a deadline: the run has at most ``N − 1`` moves, ``Σ arcs ≤ N − 1``.

    At integer ``b`` every non-target state keeps one usable arc, so the unit from the
    start follows the run and is absorbed only if the run reaches a target within ``N − 1``
    moves; arcs on cycles the run does not enter may carry flow too (only the bricks are
    enumerated, so such copies do not duplicate solutions).  About ``N`` times smaller than
    the flow formulation; it has no time-resolved occupancy, so the LP relaxation uses
    the flow formulation.
    """

    def build(self) -> MilpModel:
        """Every lemming's path flow, the read cuts (not over a bounded scope: its brick variables are cells
        that runs meet, and its solves are capped at a proved bound, where every solution is minimal; there
        the cuts only slowed HiGHS, climber 16 -> 14 ms), the budget and the objective."""
        self.reads: list[tuple[IntArray, IntArray]] = []
        self.read_cuts = not isinstance(self.info, BoundedReach)
        lemmings: tuple[LemmingReach | BoundedLemming, ...] = self.info.lemmings
        for reach in lemmings:
            self.ctx.check()
            self.add_path_lemming(reach.dense(self.ctx), reach.start, moves_of(reach))
        if self.read_cuts:
            self.add_read_cuts()
        self.add_run_cuts(self.cut_depth)
        self.add_budget()
        return self.assemble(np.zeros(self.n_vars), np.ones(self.n_vars), [], occupancy=[])

    def add_path_lemming(self, live: BoolArray, origin: tuple[int, int, int], moves: IntArray | None = None) -> None:
        """Arcs, conservation, gates and deadline of one lemming, whose state at frame 0 is ``origin`` (only the
        ``moves`` made, when given, as in :meth:`FlowBuilder.add_flow_lemming`)."""
        n, h, w, _ = live.shape
        r0, c0, d0 = origin
        if self.level.target_map[r0, c0]:
            return  # it stays on its target
        coords = np.argwhere(live.any(axis=0))
        n_nodes = len(coords)
        node_of = np.full((h + 2, w + 2, 2), -1, dtype=np.int64)
        r, c, ch = coords[:, 0], coords[:, 1], coords[:, 2]
        pr, pc = r + 1, c + 1
        node_of[pr, pc, ch] = np.arange(n_nodes)
        start = node_of[r0 + 1, c0 + 1, 1 if d0 == 1 else 0]
        if start < 0:  # no live state at the start (a bounded scope): this lemming cannot win
            self.tri.new_rows(1, 1.0, 1.0)  # an empty row that must equal 1
            return
        d = np.where(ch == 1, 1, -1)
        target = self.level.target_map[r, c]
        physics = self.level.physics
        cells = {(dr, da): self.code[pr + dr, pc + da * d] for dr, da in read_order(physics)}
        nodes = np.arange(n_nodes)
        src, dst, kind = [], [], []
        for k, group in enumerate(self.groups):
            dest = node_of[destination(views(physics).branches[group.branches[0]], pr, pc, ch)]
            keep = ~target & self.possible(group, pr, pc, ch) & (dest >= 0)
            src.append(nodes[keep])
            dst.append(dest[keep])
            kind.append(np.full(int(keep.sum()), k, dtype=np.int64))
        a_src, a_dst, a_kind = np.concatenate(src), np.concatenate(dst), np.concatenate(kind)
        if moves is not None:
            state = (r * w + c) * 2 + ch
            keep = made(moves, None, state[a_src], state[a_dst], h * w * 2)
            a_src, a_dst, a_kind = a_src[keep], a_dst[keep], a_kind[keep]
        a_var = self.new_vars(len(a_src))
        # conservation at non-target states: out − in = 1 at the start, 0 elsewhere
        cons = ~target
        row_of = np.full(n_nodes, -1, dtype=np.int64)
        row_of[cons] = self.tri.new_rows(int(cons.sum()), 0.0, 0.0)
        for end, sign in ((a_src, 1.0), (a_dst, -1.0)):
            m = row_of[end] >= 0
            self.tri.add(row_of[end][m], a_var[m], sign)
        first = int(row_of[start]) - (self.tri.count - int(cons.sum()))  # the start's row in that block
        self.tri.lower[-1][first] = self.tri.upper[-1][first] = 1.0
        if self.read_cuts:  # cells read by the state an arc leaves
            for code in cells.values():
                cell = code[a_src]
                m = cell >= 0
                self.reads.append((cell[m], a_var[m]))
        # deadline
        row = self.tri.new_rows(1, -math.inf, float(n - 1))[0]
        self.tri.add(np.full(len(a_var), row), a_var, 1.0)
        # gates (one row per state: no aggregation needed)
        self.add_gates(a_src, nodes[a_src], a_var, a_kind, cells)

    def add_read_cuts(self) -> None:
        """``b_c ≤ Σ visits of states reading c``: a brick no run reads can be removed, so no
        minimal brick set (the only ones the solver returns) has one."""
        n = len(self.brick_cells)
        if not n:
            return
        rows = self.tri.new_rows(n, -math.inf, 0.0)
        self.tri.add(rows, np.arange(n), 1.0)
        for cells, arcs in self.reads:
            self.tri.add(rows[cells], arcs, -1.0)
