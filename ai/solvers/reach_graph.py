"""The state graph behind :mod:`ai.solvers.reach`: one block of lemmings, its moves, and the two frame passes.

A :class:`Block` holds the (lemming, state) nodes of a few lemmings and runs the forward pass (states
reachable at frame ``t``) and the backward pass (states that reach a target by the last frame), each as a
:class:`ai.solvers.reach_timeline.Timeline` of frame sets stored until the first repeat.  Two forms:

* **sparse**: the nodes are the states reachable from the start that can still reach a target, with
  move tables (from the branches of the level's physics, :attr:`game.core.physics_views.PhysicsViews.branches`) between them; sets are index arrays;
* **dense** (when those are a large share of a big map): every state id is a node, and a step is a few
  shifted masks.

Sets are stored as int32 indices when small and as packed bitsets when large (:mod:`ai.solvers.reach_timeline`).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
import numpy.typing as npt

from ai.kernel.context import SolveContext
from ai.solvers.reach_timeline import Shifts, Stored, check, padded_table, run_dense, run_sparse
from game.core.level import Level
from game.core.physics_views import views

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]

#: Bytes of live-state sets a block keeps for repeated frame questions.
LIVE_CACHE_BYTES = 16_000_000


class Grid:
    """Padded ``(H+2) x (W+2)`` flat maps of the level: what each cell can be (outside = wall)."""

    def __init__(self, level: Level, brickable: BoolArray | None = None) -> None:
        self.height, self.width, self.frames = level.height, level.width, level.frames
        self.pw = level.width + 2
        wall = np.pad(level.wall_map, 1, constant_values=True).ravel()
        brick = np.pad(level.brickable_map if brickable is None else brickable, 1, constant_values=False).ravel()
        self.brickable = brick
        self.can_block = wall | brick
        self.can_free = ~wall
        self.target = np.pad(level.target_map, 1, constant_values=False).ravel()
        self.physics = level.physics
        self.states = self.can_free.size * 2  #: state ids per lemming: padded position * 2 + channel

    def moves(self, ids: IntArray) -> list[tuple[BoolArray, IntArray]]:
        """For state ids ``pos*2 + channel``: per possible move, which ids can make it and where they go.

        One move per branch of the physics (possible where every cell it needs can take the value it
        needs), and a rest on targets when targets stop lemmings.
        """
        pos, ch = ids >> 1, ids & 1
        d = 2 * ch - 1
        out = []
        moving = np.ones(ids.shape, dtype=bool)
        if self.physics.targets_stop:
            on_target = self.target[pos]
            out.append((on_target, ids))  # a lemming on a target rests
            moving = ~on_target
        can: dict[tuple[tuple[int, int], bool], BoolArray] = {}  # per cell read and value: which ids may see it
        for branch in views(self.physics).branches:
            ok = moving.copy()
            for need in branch.needs:
                seen = can.get(need)
                if seen is None:
                    (dr, da), solid = need
                    cell = pos + dr * self.pw + da * d
                    seen = can[need] = self.can_block[cell] if solid else self.can_free[cell]
                ok &= seen
            dst_pos = pos + branch.move[0] * self.pw + branch.move[1] * d
            out.append((ok, dst_pos * 2 + ((1 - ch) if branch.turn else ch)))
        return out

    def steps(self, ids: IntArray) -> list[tuple[BoolArray, IntArray]]:
        """:meth:`moves` with the moves to the same place merged (one per distinct move and turn): all that
        reachability needs.  A physics of many branches has few distinct moves (random physics 8007: 37
        branches, 4 moves), and the tables and steps of the analysis grow with their count."""
        keys = ([((0, 0), False)] if self.physics.targets_stop else []) + [
            (branch.move, branch.turn) for branch in views(self.physics).branches]
        merged: dict[tuple[tuple[int, int], bool], tuple[BoolArray, IntArray]] = {}
        for key, (ok, dst) in zip(keys, self.moves(ids)):
            held = merged.get(key)
            merged[key] = (ok, dst) if held is None else (held[0] | ok, dst)
        return list(merged.values())

    @cached_property
    def successors(self) -> IntArray:
        """``(states, moves)``: for every state id, where each move of :meth:`steps` takes it, or -1 where the
        move is impossible (and on every cell a lemming cannot stand on, the padding ring included)."""
        ids = np.arange(self.states, dtype=np.int64)
        inner = ids[self.can_free[ids >> 1]]  # never on the padding ring: every cell a move needs is in range
        moves = self.steps(inner)
        table = np.full((self.states, len(moves)), -1, dtype=np.int64)
        for k, (ok, dst) in enumerate(moves):
            table[inner[ok], k] = dst[ok]
        return table

    def reads(self, ids: IntArray) -> IntArray:
        """Padded cells the states ``ids`` may read: every cell a possible branch needs (none on a target
        where targets stop lemmings)."""
        pos, ch = ids >> 1, ids & 1
        d = 2 * ch - 1
        reading: dict[tuple[int, int], BoolArray] = {}  # per cell offset: the ids a possible branch has read it
        branches = views(self.physics).branches
        for (ok, _), branch in zip(self.moves(ids)[1 if self.physics.targets_stop else 0:], branches):
            for offset, _ in branch.needs:
                held = reading.get(offset)
                reading[offset] = ok if held is None else held | ok
        out = [(pos + dr * self.pw + da * d)[ok] for (dr, da), ok in reading.items()]
        return np.concatenate(out) if out else np.zeros(0, dtype=np.int64)

    def decode(self, ids: IntArray) -> tuple[IntArray, IntArray, IntArray]:
        """Map ``(row, col, channel)`` arrays of state ids."""
        pos = ids >> 1
        return pos // self.pw - 1, pos % self.pw - 1, ids & 1


#: A block whose reachable states exceed this share of all its (lemming, state) ids (and DENSE_MIN) works
#: on dense masks.
DENSE_SHARE = 1 / 16
DENSE_MIN = 50_000


class Block:
    """The analysis of a group of lemmings, all in one index space of (lemming, state) nodes.

    Sparse form: the nodes are the states reachable from the start that can reach a target, with move
    tables between them.  Dense form (when those are a large share of the map): every state id is a
    node, and a step is a few shifted masks.
    """

    def __init__(self, grid: Grid, starts: list[int], ctx: SolveContext | None) -> None:
        self.grid = grid
        self.count, self.span = len(starts), grid.states
        start_keys = np.array([k * self.span + s for k, s in enumerate(starts)], dtype=np.int64)
        graph = self._graph(start_keys, ctx)
        if graph is None:
            self.extents = np.tile([0, grid.height - 1, 0, grid.width - 1], (self.count, 1))
            self._dense(start_keys, ctx)
        else:
            self._sparse(start_keys, *graph, ctx)
        self._mask = np.zeros(self.nodes.size, dtype=bool)
        self._live: dict[tuple[int, int], IntArray] = {}  # live_at per (forward, backward) set pair
        self._live_bytes = 0

    def _graph(self, start_keys: IntArray, ctx: SolveContext | None) -> tuple[IntArray, IntArray, IntArray] | None:
        """Reachable nodes and the move edges between them, or ``None`` when they are too many (dense)."""
        grid, span = self.grid, self.span
        seen = np.zeros(self.count * span, dtype=bool)
        seen[start_keys] = True
        found_count, cap = start_keys.size, self.count * span * DENSE_SHARE
        frontier = start_keys
        src_parts: list[IntArray] = []
        dst_parts: list[IntArray] = []
        table = grid.successors
        while frontier.size:  # states reachable at all (any frame), with every move
            check(ctx)
            lem, ids = np.divmod(frontier, span)
            dst = table[ids]
            rows, moves = np.nonzero(dst >= 0)
            keys = lem[rows] * span + dst[rows, moves]
            src_parts.append(frontier[rows])
            dst_parts.append(keys)
            found = np.unique(keys)
            frontier = found[~seen[found]]
            seen[frontier] = True
            found_count += frontier.size
            if found_count > cap and found_count > DENSE_MIN:
                return None
        check(ctx)
        nodes = np.flatnonzero(seen)
        self._set_extents(nodes)
        return nodes, np.searchsorted(nodes, np.concatenate(src_parts)), np.searchsorted(nodes, np.concatenate(dst_parts))

    def _set_extents(self, nodes: IntArray) -> None:
        """Per lemming: the rows and columns of every cell a reachable state occupies or reads, clipped."""
        grid = self.grid
        firsts = np.searchsorted(nodes, np.arange(self.count, dtype=np.int64) * self.span)
        pos = (nodes % self.span) >> 1
        rows, cols = pos // grid.pw - 1, pos % grid.pw - 1
        offsets = views(grid.physics).read_offsets
        up = max([0] + [-dr for dr, _ in offsets])
        down = max([0] + [dr for dr, _ in offsets])
        side = max([0] + [abs(da) for _, da in offsets])
        self.extents = np.stack([np.maximum(np.minimum.reduceat(rows, firsts) - up, 0),
                                 np.minimum(np.maximum.reduceat(rows, firsts) + down, grid.height - 1),
                                 np.maximum(np.minimum.reduceat(cols, firsts) - side, 0),
                                 np.minimum(np.maximum.reduceat(cols, firsts) + side, grid.width - 1)], axis=1)

    def _sparse(self, start_keys: IntArray, nodes: IntArray, src: IntArray, dst: IntArray,
                ctx: SolveContext | None) -> None:
        """The sparse form: prune to nodes that can reach a target, then run the two passes."""
        grid, span = self.grid, self.span
        check(ctx)
        pred = padded_table(dst, src, nodes.size)
        on_target = np.flatnonzero(grid.target[(nodes % span) >> 1])
        useful = np.zeros(nodes.size + 1, dtype=bool)
        useful[on_target] = True
        frontier = on_target
        while frontier.size:
            check(ctx)
            found = np.unique(pred[frontier].ravel())
            frontier = found[~useful[found]]
            useful[frontier] = True
        useful = useful[:-1]
        keep = useful[src] & useful[dst]
        self.nodes = nodes[useful]
        local = np.cumsum(useful) - 1
        src, dst = local[src[keep]], local[dst[keep]]
        size = self.nodes.size
        self.offsets = np.searchsorted(self.nodes, np.arange(self.count + 1, dtype=np.int64) * span)
        first = np.minimum(np.searchsorted(self.nodes, start_keys), max(size - 1, 0))
        present = self.nodes[first] == start_keys if size else np.zeros(self.count, dtype=bool)
        self.starts = np.where(present, first, -1)
        check(ctx)
        self.forward = run_sparse(first[present], padded_table(src, dst, size), grid.frames, ctx)
        targets = np.flatnonzero(grid.target[(self.nodes % span) >> 1])
        check(ctx)
        self.backward = run_sparse(targets, padded_table(dst, src, size), grid.frames, ctx)

    def _dense(self, start_keys: IntArray, ctx: SolveContext | None) -> None:
        """The dense form: every state id is a node; moves are shifts derived from the physics' branches."""
        grid, span, count = self.grid, self.span, self.count
        ids = np.arange(span, dtype=np.int64)
        inner = ids[grid.can_free[ids >> 1]]  # states on free cells (never the padding ring)
        shifts: Shifts = []
        for ok, dst in grid.steps(inner):
            delta = dst - inner
            for value in np.unique(delta[ok]):
                movable = np.zeros(span, dtype=bool)
                movable[inner[ok & (delta == value)]] = True
                shifts.append((int(value), np.tile(movable, count)))
        self.nodes = np.arange(count * span, dtype=np.int64)
        self.offsets = np.arange(count + 1, dtype=np.int64) * span
        self.starts = start_keys
        first = np.zeros(count * span, dtype=bool)
        first[start_keys] = True
        check(ctx)
        self.forward = run_dense(first, shifts, False, grid.frames, ctx)
        targets = np.tile(grid.target[ids >> 1], count)
        check(ctx)
        self.backward = run_dense(targets, shifts, True, grid.frames, ctx)

    def live_at(self, t: int) -> IntArray:
        """Node indices live at frame ``t``: in the forward set of ``t`` and the backward set of ``N-1-t``."""
        fi, bi = self.forward.index(t), self.backward.index(self.grid.frames - 1 - t)
        known = self._live.get((fi, bi))
        if known is not None:
            return known
        f, b = self.forward.stored[fi], self.backward.stored[bi]
        if f.dtype == np.uint8 and b.dtype == np.uint8:
            both: npt.NDArray[np.uint8] = np.bitwise_and(f, b)
            live = np.flatnonzero(np.unpackbits(both, count=self.nodes.size)).astype(np.int64)
        else:
            live = _intersect(self.forward.get(fi), self.backward.get(bi), self._mask)
        if self._live_bytes + live.nbytes <= LIVE_CACHE_BYTES:
            self._live[(fi, bi)] = live
            self._live_bytes += live.nbytes
        return live

    def live_bits(self, t: int) -> Stored:
        """:meth:`live_at` as a packed bitset."""
        fi, bi = self.forward.index(t), self.backward.index(self.grid.frames - 1 - t)
        return self.forward.bits(fi) & self.backward.bits(bi)

    def frame_classes(self, last: int) -> tuple[IntArray, IntArray, IntArray]:
        """Frames ``0..last`` grouped by their (forward, backward) set pair: one frame each, and multiplicity."""
        frames = np.arange(last + 1, dtype=np.int64)
        fi = self.forward.indices(frames)
        bi = self.backward.indices(self.grid.frames - 1 - frames)
        _, first, counts = np.unique(fi * (len(self.backward.stored) + 1) + bi, return_index=True,
                                     return_counts=True)
        return frames[first], counts, fi

    def _union(self, last: int) -> BoolArray:
        """Nodes live at some frame ``0..last``."""
        acc = np.zeros((self.nodes.size + 7) // 8, dtype=np.uint8)
        if last >= 0:
            for t in self.frame_classes(last)[0]:
                acc |= self.live_bits(int(t))
        return np.unpackbits(acc, count=self.nodes.size).astype(bool)

    @cached_property
    def live_first(self) -> BoolArray:
        """Nodes live at frame 0."""
        out = np.zeros(self.nodes.size, dtype=bool)
        out[self.live_at(0)] = True
        return out

    @cached_property
    def union_moving(self) -> BoolArray:
        """Nodes live at some frame before the last (the ones whose reads matter)."""
        return self._union(self.grid.frames - 2)

    @cached_property
    def union_all(self) -> BoolArray:
        """Nodes live at some frame."""
        return self._union(self.grid.frames - 1)

    @property
    def live_counts(self) -> IntArray:
        """Per lemming of the block: live (frame, state) pairs."""
        return self.count_live(None)

    def count_live(self, ctx: SolveContext | None) -> IntArray:
        """:attr:`live_counts`, checking ``ctx`` (kept once computed)."""
        known: IntArray | None = self.__dict__.get("_counts")
        if known is not None:
            return known
        out = np.zeros(self.count, dtype=np.int64)
        reps, mult, _ = self.frame_classes(self.grid.frames - 1)
        for t, m in zip(reps, mult):
            check(ctx)
            live = self.live_at(int(t))
            out += int(m) * np.diff(np.searchsorted(live, self.offsets))
        self.__dict__["_counts"] = out
        return out

    @property
    def nbytes(self) -> int:
        """Bytes held by the analysis of this block."""
        return self.forward.nbytes + self.backward.nbytes + self.nodes.nbytes


def _intersect(a: IntArray, b: IntArray, mask: BoolArray) -> IntArray:
    """Sorted intersection of two sorted index arrays (``mask``: an all-False scratch array)."""
    if a.size == 0 or b.size == 0:
        return a[:0]
    mask[a] = True
    out = b[mask[b]]
    mask[a] = False
    return out


__all__ = ["Block", "Grid"]
