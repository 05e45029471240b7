"""How the Reverse Life screen (:class:`game.app.puzzles.life.LifeScene`) draws its boards and the marks on them, in
the player's palette (:func:`game.app.palette.pair`), and the words under the boards that name the marks.

On the start board the cursor is a thin blue outline and the hint's cell a thick ring round the cell; on the result
board every wrong cell is outlined.  Under the colour-blind palette the hint's ring is sky blue with a dot in the
cell (told from the cursor by its shape) and each wrong cell is crossed in vermillion: no mark is told by colour
alone, nor by red against green.

>>> from game.app.palette import COLOURBLIND_PAIR, STANDARD_PAIR
>>> status_line(False, 3, True, STANDARD_PAIR), status_line(False, 1, True, COLOURBLIND_PAIR)
('3 wrong cells, outlined in red', '1 wrong cell, crossed in orange')
>>> hint_label(STANDARD_PAIR), hint_label(COLOURBLIND_PAIR)
('Hint: the green ring', 'Hint: the blue ring with a dot')
"""

from __future__ import annotations

import numpy as np
import pygame

from game.app import hud
from game.app.palette import MarkPair
from game.core.puzzles.life.rules import Board

#: Colours of live and dead cells, and of the grid.
ALIVE, DEAD, GRID = (250, 214, 90), (34, 28, 56), (60, 52, 92)
#: Text sizes of the status under the result board and of the hint's label under the start board: the largest
#: that fits under its board (a narrow window's boards are narrow).
STATUS_SIZES = (28, 24, 22, 20)


def status_line(solved: bool, wrong: int, final: bool, marks: MarkPair) -> str:
    """What the result board's status says: solved, or the wrong cells and how they are marked (the marks are drawn
    on the last step only: on another step, how to see it)."""
    if solved:
        return "Solved!"
    count = hud.plural(wrong, "wrong cell")
    if not final:
        return f"{count}  (press . to see the last step)"
    return f"{count}, {'crossed' if marks.shapes else 'outlined'} in {marks.bad_word}" if wrong else count


def hint_label(marks: MarkPair) -> str:
    """The label under the start board while the hint's cell is marked: how it is drawn."""
    return f"Hint: the {marks.good_word} ring" + (" with a dot" if marks.shapes else "")


def draw_under(surface: pygame.Surface, lines: list[tuple[pygame.Rect, str, tuple[int, int, int]]],
               room: int) -> None:
    """Each line's words, in its colour, under its board: all at the largest of :data:`STATUS_SIZES` at which every
    one fits in ``room`` pixels (cut short only when the smallest does not)."""
    size = next((size for size in STATUS_SIZES if all(hud.text(words, size).get_width() <= room
                                                      for _, words, _ in lines)), STATUS_SIZES[-1])
    for board, words, colour in lines:
        hud.blit_text(surface, hud.fit_text(words, size, room), (board.centerx, board.bottom + 8), size, colour,
                      anchor="midtop")


def draw_board(surface: pygame.Surface, rect: pygame.Rect, cell: int, board: Board) -> None:
    """One board: its live cells, the grid when the cells are large enough, and its edge."""
    pygame.draw.rect(surface, DEAD, rect)
    for r, c in np.argwhere(board):
        pygame.draw.rect(surface, ALIVE, (rect.x + c * cell, rect.y + r * cell, cell, cell))
    if cell >= 8:
        for i in range(board.shape[1] + 1):
            pygame.draw.line(surface, GRID, (rect.x + i * cell, rect.y), (rect.x + i * cell, rect.bottom))
        for i in range(board.shape[0] + 1):
            pygame.draw.line(surface, GRID, (rect.x, rect.y + i * cell), (rect.right, rect.y + i * cell))
    pygame.draw.rect(surface, hud.PANEL_EDGE, rect, 2)


def draw_wrong(surface: pygame.Surface, result: pygame.Rect, cell: int, wrong: Board, marks: MarkPair) -> None:
    """The ``wrong`` cells on the ``result`` board: outlined, and crossed when ``marks`` mark by shape too."""
    for r, c in np.argwhere(wrong):
        box = pygame.Rect(result.x + c * cell, result.y + r * cell, cell, cell)
        pygame.draw.rect(surface, marks.bad, box, 2)
        if marks.shapes:
            inner, width = box.inflate(-cell // 4, -cell // 4), max(2, cell // 10)
            pygame.draw.line(surface, marks.bad, inner.topleft, inner.bottomright, width)
            pygame.draw.line(surface, marks.bad, inner.topright, inner.bottomleft, width)


def draw_cursor_and_hint(surface: pygame.Surface, start: pygame.Rect, cell: int, cursor: tuple[int, int],
                         hint: tuple[int, int] | None, marks: MarkPair) -> None:
    """The cursor on the ``start`` board, and the ring round the ``hint``'s cell (with a dot in it when ``marks``
    mark by shape too)."""
    pygame.draw.rect(surface, hud.BLUE, (start.x + cursor[1] * cell, start.y + cursor[0] * cell, cell, cell), 2)
    if hint is None:
        return
    box = pygame.Rect(start.x + hint[1] * cell, start.y + hint[0] * cell, cell, cell)
    pygame.draw.rect(surface, marks.good, box.inflate(4, 4), 3)
    if marks.shapes:
        pygame.draw.circle(surface, marks.good, box.center, max(2, cell // 6))


__all__ = ["ALIVE", "DEAD", "GRID", "STATUS_SIZES", "draw_board", "draw_cursor_and_hint", "draw_under", "draw_wrong",
           "hint_label", "status_line"]
