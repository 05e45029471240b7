"""The dense reference encoder of the learned solver's time encoding (tests only).

The plain whole-map three-valued propagation that :func:`ai.solvers.learned.encoding.encode_sparse`
must reproduce variable for variable and clause for clause (moved here from the solver, which
only uses the sparse version).
"""

from __future__ import annotations


import numpy as np
import numpy.typing as npt

from ai.learning.derive import simplified_paths
from ai.learning.features import LABELS, WINDOW
from ai.learning.models import TreeModel
from ai.solvers.learned.encoding import _NONE, UNKNOWN, Encoding, _neg, _pos, _shifted
from game.core.level import Level


def encode_dense(level: Level, model: TreeModel, *, simplify: bool = False, prune: bool = False) -> Encoding:
    """Propagate the learned rules in three-valued logic and emit the clauses (see the module docstring).

    With ``prune``, dead states are fixed to 0 first: states from which no chain of learned
    1-leaves (each read through the lemming feature it requires) reaches a target at the
    last frame.  Sound when the learned rules keep a lemming in exactly one state per frame
    and never create one from nothing (true for verified-exact rules): a lemming in a dead
    state cannot end on a target, so no solution is lost.  The solver prunes only with
    verified rules.
    """
    h, w, n = level.height, level.width, level.frames
    paths = simplified_paths(model) if simplify else [model.paths(ch) for ch in range(len(LABELS))]
    brick_cells = list(level.brickable_cells)
    brick_id = np.full((h, w), -1, dtype=np.int64)
    for i, (r, c) in enumerate(brick_cells):
        brick_id[r, c] = i
    next_id = len(brick_cells)
    obst = np.where(level.wall_map, 1, np.where(level.brickable_map, UNKNOWN, 0)).astype(np.int8)
    obst_vals = _shifted(obst, 1)
    obst_ids = _shifted(brick_id, -1)
    tgt_vals = _shifted(level.target_map.astype(np.int8), 0)
    enc = Encoding(level, [], brick_cells, 0)
    used = np.zeros(len(brick_cells) + 1, dtype=bool)
    static_vals = obst_vals + tgt_vals
    static_possible = []
    for ch in range(len(LABELS)):
        per_leaf = []
        for lits, _ in paths[ch]:
            possible = np.ones((h, w), dtype=bool)
            for f, v in lits:
                if f < 2 * len(WINDOW):
                    possible &= static_vals[f] != (1 - v)
            per_leaf.append(possible)
        static_possible.append(per_leaf)
    ones = [[(i, [f for f, v in lits if v and f >= 2 * len(WINDOW)]) for i, (lits, value) in enumerate(paths[ch])
             if value] for ch in range(len(LABELS))]

    # outputs where no lemming feature is set (static); the box optimisation needs them all 0
    base_zero = not any(
        value and static.any() and all(not v for f, v in lits if f >= 2 * len(WINDOW))
        for ch in range(len(LABELS))
        for (lits, value), static in zip(paths[ch], static_possible[ch])
    )
    n_lem_feats = len(WINDOW)
    lem_offsets = [WINDOW[i] for i in range(n_lem_feats)]

    def run(k: int, dead: npt.NDArray[np.bool_] | None, emit: bool) -> tuple[
            npt.NDArray[np.int8], npt.NDArray[np.int64], list[list[list[npt.NDArray[np.bool_]]]]]:
        """Propagate one lemming; cells farther than one from any possible state at ``t - 1``
        see no lemming feature, so (when the rules never create a lemming from nothing) only a
        bounding box around those states is evaluated."""
        nonlocal next_id
        lem = level.lemmings[k]
        vals = np.zeros((n, h, w, 2), dtype=np.int8)
        ids = np.full((n, h, w, 2), -1, dtype=np.int64)
        vals[0, lem.row, lem.col, 0 if lem.direction < 0 else 1] = 1
        empty = np.zeros((h, w), dtype=bool)
        masks: list[list[list[npt.NDArray[np.bool_]]]] = [[[], []]]
        for t in range(1, n):
            masks.append([])
            prev = vals[t - 1]
            nz = (prev != 0).any(axis=-1)
            if base_zero:
                if not nz.any():
                    for ch in range(len(LABELS)):
                        masks[t].append([empty] * len(paths[ch]))
                    continue
                rs, cs = np.nonzero(nz)
                r0, r1 = max(0, int(rs.min()) - 1), min(h, int(rs.max()) + 2)
                c0, c1 = max(0, int(cs.min()) - 1), min(w, int(cs.max()) + 2)
            else:
                r0, r1, c0, c1 = 0, h, 0, w
            pv = np.pad(prev, ((1, 1), (1, 1), (0, 0)), constant_values=0)
            pid = np.pad(ids[t - 1], ((1, 1), (1, 1), (0, 0)), constant_values=-1)
            lem_vals = [pv[1 + r0 + dr : 1 + r1 + dr, 1 + c0 + dc : 1 + c1 + dc, c]
                        for c in range(2) for dr, dc in lem_offsets]
            lem_ids = [pid[1 + r0 + dr : 1 + r1 + dr, 1 + c0 + dc : 1 + c1 + dc, c]
                       for c in range(2) for dr, dc in lem_offsets]
            box = (slice(r0, r1), slice(c0, c1))
            feat_vals = [plane[box] for plane in static_vals] + lem_vals
            feat_ids = [plane[box] for plane in obst_ids] + [None] * n_lem_feats + lem_ids
            for ch in range(len(LABELS)):
                can_one = np.zeros((r1 - r0, c1 - c0), dtype=bool)
                can_zero = np.zeros((r1 - r0, c1 - c0), dtype=bool)
                possible_leaves = []
                for (lits, value), static in zip(paths[ch], static_possible[ch]):
                    possible = static[box].copy()
                    for f, v in lits:
                        if f >= 2 * len(WINDOW):  # lemming feature (the others are in ``static``)
                            possible &= feat_vals[f] != (1 - v)
                    possible_leaves.append(possible)
                    if value:
                        can_one |= possible
                    else:
                        can_zero |= possible
                full_masks = []
                if not emit:  # pass 1 of pruning: dead_states reads the masks of 1-leaves
                    for (_, value), possible in zip(paths[ch], possible_leaves):
                        m = empty
                        if value:
                            m = np.zeros((h, w), dtype=bool)
                            m[box] = possible
                        full_masks.append(m)
                masks[t].append(full_masks)
                unknown = can_one & can_zero
                if dead is not None:
                    unknown &= ~dead[t, r0:r1, c0:c1, ch]
                    can_one &= ~dead[t, r0:r1, c0:c1, ch]
                vals[t, r0:r1, c0:c1, ch] = np.where(unknown, UNKNOWN, np.where(can_one, 1, 0))
                count = int(unknown.sum())
                if not count or not emit:
                    continue
                ids_box = ids[t, r0:r1, c0:c1, ch]
                ids_box[unknown] = np.arange(next_id, next_id + count)
                next_id += count
                for (lits, value), possible in zip(paths[ch], possible_leaves):
                    cells = unknown & possible
                    if not cells.any():
                        continue
                    rr, cc = np.nonzero(cells)
                    cols = []
                    for f, v in lits:
                        open_ = feat_vals[f][rr, cc] == UNKNOWN
                        fids = feat_ids[f]
                        assert fids is not None or not open_.any()
                        fid = fids[rr, cc] if fids is not None else np.full(len(rr), -1, dtype=np.int64)
                        if f < len(WINDOW):  # obstacle feature: a brick variable
                            used[np.where(open_, fid, len(brick_cells))] = True
                        cols.append(np.where(open_, _neg(fid) if v else _pos(fid), _NONE))
                    y = ids_box[rr, cc]
                    cols.append(_pos(y) if value else _neg(y))
                    enc.clauses.append(np.stack(cols, axis=1))
        return vals, ids, masks

    def dead_states(vals: npt.NDArray[np.int8], masks: list[list[list[npt.NDArray[np.bool_]]]]) -> npt.NDArray[np.bool_]:
        """States from which no chain of learned 1-leaves leads to a target at the last frame."""
        alive = np.zeros((n, h, w, 2), dtype=bool)
        alive[n - 1] = (vals[n - 1] != 0) & level.target_map[:, :, None]
        for t in range(n - 1, 0, -1):
            src = np.zeros((h + 2, w + 2, 2), dtype=bool)
            for ch in range(len(LABELS)):
                for i, feats in ones[ch]:
                    ys = alive[t, :, :, ch] & masks[t][ch][i]
                    if not ys.any():
                        continue
                    for f in feats:
                        c_src = (f - 2 * len(WINDOW)) // len(WINDOW)
                        dr, dc = WINDOW[f % len(WINDOW)]
                        src[1 + dr : 1 + dr + h, 1 + dc : 1 + dc + w, c_src] |= ys
            alive[t - 1] = src[1:-1, 1:-1] & (vals[t - 1] != 0)
        dead_mask: npt.NDArray[np.bool_] = (vals != 0) & ~alive
        return dead_mask

    for k in range(len(level.lemmings)):
        dead = None
        if prune:
            vals0, _, masks0 = run(k, None, False)
            dead = dead_states(vals0, masks0)
            if (dead & (vals0 == 1)).any():
                enc.goal_impossible = True
        vals, ids, _ = run(k, dead, True)
        enc.values.append(vals)
        last_vals, last_ids = vals[n - 1], ids[n - 1]
        if (last_vals[level.target_map] == 1).any():
            enc.goal.append(None)
        else:
            goal_lits = [int(last_ids[r, c, ch]) for (r, c) in level.targets for ch in range(2)
                         if last_vals[r, c, ch] == UNKNOWN]
            if not goal_lits:
                enc.goal_impossible = True
            enc.goal.append(goal_lits)
    enc.n_vars = next_id
    enc.used_bricks = set(np.flatnonzero(used[: len(brick_cells)]).tolist())
    return enc
