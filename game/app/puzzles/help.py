"""What F1 shows over each side puzzle: that screen's own keys (the brick game's keys do not apply there).

The keys are the game's default labels, shown as the player bound them (:func:`game.app.input.display_key`).

>>> [page.title for page in (LIFE_HELP, PEGS_HELP, MINES_HELP)]
['Reverse Life keys', 'Peg solitaire keys', 'Minesweeper keys']
"""

from __future__ import annotations

from game.app.app import HelpPage

#: The keys every screen shares.
ANYWHERE: tuple[str, tuple[tuple[str, str], ...]] = ("Anywhere", (
    ("M", "sound on / off"),
    ("F1", "this help"),
    ("F12", "screenshot"),
))

#: Reverse Life (:class:`game.app.puzzles.life.LifeScene`).
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
        ("S", "the AI's start (Z: undo)"),
        ("Esc", "stop the AI, or back"),
    )),
    ANYWHERE,
))

#: Peg solitaire (:class:`game.app.puzzles.pegs.PegsScene`).
PEGS_HELP = HelpPage("Peg solitaire keys", (
    ("Jumping", (
        ("Drag a peg", "jump it"),
        ("Arrows", "move the cursor"),
        ("Enter / B", "pick up, drop"),
        ("Z / Y", "undo / redo"),
        ("R", "start again"),
    )),
    ("Boards", (
        ("Tab, [ / ]", "another board"),
        ("N", "a winnable board"),
    )),
    ("Assistant", (
        ("H", "a jump that can finish"),
        ("S", "play the AI's jumps"),
        ("Esc", "stop the AI, or back"),
    )),
    ANYWHERE,
))

#: Minesweeper (:class:`game.app.puzzles.mines.MinesScene`).
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
    ANYWHERE,
))

__all__ = ["ANYWHERE", "LIFE_HELP", "MINES_HELP", "PEGS_HELP"]
