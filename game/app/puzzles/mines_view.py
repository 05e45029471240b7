"""How the Minesweeper scene is laid out and drawn, at any window size.

The window is split, top to bottom, into the top bar (the title and the timer on its first line, the
board's records on its second), the board, a band of text under it (the latest message, then the
legend: the first-click rule, or what the assistant's colours and percentages mean) and the hint bar.
The assistant's words for a cell and a guess (:func:`where`, :func:`guess_text`) are here too.
The cell size follows the window, and the sizes of the numbers and percentages follow the cell (each
the largest that fits); cells too small for readable percentages (a 30x16 board in an 800x500 window)
show each chance as a shade, and the chance of the cell under the cursor in figures under the board.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from fractions import Fraction

import pygame

from game.app import hud
from game.app.input import display_key
from game.app.palette import COLOURBLIND_PAIR, STANDARD_PAIR, MarkPair
from game.core.level import cell_words
from game.core.settings import Palette
from game.core.puzzles.mines import MinesBoard, MinesStatus, MinesView, Pos

#: Colours of the numbers 1-8.
NUMBER_COLOURS = {1: (120, 180, 255), 2: (120, 230, 120), 3: (255, 110, 110), 4: (190, 140, 255),
                  5: (255, 170, 80), 6: (90, 220, 220), 7: (240, 240, 240), 8: (170, 170, 170)}
#: Text size of the band under the board and of the records line.
BAND_SIZE = 20
#: Lines of the band under the board.
BAND_LINES = 3
#: Largest cell, in pixels.
MAX_CELL = 56
#: Smallest text size the percentages are drawn at (digits 11 px high).  Cells too small for it show
#: each chance as a shade instead, and the chance of the cell under the cursor in figures under the board.
MIN_ODDS_SIZE = 22
#: The colour of a hidden cell, and the colour its shade goes to as its mine chance goes to 100%.
HIDDEN = (96, 88, 130)
LIKELY_MINE = (200, 60, 70)
#: The rule of the first click, stated under the board.
RULE = "Your first click always opens an area: no mine is in it or next to it."
#: Said under a board not opened yet while the odds are on (the first click makes the game an assisted one).
ODDS_ON = ("The assistant's odds are on: they show from your first click, and a game with them does not count for "
           "the best time ({hint} turns them off).")
#: What the assistant's overlay means ({marks}: how proved cells are marked, :attr:`Marks.words`).
ODDS_TEMPLATE = "Small numbers: each hidden cell's mine chance in %. {marks} Gold: best guess."
#: What the overlay means when the cells are too small for the percentages ({likelier}: :attr:`Marks.likelier`).
SHADE_TEMPLATE = "{likelier}: likelier a mine (the cursor's cell in %). {marks} Gold: best guess."


@dataclass(frozen=True)
class Marks:
    """How the assistant marks proved cells and shades likely mines, and the legend's words for them."""

    pair: MarkPair  #: the palette's colours of a proved-safe cell and a proved mine, and whether shapes mark them
    likely: tuple[int, int, int]  #: the shade of a cell at 100% mine chance
    likelier: str  #: what the legend says of the shades

    @property
    def safe(self) -> tuple[int, int, int]:
        """The border of a proved-safe cell."""
        return self.pair.good

    @property
    def mine(self) -> tuple[int, int, int]:
        """The border of a proved mine."""
        return self.pair.bad

    @property
    def cross(self) -> bool:
        """Shapes too: a cross over a proved mine, a burst round the mine that went off."""
        return self.pair.shapes

    @property
    def words(self) -> str:
        """What the legend says of the proved cells, naming the palette's colours (and the cross)."""
        cross = " with a cross" if self.cross else ""
        return f"{self.pair.good_word.capitalize()}: safe. {self.pair.bad_word.capitalize()}{cross}: mine."


#: Green and red marks (settings: palette standard).
STANDARD_MARKS = Marks(STANDARD_PAIR, LIKELY_MINE, "Redder")
#: Okabe-Ito sky blue and vermillion, a cross on proved mines and a burst round the mine that went off: told apart
#: without red and green (settings: palette).
COLOURBLIND_MARKS = Marks(COLOURBLIND_PAIR, COLOURBLIND_PAIR.bad, "More orange")


