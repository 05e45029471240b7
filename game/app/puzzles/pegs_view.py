"""How the peg-solitaire scene is laid out, and its panel explaining why a start cannot be won.

The window is split, top to bottom, into the top bar, a band of :data:`MESSAGE_LINES` message lines,
the board and the hint bar.  When the three-colour rule proves the goal unreachable, the board moves to
the left and the right of the window shows the rule in a player's words, with the holes tinted in the
three colours and each colour's peg count now and in the goal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection

import pygame

from game.app import hud
from game.app.input import display_key
from game.core.puzzles.pegs import Board, Cell
from game.core.puzzles.pegs_openings import (
    CLASS_EXPLANATION,
    CLASS_SHORT,
    alike,
    colour,
    colour_counts,
)

#: Text size and lines of the message band under the top bar.
MESSAGE_SIZE = 22
MESSAGE_LINES = 2
#: Text size of the explanation panel.
PANEL_SIZE = 20
#: Most lines the explanation may take.
PANEL_LINES = 14
#: Largest cell, in pixels.
MAX_CELL = 84
#: Colours of the holes and the pegs.
HOLE = (40, 32, 64)
HOLE_EDGE = (120, 104, 170)
PEG = (230, 170, 60)
PEG_EDGE = (120, 70, 20)
#: The three colours of the rule, as hole tints.
TINTS = ((150, 60, 60), (50, 120, 70), (60, 80, 160))
#: The title of the explanation panel.
PANEL_TITLE = "Why this start cannot be won"


@dataclass(frozen=True)
class BoardLayout:
    """Where the board's cells are on screen (and the explanation panel, when one is shown)."""

    left: int
    top: int
    cell: int
    board: Board
    panel: pygame.Rect | None = None

    def rect(self, cell: Cell) -> pygame.Rect:
        """The square of ``cell``."""
        return pygame.Rect(self.left + cell[1] * self.cell, self.top + cell[0] * self.cell, self.cell, self.cell)

    def cell_at(self, pos: tuple[int, int] | None) -> Cell | None:
        """The board cell under ``pos``, or ``None``."""
        if pos is None:
            return None
        c = (pos[0] - self.left) // self.cell
        r = (pos[1] - self.top) // self.cell
        return (r, c) if self.board.on_board((r, c)) else None


def message_top() -> int:
    """The top of the message band."""
    return hud.TOP_BAR + 6


