"""The side puzzles' models, and their one catalogue that every layer reads.

:data:`SIDE_PUZZLES` names each side puzzle once: the app's "More puzzles" screen lists them (each opens
the scene registered under its key) and the command line adds one command per puzzle, under its key.
Adding a puzzle: see ``docs/CONTRIBUTING.md``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SidePuzzle:
    """A side puzzle: ``key`` is its command's and its scene's name; ``title`` and ``blurb`` describe it."""

    key: str
    title: str
    blurb: str


#: The side puzzles, in menu order.
SIDE_PUZZLES: tuple[SidePuzzle, ...] = (
    SidePuzzle("life", "Reverse Life", "Paint a start that becomes the board shown after 1 to 5 Game of Life steps."),
    SidePuzzle("pegs", "Peg solitaire", "Jump pegs over one another until a single peg is left."),
    SidePuzzle("mines", "Minesweeper", "Open every safe cell; the assistant shows the exact odds of each cell."),
)

__all__ = ["SIDE_PUZZLES", "SidePuzzle"]
