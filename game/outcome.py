"""Why a run was lost: for each lemming that did not reach an exit, what happened and when.

Computed from the reference simulator's :class:`~game.simulation.Run` only.  The rules are
deterministic, so a lemming whose state at the last frame already occurred earlier is in a
loop it can never leave (a loop holds no target: a lemming stops on one).  That gives the
player-facing reasons:

- ``STUCK_TURNING``: walls on both sides from the start, it turns on the spot every frame;
- ``FELL_INTO_PIT``: it dropped into a pocket it can only pace around (or turn) in;
- ``PACING``: it walks back and forth between two walls (it never fell into that pocket);
- ``STILL_WALKING`` / ``STILL_FALLING``: not in a loop, the frames simply ran out.

>>> from game.level import Level
>>> from game.simulation import simulate
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
from typing import Sequence

from game.level import Brick
from game.rules import State
from game.simulation import LemmingTrack, Run


class FailureKind(str, enum.Enum):
    """Why a lemming is not on an exit at the last frame."""

    STUCK_TURNING = "stuck_turning"
    FELL_INTO_PIT = "fell_into_pit"
    PACING = "pacing"
    STILL_WALKING = "still_walking"
    STILL_FALLING = "still_falling"


@dataclass(frozen=True)
class LemmingFailure:
    """One lemming that missed: its index, where it ended, why, and from which frame."""

    lemming: int
    cell: Brick
    kind: FailureKind
    frame: int | None = None  #: when it happened (None for "at the last frame")
    turning: bool = False  #: in the pit, it turns on the spot (a pit one cell wide)

    def sentence(self) -> str:
        """The reason in plain words, e.g. ``"fell into the pit at frame 9"``."""
        if self.kind == FailureKind.STUCK_TURNING:
            return f"stuck turning between two walls from frame {self.frame}"
        if self.kind == FailureKind.FELL_INTO_PIT:  # one event, also in a one-cell pit where it turns
            return f"fell into {'a one-cell' if self.turning else 'the'} pit at frame {self.frame}"
        if self.kind == FailureKind.PACING:
            return f"walking back and forth between two walls from frame {self.frame}"
        if self.kind == FailureKind.STILL_FALLING:
            return "still falling at the last frame"
        return "still walking at the last frame"

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


def explain_track(index: int, track: LemmingTrack) -> LemmingFailure | None:
    """Why lemming ``index`` missed (None when it reached an exit)."""
    if track.reached_at is not None:
        return None
    path = track.path
    row, col, _ = path[-1]
    cell = (row, col)
    start = _loop_start(path)
    if start is None:
        falling = len(path) > 1 and path[-1][0] > path[-2][0]
        return LemmingFailure(index, cell, FailureKind.STILL_FALLING if falling else FailureKind.STILL_WALKING)
    loop_cells = {(r, c) for r, c, _ in path[start:]}
    turning = len(loop_cells) == 1
    fall_end = None
    for frame in range(min(start, len(path) - 1), 0, -1):
        if path[frame][0] > path[frame - 1][0]:
            fall_end = frame
            break
    if fall_end is None:
        return LemmingFailure(index, cell, FailureKind.STUCK_TURNING if turning else FailureKind.PACING, start)
    fall_start = fall_end
    while fall_start > 1 and path[fall_start - 1][0] > path[fall_start - 2][0]:
        fall_start -= 1
    return LemmingFailure(index, cell, FailureKind.FELL_INTO_PIT, fall_start, turning)


def explain(run: Run) -> list[LemmingFailure]:
    """Every lemming that is not on an exit at the last frame, with why and when."""
    out = []
    for i, track in enumerate(run.tracks):
        failure = explain_track(i, track)
        if failure is not None:
            out.append(failure)
    return out


def shared_cells(run: Run, frame: int) -> dict[Brick, int]:
    """Cells holding two or more lemmings at ``frame``, with how many."""
    counts = Counter((r, c) for r, c, _ in run.states_at(frame))
    return {cell: n for cell, n in sorted(counts.items()) if n > 1}
