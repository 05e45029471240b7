"""What F1 shows over Reverse Life (:class:`game.app.puzzles.life.LifeScene`):
that screen's own keys, as the player bound them.

>>> LIFE_HELP.title, LIFE_HELP.sections[-1] == ANYWHERE_KEYS
('Reverse Life keys', True)
"""

from __future__ import annotations

from game.app.app import ANYWHERE_KEYS, HelpPage

#: The screen's keys, by section; the keys every screen shares last.
LIFE_HELP = HelpPage("Reverse Life keys", (
    ("Painting your start", (
        ("Click / drag", "flip / paint cells"),
        ("Right-click", "clear a cell"),
        ("Arrows", "move the cursor"),
        ("Space / B", "flip the cursor's cell"),
        ("Z / Y", "undo / redo"),
        ("Backspace", "clear the board"),
    )),
    ("Puzzles", (
        (", / .", "one step less / more"),
        ("[ / ]", "previous / next puzzle"),
    )),
    ("Assistant", (
        ("H", "a cell to flip next"),
        ("S", "the AI's start (undoable)"),
        ("Esc", "stop the AI, or back"),
    )),
    ANYWHERE_KEYS,
))

__all__ = ["LIFE_HELP"]
