"""On a mystery level the hint starts with the rule difference that matters there.

The sentence is read from the run of the player's own bricks (or of none), so it never gives a brick of
the answer away.  :func:`rule_lesson` makes it the first lesson H shows; the next press goes on where the
hint would have started (the reason and the idea when it teaches, else the first brick).
"""

from __future__ import annotations

import re
from typing import Iterable

from ai.facade import rule_difference
from game.core.level import Brick, Level
from game.core.teach import Lesson

#: How the sentence names the cell it is about (``row 2, column 6``, as the ruler counts).
_NAMED_CELL = re.compile(r"\brow (\d+), column (\d+)\b")


def rule_lesson(level: Level, bricks: Iterable[Brick]) -> Lesson | None:
    """The rule difference of ``level`` as a lesson (None on classic levels), about the cell the sentence
    names (the board marks what the words say), else about the first lemming's start."""
    text = rule_difference(level, tuple(bricks))  # the player's run: never a brick of the answer
    if not text or not level.lemmings:
        return None
    named = _NAMED_CELL.search(text)
    if named is not None and level.in_bounds(int(named[1]), int(named[2])):
        return Lesson(text, (int(named[1]), int(named[2])))
    first = level.lemmings[0]
    return Lesson(text, (first.row, first.col))


__all__ = ["rule_lesson"]
