"""Reachability analysis shared by the exact solvers: which lemming states can matter.

For every lemming we find, frame by frame, the states ``(row, col, direction)`` it can occupy on
*some* winning run, assuming each brickable cell may or may not hold a brick (an over-approximation):

* **forward** ``F(t)``: states reachable from the start at frame ``t``;
* **backward** ``B(t)``: states from which a target can be reached at the last frame.

A state is *live* at frame ``t`` when it is in both.  Every winning run stays inside the live states,
so solver encodings only need variables for them, and only brickable cells that a live state reads
(a cell some branch of the level's physics needs, :attr:`game.core.physics_views.PhysicsViews.branches`) can hold a useful brick.  A lemming with no live start proves the level
infeasible.

The analysis costs time and memory in proportion to the states a lemming can reach, not to
frames x cells: the moves (one per branch of the level's physics) are first collected into a small state
graph of the states reachable from the start that can still reach a target; the frame sets are sparse
arrays of state indices, and each pass stops as soon as its set repeats (from then on the sets are
periodic, so frame ``t`` maps onto a stored one).  Long loops check the :class:`~ai.kernel.context.SolveContext`.

>>> from game.core.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> info = analyse(level)
>>> info.feasible, info.read_cells
(True, ((0, 1), (0, 2), (1, 2)))
>>> info.live_state_count, info.lemmings[0].states(4)
(5, [(0, 3, 1)])
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from ai.kernel.context import SolveContext
from ai.solvers.reach_graph import Block, Grid
from game.core.level import Brick, Level
from game.core.physics_views import views
from game.core.simulation import simulate

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]

#: Largest dense ``(N, H, W, 2)`` array :attr:`LemmingReach.live` builds (cells); beyond, MemoryError.
MAX_DENSE_CELLS = 200_000_000
#: Largest number of live states :meth:`LemmingReach.coords` lists; beyond, MemoryError.
MAX_COORDS = 20_000_000
#: Largest ``lemmings x states-per-lemming`` table one block of the analysis allocates.
BLOCK_CELLS = 32_000_000


class ReachTooLarge(MemoryError):
    """A dense view of the analysis was asked for that would not fit in memory."""


@dataclass(frozen=True, eq=False)
class LemmingReach:
    """The live states of one lemming (frame ``t``: :meth:`states`, all: :meth:`coords`, dense: :attr:`live`)."""

    start: tuple[int, int, int]
    block: Block
    index: int  #: the lemming's place in its block

    @cached_property
    def _range(self) -> tuple[int, int]:
        return int(self.block.offsets[self.index]), int(self.block.offsets[self.index + 1])

    @property
    def feasible(self) -> bool:
        """False when no winning run exists even with bricks anywhere."""
        first = int(self.block.starts[self.index])
        return first >= 0 and bool(self.block.live_first[first])

    def live_ids(self, frame: int) -> IntArray:
        """State ids (padded position * 2 + channel) live at ``frame``."""
        if not self.feasible:
            return np.zeros(0, dtype=np.int64)
        lo, hi = self._range
        live = self.block.live_at(frame)
        live = live[np.searchsorted(live, lo):np.searchsorted(live, hi)]
        return self.block.nodes[live] - self.index * self.block.span

    def states(self, frame: int) -> list[tuple[int, int, int]]:
        """Live states at ``frame`` as ``(row, col, direction)``, in reading order."""
        rows, cols, chs = self.block.grid.decode(self.live_ids(frame))
        return [(int(r), int(c), 1 if ch else -1) for r, c, ch in zip(rows, cols, chs)]

    @property
    def extent(self) -> tuple[int, int, int, int]:
        """``(first row, last row, first col, last col)`` of every cell a run can occupy or read (any bricks)."""
        r0, r1, c0, c1 = (int(v) for v in self.block.extents[self.index])
        return r0, r1, c0, c1

    @property
    def live_count(self) -> int:
        """Live (frame, state) pairs of this lemming."""
        return int(self.block.live_counts[self.index]) if self.feasible else 0

    def coords(self, ctx: SolveContext | None = None) -> IntArray:
        """``(M, 4)`` rows ``(frame, row, col, channel)`` of every live state, like ``np.argwhere(live)``."""
        if self.live_count > MAX_COORDS:
            raise ReachTooLarge(f"{self.live_count} live states are too many to list")
        frames: list[IntArray] = [np.zeros(0, dtype=np.int64)]
        ids: list[IntArray] = [np.zeros(0, dtype=np.int64)]
        for t in range(self.block.grid.frames):
            if ctx is not None and t & 63 == 0:
                ctx.check()
            live = self.live_ids(t)
            if live.size:
                ids.append(live)
                frames.append(np.full(live.size, t, dtype=np.int64))
        rows, cols, chs = self.block.grid.decode(np.concatenate(ids))
        return np.stack([np.concatenate(frames), rows, cols, chs], axis=1)

    def _union_ids(self, union: BoolArray) -> IntArray:
        if not self.feasible:
            return np.zeros(0, dtype=np.int64)
        lo, hi = self._range
        return self.block.nodes[lo:hi][union[lo:hi]] - self.index * self.block.span

    def live_any(self) -> BoolArray:
        """``(H, W, 2)``: states live at some frame (``live.any(axis=0)``)."""
        grid = self.block.grid
        out = np.zeros((grid.height, grid.width, 2), dtype=bool)
        rows, cols, chs = grid.decode(self._union_ids(self.block.union_all))
        out[rows, cols, chs] = True
        return out

    @cached_property
    def read_map(self) -> BoolArray:
        """``(H, W)``: brickable cells a live state reads before the last frame (a cell some branch of the
        physics that is possible there needs)."""
        grid = self.block.grid
        ids = self._union_ids(self.block.union_moving)
        read = np.zeros(grid.can_free.size, dtype=bool)
        read[grid.reads(ids)] = True
        read &= grid.brickable
        return read.reshape(grid.height + 2, grid.pw)[1:-1, 1:-1].copy()

    @property
    def live(self) -> BoolArray:
        """Dense ``(N, H, W, 2)`` live map (small levels only; :class:`ReachTooLarge` beyond)."""
        return self.dense()

    def dense(self, ctx: SolveContext | None = None) -> BoolArray:
        """:attr:`live`, built under ``ctx`` (checked every 64 frames)."""
        grid = self.block.grid
        cells = grid.frames * grid.height * grid.width * 2
        if cells > MAX_DENSE_CELLS:
            raise ReachTooLarge(f"a dense live map of {cells} cells is too large")
        out = np.zeros((grid.frames, grid.height, grid.width, 2), dtype=bool)
        t, r, c, ch = self.coords(ctx).T
        out[t, r, c, ch] = True
        return out


@dataclass(frozen=True, eq=False)
class ReachInfo:
    """Live states of every lemming, and the brickable cells any of them reads."""

    level: Level
    lemmings: tuple[LemmingReach, ...]

    @property
    def feasible(self) -> bool:
        """False when reachability alone proves that no brick set wins."""
        return all(lem.feasible for lem in self.lemmings)

    @cached_property
    def read_map(self) -> BoolArray:
        """``(H, W)`` bool: cells where a brick can change some lemming's run."""
        out = np.zeros((self.level.height, self.level.width), dtype=bool)
        for lem in self.lemmings:
            out |= lem.read_map
        return out

    @cached_property
    def read_cells(self) -> tuple[Brick, ...]:
        """The cells of :attr:`read_map`, in reading order."""
        return tuple((int(r), int(c)) for r, c in np.argwhere(self.read_map))

    @property
    def state_bound(self) -> int:
        """A cheap upper bound on :attr:`live_state_count`: frames x the states each lemming can reach."""
        return self.level.frames * sum(hi - lo for lo, hi in (lem._range for lem in self.lemmings))

    @property
    def live_state_count(self) -> int:
        """Total number of live (lemming, frame, state) triples."""
        return self.count_live_states(None)

    def count_live_states(self, ctx: SolveContext | None) -> int:
        """:attr:`live_state_count`, checking ``ctx`` while it counts (long on huge levels)."""
        for block in {id(lem.block): lem.block for lem in self.lemmings}.values():
            block.count_live(ctx)
        return sum(lem.live_count for lem in self.lemmings)

    @property
    def nbytes(self) -> int:
        """Bytes held by the analysis (its stored frame sets and state lists)."""
        return sum(block.nbytes for block in {id(lem.block): lem.block for lem in self.lemmings}.values())


