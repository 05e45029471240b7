"""The reference simulator: the one definition of the rules every other form is tested against.

The rule itself is the level's physics (:func:`game.core.physics_views.step`).  Small runs apply it one lemming at a time
(:func:`simulate_stepwise`); large ones apply it to every lemming at once with numpy
(:func:`simulate_vectorised`: the physics' table looked up for every lemming; a test checks both agree
on random levels) and keep the tracks compactly: one byte per row, column and direction per
lemming and frame, so a 256x256 level with N = 10,000 and 16,128 lemmings fits in about
half a gigabyte.

>>> from game.core.level import Level
>>> level = Level.from_rows([">  T", "XXXX"], frames=4, budget=0)
>>> run = simulate(level)
>>> run.won, run.tracks[0].reached_at
(True, 3)
>>> run.tracks[0].path[:2]
((0, 0, 1), (0, 1, 1))
>>> run.tracks[0].final
(0, 3, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Sequence, overload

import numpy as np
import numpy.typing as npt

from game.core.level import Brick, Level
from game.core.physics_views import stepper, views
from game.core.rules import State, check_bricks

IntArray = npt.NDArray[np.integer[Any]]


class TrackPath(Sequence[State]):
    """One lemming's states ``(row, col, direction)`` over frames 0..N-1, read from the run's arrays.

    Behaves like the tuple of states it stands for (indexing, slicing, iteration, ``==`` with a
    tuple) without building it.
    """

    __slots__ = ("_rows", "_cols", "_right")

    def __init__(self, rows: IntArray, cols: IntArray, right: npt.NDArray[np.bool_]) -> None:
        self._rows = rows
        self._cols = cols
        self._right = right

    def __len__(self) -> int:
        return int(self._rows.shape[0])

    @overload
    def __getitem__(self, index: int) -> State: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[State, ...]: ...

    def __getitem__(self, index: int | slice) -> State | tuple[State, ...]:
        if isinstance(index, slice):
            return tuple(zip(self._rows[index].tolist(), self._cols[index].tolist(),
                             (self._right[index].astype(np.int8) * 2 - 1).tolist()))
        return (int(self._rows[index]), int(self._cols[index]), 1 if self._right[index] else -1)

    def __iter__(self) -> Iterator[State]:
        return iter(self[:])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (TrackPath, tuple, list)):
            return len(self) == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"TrackPath({len(self)} frames)"

    def codes(self, width: int) -> IntArray:
        """One integer per frame for the state ``(row, col, direction)`` on a board ``width`` wide (equal
        states, equal codes)."""
        return state_codes(self._rows, self._cols, self._right, width)


def state_codes(rows: IntArray, cols: IntArray, right: npt.NDArray[np.bool_], width: int) -> IntArray:
    """The states ``(row, col, right)`` as one integer each (see :meth:`TrackPath.codes`)."""
    return (rows.astype(np.int64) * width + cols.astype(np.int64)) * 2 + right.astype(np.int64)


@dataclass(frozen=True, eq=False)
class LemmingTrack:
    """One lemming's run: its state ``(row, col, direction)`` at every frame 0..N-1 (:attr:`path`),
    and the frame from which it stands on a target through the last frame (``None``: it is not on one
    at the last frame).  Where targets stop lemmings that is the frame it first reached one."""

    path: Sequence[State]
    reached_at: int | None

    @property
    def final(self) -> State:
        """The state at the last frame."""
        return self.path[-1]

    def path_json(self) -> list[list[int]]:
        """The path as JSON lists ``[row, col, direction]``."""
        return [[r, c, d] for r, c, d in self.path]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LemmingTrack):
            return NotImplemented
        return self.reached_at == other.reached_at and tuple(self.path) == tuple(other.path)

    def __hash__(self) -> int:
        return hash((self.reached_at, len(self.path)))


@dataclass(frozen=True)
class Run:
    """The outcome of releasing the lemmings of ``level`` with ``bricks`` placed."""

    level: Level
    bricks: tuple[Brick, ...]
    tracks: tuple[LemmingTrack, ...]

    @property
    def won(self) -> bool:
        """True when every lemming is on a target at the last frame."""
        return all(track.reached_at is not None for track in self.tracks)

    @property
    def frames(self) -> int:
        """Number of frames N (the path length)."""
        return self.level.frames

    def states_at(self, frame: int) -> tuple[State, ...]:
        """Every lemming's state at ``frame`` (0..N-1)."""
        return tuple(track.path[frame] for track in self.tracks)

    def arrived_by(self, frame: int) -> int:
        """How many lemmings stand on a target at ``frame``."""
        return sum(1 for t in self.tracks if t.reached_at is not None and t.reached_at <= frame)

    def to_json(self, *, paths: bool = True) -> dict[str, Any]:
        """The JSON form printed by ``main.py simulate --json`` (without the paths if not ``paths``)."""
        return {
            "won": self.won,
            "frames": self.frames,
            "bricks": [[r, c] for r, c in self.bricks],
            "lemmings": [
                {"reached_at": t.reached_at, **({"path": t.path_json()} if paths else {})}
                for t in self.tracks
            ],
        }


class SimulationCancelled(Exception):
    """Raised by :func:`simulate` when its ``should_stop`` callback answered True."""


#: Runs with at most this many lemming-frames, or fewer lemmings than :data:`VECTOR_MIN_LEMMINGS`,
#: use :func:`simulate_stepwise` (faster there: numpy's per-call cost is paid once per frame).
STEPWISE_WORK = 20_000
VECTOR_MIN_LEMMINGS = 16


