"""Minesweeper: the board, the player's view of it, and the text form of a view.

The board places its mines (seeded) at the first reveal, never on the first clicked cell.  Its
:class:`FirstClick` rule says how much is kept free: only that cell (:attr:`FirstClick.CELL`, the
default and the assistant's bench), or that cell and its neighbours (:attr:`FirstClick.AREA`, the game
on screen), so the first click opens an area.  Revealing a
cell with no mine around opens its neighbours (flood fill); revealing a mine loses; opening every
safe cell wins.  Flags are the player's notes: they stop a reveal but change nothing else.

A :class:`MinesView` is what a player sees: ``HIDDEN``, ``FLAG`` or the number of a revealed
cell, row by row.  Its text form (:func:`format_view` / :func:`parse_view`) is a header line
``mines N`` followed by one line per row: ``.`` hidden, ``F`` flagged, ``0``-``8`` revealed.

>>> board = MinesBoard(4, 3, 2, seed=7)
>>> len(board.reveal(0, 0))  # a zero: the flood fill opens two columns
6
>>> board.status
<MinesStatus.PLAYING: 'playing'>
>>> print(format_view(board.view()))
mines 2
01..
01..
01..
>>> parse_view(format_view(board.view())) == board.view()
True
"""

from __future__ import annotations

import enum
import functools
import random
from dataclasses import dataclass
from typing import Iterator

from game.core.errors import GameError

#: A hidden cell in a :class:`MinesView`.
HIDDEN = -1
#: A flagged (hidden) cell in a :class:`MinesView`.
FLAG = -2
#: Largest board side accepted anywhere (the expert board is 30 wide).
MAX_SIDE = 100
#: Smallest side of a custom board (room for the first click's area and some mines).
MIN_CUSTOM_SIDE = 4
#: Cells a custom board keeps free of mines: the first click's area.
AREA_CELLS = 9

Pos = tuple[int, int]
"""A cell ``(row, col)``."""


class MinesStatus(str, enum.Enum):
    """Where a game stands."""

    READY = "ready"      #: nothing revealed yet (mines not placed)
    PLAYING = "playing"  #: some cells revealed, no mine hit
    WON = "won"          #: every safe cell revealed
    LOST = "lost"        #: a mine was revealed