def reach_for(level: Level, ctx: SolveContext) -> ReachInfo:
    """The reachability analysis of ``level``, computed once per solve: kept in ``ctx.shared``.

    Every racer and part of one solve shares the same analysis (contexts made with
    :meth:`SolveContext.child` share the cache).
    """
    info = ctx.shared.get(reach_key(level))
    if not isinstance(info, ReachInfo):
        info = analyse(level, ctx)
        ctx.shared[reach_key(level)] = info
    return info


#: The last few analyses (small ones only), for callers without a solve context (see :func:`analyse`).
_RECENT: dict[str, ReachInfo] = {}
RECENT_COUNT, RECENT_BYTES = 16, 20_000_000


def reach_key(level: Level) -> str:
    """The key of ``level``'s analysis in :attr:`SolveContext.shared`: the map, N and the physics (the budget
    plays no part)."""
    body = "\n".join([str(level.frames), *level.grid])
    if not views(level.physics).is_classic:
        body += "\n" + views(level.physics).behaviour_key
    return "reach:" + hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def analyse(level: Level, ctx: SolveContext | None = None, *, brickable: BoolArray | None = None) -> ReachInfo:
    """Run the reachability analysis for every lemming of ``level`` (``ctx`` may stop it).

    ``brickable`` replaces the level's brickable map (e.g. to let lemming starts hold bricks).
    The last few small analyses are kept, so solvers that analyse a level again (racers of one
    solve, the parts of a decomposition) get the same object back.
    """
    key = reach_key(level) if brickable is None else ""
    known = _RECENT.get(key)
    if known is not None:
        return known
    info = _analyse(level, ctx, brickable)
    if key and info.nbytes <= RECENT_BYTES:
        _RECENT[key] = info
        while len(_RECENT) > RECENT_COUNT:
            del _RECENT[next(iter(_RECENT))]
    return info


