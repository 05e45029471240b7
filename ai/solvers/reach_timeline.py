"""Frame sets of the reachability passes of :mod:`ai.solvers.reach_graph`: stored until the first repeat.

A :class:`Timeline` holds the state sets of steps ``0, 1, ...`` until a set repeats an earlier one; later
steps map onto the stored loop.  :func:`run_sparse` runs a pass over move tables (:func:`padded_table`),
:func:`run_dense` over masks of every state id moved by shifts.

>>> table = padded_table(np.array([0, 1, 2]), np.array([1, 2, 1]), 3)   # 0 -> 1 -> 2 -> 1 -> ...
>>> line = run_sparse(np.array([0]), table, 10, None)
>>> [line.get(line.index(step)).tolist() for step in range(5)]
[[0], [1], [2], [1], [2]]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ai.kernel.context import SolveContext

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]
Stored = npt.NDArray[Any]
"""A stored frame set: int32 state indices, or a packed uint8 bitset."""


class Timeline:
    """State sets of steps ``0, 1, ...`` until the first repeat; later steps map onto stored ones.

    A set is stored as int32 indices when small, as a packed bitset over the ``size`` nodes when large.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.stored: list[Stored] = []
        self.loop_start, self.period = 0, 1

    def pack(self, ids: IntArray | None, mask: BoolArray | None = None) -> Stored:
        """The stored form of a set given as sorted ids or as a mask (a deterministic choice of form)."""
        if ids is None:
            assert mask is not None
            if int(np.count_nonzero(mask)) * 32 <= self.size:
                return np.flatnonzero(mask).astype(np.int32)
            return np.packbits(mask)
        if ids.size * 32 <= self.size:
            return ids.astype(np.int32)
        if mask is None:
            mask = np.zeros(self.size, dtype=bool)
            mask[ids] = True
        return np.packbits(mask)

    def get(self, i: int) -> IntArray:
        """Stored set ``i`` as sorted int64 indices."""
        data = self.stored[i]
        if data.dtype == np.uint8:
            return np.flatnonzero(np.unpackbits(data, count=self.size)).astype(np.int64)
        return data.astype(np.int64)

    def bits(self, i: int) -> Stored:
        """Stored set ``i`` as a packed bitset."""
        data = self.stored[i]
        if data.dtype == np.uint8:
            return data
        mask = np.zeros(self.size, dtype=bool)
        mask[data] = True
        return np.packbits(mask)

    def index(self, step: int) -> int:
        """Which stored set is the set of ``step``."""
        if step < len(self.stored):
            return step
        return self.loop_start + (step - self.loop_start) % self.period

    def indices(self, steps: IntArray) -> IntArray:
        """:meth:`index` of an array of steps."""
        later = self.loop_start + (steps - self.loop_start) % self.period
        return np.where(steps < len(self.stored), steps, later)

    def add(self, data: Stored, seen: dict[int, list[int]]) -> bool:
        """Store the next step's set; False (and the loop recorded) when it repeats an earlier one."""
        key = hash(data.tobytes())
        for earlier in seen.get(key, []):
            if np.array_equal(self.stored[earlier], data):
                self.loop_start, self.period = earlier, len(self.stored) - earlier
                return False
        seen.setdefault(key, []).append(len(self.stored))
        self.stored.append(data)
        self.loop_start = len(self.stored) - 1
        return True

    @property
    def nbytes(self) -> int:
        """Bytes held by the stored sets."""
        return sum(s.nbytes for s in self.stored)


def run_sparse(first: IntArray, table: IntArray, steps: int, ctx: SolveContext | None) -> Timeline:
    """Sets ``S(0) = first``, ``S(k+1)`` = the table's entries of ``S(k)``, for ``steps`` steps or a repeat.

    ``table`` is ``(S+1, width)`` with the sink ``S`` for missing entries.
    """
    sink = table.shape[0] - 1
    line = Timeline(sink)
    mask = np.zeros(sink + 1, dtype=bool)
    current = np.unique(first).astype(np.int64)
    seen: dict[int, list[int]] = {}
    for k in range(steps):
        if k:
            check(ctx)
            following = table[current].ravel()
            if following.size * 16 < sink:
                current = np.unique(following)
            else:
                mask[following] = True
                current = np.flatnonzero(mask)
                mask[current] = False
            if current.size and current[-1] == sink:
                current = current[:-1]
        if not line.add(line.pack(current), seen):
            break
    return line


Shifts = list[tuple[int, BoolArray]]
"""Moves of the dense form: ``(delta, mask)``: every state in ``mask`` may move to its id + ``delta``."""


def run_dense(first: BoolArray, shifts: Shifts, backward: bool, steps: int,
               ctx: SolveContext | None) -> Timeline:
    """Like :func:`run_sparse` on masks over every state id; ``backward`` steps to predecessors."""
    size = first.size
    line = Timeline(size)
    current = first
    seen: dict[int, list[int]] = {}
    for k in range(steps):
        if k:
            check(ctx)
            nxt = np.zeros(size, dtype=bool)
            for delta, movable in shifts:
                lo, hi = max(0, -delta), size - max(0, delta)  # sources whose move stays in range
                if backward:
                    nxt[lo:hi] |= movable[lo:hi] & current[lo + delta:hi + delta]
                else:
                    nxt[lo + delta:hi + delta] |= movable[lo:hi] & current[lo:hi]
            current = nxt
        if not line.add(line.pack(None, current), seen):
            break
    return line


def padded_table(src: IntArray, dst: IntArray, rows: int) -> IntArray:
    """``(rows+1, width)`` table listing each src's dsts, padded with the sink ``rows``."""
    order = np.argsort(src, kind="stable")
    src, dst = src[order], dst[order]
    counts = np.bincount(src, minlength=rows)
    width = max(1, int(counts.max()) if counts.size else 1)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    rank = np.arange(src.size) - starts[src]
    table = np.full((rows + 1, width), rows, dtype=np.int32 if rows < 2**31 - 1 else np.int64)
    table[src, rank] = dst
    return table


def check(ctx: SolveContext | None) -> None:
    """Stop here if ``ctx`` says so (``None``: no limit)."""
    if ctx is not None:
        ctx.check()
