"""The reference simulator: the one definition of the rules every other form is tested against.

>>> from game.level import Level
>>> level = Level.from_rows([">  T", "XXXX"], frames=4, budget=0)
>>> run = simulate(level)
>>> run.won, run.tracks[0].reached_at
(True, 3)
>>> run.tracks[0].path[:2]
((0, 0, 1), (0, 1, 1))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from game.level import Brick, Level
from game.rules import State, check_bricks, step


@dataclass(frozen=True)
class LemmingTrack:
    """One lemming's run: its state ``(row, col, direction)`` at every frame 0..N-1,
    and the first frame at which it stood on a target (``None`` if never)."""

    path: tuple[State, ...]
    reached_at: int | None

    @property
    def final(self) -> State:
        """The state at the last frame."""
        return self.path[-1]


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

    def to_json(self) -> dict[str, Any]:
        """The JSON form printed by ``main.py simulate --json``."""
        return {
            "won": self.won,
            "frames": self.frames,
            "bricks": [[r, c] for r, c in self.bricks],
            "lemmings": [
                {"reached_at": t.reached_at, "path": [[r, c, d] for r, c, d in t.path]}
                for t in self.tracks
            ],
        }


def simulate(level: Level, bricks: Iterable[Brick] = (), *, enforce_budget: bool = True) -> Run:
    """Run the level with ``bricks`` for frames 0..N-1 and return every lemming's track.

    The brick set is checked first (:func:`game.rules.check_bricks`); an illegal set
    raises :class:`game.errors.IllegalBricksError`.
    """
    placed = check_bricks(level, bricks, enforce_budget=enforce_budget)
    height, width = level.height, level.width
    # Padded grid: a ring of wall around the map makes "outside counts as wall" exact.
    blocked_rows = [[True] * (width + 2)]
    for row in level.grid:
        blocked_rows.append([True] + [ch == "X" for ch in row] + [True])
    blocked_rows.append([True] * (width + 2))
    for r, c in placed:
        blocked_rows[r + 1][c + 1] = True
    target_set = set(level.targets)

    def blocked(r: int, c: int) -> bool:
        return blocked_rows[r + 1][c + 1]

    def on_target(r: int, c: int) -> bool:
        return (r, c) in target_set

    tracks = []
    for lemming in level.lemmings:
        state: State = (lemming.row, lemming.col, lemming.direction)
        path = [state]
        reached_at = 0 if on_target(state[0], state[1]) else None
        for frame in range(1, level.frames):
            state = step(blocked, on_target, state)
            path.append(state)
            if reached_at is None and on_target(state[0], state[1]):
                reached_at = frame
        assert 0 <= state[0] < height and 0 <= state[1] < width
        tracks.append(LemmingTrack(tuple(path), reached_at))
    return Run(level, placed, tuple(tracks))
