"""Reachability analysis shared by the exact solvers: which lemming states can matter.

For every lemming we compute, frame by frame, the states ``(row, col, direction)`` it
can occupy on *some* winning run, assuming each brickable cell may or may not hold a
brick (an over-approximation):

* **forward**: states reachable from the start by frame ``t``;
* **backward**: states from which a target can still be reached by the last frame.

A state is *live* at frame ``t`` when it passes both tests.  Every winning trajectory
stays inside the live states, so solver encodings only need variables for them, and
only brickable cells that a live state reads (the cell below, the cell ahead) can hold
a useful brick.  A lemming with no live start state proves the level infeasible.

>>> from game.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> info = analyse(level)
>>> info.feasible, info.read_cells
(True, ((0, 1), (0, 2), (1, 2)))
>>> int(info.lemmings[0].live.sum())   # live states over all frames
5
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from ai.context import SolveContext
from game.level import Brick, Level

BoolArray = npt.NDArray[np.bool_]

#: Cell kinds of :attr:`CellKinds.kind`.
FREE, WALL, BRICKABLE = 0, 1, 2


@dataclass(frozen=True)
class CellKinds:
    """Padded ``(H+2, W+2)`` maps of what a cell can be: always blocked, never blocked, either.

    Outside the map (the padding ring) is wall.
    """

    can_block: BoolArray  #: wall or brickable
    can_free: BoolArray  #: not wall
    targets: BoolArray  #: padded target map

    @classmethod
    def of(cls, level: Level, brickable: BoolArray | None = None) -> CellKinds:
        """The cell kinds of ``level`` (``brickable`` overrides the level's brickable map)."""
        wall = np.pad(level.wall_map, 1, constant_values=True)
        brick = np.pad(level.brickable_map if brickable is None else brickable, 1, constant_values=False)
        tgt = np.pad(level.target_map, 1, constant_values=False)
        return cls(can_block=wall | brick, can_free=~wall, targets=tgt)


def _forward_step(occ: BoolArray, kinds: CellKinds) -> BoolArray:
    """Every state reachable in one step from the padded ``(H+2, W+2, 2)`` state set ``occ``."""
    inner = occ[1:-1, 1:-1]
    tgt = kinds.targets[1:-1, 1:-1, None]
    moving = inner & ~tgt
    below_free = kinds.can_free[2:, 1:-1, None]
    below_block = kinds.can_block[2:, 1:-1, None]
    grounded = moving & below_block
    nxt = np.zeros_like(occ)
    nxt[1:-1, 1:-1] |= inner & tgt
    nxt[2:, 1:-1] |= moving & below_free
    # channel 0 = left: ahead is column c-1; channel 1 = right: column c+1
    nxt[1:-1, :-2, 0] |= grounded[..., 0] & kinds.can_free[1:-1, :-2]
    nxt[1:-1, 2:, 1] |= grounded[..., 1] & kinds.can_free[1:-1, 2:]
    nxt[1:-1, 1:-1, 1] |= grounded[..., 0] & kinds.can_block[1:-1, :-2]
    nxt[1:-1, 1:-1, 0] |= grounded[..., 1] & kinds.can_block[1:-1, 2:]
    return nxt


def _backward_step(live_next: BoolArray, kinds: CellKinds) -> BoolArray:
    """States (padded) with at least one possible successor in the padded set ``live_next``."""
    out = np.zeros_like(live_next)
    tgt = kinds.targets[1:-1, 1:-1, None]
    below_free = kinds.can_free[2:, 1:-1, None]
    below_block = kinds.can_block[2:, 1:-1, None]
    fall_ok = below_free & live_next[2:, 1:-1]
    walk_left = kinds.can_free[1:-1, :-2] & live_next[1:-1, :-2, 0]
    walk_right = kinds.can_free[1:-1, 2:] & live_next[1:-1, 2:, 1]
    turn_left = kinds.can_block[1:-1, :-2] & live_next[1:-1, 1:-1, 1]
    turn_right = kinds.can_block[1:-1, 2:] & live_next[1:-1, 1:-1, 0]
    side = np.stack([walk_left | turn_left, walk_right | turn_right], axis=-1)
    moving_ok = fall_ok | (below_block & side)
    out[1:-1, 1:-1] = np.where(tgt, live_next[1:-1, 1:-1], moving_ok)
    return out


@dataclass(frozen=True)
class LemmingReach:
    """The live states of one lemming: ``live[t, r, c, ch]`` (channel 0 left, 1 right)."""

    start: tuple[int, int, int]
    live: BoolArray

    @property
    def feasible(self) -> bool:
        """False when no winning run exists even with bricks anywhere."""
        return bool(self.live[0].any())

    def states(self, frame: int) -> list[tuple[int, int, int]]:
        """Live states at ``frame`` as ``(row, col, direction)``."""
        return [(int(r), int(c), 1 if ch else -1) for r, c, ch in np.argwhere(self.live[frame])]


def lemming_reach(level: Level, start: tuple[int, int, int], kinds: CellKinds) -> LemmingReach:
    """Forward/backward live-state analysis of one lemming."""
    n, h, w = level.frames, level.height, level.width
    fwd = np.zeros((n, h + 2, w + 2, 2), dtype=bool)
    r, c, d = start
    fwd[0, r + 1, c + 1, 1 if d > 0 else 0] = True
    for t in range(1, n):
        fwd[t] = _forward_step(fwd[t - 1], kinds)
    live = np.zeros_like(fwd)
    live[n - 1] = fwd[n - 1] & kinds.targets[..., None]
    for t in range(n - 2, -1, -1):
        live[t] = fwd[t] & _backward_step(live[t + 1], kinds)
    if not live[0].any():
        live[:] = False
    return LemmingReach(start, live[:, 1:-1, 1:-1, :].copy())


def read_cells_of(live: BoolArray, level: Level) -> BoolArray:
    """``(H, W)``: brickable cells a live, moving state reads (below, or ahead when grounded)."""
    h, w = level.height, level.width
    # A state at the last frame reads nothing that matters: there is no next frame.
    moving = live[:-1].any(axis=0) & ~level.target_map[..., None]
    read = np.zeros((h + 2, w + 2), dtype=bool)
    any_moving = moving.any(axis=-1)
    read[2:, 1:-1] |= any_moving
    read[1:-1, :-2] |= moving[..., 0]
    read[1:-1, 2:] |= moving[..., 1]
    return read[1:-1, 1:-1] & level.brickable_map


@dataclass(frozen=True)
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
            out |= read_cells_of(lem.live, self.level)
        return out

    @cached_property
    def read_cells(self) -> tuple[Brick, ...]:
        """The cells of :attr:`read_map`, in reading order."""
        return tuple((int(r), int(c)) for r, c in np.argwhere(self.read_map))

    @property
    def live_state_count(self) -> int:
        """Total number of live (lemming, frame, state) triples."""
        return int(sum(lem.live.sum() for lem in self.lemmings))


def reach_for(level: Level, ctx: SolveContext) -> ReachInfo:
    """The reachability analysis of ``level``, computed once per solve: kept in ``ctx.shared``.

    Every racer and part of one solve shares the same analysis (contexts made with
    :meth:`SolveContext.child` share the cache).
    """
    key = f"reach:{level.puzzle_hash}"
    info = ctx.shared.get(key)
    if not isinstance(info, ReachInfo):
        info = analyse(level, ctx)
        ctx.shared[key] = info
    return info


def analyse(level: Level, ctx: SolveContext | None = None) -> ReachInfo:
    """Run the reachability analysis for every lemming of ``level`` (``ctx`` may stop it)."""
    kinds = CellKinds.of(level)
    lems = tuple(
        lemming_reach(level, (lem.row, lem.col, lem.direction), kinds) for lem in level.lemmings
    )
    return ReachInfo(level, lems)


def losing_reads(level: Level, bricks: tuple[Brick, ...]) -> list[list[Brick]]:
    """For each lemming that loses with ``bricks``: the brickable cells its run reads.

    Every brick set that agrees with ``bricks`` on those cells gives that lemming the
    same run, so it loses too: the solvers turn this into redundant constraints.
    """
    placed = set(bricks)
    out = []
    from game.simulation import simulate

    for track in simulate(level, bricks, enforce_budget=False).tracks:
        if track.reached_at is not None:
            continue
        reads: dict[Brick, None] = {}
        for r, c, d in track.path[:-1]:
            below = (r + 1, c)
            if level.char_at(*below) == " ":
                reads[below] = None
            if level.char_at(*below) == "X" or below in placed:
                ahead = (r, c + d)
                if level.char_at(*ahead) == " ":
                    reads[ahead] = None
        out.append(list(reads))
    return out