def board_layout(size: tuple[int, int], board: Board, explain: bool) -> BoardLayout:
    """The board's place in a window of ``size`` (on the left, beside the panel, when ``explain``)."""
    w, h = size
    line = hud.text("Ag", MESSAGE_SIZE).get_height()
    top, bottom = message_top() + MESSAGE_LINES * line + 12, h - hud.BOTTOM_BAR - 12
    room = (w - 40) * 9 // 20 if explain else w - 40
    cell = max(8, min(MAX_CELL, room // board.width, (bottom - top) // board.height))
    top += (bottom - top - cell * board.height) // 2
    if not explain:
        return BoardLayout((w - cell * board.width) // 2, top, cell, board)
    left = 20 + (room - cell * board.width) // 2
    panel = pygame.Rect(left + cell * board.width + 20, top, 0, cell * board.height)
    panel.width = w - 20 - panel.left
    return BoardLayout(left, top, cell, board, panel)


def message_lines(message: str, width: int) -> list[str]:
    """The lines of the message band in a window ``width`` wide."""
    return hud.wrap_text(message, MESSAGE_SIZE, width - 40, MESSAGE_LINES)


def explanation_lines(width: int) -> list[str]:
    """The explanation wrapped to a panel ``width`` wide."""
    return hud.wrap_text(CLASS_EXPLANATION, PANEL_SIZE, width - 24, PANEL_LINES)


def panel_height(width: int, with_goal: bool) -> int:
    """The height the panel's title, explanation and rows of counts take in a panel ``width`` wide."""
    step = hud.text("Ag", PANEL_SIZE).get_height() + 1
    rows = 2 if with_goal else 1
    return 10 + hud.text("Ag", 24).get_height() + 6 + len(explanation_lines(width)) * step + 8 + rows * (step + 3) + 10


def draw_tints(surface: pygame.Surface, layout: BoardLayout, direction: int) -> None:
    """Tint every hole's square with its colour of the rule."""
    for cell in layout.board.cells:
        pygame.draw.rect(surface, TINTS[colour(cell, direction)], layout.rect(cell).inflate(-2, -2),
                         border_radius=6)


def draw_panel(surface: pygame.Surface, rect: pygame.Rect, board: Board, position: int, goal: int | None,
               direction: int) -> int:
    """The explanation, then each colour's peg count now and in the goal, in a panel no taller than they
    need (at most ``rect``); returns the bottom of the text."""
    rect = pygame.Rect(rect.left, rect.top, rect.width, min(rect.height, panel_height(rect.width, goal is not None)))
    hud.panel(surface, rect, alpha=220)
    x, y = rect.left + 12, rect.top + 10
    hud.blit_text(surface, hud.fit_text(PANEL_TITLE, 24, rect.width - 24), (x, y), 24, hud.GOLD)
    y += hud.text("Ag", 24).get_height() + 6
    step = hud.text("Ag", PANEL_SIZE).get_height() + 1
    for line in explanation_lines(rect.width):
        hud.blit_text(surface, line, (x, y), PANEL_SIZE, hud.WHITE)
        y += step
    y += 8
    rows = [("Now", colour_counts(board, position, direction))]
    if goal is not None:
        rows.append(("Goal", colour_counts(board, goal, direction)))
    for label, counts in rows:
        y = _count_row(surface, (x, y), rect.right - 12, label, counts) + 4
    return y


def _count_row(surface: pygame.Surface, at: tuple[int, int], right: int, label: str,
               counts: tuple[int, int, int]) -> int:
    """``label: [swatch] n  [swatch] n  [swatch] n (pattern)``; returns the y under it."""
    x, y = at
    hud.blit_text(surface, f"{label}:", (x, y), PANEL_SIZE, hud.WHITE)
    x += hud.text("Goal: ", PANEL_SIZE).get_width()
    size = hud.text("Ag", PANEL_SIZE).get_height()
    for tint, n in zip(TINTS, counts):
        pygame.draw.rect(surface, tint, pygame.Rect(x, y + 3, size - 6, size - 6), border_radius=3)
        x += size - 2
        shown = f"{n}"
        hud.blit_text(surface, shown, (x, y), PANEL_SIZE, hud.WHITE)
        x += hud.text(shown + "  ", PANEL_SIZE).get_width()
    pattern = hud.fit_text(f"({alike(counts)})", PANEL_SIZE, max(10, right - x))
    hud.blit_text(surface, pattern, (x, y), PANEL_SIZE, hud.GOLD)
    return y + size


def lost_message(board: Board, position: int, goal: int | None, why: str, ago: int = 0,
                 back: int | None = None) -> str:
    """The AI's proof that ``position`` is lost (``why``), in a player's words: the three-colour rule's, when
    it rules the goal out (the panel beside the board explains it); ``ago``: the proof was found that many
    jumps back (every position after a lost one is lost); ``back``: that many jumps taken back reach a
    position known to finish (said instead of ``ago``: it is what the player can do).

    >>> from game.core.puzzles.pegs_boards import english
    >>> board, start = english()
    >>> lost_message(board, start, board.goal_position(), "every sequence of jumps was tried", 2)
    'No jump can still finish: every sequence of jumps was tried (already lost 2 jumps ago).'
    >>> lost_message(board, start, board.goal_position(), "too few pegs are left", 1, back=3)
    'No jump can still finish: too few pegs are left (undo 3 jumps to reach a position that can finish).'
    """
    notes = []
    if not board.class_allows(position, goal):
        why = CLASS_SHORT
        notes.append("see the right")  # the panel explains it
    if back:
        notes.append(f"undo {hud.plural(back, 'jump')} to reach a position that can finish")
    elif ago:
        notes.append(f"already lost {hud.plural(ago, 'jump')} ago")
    return f"No jump can still finish: {why}" + (f" ({'; '.join(notes)})" if notes else "") + "."


def opening_message(board: Board, goal: int | None, *, explain: bool) -> str:
    """What the message band says when a game opens (``explain``: the three-colour rule proves it lost).

    >>> from game.core.puzzles.pegs_boards import english
    >>> board, start = english()
    >>> opening_message(board, board.goal_position(), explain=False)
    'Jump pegs over neighbours until one peg is left, in the centre.'
    """
    if explain:
        return f"This start cannot be won: {CLASS_SHORT} (see the right). Press {display_key('N')} for a winnable start."
    if goal is None:
        return "Jump pegs over neighbours until one peg is left."
    where = "in the centre" if goal == board.goal_position() else "on the ringed hole"
    return f"Jump pegs over neighbours until one peg is left, {where}."


def position_message(board: Board, position: int, goal: int | None) -> str:
    """What the message band says of ``position`` after a jump, an undo or a redo: solved, stuck, or the pegs left.

    >>> from game.core.puzzles.pegs_boards import english
    >>> board, start = english()
    >>> position_message(board, start, board.goal_position())
    '32 pegs left.'
    """
    pegs = hud.plural(board.count(position), 'peg')
    if board.is_goal(position, goal):
        return ("Solved: one peg left!" if goal is None else "Solved: one peg, in the centre!"
                if goal == board.goal_position() else "Solved: one peg, on the ringed hole!")
    if not board.legal_jumps(position):
        return f"No jump left: {pegs} remain. {display_key('Z')} undoes, {display_key('R')} restarts."
    return f"{pegs} left."


def own_name(name: str, shipped: Collection[str]) -> str:
    """The name of a board of the player's own in the Tab cycle and the title: its file's name, told apart from a
    ``shipped`` opening of the same name.

    >>> own_name("english", ("english", "french")), own_name("cross.txt", ("english", "french"))
    ('english (yours)', 'cross.txt')
    """
    return f"{name} (yours)" if name in shipped else name


def draw_title(surface: pygame.Surface, title: str, pegs: int) -> None:
    """The top bar: the game's ``title`` and the pegs left."""
    w = surface.get_width()
    bar = hud.top_bar(surface)
    hud.blit_text(surface, hud.fit_text(f"Peg solitaire - {title}", 34, max(100, w - 200)), (16, bar.centery), 34,
                  hud.WHITE, anchor="midleft")
    hud.blit_text(surface, hud.plural(pegs, "peg"), (w - 16, bar.centery), 26, hud.GOLD, anchor="midright")


def draw_peg(surface: pygame.Surface, centre: tuple[int, int], radius: int, lifted: bool) -> None:
    """A peg at ``centre`` (gold when the player holds it)."""
    pygame.draw.circle(surface, hud.GOLD if lifted else PEG, centre, radius)
    pygame.draw.circle(surface, PEG_EDGE, centre, radius, 2)
    pygame.draw.circle(surface, (255, 235, 180), (centre[0] - radius // 3, centre[1] - radius // 3),
                       max(2, radius // 4))


__all__ = [
    "MESSAGE_LINES",
    "MESSAGE_SIZE",
    "PANEL_TITLE",
    "TINTS",
    "HOLE",
    "HOLE_EDGE",
    "PEG",
    "PEG_EDGE",
    "BoardLayout",
    "board_layout",
    "draw_panel",
    "opening_message",
    "position_message",
    "draw_peg",
    "draw_tints",
    "draw_title",
    "lost_message",
    "explanation_lines",
    "message_lines",
    "message_top",
    "own_name",
]
