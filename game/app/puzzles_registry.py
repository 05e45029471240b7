"""The puzzles of the "More puzzles" screen: one entry per puzzle, loaded only when its module exists.

Each puzzle lives in its own scene module (possibly merged from another branch later).  An entry
whose module is missing is skipped; any other import error is a real bug and is raised.

>>> [e.title for e in PUZZLES]
['Reverse Life', 'Peg solitaire', 'Minesweeper']
>>> any(entry.title == "Minesweeper" for entry, _ in available_puzzles())
True
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PuzzleEntry:
    """A puzzle: its title, the module and class of its scene (built as ``Class(app)``), a one-line blurb."""

    title: str
    module: str
    class_name: str
    blurb: str


#: Every puzzle the screen knows, in menu order.
PUZZLES: tuple[PuzzleEntry, ...] = (
    PuzzleEntry("Reverse Life", "game.app.puzzles.life", "LifeScene",
                "Paint a start that becomes the board shown after 1 to 5 Game of Life steps."),
    PuzzleEntry("Peg solitaire", "game.app.puzzles.pegs", "PegsScene",
                "Jump pegs over one another until a single peg is left."),
    PuzzleEntry("Minesweeper", "game.app.puzzles.mines", "MinesScene",
                "Open every safe cell; the assistant shows the exact odds of each cell."),
)


def load_scene_class(entry: PuzzleEntry) -> Any | None:
    """The scene class of ``entry``, or ``None`` when its module is not there (not merged yet)."""
    try:
        module = importlib.import_module(entry.module)
    except ModuleNotFoundError as exc:
        if exc.name == entry.module:
            return None
        raise
    return getattr(module, entry.class_name)


def available_puzzles(entries: tuple[PuzzleEntry, ...] = PUZZLES) -> list[tuple[PuzzleEntry, Any]]:
    """``(entry, scene class)`` for every entry whose module exists, in order."""
    out = []
    for entry in entries:
        cls = load_scene_class(entry)
        if cls is not None:
            out.append((entry, cls))
    return out


__all__ = ["PUZZLES", "PuzzleEntry", "available_puzzles", "load_scene_class"]
