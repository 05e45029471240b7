"""What F1 shows over Minesweeper (:class:`game.app.puzzles.mines.MinesScene`):
that screen's own keys, as the player bound them.

>>> MINES_HELP.title, MINES_HELP.sections[-1] == ANYWHERE_KEYS
('Minesweeper keys', True)
"""

from __future__ import annotations

from game.app.app import ANYWHERE_KEYS, HelpPage

#: The screen's keys, by section; the keys every screen shares last.
MINES_HELP = HelpPage("Minesweeper keys", (
    ("Playing", (
        ("Click / Enter", "reveal a cell"),
        ("Right-click / F", "flag a cell"),
        ("Arrows", "move the cursor"),
        ("R", "new board"),
    )),
    ("Boards", (
        ("1 2 3", "beginner .. expert"),
        ("4", "custom board"),
        ("+ / -", "custom: its size"),
        ("[ / ]", "custom: its mines"),
    )),
    ("Assistant", (
        ("H", "show the mine odds"),
        ("S", "one assistant step"),
        ("A", "assistant plays on"),
        ("Esc", "stop it, or back"),
    )),
    ANYWHERE_KEYS,
))

__all__ = ["MINES_HELP"]
