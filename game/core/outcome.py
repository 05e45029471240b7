"""Why a run was lost: for each lemming that did not reach an exit, what happened and when.

Computed from the reference simulator's :class:`~game.core.simulation.Run` only, and phrased from the
moves the level's physics made (:func:`game.core.physics.move_words`), so the reasons stay true under any
physics.  The rules are deterministic, so a lemming whose state at the last frame already occurred
earlier is in a loop it can never leave.  That gives the player-facing reasons:

- ``STUCK_TURNING``: it turns on the spot every frame from the start ("between two walls" when it
  faces a solid cell at every turn);
- ``FELL_INTO_PIT``: it moved down into a pocket it can only go round (or turn) in;
- ``PACING``: it goes back and forth along its row (it never moved down into that pocket), or round a
  loop that changes rows;
- ``STANDING``: it stands still (a physics may move a lemming nowhere without turning it);
- ``OFF_TARGET``: its loop crosses a target that does not stop it (physics where targets do not stop
  lemmings);
- ``STILL_WALKING`` / ``STILL_FALLING``: not in a loop, the frames simply ran out (the sentence names
  its last move).

>>> from game.core.level import Level
>>> from game.core.simulation import simulate
>>> level = Level.from_rows([">   XT", "XX  XX", "XX  XX"], frames=12, budget=1)
>>> [f.sentence() for f in explain(simulate(level))]
['fell into the pit at frame 3']
>>> level = Level.from_rows(["X>X  T", "XXXXXX"], frames=5, budget=0)
>>> explain(simulate(level))[0].sentence()
'stuck turning between two walls from frame 0'
>>> level = Level.from_rows([">      T", "XXXXXXXX"], frames=4, budget=0)
>>> explain(simulate(level))[0].sentence()
'still walking at the last frame'
>>> shared_cells(simulate(Level.from_rows(["> <T", "XXXX"], frames=2, budget=0)), 1)
{(0, 1): 2}
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Collection, Sequence

import numpy as np

from game.core.level import Brick
from game.core.physics import move_words
from game.core.rules import State
from game.core.simulation import IntArray, LemmingTrack, Run, TrackPath, state_codes


class FailureKind(str, enum.Enum):
    """Why a lemming is not on an exit at the last frame."""

    STUCK_TURNING = "stuck_turning"
    FELL_INTO_PIT = "fell_into_pit"
    PACING = "pacing"
    STILL_WALKING = "still_walking"
    STILL_FALLING = "still_falling"
    OFF_TARGET = "off_target"  #: in a loop that crosses a target that does not stop it
    STANDING = "standing"  #: it stands still (its physics moves it nowhere and does not turn it)


@dataclass(frozen=True)
class LemmingFailure:
    """One lemming that missed: its index, where it ended, why, and from which frame.

    ``move`` is the last move it made, in words (:func:`game.core.physics.move_words`); ``walled``: its turns
    in the loop all face a solid cell (a wall or brick), so "between two walls" is true.
    """

    lemming: int
    cell: Brick
    kind: FailureKind
    frame: int | None = None  #: when it happened (None for "at the last frame")
    turning: bool = False  #: in the pit, it turns on the spot (a pit one cell wide)
    move: str = "walk ahead"
    walled: bool = True
    sideways: bool = True  #: its loop moves it along its row only
    standing: bool = False  #: in the loop it neither moves nor turns

    def sentence(self) -> str:
        """The reason in plain words, e.g. ``"fell into the pit at frame 9"``."""
        where = "between two walls" if self.walled else "on the spot"
        if self.kind == FailureKind.STUCK_TURNING:
            return f"stuck turning {where} from frame {self.frame}"
        if self.kind == FailureKind.STANDING:
            return f"standing still from frame {self.frame}"
        if self.kind == FailureKind.FELL_INTO_PIT:  # one event, also in a one-cell pit where it turns or stands
            return f"fell into {'a one-cell' if self.turning else 'the'} pit at frame {self.frame}"
        if self.kind == FailureKind.PACING:
            if not self.sideways:
                return f"going round in a loop from frame {self.frame}"
            return f"walking back and forth{' between two walls' if self.walled else ''} from frame {self.frame}"
        if self.kind == FailureKind.OFF_TARGET:
            return f"crossing a target without stopping, in a loop from frame {self.frame}"
        return f"still {gerund(self.move)} at the last frame"

    def describe(self, total: int) -> str:
        """The reason with the lemming named when there are several: ``"Lemming 2: fell ..."``."""
        text = self.sentence()
        return f"Lemming {self.lemming + 1}: {text}" if total > 1 else text[:1].upper() + text[1:]


def frame_label(frame: int, frames: int, *, short: bool = False) -> str:
    """The one way frames are counted on screen, in the GIF and on the timeline: frames are numbered
    ``0 .. N-1`` (frame 0: the lemmings at their hatches), shown against the last one.

    >>> frame_label(0, 12), frame_label(11, 12), frame_label(3, 12, short=True)
    ('frame 0 / 11', 'frame 11 / 11', 'f 3/11')
    """
    last = max(0, frames - 1)
    return f"f {frame}/{last}" if short else f"frame {frame} / {last}"


_ING = {"fall": "falling", "walk": "walking", "climb": "climbing", "step": "stepping", "turn": "turning",
        "stay": "staying"}


def gerund(words: str) -> str:
    """A move in words (:func:`game.core.physics.move_words`) as what the lemming is doing.

    >>> gerund("walk ahead"), gerund("fall ahead"), gerund("climb and turn")
    ('walking', 'falling ahead', 'climbing and turning')
    """
    parts = words.split()
    if parts[:2] == ["walk", "ahead"]:
        parts = parts[:1] + parts[2:]
    return " ".join(_ING.get(w, w) if i == 0 or w == "turn" else w for i, w in enumerate(parts))


def move_of(before: State, after: State) -> tuple[tuple[int, int], bool]:
    """The move between two states as the physics names it: ``((dr, da), turn)``, ``da`` seen from the lemming.

    >>> move_of((2, 3, -1), (2, 2, -1)), move_of((2, 3, 1), (2, 3, -1))
    (((0, 1), False), ((0, 0), True))
    """
    return (after[0] - before[0], (after[1] - before[1]) * before[2]), after[2] != before[2]


def _loop_start(path: Sequence[State]) -> int | None:
    """The first frame of the endless loop the lemming is in at the end, or None."""
    last = path[-1]
    try:
        repeat = path.index(last)
    except ValueError:  # pragma: no cover - the last state is always in the path
        return None
    if repeat == len(path) - 1:
        return None
    loop = set(path[repeat:])
    for frame, state in enumerate(path):
        if state in loop:
            return frame
    return repeat  # pragma: no cover


def explain_track(index: int, track: LemmingTrack, solid: Callable[[int, int], bool] | None = None,
                  targets: Collection[Brick] = ()) -> LemmingFailure | None:
    """Why lemming ``index`` missed (None when it reached an exit).

    ``solid(r, c)`` (walls, bricks, outside) lets the reasons name walls only where there are some;
    ``targets``: the level's targets (a loop over one means the target does not stop it).
    """
    if track.reached_at is not None:
        return None
    path = track.path
    row, col, _ = path[-1]
    cell = (row, col)
    start = _loop_start(path)
    if start is None:
        move, turn = move_of(path[-2], path[-1]) if len(path) > 1 else ((0, 1), False)
        kind = FailureKind.STILL_FALLING if move[0] > 0 else FailureKind.STILL_WALKING
        return LemmingFailure(index, cell, kind, move=move_words(move, turn))
    loop = path[start:]
    loop_cells = {(r, c) for r, c, _ in loop}
    turns = [a for a, b in zip(loop, loop[1:]) if move_of(a, b)[1]]
    walled = solid is None or all(solid(r, c + d) for r, c, d in turns)
    sideways = all(r == row for r, _, _ in loop)
    if loop_cells & set(targets):
        return LemmingFailure(index, cell, FailureKind.OFF_TARGET, start, walled=walled, sideways=sideways)
    standing = len(set(loop)) == 1
    turning = len(loop_cells) == 1 and not standing
    fall_end = None
    for frame in range(min(start, len(path) - 1), 0, -1):
        if path[frame][0] > path[frame - 1][0]:
            fall_end = frame
            break
    if fall_end is None or not walled:  # a fall onto a ledge whose edges turn it is no pit: it paces there
        kind = FailureKind.STANDING if standing else FailureKind.STUCK_TURNING if turning else FailureKind.PACING
        return LemmingFailure(index, cell, kind, start, walled=walled, sideways=sideways)
    fall_start = fall_end
    while fall_start > 1 and path[fall_start - 1][0] > path[fall_start - 2][0]:
        fall_start -= 1
    return LemmingFailure(index, cell, FailureKind.FELL_INTO_PIT, fall_start, turning, walled=walled,
                          sideways=sideways, standing=standing)


def explain(run: Run) -> list[LemmingFailure]:
    """Every lemming that is not on an exit at the last frame, with why and when."""
    level, placed = run.level, set(run.bricks)

    def solid(r: int, c: int) -> bool:
        return not level.in_bounds(r, c) or level.char_at(r, c) == "X" or (r, c) in placed

    out = []
    for i, track in enumerate(run.tracks):
        failure = explain_track(i, track, solid, level.targets)
        if failure is not None:
            out.append(failure)
    return out


def _path_codes(path: Sequence[State], width: int) -> IntArray:
    """The path's states as integers (:func:`game.core.simulation.state_codes`)."""
    if isinstance(path, TrackPath):
        return path.codes(width)
    states = np.asarray(tuple(path), dtype=np.int64).reshape(-1, 3)
    return state_codes(states[:, 0], states[:, 1], states[:, 2] > 0, width)


