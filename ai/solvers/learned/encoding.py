"""The *time* encoding of the learned solver: one CNF clause per learned-tree path, cell and frame.

Each decision tree (one per direction channel) becomes clauses, one per path to a leaf:
``l1 and ... and lk -> y == v``, instantiated for every lemming, frame ``t >= 1`` and cell,
where ``y`` is the cell's channel at frame ``t`` and the literals read the 3x3 neighbourhood
at ``t - 1``.  Added: the start state, the goal (every lemming on a target at the last frame)
and the budget.  No hand-written movement rule is used.

Only variables that can change are created: every feature gets a three-valued value (walls
and outside 1, other non-brickable cells 0, brickable cells unknown; frame 0 known), and the
learned trees are evaluated frame by frame in three-valued logic over the cells next to a
possible lemming state (:func:`encode_sparse`).  With ``prune`` (verified rules only) states
from which no chain of learned 1-leaves reaches a target are fixed to 0 first.  The plain
whole-map propagation it must agree with lives in the tests (``tests/ai/solvers/learned_dense_encoder.py``).
History and measurements: ``docs/history/learned-solver.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
from ai.kernel.libraries import cp_model
from ai.kernel.base import BrickSet
from ai.kernel.context import SolveContext
from ai.learning.derive import derived_at_most_one, simplified_paths
from ai.learning.features import LABELS, WINDOW
from ai.learning.models import TreeModel
from game.core.level import Brick, Level


#: Three-valued logic: 0, 1 or unknown.
UNKNOWN = 2


#: Padding value for "no literal" in clause arrays.
_NONE = np.iinfo(np.int64).min


def _pos(ids: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """CP-SAT proto literal of variables ``ids``."""
    return ids


def _neg(ids: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """CP-SAT proto literal of the negation of variables ``ids``."""
    return -ids - 1


@dataclass
class Encoding:
    """The three-valued propagation and the clauses of one level, as CP-SAT proto literals.

    Variables ``0 .. n_bricks-1`` are the bricks of ``brick_cells``; the others are lemming
    states.  ``values[k]`` is ``(N, H, W, 2)`` int8 in {0, 1, UNKNOWN}; ``clauses`` is a list
    of int64 arrays ``(m, width)`` (one clause per row, padded with ``_NONE``); ``goal[k]``
    lists the literals of lemming ``k`` standing on a target at the last frame (``None``
    when already known true).
    """

    level: Level
    values: list[npt.NDArray[np.int8]]
    brick_cells: list[Brick]
    n_vars: int
    clauses: list[npt.NDArray[np.int64]] = field(default_factory=list)
    goal: list[list[int] | None] = field(default_factory=list)
    goal_impossible: bool = False
    used_bricks: set[int] = field(default_factory=set)
    #: derived redundant constraints (see :func:`derived_at_most_one`): per lemming and frame,
    #: the ids of the unknown state variables of which at most one may be true
    at_most_one: list[list[int]] = field(default_factory=list)
    #: derived redundant "support" clauses (see :func:`encode_sparse`), same layout as ``clauses``
    support: list[npt.NDArray[np.int64]] = field(default_factory=list)

    @property
    def n_clauses(self) -> int:
        """Number of clauses."""
        return sum(len(c) for c in self.clauses)

def _shifted(plane: npt.NDArray[Any], fill: Any) -> list[npt.NDArray[Any]]:
    """The 9 window shifts of an ``(H, W)`` plane (value at ``(i+dr, j+dc)``), ``fill`` outside."""
    h, w = plane.shape
    padded = np.pad(plane, 1, constant_values=fill)
    return [padded[1 + dr : 1 + dr + h, 1 + dc : 1 + dc + w] for dr, dc in WINDOW]

def _leaf_tables(paths: list[list[Any]]) -> tuple[list[npt.NDArray[np.int8]], list[npt.NDArray[np.bool_]]]:
    """Per channel: the required value of each feature on each leaf's path (-1 = not tested), leaf values."""
    nf = 4 * len(WINDOW)
    req = []
    leaf_val = []
    for ch in range(len(LABELS)):
        table = np.full((len(paths[ch]), nf), -1, dtype=np.int8)
        for j, (lits, _) in enumerate(paths[ch]):
            for f, v in lits:
                table[j, f] = v
        req.append(table)
        leaf_val.append(np.array([bool(v) for _, v in paths[ch]]))
    return req, leaf_val


