"""What F1 shows over peg solitaire (:class:`game.app.puzzles.pegs.PegsScene`):
that screen's own keys, as the player bound them.

>>> PEGS_HELP.title, PEGS_HELP.sections[-1] == ANYWHERE_KEYS
('Peg solitaire keys', True)
"""

from __future__ import annotations

from game.app.app import ANYWHERE_KEYS, HelpPage

#: The screen's keys, by section; the keys every screen shares last.
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
    ANYWHERE_KEYS,
))



def pegs_footer(*, busy: str = "", winnable: bool = False) -> list[tuple[str, str]]:
    """The screen's footer keys, the most useful first (a narrow window drops them from the end): the two
    ways to jump (the mouse's and the keyboard's), undo, the assistant, the boards. ``busy``: how long the
    AI has been thinking (after "hint"); ``winnable``: N opens a winnable start (on a lost one).

    >>> [key for key, _ in pegs_footer()][:3]
    ['drag', 'Arrows+Enter', 'Z']
    """
    return [("drag", "jump"), ("Arrows+Enter", "jump"), ("Z", "undo"), ("H", "hint" + busy), ("S", "solve"),
            ("Tab", "board"), *([("N", "winnable")] if winnable else []), ("R", "restart"), ("Esc", "back")]


__all__ = ["PEGS_HELP", "pegs_footer"]
