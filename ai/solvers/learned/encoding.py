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
from ortools.sat.python import cp_model

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
    h, w, n = level.height, level.width, level.frames
    paths = simplified_paths(model) if simplify else [model.paths(ch) for ch in range(len(LABELS))]
    nf = 4 * len(WINDOW)
    lem0 = 2 * len(WINDOW)
    # leaf tables: required value per feature (-1 = not tested)
    req = []
    leaf_val = []
    for ch in range(len(LABELS)):
        table = np.full((len(paths[ch]), nf), -1, dtype=np.int8)
        for j, (lits, _) in enumerate(paths[ch]):
            for f, v in lits:
                table[j, f] = v
        req.append(table)
        leaf_val.append(np.array([bool(v) for _, v in paths[ch]]))
    # does some 1-leaf fire without any lemming feature set?  Then every cell is a candidate.
    spontaneous = any(value and all(not v for f, v in lits if f >= lem0)
                      for ch in range(len(LABELS)) for lits, value in paths[ch])
    prune = prune and not spontaneous
    support = derived and not spontaneous
    amo = support and derived_at_most_one(model, simplified=simplify)
    ph, pw = h + 2, w + 2
    size = ph * pw
    off = np.array([dr * pw + dc for dr, dc in WINDOW], dtype=np.int64)
    interior = np.zeros(size, dtype=bool)
    interior.reshape(ph, pw)[1:-1, 1:-1] = True
    all_cells = np.flatnonzero(interior)
    brick_cells = list(level.brickable_cells)
    brick_id: npt.NDArray[np.int64] = np.full((ph, pw), -1, dtype=np.int64)
    for i, (r, c) in enumerate(brick_cells):
        brick_id[r + 1, c + 1] = i
    brick_id = brick_id.reshape(-1)
    obst = np.pad(np.where(level.wall_map, 1, np.where(level.brickable_map, UNKNOWN, 0)).astype(np.int8), 1,
                  constant_values=1).reshape(-1)
    tgt = np.pad(level.target_map.astype(np.int8), 1, constant_values=0).reshape(-1)
    target_flat = tgt.astype(bool)
    enc = Encoding(level, [], brick_cells, 0)
    used = np.zeros(len(brick_cells) + 1, dtype=bool)
    next_id = len(brick_cells)
    ones = [[(j, [f for f, v in lits if v and f >= lem0]) for j, (lits, value) in enumerate(paths[ch]) if value]
            for ch in range(len(LABELS))]
    # per channel: the 1-leaves and, for each, one lemming feature it requires (for support clauses)
    one_leaf = [np.array([j for j, _ in ones[ch]], dtype=np.int64) for ch in range(len(LABELS))]
    one_feat = [np.array([fs[0] if fs else 0 for _, fs in ones[ch]], dtype=np.int64) for ch in range(len(LABELS))]

    def run(k: int, dead: npt.NDArray[np.bool_] | None, emit: bool) -> tuple[
            npt.NDArray[np.int8], npt.NDArray[np.int64], list[Any]]:
        nonlocal next_id
        lem = level.lemmings[k]
        vals = np.zeros((n, size, 2), dtype=np.int8)
        ids = np.full((n, size, 2), -1, dtype=np.int64)
        vals[0, (lem.row + 1) * pw + lem.col + 1, 0 if lem.direction < 0 else 1] = 1
        record: list[Any] = [None]
        for t in range(1, n):
            if ctx is not None:
                ctx.check()
            if spontaneous:
                cand = all_cells
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
                new_ids = np.arange(next_id, next_id + count)
                ids[t, cand[unknown], ch] = new_ids
                next_id += count
                y_all = np.full(len(cand), -1, dtype=np.int64)
                y_all[unknown] = new_ids
                # one clause per (unknown cell, possible leaf), all at once
                ci, lj = np.nonzero(unknown[:, None] & possible)
                r = table[lj]  # (m, 36) required values
                open_ = (r != -1) & (feats[ci] == UNKNOWN)
                fid = fids[ci]
                lits = np.where(open_, np.where(r == 1, _neg(fid), _pos(fid)), _NONE)
                bricks_read = np.where(open_[:, : len(WINDOW)], fid[:, : len(WINDOW)], len(brick_cells))
                used[bricks_read.reshape(-1)] = True
                y = y_all[ci]
                ylit = np.where(leaf_val[ch][lj], _pos(y), _neg(y))
                width = int(open_.sum(axis=1).max()) if len(ci) else 0
                order = np.argsort(~open_, axis=1, kind="stable")[:, :width]
                packed = np.take_along_axis(lits, order, axis=1)
                enc.clauses.append(np.concatenate([packed, ylit[:, None]], axis=1))
                if support:
                    # derived support: y -> OR(lemming literal of each possible 1-leaf)
                    ui = np.flatnonzero(unknown)
                    js = one_leaf[ch]
                    fl = one_feat[ch]
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
                    enc.support.append(np.concatenate([_neg(y_all[ui][keep])[:, None], lits[:, :width]], axis=1))
            record.append((cand, per_ch))
        return vals, ids, record

    def dead_states(vals: npt.NDArray[np.int8], record: list[Any]) -> npt.NDArray[np.bool_]:
        alive = np.zeros((n, size, 2), dtype=bool)
        alive[n - 1] = (vals[n - 1] != 0) & target_flat[:, None]
        for t in range(n - 1, 0, -1):
            src = np.zeros((size, 2), dtype=bool)
            if record[t] is not None:
                cand, per_ch = record[t]
                for ch in range(len(LABELS)):
                    alive_c = alive[t, cand, ch]
                    if not alive_c.any():
                        continue
                    for j, feats_j in ones[ch]:
                        ys = cand[alive_c & per_ch[ch][:, j]]
                        for f in feats_j:
                            src[ys + off[f % len(WINDOW)], (f - lem0) // len(WINDOW)] = True
            alive[t - 1] = src & (vals[t - 1] != 0)
        dead_mask: npt.NDArray[np.bool_] = (vals != 0) & ~alive
        return dead_mask

    for k in range(len(level.lemmings)):
        dead = None
        if prune:
            vals0, _, rec0 = run(k, None, False)
            dead = dead_states(vals0, rec0)
            if (dead & (vals0 == 1)).any():
                enc.goal_impossible = True
        vals, ids, _ = run(k, dead, True)
        grid_vals = vals.reshape(n, ph, pw, 2)[:, 1:-1, 1:-1]
        grid_ids = ids.reshape(n, ph, pw, 2)[:, 1:-1, 1:-1]
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
        if amo:
            for t in range(1, n):
                unknown_ids = ids[t][vals[t] == UNKNOWN]
                if len(unknown_ids) == 0:
                    continue
                if (vals[t] == 1).any():  # the lemming is known to be elsewhere
                    enc.support.append(_neg(unknown_ids)[:, None])
                elif len(unknown_ids) > 1:
                    enc.at_most_one.append(unknown_ids.tolist())
    enc.n_vars = next_id
    enc.used_bricks = set(np.flatnonzero(used[: len(brick_cells)]).tolist())
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
