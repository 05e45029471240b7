"""Words for what a lemming does and what becomes of it, shared by the teaching texts
(:mod:`game.core.teach`, :mod:`game.core.teach_effects`).

Moves come as :func:`game.core.physics.move_words` gives them ("fall", "walk ahead", "turn around");
cells as :func:`game.core.level.cell_words` writes them.

>>> does("walk ahead"), does("climb ahead and turn"), does("stay")
('walks ahead', 'climbs ahead and turns', 'stays where it is')
>>> who(0, 1), who(1, 3)
('the lemming', 'lemming 2')
"""

from __future__ import annotations

import enum
from typing import Sequence

from game.core.level import column_words, row_words
from game.core.outcome import FailureKind, LemmingFailure, gerund
from game.core.physics import Offset, State, move_words, offset_words


def who(index: int, total: int) -> str:
    """The lemming's name in a sentence: ``the lemming`` when it is alone, else ``lemming 2``."""
    return f"lemming {index + 1}" if total > 1 else "the lemming"


def does(words: str) -> str:
    """A move in words, said of the lemming: ``fall`` -> ``falls``, ``turn around`` -> ``turns around``."""
    if words == "stay":
        return "stays where it is"
    parts = words.split()
    return " ".join(w + "s" if i == 0 or w == "turn" else w for i, w in enumerate(parts))


def cell_seen(offset: Offset) -> str:
    """A cell seen from the lemming: ``the cell below it``, ``the cell above and ahead of it``, ``its own cell``.

    >>> cell_seen((1, 0)), cell_seen((-1, 1)), cell_seen((0, 0))
    ('the cell below it', 'the cell above and ahead of it', 'its own cell')
    """
    words = offset_words(offset).split("-")
    if words == ["own cell"]:
        return "its own cell"
    if words[-1] == "ahead":
        words[-1] = "ahead of"
    return "the cell " + " and ".join(words) + " it"


def fall_column(path: Sequence[State], failure: LemmingFailure | None) -> int | None:
    """The column a lemming that fell into a pit drops into (None for other failures)."""
    if failure is None or failure.kind != FailureKind.FELL_INTO_PIT or failure.frame is None:
        return None
    return path[min(failure.frame, len(path) - 1)][1]


def fate(failure: LemmingFailure | None, name: str, pit: int | None = None, since: int = 0,
         falling: bool = False) -> str:
    """What becomes of a lemming, as a clause: ``the lemming falls into the pit at column 5 at frame 9``
    (``pit``: the column it drops into, :func:`fall_column`); said from frame ``since`` on, a fall that
    began before goes on (``falling``: ``keeps falling into the pit``) or is over (``stays in the pit``);
    ``failure`` None: it gets home."""
    if failure is None:
        return f"{name} gets home"
    f = failure.frame
    if failure.kind == FailureKind.FELL_INTO_PIT:
        column = failure.cell[1] if pit is None else pit
        if f is not None and f < since:
            return f"{name} {'keeps falling into' if falling else 'stays in'} the pit at {column_words(column)}"
        return f"{name} falls into the pit at {column_words(column)} at frame {f}"
    if failure.kind == FailureKind.STUCK_TURNING:
        return f"{name} gets stuck turning on the spot from frame {f}"
    if failure.kind == FailureKind.STANDING:
        return f"{name} stands still from frame {f}"
    if failure.kind == FailureKind.PACING:
        return f"{name} {'walks back and forth' if failure.sideways else 'goes round in a loop'} from frame {f}"
    if failure.kind == FailureKind.OFF_TARGET:
        return f"{name} crosses the target without stopping, from frame {f}"
    return f"{name} is still on its way at the last frame"


class Change(enum.Enum):
    """How a lemming's move at one frame differs from the move it made before (:func:`change_of`)."""

    NO_FALL = "no longer falls"
    TURN_BACK = "turns back"
    CLIMB = "climbs"
    STOP = "stops"
    DROP = "drops"
    NO_TURN = "no longer turns"
    OTHER = "moves otherwise"


def change_of(now: tuple[Offset, bool], then: tuple[Offset, bool]) -> Change:
    """The first of the :class:`Change` kinds that ``now`` (move, turned) shows against ``then``, in the order
    the teaching texts name them.

    >>> change_of(((0, 1), False), ((1, 0), False)), change_of(((0, 0), True), ((0, 1), False))
    (<Change.NO_FALL: 'no longer falls'>, <Change.TURN_BACK: 'turns back'>)
    """
    (move, turn), (old, old_turn) = now, then
    if old[0] > 0 and move[0] <= 0:
        return Change.NO_FALL
    if turn and not old_turn:
        return Change.TURN_BACK
    if move[0] < 0 <= old[0]:
        return Change.CLIMB
    if move == (0, 0) and not turn:
        return Change.STOP
    if move[0] > 0 >= old[0]:
        return Change.DROP
    if old_turn and not turn:
        return Change.NO_TURN
    return Change.OTHER


def change(now: tuple[Offset, bool], then: tuple[Offset, bool], name: str, frame: int, *,
           falling_at: int | None = None) -> str:
    """What a cell's change makes a lemming do (``now``) instead of what it did (``then``), as a verb
    phrase: ``turns the lemming back at frame 8``, ``keeps lemming 2 from falling at frame 4``;
    ``falling_at``: the row where a lemming already falling stops (``stops the fall at row 6, frame 9``).

    >>> change(((0, 0), True), ((0, 1), False), "the lemming", 8)
    'turns the lemming back at frame 8'
    >>> change(((0, 0), True), ((1, 0), False), "the lemming", 1)
    'keeps the lemming from falling at frame 1 (it turns back instead)'
    >>> change(((0, 1), False), ((1, 0), False), "lemming 2", 4)
    'keeps lemming 2 from falling at frame 4'
    >>> change(((1, 0), False), ((1, 1), False), "lemming 1", 4)
    'makes lemming 1 fall instead of falling ahead at frame 4'
    >>> change(((0, 1), False), ((1, 0), False), "the lemming", 9, falling_at=6)
    "stops the lemming's fall at row 6, frame 9"
    """
    (move, turn), (old, old_turn) = now, then
    kind = change_of(now, then)
    if kind == Change.NO_FALL:
        back = " (it turns back instead)" if turn and not old_turn else ""
        if falling_at is not None:
            return f"stops {name}'s fall at {row_words(falling_at)}, frame {frame}{back}"
        return f"keeps {name} from falling at frame {frame}{back}"
    if kind == Change.OTHER:
        return f"makes {name} {move_words(move, turn)} instead of {gerund(move_words(old, old_turn))} at frame {frame}"
    return {Change.TURN_BACK: f"turns {name} back", Change.CLIMB: f"lets {name} climb", Change.STOP: f"stops {name}",
            Change.DROP: f"makes {name} fall", Change.NO_TURN: f"lets {name} go on without turning"}[kind] + \
        f" at frame {frame}"


__all__ = ["Change", "cell_seen", "change", "change_of", "does", "fall_column", "fate", "who"]