def marks(palette: Palette) -> Marks:
    """The marks of the player's ``palette``.

    >>> marks(Palette.COLOURBLIND).words, marks(Palette.STANDARD).words
    ('Blue: safe. Orange with a cross: mine.', 'Green: safe. Red: mine.')
    """
    return COLOURBLIND_MARKS if palette == Palette.COLOURBLIND else STANDARD_MARKS


#: The legends of the standard palette (:func:`odds_legend`).
ODDS_LEGEND = ODDS_TEMPLATE.format(marks=STANDARD_MARKS.words)
SHADE_LEGEND = SHADE_TEMPLATE.format(marks=STANDARD_MARKS.words, likelier=STANDARD_MARKS.likelier)


@dataclass(frozen=True)
class MinesLayout:
    """Where everything goes in a window: the board's top-left corner and cell, and the text band."""

    left: int
    top: int
    cell: int
    band_top: int  #: top of the text band under the board
    band_lines: int
    line_height: int

    def cell_rect(self, r: int, c: int) -> pygame.Rect:
        """The rectangle of cell ``(r, c)``."""
        return pygame.Rect(self.left + c * self.cell, self.top + r * self.cell, self.cell, self.cell)


def compute_layout(size: tuple[int, int], columns: int, rows: int) -> MinesLayout:
    """The layout of a ``columns`` x ``rows`` board in a window of ``size``."""
    w, h = size
    line = hud.font(BAND_SIZE).get_linesize() + 1
    band = BAND_LINES * line + 4
    avail_w = w - 24
    avail_h = h - hud.TOP_BAR - hud.BOTTOM_BAR - band - 8
    cell = max(8, min(MAX_CELL, avail_w // columns, avail_h // rows))
    left = (w - cell * columns) // 2
    top = hud.TOP_BAR + 4 + max(0, (avail_h - cell * rows) // 2)
    return MinesLayout(left, top, cell, top + cell * rows + 4, BAND_LINES, line)


@functools.lru_cache(maxsize=64)
def number_size(cell: int) -> int:
    """The largest text size whose digit fits a cell with a margin (the revealed numbers)."""
    size = 10
    while size < 80 and hud.font(size + 2).size("8")[1] <= cell * 0.8:
        size += 2
    return size


@functools.lru_cache(maxsize=64)
def odds_size(cell: int) -> int:
    """The text size of the percentages: the largest that fits the cell with a margin, from
    :data:`MIN_ODDS_SIZE` to a little over half the cell (0: the cell is too small for a readable size)."""
    size = 0
    for candidate in range(MIN_ODDS_SIZE, max(MIN_ODDS_SIZE, int(cell * 0.55)) + 1, 2):
        width, height = hud.font(candidate).size("88")
        if width <= cell - 5 and height <= cell * 0.75:
            size = candidate
    return size


def shade(chance: Fraction, likely: tuple[int, int, int] = LIKELY_MINE) -> tuple[int, int, int]:
    """A hidden cell's colour for its mine chance, when the cell is too small for the percentage: the
    hidden colour at 0%, ``likely`` (:attr:`Marks.likely`) at 100%.

    >>> shade(Fraction(0)), shade(Fraction(1))
    ((96, 88, 130), (200, 60, 70))
    """
    red, green, blue = (round(a + (b - a) * float(chance)) for a, b in zip(HIDDEN, likely))
    return red, green, blue


def odds_legend(cell: int, win: Fraction | None, palette: Palette = Palette.STANDARD) -> str:
    """What the overlay means on cells of ``cell`` pixels (the percentages or the shades) in the player's
    ``palette``; ``win``: the chance to win of the gold guess, when the exact endgame search chose it.

    >>> odds_legend(40, None)
    "Small numbers: each hidden cell's mine chance in %. Green: safe. Red: mine. Gold: best guess."
    """
    drawn = marks(palette)
    legend = (ODDS_TEMPLATE if odds_size(cell) else SHADE_TEMPLATE).format(marks=drawn.words, likelier=drawn.likelier)
    return legend if win is None else f"{legend} {ENDGAME_LEGEND.format(percent(win))}"


def band_legend(status: MinesStatus, odds_on: bool, odds_shown: bool, cell: int, win: Fraction | None,
                palette: Palette = Palette.STANDARD) -> str:
    """What the band under the board explains: the odds when they are shown (:func:`odds_legend`, in the player's
    ``palette``), else the first-click rule (and, on a board not opened yet, that the odds are on; nothing once the
    game is over).

    >>> band_legend(MinesStatus.READY, False, False, 40, None) == RULE, band_legend(MinesStatus.WON, True, False, 40, None)
    (True, '')
    """
    if odds_shown:
        return odds_legend(cell, win, palette)
    if status == MinesStatus.READY and odds_on:  # the odds left on from the game before: the first click is assisted
        return f"{RULE} {ODDS_ON.format(hint=display_key('H'))}"
    return "" if status in (MinesStatus.WON, MinesStatus.LOST) else RULE


def cursor_odds(cell: int, odds: dict[Pos, Fraction] | None, cursor: Pos) -> str:
    """The mine chance of the cell under the cursor, in words, when the cells are too small for the
    percentages and the overlay gives one for it ('' otherwise).

    >>> cursor_odds(20, {(2, 3): Fraction(1, 4)}, (2, 3)), cursor_odds(40, {(2, 3): Fraction(1, 4)}, (2, 3))
    ('Cursor (row 2, column 3): 25% mine chance.', '')
    """
    if odds is None or cursor not in odds or odds_size(cell):
        return ""
    return f"Cursor {where(cursor)}: {percent(odds[cursor])} mine chance."


def percent(chance: Fraction) -> str:
    """A mine chance as the overlay shows it: whole percents, ``<1%`` below one.

    >>> percent(Fraction(3, 13)), percent(Fraction(1, 400))
    ('23%', '<1%')
    """
    pct = float(chance) * 100
    return f"{pct:.0f}%" if pct >= 1 else "<1%"


def where(p: Pos) -> str:
    """A cell for the player, as every game text writes one (:func:`game.core.level.cell_words`: counted from 0 at
    the top left, as the lemmings' ruler and the ``mines`` command count cells).

    >>> where((0, 4))
    '(row 0, column 4)'
    """
    return f"({cell_words(p)})"


#: The legend's last sentence when the exact endgame search chose the gold cell.
ENDGAME_LEGEND = "Every arrangement searched: gold wins {} with best play."


def guess_text(who: str, p: Pos, chance: Fraction, mine: bool, win: Fraction | None = None) -> str:
    """What happened when the assistant (``who``: "Auto-play" or "The assistant") had to guess; ``win``: the
    chance to win under best play, when the exact endgame search chose the guess.

    >>> guess_text("Auto-play", (2, 3), Fraction(3, 13), True)
    'Auto-play had to guess: no safe cell was proved; it opened (row 2, column 3), its best guess at 23% mine chance, and it was a mine.'
    >>> guess_text("The assistant", (0, 0), Fraction(1, 2), False, Fraction(1, 2))
    'The assistant had to guess: it opened (row 0, column 0) at 50% mine chance, and it was safe. Searching every arrangement left, this guess gave the best chance to win: 50%.'
    """
    end = "" if win is None else f" Searching every arrangement left, this guess gave the best chance to win: {percent(win)}."
    if mine:
        return (f"{who} had to guess: no safe cell was proved; it opened {where(p)}, its best guess at "
                f"{percent(chance)} mine chance, and it was a mine.{end}")
    return f"{who} had to guess: it opened {where(p)} at {percent(chance)} mine chance, and it was safe.{end}"


def board_title(name: str, board: MinesBoard, ending: str) -> str:
    """The top bar's title for a board of difficulty ``name``: its size and mines, then the mines not
    flagged yet while it is played, or ``ending`` once it is over (the outcome, the time and who played:
    :func:`game.app.puzzles.mines_text.outcome_words`).

    >>> board = MinesBoard.with_mines(5, 5, {(4, 4)})
    >>> board_title("Custom", board, "won in 0.0 s")
    'Minesweeper: Custom 5x5, 1 mine (1 unflagged)'
    >>> _ = board.reveal(0, 0); board_title("Custom", board, "won in 7.2 s")
    'Minesweeper: Custom 5x5, 1 mine: won in 7.2 s'
    """
    head = f"Minesweeper: {name} {board.width}x{board.height}, {hud.plural(board.mines, 'mine')}"
    if board.status in (MinesStatus.WON, MinesStatus.LOST):
        return f"{head}: {ending}"
    return f"{head} ({board.mines - len(board.flags)} unflagged)"


def band_lines(message: str, legend: str, width: int, cursor: str = "") -> list[tuple[str, tuple[int, int, int]]]:
    """The lines of the band: the cursor cell's chance (gold) when given, the message (white), then the
    legend (muted) when it fits whole."""
    room = width - 40
    lines = [(hud.fit_text(cursor, BAND_SIZE, room), hud.GOLD)] if cursor else []
    if message:
        lines += [(line, hud.WHITE) for line in hud.wrap_text(message, BAND_SIZE, room, BAND_LINES - len(lines))]
    legend_lines = hud.wrap_text(legend, BAND_SIZE, room, BAND_LINES) if legend else []
    if len(lines) + len(legend_lines) <= BAND_LINES and not any(line.endswith("\u2026") for line in legend_lines):
        lines += [(line, hud.MUTED) for line in legend_lines]
    return lines


def draw_header(surface: pygame.Surface, title: str, clock: str, records: str) -> None:
    """The top bar: the title and the timer, then the board's records."""
    w = surface.get_width()
    hud.top_bar(surface)
    timer = hud.blit_text(surface, clock, (w - 16, 17), 28, hud.WHITE, anchor="midright")
    hud.blit_text(surface, hud.fit_text(title, 24, timer.left - 40), (16, 17), 24, hud.GOLD, anchor="midleft")
    hud.blit_text(surface, hud.fit_text(records, BAND_SIZE, w - 32), (16, 42), BAND_SIZE, hud.MUTED,
                  anchor="midleft")


def draw_band(surface: pygame.Surface, layout: MinesLayout, lines: list[tuple[str, tuple[int, int, int]]]) -> None:
    """The text band under the board."""
    x = surface.get_width() // 2
    for i, (line, colour) in enumerate(lines):
        hud.blit_text(surface, line, (x, layout.band_top + i * layout.line_height), BAND_SIZE, colour, anchor="midtop")


class BoardPainter:
    """Draws the board, and keeps the picture until the board, the odds or the layout change (a full
    expert board with its odds is hundreds of texts: redrawn only when something changed)."""

    def __init__(self) -> None:
        self._key: tuple[object, ...] | None = None
        self._picture: pygame.Surface | None = None

    def draw(self, surface: pygame.Surface, layout: MinesLayout, board: MinesBoard,
             odds: dict[Pos, Fraction] | None, best: Pos | None, palette: Palette = Palette.STANDARD) -> None:
        """Blit the board (drawn again only when needed) at its place in ``layout``, the assistant's marks in the
        player's ``palette``."""
        key = (id(board), board.view(), board.status, layout, id(odds) if odds is not None else None, best, palette)
        if self._picture is None or key != self._key:
            self._picture = pygame.Surface((layout.cell * board.width, layout.cell * board.height))
            draw_board(self._picture, replace(layout, left=0, top=0), board, odds, best, marks(palette))
            self._key = key
        surface.blit(self._picture, (layout.left, layout.top))


def draw_board(surface: pygame.Surface, layout: MinesLayout, board: MinesBoard, odds: dict[Pos, Fraction] | None,
               best: Pos | None, drawn: Marks = STANDARD_MARKS) -> None:
    """Every cell: numbers, flags, mines once the game is over, and the assistant's odds when given (``drawn``:
    its marks)."""
    view = board.view()
    over = board.status in (MinesStatus.WON, MinesStatus.LOST)
    for r in range(board.height):
        for c in range(board.width):
            rect = layout.cell_rect(r, c)
            _draw_cell(surface, rect, board, view, (r, c), over, drawn)
            if odds is not None and (r, c) in odds and view.at(r, c) < 0:
                draw_odds(surface, rect, odds[(r, c)], best == (r, c), drawn)
            pygame.draw.rect(surface, (30, 26, 50), rect, 1)


def _draw_cell(surface: pygame.Surface, rect: pygame.Rect, board: MinesBoard, view: MinesView, p: Pos,
               over: bool, drawn: Marks) -> None:
    v = view.at(*p)
    cell = rect.width
    if v >= 0:
        pygame.draw.rect(surface, (44, 38, 70), rect)
        if v:
            hud.blit_text(surface, str(v), rect.center, number_size(cell), NUMBER_COLOURS[v], anchor="center")
        return
    pygame.draw.rect(surface, (96, 88, 130), rect)
    if over and p in board.mine_set:
        draw_mine(surface, rect, p == board.exploded, drawn)
    elif p in board.flags:
        pygame.draw.polygon(surface, hud.RED, [(rect.x + cell // 3, rect.y + cell // 5),
                                               (rect.right - cell // 4, rect.y + cell * 2 // 5),
                                               (rect.x + cell // 3, rect.y + cell * 3 // 5)])


def draw_mine(surface: pygame.Surface, rect: pygame.Rect, exploded: bool, drawn: Marks = STANDARD_MARKS) -> None:
    """A mine shown once the game is over: the one that went off in the marks' mine colour, with a burst of spikes
    round it when ``drawn`` marks by shape too (not told from the other mines by its colour alone)."""
    cell = rect.width
    if exploded and drawn.cross:
        reach, width = cell * 9 // 20, max(2, cell // 10)
        cx, cy = rect.center
        for dx, dy in ((10, 0), (0, 10), (7, 7), (7, -7)):  # spikes as long on the diagonals as straight
            x, y = dx * reach // 10, dy * reach // 10
            pygame.draw.line(surface, drawn.mine, (cx - x, cy - y), (cx + x, cy + y), width)
    colour = drawn.mine if exploded else (20, 20, 20)
    pygame.draw.circle(surface, colour, rect.center, max(3, cell // 3))


def draw_odds(surface: pygame.Surface, rect: pygame.Rect, chance: Fraction, best: bool,
              drawn: Marks = STANDARD_MARKS) -> None:
    """One hidden cell's mine chance: a safe or mine border when proved (with a cross on a mine when ``drawn``
    says so), else the percentage (a shade on a cell too small for it)."""
    if chance == 0:
        pygame.draw.rect(surface, drawn.safe, rect.inflate(-4, -4), 3)
    elif chance == 1:
        pygame.draw.rect(surface, drawn.mine, rect.inflate(-4, -4), 3)
        if drawn.cross:
            inner = rect.inflate(-rect.width // 2, -rect.height // 2)
            width = max(2, rect.width // 10)
            pygame.draw.line(surface, drawn.mine, inner.topleft, inner.bottomright, width)
            pygame.draw.line(surface, drawn.mine, inner.topright, inner.bottomleft, width)
    else:
        size = odds_size(rect.width)
        if size:
            hud.blit_text(surface, percent(chance)[:-1], rect.center, size, hud.GOLD if best else hud.WHITE,
                          anchor="center")
        else:
            pygame.draw.rect(surface, shade(chance, drawn.likely), rect.inflate(-2, -2))
    if best:
        pygame.draw.rect(surface, hud.GOLD, rect.inflate(-2, -2), 2)


__all__ = ["BAND_LINES", "BAND_SIZE", "BoardPainter", "COLOURBLIND_MARKS", "Marks", "MinesLayout", "NUMBER_COLOURS",
           "ODDS_LEGEND", "ODDS_ON", "ODDS_TEMPLATE", "RULE", "SHADE_LEGEND", "SHADE_TEMPLATE", "STANDARD_MARKS",
           "band_legend", "band_lines", "board_title", "compute_layout", "cursor_odds", "draw_band", "draw_board",
           "draw_header", "draw_mine", "draw_odds", "marks", "number_size", "odds_legend", "odds_size", "percent",
           "shade"]