class _Propagator:
    """The padded, flattened tables of one level and the three-valued propagation of :func:`encode_sparse`.

    Cells are indices into the ``(H + 2) * (W + 2)`` padded map; ``next_id`` is the next free
    variable; clauses and support clauses go to ``enc``.
    """

    def __init__(self, level: Level, model: TreeModel, enc: Encoding, *, ctx: SolveContext | None,
                 simplify: bool, prune: bool, derived: bool) -> None:
        self.level, self.enc, self.ctx = level, enc, ctx
        paths = simplified_paths(model) if simplify else [model.paths(ch) for ch in range(len(LABELS))]
        self.lem0 = lem0 = 2 * len(WINDOW)
        self.req, self.leaf_val = _leaf_tables(paths)
        # does some 1-leaf fire without any lemming feature set?  Then every cell is a candidate.
        self.spontaneous = any(value and all(not v for f, v in lits if f >= lem0)
                               for ch in range(len(LABELS)) for lits, value in paths[ch])
        self.prune = prune and not self.spontaneous
        self.support = derived and not self.spontaneous
        self.amo = self.support and derived_at_most_one(model, simplified=simplify)
        h, w = level.height, level.width
        self.ph, self.pw = ph, pw = h + 2, w + 2
        self.size = ph * pw
        self.off = np.array([dr * pw + dc for dr, dc in WINDOW], dtype=np.int64)
        self.interior = np.zeros(self.size, dtype=bool)
        self.interior.reshape(ph, pw)[1:-1, 1:-1] = True
        self.all_cells = np.flatnonzero(self.interior)
        brick_id: npt.NDArray[np.int64] = np.full((ph, pw), -1, dtype=np.int64)
        for i, (r, c) in enumerate(enc.brick_cells):
            brick_id[r + 1, c + 1] = i
        self.brick_id = brick_id.reshape(-1)
        self.obst = np.pad(np.where(level.wall_map, 1, np.where(level.brickable_map, UNKNOWN, 0)).astype(np.int8),
                           1, constant_values=1).reshape(-1)
        self.tgt = np.pad(level.target_map.astype(np.int8), 1, constant_values=0).reshape(-1)
        self.target_flat = self.tgt.astype(bool)
        self.used = np.zeros(len(enc.brick_cells) + 1, dtype=bool)
        self.next_id = len(enc.brick_cells)
        self.ones = [[(j, [f for f, v in lits if v and f >= lem0]) for j, (lits, value) in enumerate(paths[ch])
                      if value] for ch in range(len(LABELS))]
        # per channel: the 1-leaves and, for each, one lemming feature it requires (for support clauses)
        self.one_leaf = [np.array([j for j, _ in self.ones[ch]], dtype=np.int64) for ch in range(len(LABELS))]
        self.one_feat = [np.array([fs[0] if fs else 0 for _, fs in self.ones[ch]], dtype=np.int64)
                         for ch in range(len(LABELS))]

    def run(self, k: int, dead: npt.NDArray[np.bool_] | None, emit: bool) -> tuple[
            npt.NDArray[np.int8], npt.NDArray[np.int64], list[Any]]:
        """Propagate lemming ``k`` frame by frame (``dead`` states fixed to 0); with ``emit``, add the clauses."""
        n, size, pw, off, interior = self.level.frames, self.size, self.pw, self.off, self.interior
        obst, tgt, brick_id, req, leaf_val = self.obst, self.tgt, self.brick_id, self.req, self.leaf_val
        lem = self.level.lemmings[k]
        vals = np.zeros((n, size, 2), dtype=np.int8)
        ids = np.full((n, size, 2), -1, dtype=np.int64)
        vals[0, (lem.row + 1) * pw + lem.col + 1, 0 if lem.direction < 0 else 1] = 1
        record: list[Any] = [None]
        for t in range(1, n):
            if self.ctx is not None:
                self.ctx.check()
            if self.spontaneous:
                cand = self.all_cells
            else:
                nz = np.flatnonzero((vals[t - 1] != 0).any(axis=1))
                if len(nz) == 0:
                    record.append(None)
                    continue
                cand = np.unique((nz[:, None] - off[None, :]).reshape(-1))
                cand = cand[interior[cand]]
            win = cand[:, None] + off[None, :]  # (n_c, 9)
            feats = np.concatenate([obst[win], tgt[win], vals[t - 1][win, 0], vals[t - 1][win, 1]], axis=1)
            fids = np.concatenate([brick_id[win], np.full(win.shape, -1, dtype=np.int64),
                                   ids[t - 1][win, 0], ids[t - 1][win, 1]], axis=1)
            per_ch = []
            for ch in range(len(LABELS)):
                table = req[ch]
                conflict = ((table[None] != -1) & (feats[:, None, :] == (1 - table[None]))).any(axis=2)
                possible = ~conflict  # (n_c, n_leaves)
                can_one = (possible & leaf_val[ch][None]).any(axis=1)
                can_zero = (possible & ~leaf_val[ch][None]).any(axis=1)
                unknown = can_one & can_zero
                if dead is not None:
                    alive_here = ~dead[t, cand, ch]
                    unknown &= alive_here
                    can_one &= alive_here
                vals[t, cand, ch] = np.where(unknown, UNKNOWN, np.where(can_one, 1, 0))
                per_ch.append(possible)
                count = int(unknown.sum())
                if not count or not emit:
                    continue
                new_ids = np.arange(self.next_id, self.next_id + count)
                ids[t, cand[unknown], ch] = new_ids
                self.next_id += count
                y_all = np.full(len(cand), -1, dtype=np.int64)
                y_all[unknown] = new_ids
                self._emit_clauses(ch, feats, fids, possible, unknown, y_all)
                if self.support:
                    self._emit_support(ch, feats, fids, possible, unknown, y_all)
            record.append((cand, per_ch))
        return vals, ids, record

    def _emit_clauses(self, ch: int, feats: npt.NDArray[np.int8], fids: npt.NDArray[np.int64],
                      possible: npt.NDArray[np.bool_], unknown: npt.NDArray[np.bool_],
                      y_all: npt.NDArray[np.int64]) -> None:
        """One clause per (unknown cell, possible leaf) of channel ``ch``, all at once."""
        table, leaf_val = self.req[ch], self.leaf_val[ch]
        ci, lj = np.nonzero(unknown[:, None] & possible)
        r = table[lj]  # (m, 36) required values
        open_ = (r != -1) & (feats[ci] == UNKNOWN)
        fid = fids[ci]
        lits = np.where(open_, np.where(r == 1, _neg(fid), _pos(fid)), _NONE)
        bricks_read = np.where(open_[:, : len(WINDOW)], fid[:, : len(WINDOW)], len(self.enc.brick_cells))
        self.used[bricks_read.reshape(-1)] = True
        y = y_all[ci]
        ylit = np.where(leaf_val[lj], _pos(y), _neg(y))
        width = int(open_.sum(axis=1).max()) if len(ci) else 0
        order = np.argsort(~open_, axis=1, kind="stable")[:, :width]
        packed = np.take_along_axis(lits, order, axis=1)
        self.enc.clauses.append(np.concatenate([packed, ylit[:, None]], axis=1))

    def _emit_support(self, ch: int, feats: npt.NDArray[np.int8], fids: npt.NDArray[np.int64],
                      possible: npt.NDArray[np.bool_], unknown: npt.NDArray[np.bool_],
                      y_all: npt.NDArray[np.int64]) -> None:
        """Derived support clauses: y -> OR(lemming literal of each possible 1-leaf)."""
        ui = np.flatnonzero(unknown)
        js = self.one_leaf[ch]
        fl = self.one_feat[ch]
        pv = possible[ui][:, js]  # (n_u, n_ones)
        fv = feats[ui][:, fl]
        fi = fids[ui][:, fl]
        keep = ~(pv & (fv == 1)).any(axis=1)
        openl = pv & (fv == UNKNOWN)
        lits = np.where(openl, _pos(fi), _NONE)[keep]
        lits.sort(axis=1)
        dup = np.zeros_like(lits, dtype=bool)
        dup[:, 1:] = lits[:, 1:] == lits[:, :-1]
        lits[dup] = _NONE
        lits = np.sort(lits, axis=1)[:, ::-1]  # real literals first, padding (min int) last
        width = int((lits != _NONE).sum(axis=1).max()) if len(lits) else 0
        self.enc.support.append(np.concatenate([_neg(y_all[ui][keep])[:, None], lits[:, :width]], axis=1))

    def dead_states(self, vals: npt.NDArray[np.int8], record: list[Any]) -> npt.NDArray[np.bool_]:
        """The possible states from which no chain of learned 1-leaves reaches a target at the last frame."""
        n, size, off, lem0 = self.level.frames, self.size, self.off, self.lem0
        alive = np.zeros((n, size, 2), dtype=bool)
        alive[n - 1] = (vals[n - 1] != 0) & self.target_flat[:, None]
        for t in range(n - 1, 0, -1):
            src = np.zeros((size, 2), dtype=bool)
            if record[t] is not None:
                cand, per_ch = record[t]
                for ch in range(len(LABELS)):
                    alive_c = alive[t, cand, ch]
                    if not alive_c.any():
                        continue
                    for j, feats_j in self.ones[ch]:
                        ys = cand[alive_c & per_ch[ch][:, j]]
                        for f in feats_j:
                            src[ys + off[f % len(WINDOW)], (f - lem0) // len(WINDOW)] = True
            alive[t - 1] = src & (vals[t - 1] != 0)
        dead_mask: npt.NDArray[np.bool_] = (vals != 0) & ~alive
        return dead_mask

    def add_lemming(self, vals: npt.NDArray[np.int8], ids: npt.NDArray[np.int64]) -> None:
        """Record one lemming's values, goal literals and (with ``amo``) its at-most-one constraints."""
        n, level, enc = self.level.frames, self.level, self.enc
        grid_vals = vals.reshape(n, self.ph, self.pw, 2)[:, 1:-1, 1:-1]
        grid_ids = ids.reshape(n, self.ph, self.pw, 2)[:, 1:-1, 1:-1]
        enc.values.append(np.ascontiguousarray(grid_vals))
        last_vals, last_ids = grid_vals[n - 1], grid_ids[n - 1]
        if (last_vals[level.target_map] == 1).any():
            enc.goal.append(None)
        else:
            goal_lits = [int(last_ids[r, c, ch]) for (r, c) in level.targets for ch in range(2)
                         if last_vals[r, c, ch] == UNKNOWN]
            if not goal_lits:
                enc.goal_impossible = True
            enc.goal.append(goal_lits)
        if self.amo:
            for t in range(1, n):
                unknown_ids = ids[t][vals[t] == UNKNOWN]
                if len(unknown_ids) == 0:
                    continue
                if (vals[t] == 1).any():  # the lemming is known to be elsewhere
                    enc.support.append(_neg(unknown_ids)[:, None])
                elif len(unknown_ids) > 1:
                    enc.at_most_one.append(unknown_ids.tolist())


def encode_sparse(level: Level, model: TreeModel, *, ctx: SolveContext | None = None,
                  simplify: bool = False, prune: bool = False, derived: bool = False) -> Encoding:
    """Propagate the learned rules in three-valued logic and emit the clauses (module docstring).

    Only cells whose window holds a possible lemming state at ``t - 1`` are evaluated, all tree
    leaves at once; when some 1-leaf needs no lemming feature (rules that create a lemming from
    nothing, never verified ones) every cell is evaluated at every frame.  With ``prune``, dead
    states are fixed to 0 first: states from which no chain of learned 1-leaves reaches a target
    at the last frame (sound for rules that keep one state per lemming and never create one,
    i.e. verified rules; ignored for rules that create lemmings).  ``ctx.check()`` runs every frame.
    """
    enc = Encoding(level, [], list(level.brickable_cells), 0)
    prop = _Propagator(level, model, enc, ctx=ctx, simplify=simplify, prune=prune, derived=derived)
    for k in range(len(level.lemmings)):
        dead = None
        if prop.prune:
            vals0, _, rec0 = prop.run(k, None, False)
            dead = prop.dead_states(vals0, rec0)
            if (dead & (vals0 == 1)).any():
                enc.goal_impossible = True
        vals, ids, _ = prop.run(k, dead, True)
        prop.add_lemming(vals, ids)
    enc.n_vars = prop.next_id
    enc.used_bricks = set(np.flatnonzero(prop.used[: len(enc.brick_cells)]).tolist())
    return enc


def encode(level: Level, model: TreeModel, *, ctx: SolveContext | None = None,
           simplify: bool = False, prune: bool = False, derived: bool = False) -> Encoding:
    """The time encoding of ``level`` under the learned trees (:func:`encode_sparse`)."""
    return encode_sparse(level, model, ctx=ctx, simplify=simplify, prune=prune, derived=derived)


class ClauseModel:
    """The CP-SAT model built from an :class:`Encoding` (written straight into the proto)."""

    def __init__(self, enc: Encoding) -> None:
        self.cp = cp_model
        self.model = cp_model.CpModel()
        proto = self.model.Proto()
        for _ in range(enc.n_vars):
            proto.variables.add().domain.extend([0, 1])
        constraints = proto.constraints
        for block in enc.clauses:
            if block.shape[1] and (block != _NONE).all():
                for row in block.tolist():
                    constraints.add().bool_or.literals.extend(row)
            else:
                for row in block.tolist():
                    constraints.add().bool_or.literals.extend([v for v in row if v != _NONE])
        for block in enc.support:
            for row in block.tolist():
                constraints.add().bool_or.literals.extend([v for v in row if v != _NONE])
        for group in enc.at_most_one:
            constraints.add().at_most_one.literals.extend(group)
        for lits in enc.goal:
            if lits is not None:
                constraints.add().bool_or.literals.extend(lits)
        self.bricks: dict[Brick, Any] = {}
        for i, cell in enumerate(enc.brick_cells):
            if i in enc.used_bricks:
                self.bricks[cell] = self.model.get_bool_var_from_proto_index(i)
            else:  # no clause reads this brick: it cannot change the learned run
                constraints.add().bool_or.literals.extend([-i - 1])
        self.count = sum(self.bricks.values()) if self.bricks else 0
        self.model.add(self.count <= enc.level.budget)
        self.n_vars = enc.n_vars

    def bricks_of(self, solver: Any) -> BrickSet:
        """The brick set of a CP-SAT solution."""
        return tuple(sorted(cell for cell, v in self.bricks.items() if solver.Value(v)))



# ------------------------------------------------------------------ path encoding