def wins_without_bricks(level: Level, ctx: SolveContext | None = None) -> bool:
    """True when the level is won with no brick: the analysis with no brickable cell (one run per lemming).

    Same answer as ``simulate(level, ()).won``, but vectorised over the lemmings, stopping once the runs
    repeat, and checking ``ctx``: on a 256x256 level with 10,000 frames and 240 lemmings, a fraction of a
    second instead of 2.4 million Python steps.
    """
    return analyse(level, ctx, brickable=np.zeros((level.height, level.width), dtype=bool)).feasible


def _analyse(level: Level, ctx: SolveContext | None, brickable: BoolArray | None) -> ReachInfo:
    grid = Grid(level, brickable)
    starts = [((lem.row + 1) * grid.pw + lem.col + 1) * 2 + (1 if lem.direction > 0 else 0)
              for lem in level.lemmings]
    per_block = max(1, BLOCK_CELLS // grid.states)
    out: list[LemmingReach] = []
    for first in range(0, len(starts), per_block):
        block = Block(grid, starts[first:first + per_block], ctx)
        for k, lem in enumerate(level.lemmings[first:first + per_block]):
            out.append(LemmingReach((lem.row, lem.col, lem.direction), block, k))
    return ReachInfo(level, tuple(out))


def losing_reads(level: Level, bricks: tuple[Brick, ...]) -> list[list[Brick]]:
    """For each lemming that loses with ``bricks``: the brickable cells its run reads (the cells the
    branch of the physics taken at each step needs).

    Every brick set that agrees with ``bricks`` on those cells gives that lemming the
    same run, so it loses too: the solvers turn this into redundant constraints.
    """
    solid = level.obstacle_map(bricks)
    physics = level.physics
    branches = views(physics).branches

    def blocked(cell: Brick) -> bool:
        return not level.in_bounds(*cell) or bool(solid[cell])

    out = []
    for track in simulate(level, bricks, enforce_budget=False).tracks:
        if track.reached_at is not None:
            continue
        reads: dict[Brick, None] = {}
        for r, c, d in track.path[:-1]:
            if physics.targets_stop and level.target_map[r, c]:
                continue
            for branch in branches:
                cells = branch.cells((r, c, d))
                if all(blocked(cell) == want for cell, want in cells):
                    for cell, _ in cells:
                        if level.in_bounds(*cell) and level.brickable_map[cell]:
                            reads[cell] = None
                    break
        out.append(list(reads))
    return out