def track_settled_at(track: LemmingTrack, level_width: int, targets: Collection[Brick]) -> int | None:
    """The frame from which this lemming's part of the outcome cannot change, or None (it may still).

    The rules are deterministic, so once a lemming's state repeats it goes round that loop for ever: it
    is home for good when every cell of the loop is a target (a target that stops it is a loop of one
    state), and lost for good when none is.  A loop that crosses a target it does not stop on, or a
    lemming that is not in a loop yet, is not settled.  A lost lemming is settled once it has gone round
    its loop once (the player sees it repeat); a home one when it arrives.
    """
    codes = _path_codes(track.path, level_width)
    if codes.size == 0:
        return None
    repeat = int(np.argmax(codes == codes[-1]))
    if repeat == codes.size - 1 and codes.size > 1:
        return None
    loop = np.unique(codes[repeat:])
    on_target = [(int(code) // 2 // level_width, int(code) // 2 % level_width) in targets for code in loop]
    if any(on_target) and not all(on_target):
        return None
    start = int(np.argmax(np.isin(codes, loop)))
    return start if all(on_target) else min(codes.size - 1, start + loop.size)


def settled_at(run: Run) -> int:
    """The first frame from which the run's outcome cannot change: every lemming is home for good (on a
    target that stops it) or lost for good (in a loop with no target), see :func:`track_settled_at`.
    The last frame when some lemming may still change it.

    >>> from game.core.level import Level
    >>> from game.core.simulation import simulate
    >>> settled_at(simulate(Level.from_rows([">  T.....", "XXXXXXXXX"], frames=20, budget=0)))
    3
    >>> settled_at(simulate(Level.from_rows(["X>X  T", "XXXXXX"], frames=9, budget=0)))
    2
    >>> settled_at(simulate(Level.from_rows([">      T", "XXXXXXXX"], frames=4, budget=0)))
    3
    """
    last = max(0, run.frames - 1)
    targets = set(run.level.targets)
    latest = 0
    for track in run.tracks:
        if run.level.physics.targets_stop and track.reached_at is not None:
            frame: int | None = track.reached_at
        else:
            frame = track_settled_at(track, run.level.width, targets)
        if frame is None:
            return last
        latest = max(latest, frame)
    return min(latest, last)


def shared_cells(run: Run, frame: int) -> dict[Brick, int]:
    """Cells holding two or more lemmings at ``frame``, with how many."""
    counts = Counter((r, c) for r, c, _ in run.states_at(frame))
    return {cell: n for cell, n in sorted(counts.items()) if n > 1}