def simulate(level: Level, bricks: Iterable[Brick] = (), *, enforce_budget: bool = True,
             should_stop: Callable[[], bool] | None = None) -> Run:
    """Run the level with ``bricks`` for frames 0..N-1 and return every lemming's track.

    The brick set is checked first (:func:`game.core.rules.check_bricks`); an illegal set
    raises :class:`game.core.errors.IllegalBricksError`.  Small runs go one lemming and one
    :func:`~game.core.physics_views.step` at a time (:func:`simulate_stepwise`), larger ones all lemmings
    at once (:func:`simulate_vectorised`); both give the same run.  ``should_stop`` (asked
    every 256 frames) lets a background caller abandon a run no longer wanted
    (:class:`SimulationCancelled`).
    """
    count = len(level.lemmings)
    if count < VECTOR_MIN_LEMMINGS or count * level.frames <= STEPWISE_WORK:
        return simulate_stepwise(level, bricks, enforce_budget=enforce_budget, should_stop=should_stop)
    return simulate_vectorised(level, bricks, enforce_budget=enforce_budget, should_stop=should_stop)


def simulate_vectorised(level: Level, bricks: Iterable[Brick] = (), *, enforce_budget: bool = True,
                        should_stop: Callable[[], bool] | None = None) -> Run:
    """:func:`simulate` with numpy over all lemmings at once, tracks kept as compact arrays."""
    placed = check_bricks(level, bricks, enforce_budget=enforce_budget)
    height, width = level.height, level.width
    # Padded grids: a ring of wall around the map makes "outside counts as wall" exact.
    blocked = np.ones((height + 2, width + 2), dtype=bool)
    blocked[1:-1, 1:-1] = level.wall_map
    for brick_row, brick_col in placed:
        blocked[brick_row + 1, brick_col + 1] = True
    target = np.zeros((height + 2, width + 2), dtype=bool)
    target[1:-1, 1:-1] = level.target_map

    lemmings = level.lemmings
    count, frames = len(lemmings), level.frames
    coord = np.uint8 if max(height, width) <= 256 else np.uint16
    rows = np.empty((frames, count), dtype=coord)
    cols = np.empty((frames, count), dtype=coord)
    right = np.empty((frames, count), dtype=bool)
    # padded coordinates of the current frame
    r = np.array([lem.row + 1 for lem in lemmings], dtype=np.int32)
    c = np.array([lem.col + 1 for lem in lemmings], dtype=np.int32)
    d = np.array([lem.direction for lem in lemmings], dtype=np.int32)
    physics = level.physics
    stops, table = physics.targets_stop, views(physics).table.astype(np.int32)
    reads = views(physics).reads
    reached = np.full(count, -1, dtype=np.int64)
    home = target[r, c]
    reached[home] = 0
    if not stops:
        home[:] = False
    rows[0], cols[0], right[0] = r - 1, c - 1, d > 0
    for frame in range(1, frames):
        if should_stop is not None and frame % 256 == 0 and should_stop():
            raise SimulationCancelled(f"stopped at frame {frame}")
        moving = np.flatnonzero(~home)
        if moving.size:
            rm, cm, dm = r[moving], c[moving], d[moving]
            config = np.zeros(moving.size, dtype=np.intp)
            for dr, da, bit in reads:                       # the cells the physics reads, as table bits
                config |= blocked[rm + dr, cm + da * dm] * bit
            move = table[config]
            r[moving] = rm + move[:, 0]
            c[moving] = cm + move[:, 1] * dm
            d[moving] = np.where(move[:, 2] != 0, -dm, dm)
            if not stops:
                off = ~target[r, c]
                reached[off] = -1
            arrived = target[r[moving], c[moving]]
            if arrived.any():
                now = moving[arrived]
                now = now[reached[now] < 0]
                home[now] = stops
                reached[now] = frame
        rows[frame], cols[frame], right[frame] = r - 1, c - 1, d > 0
    tracks = tuple(
        LemmingTrack(TrackPath(rows[:, k], cols[:, k], right[:, k]), int(reached[k]) if reached[k] >= 0 else None)
        for k in range(count)
    )
    return Run(level, placed, tracks)


def simulate_stepwise(level: Level, bricks: Iterable[Brick] = (), *, enforce_budget: bool = True,
                      should_stop: Callable[[], bool] | None = None) -> Run:
    """:func:`simulate` one lemming and one :func:`~game.core.physics_views.step` at a time: the plain statement
    of the rules (tests check :func:`simulate_vectorised` against it).  ``should_stop``: as in :func:`simulate`."""
    placed = check_bricks(level, bricks, enforce_budget=enforce_budget)
    width = level.width
    # Padded grid: a ring of wall around the map makes "outside counts as wall" exact.
    blocked_rows = [[True] * (width + 2)]
    for row in level.grid:
        blocked_rows.append([True] + [ch == "X" for ch in row] + [True])
    blocked_rows.append([True] * (width + 2))
    for brick_row, brick_col in placed:
        blocked_rows[brick_row + 1][brick_col + 1] = True
    target_set = set(level.targets)

    def blocked(r: int, c: int) -> bool:
        return blocked_rows[r + 1][c + 1]

    def on_target(r: int, c: int) -> bool:
        return (r, c) in target_set

    step = stepper(level.physics, blocked, on_target)
    tracks = []
    for lemming in level.lemmings:
        state: State = (lemming.row, lemming.col, lemming.direction)
        path = [state]
        reached_at = 0 if on_target(state[0], state[1]) else None
        for frame in range(1, level.frames):
            if should_stop is not None and frame % 256 == 0 and should_stop():
                raise SimulationCancelled(f"stopped at frame {frame}")
            state = step(state)
            path.append(state)
            if not on_target(state[0], state[1]):
                reached_at = None
            elif reached_at is None:
                reached_at = frame
        tracks.append(LemmingTrack(tuple(path), reached_at))
    return Run(level, placed, tuple(tracks))
