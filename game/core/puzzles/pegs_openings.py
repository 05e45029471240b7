"""Peg-solitaire games to play (a board, a start and a goal) and the three-colour rule in a player's words.

The French board with its centre empty cannot end with one peg in the centre (nor with one peg
anywhere): the position class of :meth:`game.core.puzzles.pegs.Board.position_class` rules it out.
So the French game opens with the hole one row below the top-middle hole, and is won with one peg on
the middle hole one row above the bottom (the AI finds it in seconds); the classic centre start stays
on offer, with the reason it cannot be won.

>>> french = OPENINGS["french"]()
>>> french.board.class_allows(french.start, french.goal), french.goal_cell
(True, (5, 3))
>>> classic = OPENINGS["french-centre"]()
>>> classic.board.class_allows(classic.start, classic.goal)
False
>>> colour_counts(classic.board, classic.start, classic.conflict), colour_counts(classic.board, classic.goal, 0)
((12, 12, 12), (1, 0, 0))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from game.core.puzzles.pegs import Board, Cell
from game.core.puzzles.pegs_boards import english, french

#: The three-colour rule (the position class) in a player's words.
CLASS_EXPLANATION = (
    "Colour the holes in three colours along the diagonals, as shown. Every jump passes over three "
    "holes in a row, one of each colour, and changes each colour's peg count by one. So whether two "
    "colours' counts are alike (both odd or both even) never changes. The goal needs a different "
    "pattern, so no sequence of jumps can reach it."
)
#: The same rule in one short clause (for a message line).
CLASS_SHORT = "the three-colour rule rules it out"

#: The hole left empty by the French game that can be won, and the hole its last peg must end on.
FRENCH_HOLE: Cell = (1, 3)
FRENCH_GOAL: Cell = (5, 3)


@dataclass(frozen=True)
class Opening:
    """A game to play: ``board`` from ``start`` to ``goal`` (``None``: one peg anywhere)."""

    key: str
    title: str
    board: Board
    start: int
    goal: int | None

    @property
    def goal_cell(self) -> Cell | None:
        """The hole the last peg must end on (``None``: any)."""
        return None if self.goal is None else self.board.pegs(self.goal)[0]

    @property
    def winnable_by_class(self) -> bool:
        """False when the three-colour rule proves the goal unreachable."""
        return self.board.class_allows(self.start, self.goal)

    @property
    def conflict(self) -> int:
        """The colouring (0: down-right diagonals, 1: down-left) that shows the goal unreachable (0 when none)."""
        return class_conflict(self.board, self.start, self.goal)


def colour(cell: Cell, direction: int) -> int:
    """The colour 0, 1 or 2 of ``cell`` along the diagonals ``direction`` (0: ``r + c``, 1: ``r - c``)."""
    r, c = cell
    return (r + c) % 3 if direction == 0 else (r - c) % 3


def colour_counts(board: Board, position: int, direction: int) -> tuple[int, int, int]:
    """The pegs of ``position`` on each colour of the diagonals ``direction``."""
    masks = board.class_masks[3 * direction: 3 * direction + 3]
    a, b, c = ((position & m).bit_count() for m in masks)
    return a, b, c


def alike(counts: tuple[int, int, int]) -> str:
    """The odd/even pattern of ``counts`` in words, e.g. ``all even`` or ``odd, even, even``."""
    words = ["odd" if n % 2 else "even" for n in counts]
    return f"all {words[0]}" if len(set(words)) == 1 else ", ".join(words)


def class_conflict(board: Board, position: int, goal: int | None) -> int:
    """The colouring whose odd/even pattern differs between ``position`` and ``goal`` (0 when both agree
    or when ``goal`` is ``None``)."""
    if goal is None:
        return 0
    mine, theirs = board.position_class(position), board.position_class(goal)
    return 0 if mine[:2] != theirs[:2] else 1 if mine[2:] != theirs[2:] else 0


def _english() -> Opening:
    board, start = english()
    return Opening("english", "English", board, start, board.goal_position())


def _french() -> Opening:
    board, full = french()
    full |= board.bit(board.centre or FRENCH_HOLE)
    return Opening("french", "French", board, full ^ board.bit(FRENCH_HOLE), board.bit(FRENCH_GOAL))


def _french_centre() -> Opening:
    board, start = french()
    return Opening("french-centre", "French, centre hole", board, start, board.goal_position())


#: The games of the peg-solitaire screen, in its Tab order.
OPENINGS: dict[str, Callable[[], Opening]] = {
    "english": _english, "french": _french, "french-centre": _french_centre}


__all__ = ["CLASS_EXPLANATION", "CLASS_SHORT", "FRENCH_GOAL", "FRENCH_HOLE", "OPENINGS", "Opening", "alike",
           "class_conflict", "colour", "colour_counts"]