def custom_board_ok(width: int, height: int, mines: int) -> bool:
    """True for a custom board the Minesweeper screen offers: sides from :data:`MIN_CUSTOM_SIDE` to half of
    :data:`MAX_SIDE`, one mine at least, and room for the first click's area.

    >>> custom_board_ok(12, 10, 20), custom_board_ok(3, 10, 5), custom_board_ok(4, 4, 8)
    (True, False, False)
    """
    sides = all(MIN_CUSTOM_SIDE <= side <= MAX_SIDE // 2 for side in (width, height))
    return sides and 1 <= mines <= width * height - AREA_CELLS


class Difficulty(str, enum.Enum):
    """The three standard boards (width x height / mines); custom boards give their own sizes."""

    BEGINNER = "beginner"
    INTERMEDIATE = "intermediate"
    EXPERT = "expert"

    @property
    def size(self) -> tuple[int, int, int]:
        """``(width, height, mines)``.

        >>> Difficulty.EXPERT.size
        (30, 16, 99)
        """
        return {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (30, 16, 99)}[self.value]


class FirstClick(str, enum.Enum):
    """Which cells the mines avoid when they are placed at the first reveal."""

    CELL = "cell"  #: only the clicked cell
    AREA = "area"  #: the clicked cell and its neighbours (only the cell when the board has no room for that)


class MinesFormatError(GameError):
    """A board text or size that cannot be used (the message names what is wrong)."""


def check_size(width: int, height: int, mines: int) -> None:
    """Raise :class:`MinesFormatError` unless the board is playable (at least one safe cell).

    >>> check_size(9, 9, 81)
    Traceback (most recent call last):
    ...
    game.core.puzzles.mines.MinesFormatError: a 9x9 board takes 0 to 80 mines, got 81
    """
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise MinesFormatError(f"board sides must be from 1 to {MAX_SIDE}, got {width}x{height}")
    if not 0 <= mines <= width * height - 1:
        raise MinesFormatError(f"a {width}x{height} board takes 0 to {width * height - 1} mines, got {mines}")


def neighbours(width: int, height: int, r: int, c: int) -> Iterator[Pos]:
    """The up to 8 cells around ``(r, c)`` inside a ``width`` x ``height`` board.

    >>> sorted(neighbours(3, 3, 0, 0))
    [(0, 1), (1, 0), (1, 1)]
    """
    if 0 <= r < height and 0 <= c < width and width <= MAX_SIDE and height <= MAX_SIDE:
        return iter(_neighbour_table(width, height)[r][c])
    return _neighbours(width, height, r, c)


def _neighbours(width: int, height: int, r: int, c: int) -> Iterator[Pos]:
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= r + dr < height and 0 <= c + dc < width:
                yield r + dr, c + dc


@functools.lru_cache(maxsize=8)
def _neighbour_table(width: int, height: int) -> tuple[tuple[tuple[Pos, ...], ...], ...]:
    """Every cell's neighbours, made once per board size (the solver asks for them very often)."""
    return tuple(tuple(tuple(_neighbours(width, height, r, c)) for c in range(width)) for r in range(height))


@dataclass(frozen=True)
class MinesView:
    """What the player sees: ``cells[r][c]`` is :data:`HIDDEN`, :data:`FLAG` or a revealed number."""

    width: int
    height: int
    mines: int
    cells: tuple[tuple[int, ...], ...]

    def at(self, r: int, c: int) -> int:
        """The code of cell ``(r, c)``."""
        return self.cells[r][c]

    def unknown(self) -> list[Pos]:
        """Every cell not revealed (hidden or flagged), row by row."""
        return [(r, c) for r in range(self.height) for c in range(self.width) if self.cells[r][c] < 0]

class MinesBoard:
    """One game: mines (placed at the first reveal from ``seed``), revealed cells and flags.

    Change :attr:`revealed` and :attr:`flags` only through :meth:`reveal` and :meth:`toggle_flag` (the view
    is cached until they change).
    """

    def __init__(self, width: int, height: int, mines: int, *, seed: int | None = None,
                 first_click: FirstClick = FirstClick.CELL) -> None:
        check_size(width, height, mines)
        self.width, self.height, self.mines = width, height, mines
        self.seed = seed
        self.first_click = first_click
        self.mine_set: frozenset[Pos] = frozenset()
        self.revealed: set[Pos] = set()
        self.flags: set[Pos] = set()
        self.status = MinesStatus.READY
        self.exploded: Pos | None = None
        self._view: MinesView | None = None  #: the last view, until a reveal or flag changes it

    @classmethod
    def with_mines(cls, width: int, height: int, mines: set[Pos] | frozenset[Pos]) -> MinesBoard:
        """A board whose mines are given (for tests and saved boards); nothing revealed yet."""
        board = cls(width, height, len(mines))
        if any(not (0 <= r < height and 0 <= c < width) for r, c in mines):
            raise MinesFormatError("a mine lies outside the board")
        board.mine_set = frozenset(mines)
        board.status = MinesStatus.PLAYING
        return board

    # ---- rules ---------------------------------------------------------------------------------------
    def kept_free(self, first: Pos) -> frozenset[Pos]:
        """The cells no mine may take when the first reveal is ``first`` (see :class:`FirstClick`).

        >>> sorted(MinesBoard(9, 9, 10, first_click=FirstClick.AREA).kept_free((0, 0)))
        [(0, 0), (0, 1), (1, 0), (1, 1)]
        >>> sorted(MinesBoard(3, 3, 8, first_click=FirstClick.AREA).kept_free((1, 1)))  # no room
        [(1, 1)]
        """
        area = frozenset({first, *neighbours(self.width, self.height, *first)})
        if self.first_click == FirstClick.AREA and self.width * self.height - len(area) >= self.mines:
            return area
        return frozenset({first})

    def place_mines(self, first: Pos) -> None:
        """Place the mines at random (from :attr:`seed`) anywhere but :meth:`kept_free` ``(first)``."""
        free = self.kept_free(first)
        cells = [(r, c) for r in range(self.height) for c in range(self.width) if (r, c) not in free]
        self.mine_set = frozenset(random.Random(self.seed).sample(cells, self.mines))
        self.status = MinesStatus.PLAYING

    def count(self, r: int, c: int) -> int:
        """Mines around ``(r, c)``."""
        return sum(1 for p in neighbours(self.width, self.height, r, c) if p in self.mine_set)

    def reveal(self, r: int, c: int) -> list[Pos]:
        """Reveal ``(r, c)`` (flood-filling zeros); return the newly revealed cells.

        Nothing happens on a flagged or revealed cell, or once the game is over.
        """
        if not (0 <= r < self.height and 0 <= c < self.width):
            raise MinesFormatError(f"cell ({r}, {c}) is outside the {self.width}x{self.height} board")
        if self.status in (MinesStatus.WON, MinesStatus.LOST) or (r, c) in self.flags or (r, c) in self.revealed:
            return []
        if self.status == MinesStatus.READY:
            self.place_mines((r, c))
        self._view = None
        if (r, c) in self.mine_set:
            self.status = MinesStatus.LOST
            self.exploded = (r, c)
            return []
        opened: list[Pos] = []
        stack = [(r, c)]
        while stack:
            p = stack.pop()
            if p in self.revealed or p in self.flags:
                continue
            self.revealed.add(p)
            opened.append(p)
            if self.count(*p) == 0:
                stack.extend(q for q in neighbours(self.width, self.height, *p) if q not in self.revealed)
        if len(self.revealed) == self.width * self.height - self.mines:
            self.status = MinesStatus.WON
        return opened

    def toggle_flag(self, r: int, c: int) -> bool:
        """Flag or unflag a hidden cell; return whether it is flagged now."""
        if (r, c) in self.revealed or self.status in (MinesStatus.WON, MinesStatus.LOST):
            return (r, c) in self.flags
        self._view = None
        if (r, c) in self.flags:
            self.flags.discard((r, c))
            return False
        self.flags.add((r, c))
        return True

    def view(self) -> MinesView:
        """The player's view of the board (kept until a reveal or a flag changes it)."""
        if self._view is not None:
            return self._view
        rows = []
        for r in range(self.height):
            row = []
            for c in range(self.width):
                if (r, c) in self.revealed:
                    row.append(self.count(r, c))
                else:
                    row.append(FLAG if (r, c) in self.flags else HIDDEN)
            rows.append(tuple(row))
        self._view = MinesView(self.width, self.height, self.mines, tuple(rows))
        return self._view

def format_view(view: MinesView) -> str:
    """The text form of a view (see the module docstring)."""
    chars = {HIDDEN: ".", FLAG: "F"}
    lines = [f"mines {view.mines}"]
    lines += ["".join(chars.get(v, str(v)) for v in row) for row in view.cells]
    return "\n".join(lines)


def parse_view(text: str) -> MinesView:
    """Read the text form of a view; :class:`MinesFormatError` names the line and column at fault.

    >>> parse_view("mines 1\\n1.\\n..").at(0, 0)
    1
    >>> parse_view("mines 1\\n1x")
    Traceback (most recent call last):
    ...
    game.core.puzzles.mines.MinesFormatError: line 2, column 2: unexpected 'x' (use . F or 0-8)
    """
    lines = [line.rstrip("\r") for line in text.strip("\n").split("\n")]
    lines = [line.strip() for line in lines]
    head = lines[0].split() if lines else []
    if len(head) != 2 or head[0] != "mines" or not (head[1].isascii() and head[1].isdigit() and len(head[1]) < 6):
        raise MinesFormatError("line 1: expected 'mines N' (N the number of mines)")
    mines = int(head[1])
    rows = lines[1:]
    if not rows or not rows[0]:
        raise MinesFormatError("the board has no rows")
    width = len(rows[0])
    cells = []
    for i, line in enumerate(rows, start=2):
        if len(line) != width:
            raise MinesFormatError(f"line {i}: {len(line)} cells, the first row has {width}")
        row = []
        for j, ch in enumerate(line, start=1):
            if ch == ".":
                row.append(HIDDEN)
            elif ch in "Ff":
                row.append(FLAG)
            elif ch in "012345678":
                row.append(int(ch))
            else:
                raise MinesFormatError(f"line {i}, column {j}: unexpected {ch!r} (use . F or 0-8)")
        cells.append(tuple(row))
    check_size(width, len(cells), mines)
    view = MinesView(width, len(cells), mines, tuple(cells))
    hidden = len(view.unknown())
    if mines > hidden:
        raise MinesFormatError(f"{mines} mines but only {hidden} cells are not revealed")
    for r in range(view.height):
        for c in range(view.width):
            v = view.at(r, c)
            if v > sum(1 for p in neighbours(width, view.height, r, c) if view.at(*p) < 0):
                raise MinesFormatError(f"line {r + 2}, column {c + 1}: {v} mines around but fewer hidden cells")
    return view


__all__ = ["AREA_CELLS", "FLAG", "HIDDEN", "MAX_SIDE", "MIN_CUSTOM_SIDE", "Difficulty", "FirstClick", "MinesBoard",
           "MinesFormatError", "MinesStatus", "MinesView", "check_size", "custom_board_ok", "format_view", "neighbours",
           "parse_view"]
