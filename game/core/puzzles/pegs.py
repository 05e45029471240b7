"""Peg solitaire: the board, its positions, the jumps, the symmetry group and the position classes.

A :class:`Board` is a set of cells inside an ``height`` x ``width`` frame; a *position* is an ``int``
whose bit ``r * width + c`` is set when cell ``(r, c)`` holds a peg.  A :class:`Jump` moves the peg on
``start`` over the peg on ``over`` onto the empty hole ``end`` (two cells away in a row or a column)
and removes the jumped peg.  The text form has one line per row: ``o`` a peg, ``.`` a hole, space
off the board; :mod:`game.core.puzzles.pegs_boards` reads it and holds the built-in boards.

>>> from game.core.puzzles.pegs_boards import english, french
>>> board, pos = english()
>>> board.count(pos), len(board.jumps)
(32, 76)
>>> jump = Jump((1, 3), (2, 3), (3, 3))
>>> after = board.apply(pos, jump)
>>> board.count(after), board.undo(after, jump) == pos
(31, True)
>>> board.position_class(pos) == board.position_class(board.goal_position())
True
>>> french_board, start = french()
>>> french_board.position_class(start) == french_board.position_class(french_board.goal_position())
False
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Iterable, Iterator, Sequence

Cell = tuple[int, int]
"""A cell ``(row, col)``, 0 at the top-left of the frame."""

#: The four jump directions (row step, column step).
DIRECTIONS: tuple[Cell, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))


class Refusal(str, enum.Enum):
    """Why a jump from one cell to another cannot be played (the value is the player's sentence)."""

    OFF_BOARD = "off the board"
    NO_PEG = "no peg there"
    NOT_IN_LINE = "that hole is not two cells away in a straight line"
    OVER_OFF_BOARD = "the cell jumped over is off the board"
    LANDING_FULL = "the landing hole is not empty"
    NOTHING_OVER = "the cell jumped over has no peg"


@dataclass(frozen=True)
class Jump:
    """One move: the peg on ``start`` jumps over ``over`` onto ``end``.

    >>> Jump.between((3, 1), (3, 3))
    Jump(start=(3, 1), over=(3, 2), end=(3, 3))
    >>> Jump.between((0, 0), (1, 1)) is None
    True
    """

    start: Cell
    over: Cell
    end: Cell

    @staticmethod
    def between(start: Cell, end: Cell) -> Jump | None:
        """The jump from ``start`` to ``end`` (two cells apart in a row or column), or ``None``."""
        dr, dc = end[0] - start[0], end[1] - start[1]
        if (abs(dr), abs(dc)) not in ((2, 0), (0, 2)):
            return None
        return Jump(start, (start[0] + dr // 2, start[1] + dc // 2), end)

    def as_list(self) -> list[int]:
        """``[r1, c1, r2, c2]`` (from, to), the CLI's form."""
        return [self.start[0], self.start[1], self.end[0], self.end[1]]


@dataclass(frozen=True)
class Board:
    """The shape of a peg-solitaire board: its cells in a ``height`` x ``width`` frame."""

    height: int
    width: int
    cells: frozenset[Cell]
    name: str = "board"
    _index: dict[Cell, int] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        for r, c in self.cells:
            self._index[(r, c)] = r * self.width + c

    # ---- cells and positions ------------------------------------------------------------------
    def bit(self, cell: Cell) -> int:
        """The bit of ``cell`` in a position (``KeyError`` when off the board)."""
        return 1 << self._index[cell]

    def on_board(self, cell: Cell) -> bool:
        """True when ``cell`` is one of the board's holes."""
        return cell in self._index

    def has_peg(self, position: int, cell: Cell) -> bool:
        """True when ``cell`` holds a peg in ``position``."""
        return cell in self._index and bool(position >> self._index[cell] & 1)

    @cached_property
    def full(self) -> int:
        """The position with a peg on every cell."""
        return sum(1 << i for i in self._index.values())

    def count(self, position: int) -> int:
        """The number of pegs."""
        return bin(position).count("1")

    def pegs(self, position: int) -> list[Cell]:
        """The cells holding a peg, in reading order."""
        return sorted(cell for cell, i in self._index.items() if position >> i & 1)

    def position_of(self, pegs: Iterable[Cell]) -> int:
        """The position with pegs on exactly ``pegs``."""
        return sum(self.bit(cell) for cell in set(pegs))

    @cached_property
    def centre(self) -> Cell | None:
        """The centre cell, when the frame has one and it is on the board."""
        cell = (self.height // 2, self.width // 2)
        if self.height % 2 and self.width % 2 and cell in self._index:
            return cell
        return None

    def goal_position(self) -> int | None:
        """The default goal: one peg in the centre (``None``: one peg anywhere, no centre)."""
        return None if self.centre is None else self.bit(self.centre)

    # ---- jumps --------------------------------------------------------------------------------
    @cached_property
    def jumps(self) -> tuple[Jump, ...]:
        """Every jump the board's shape allows, in reading order of the start cell."""
        out = []
        for r, c in sorted(self.cells):
            for dr, dc in DIRECTIONS:
                over, end = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
                if over in self._index and end in self._index:
                    out.append(Jump((r, c), over, end))
        return tuple(out)

    @cached_property
    def jump_masks(self) -> tuple[tuple[int, int, int], ...]:
        """Per jump of :attr:`jumps`: (start|over bits, end bit, all three bits)."""
        out = []
        for j in self.jumps:
            fo = self.bit(j.start) | self.bit(j.over)
            out.append((fo, self.bit(j.end), fo | self.bit(j.end)))
        return tuple(out)

    def refusal(self, position: int, start: Cell, end: Cell) -> Refusal | None:
        """Why the peg on ``start`` cannot jump to ``end`` in ``position`` (``None``: it can).

        >>> from game.core.puzzles.pegs_boards import english
        >>> board, pos = english()
        >>> board.refusal(pos, (3, 1), (3, 3)) is None, board.refusal(pos, (3, 3), (3, 5)).value
        (True, 'no peg there')
        >>> board.refusal(pos, (0, 2), (3, 3)).value
        'that hole is not two cells away in a straight line'
        """
        if not self.on_board(start):
            return Refusal.OFF_BOARD
        if not self.has_peg(position, start):
            return Refusal.NO_PEG
        if not self.on_board(end):
            return Refusal.OFF_BOARD
        jump = Jump.between(start, end)
        if jump is None:
            return Refusal.NOT_IN_LINE
        if not self.on_board(jump.over):
            return Refusal.OVER_OFF_BOARD
        if self.has_peg(position, end):
            return Refusal.LANDING_FULL
        if not self.has_peg(position, jump.over):
            return Refusal.NOTHING_OVER
        return None

    def is_legal(self, position: int, jump: Jump) -> bool:
        """True when ``jump`` can be played in ``position``."""
        return Jump.between(jump.start, jump.end) == jump and self.refusal(position, jump.start, jump.end) is None

    def legal_jumps(self, position: int) -> list[Jump]:
        """The jumps playable in ``position``, in the order of :attr:`jumps`."""
        return [j for j, (fo, t, _) in zip(self.jumps, self.jump_masks) if position & fo == fo and not position & t]

    def apply(self, position: int, jump: Jump) -> int:
        """The position after ``jump`` (``ValueError`` when it is not legal)."""
        if not self.is_legal(position, jump):
            raise ValueError(f"illegal jump {jump.as_list()}")
        return position ^ self.bit(jump.start) ^ self.bit(jump.over) ^ self.bit(jump.end)

    def undo(self, position: int, jump: Jump) -> int:
        """The position before ``jump`` was played (``ValueError`` when it cannot have been)."""
        if not (self.has_peg(position, jump.end) and not self.has_peg(position, jump.start)
                and not self.has_peg(position, jump.over)):
            raise ValueError(f"jump {jump.as_list()} cannot be undone here")
        return position ^ self.bit(jump.start) ^ self.bit(jump.over) ^ self.bit(jump.end)

    def replay(self, position: int, jumps: Iterable[Jump]) -> int:
        """The position after playing ``jumps`` in order (``ValueError`` at the first illegal one)."""
        for jump in jumps:
            position = self.apply(position, jump)
        return position

    # ---- symmetry -----------------------------------------------------------------------------
    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The symmetries of the board (rotations and reflections of the frame that map the cells onto
        themselves), each as a permutation of bit indices: ``perm[i]`` is where bit ``i`` goes."""
        h, w = self.height, self.width
        maps: list[Callable[[int, int], Cell]] = [lambda r, c: (r, c), lambda r, c: (h - 1 - r, c), lambda r, c: (r, w - 1 - c),
                lambda r, c: (h - 1 - r, w - 1 - c)]
        if h == w:
            maps += [lambda r, c: (c, r), lambda r, c: (w - 1 - c, r), lambda r, c: (c, h - 1 - r),
                     lambda r, c: (w - 1 - c, h - 1 - r)]
        out = []
        for f in maps:
            image = {cell: f(*cell) for cell in self.cells}
            if set(image.values()) == self.cells:
                perm = [0] * (h * w)
                for cell, i in self._index.items():
                    perm[i] = self._index[image[cell]]
                out.append(tuple(perm))
        return tuple(out)

    def row_images(self, perms: Sequence[tuple[int, ...]] | None = None) -> list[list[list[int]]]:
        """Per symmetry (default: all of :attr:`symmetries`) and row, the image of every bit pattern of that
        row: ``transform`` of a position is the OR of its rows' images (fast, and vectorisable).

        >>> from game.core.puzzles.pegs_boards import english
        >>> board, pos = english()
        >>> tables = board.row_images()
        >>> image = sum(tables[1][r][pos >> (r * board.width) & 127] for r in range(7))
        >>> image == board.transform(pos, board.symmetries[1])
        True
        """
        w = self.width
        out = []
        for perm in self.symmetries if perms is None else perms:
            rows = []
            for r in range(self.height):
                single = [1 << perm[r * w + c] if self.on_board((r, c)) else 0 for c in range(w)]
                table = [0] * (1 << w)
                for bits in range(1, 1 << w):  # a pattern's image: its lowest bit's, OR the rest's (already made)
                    low = bits & -bits
                    table[bits] = table[bits ^ low] | single[low.bit_length() - 1]
                rows.append(table)
            out.append(rows)
        return out

    def transform(self, position: int, perm: tuple[int, ...]) -> int:
        """``position`` moved by the symmetry ``perm``."""
        out = 0
        for i in self._index.values():
            if position >> i & 1:
                out |= 1 << perm[i]
        return out

    def images(self, position: int) -> set[int]:
        """Every image of ``position`` under the symmetry group.

        >>> from game.core.puzzles.pegs_boards import english
        >>> board, pos = english()
        >>> len(board.images(pos)), len(board.images(board.apply(pos, Jump((1, 3), (2, 3), (3, 3)))))
        (1, 4)
        """
        return {self.transform(position, perm) for perm in self.symmetries}

    def canonical(self, position: int) -> int:
        """The least image of ``position`` (equal for positions equivalent under symmetry)."""
        return min(self.images(position))

    # ---- position classes (the rule of three) -------------------------------------------------
    @cached_property
    def class_masks(self) -> tuple[int, ...]:
        """Masks of the cells with ``(r + c) % 3 == k`` then ``(r - c) % 3 == k`` for k = 0, 1, 2."""
        masks = [0] * 6
        for (r, c), i in self._index.items():
            masks[(r + c) % 3] |= 1 << i
            masks[3 + (r - c) % 3] |= 1 << i
        return tuple(masks)

    def position_class(self, position: int) -> tuple[int, int, int, int]:
        """The position class: four parities no jump changes.

        Three consecutive cells of a row or column lie on three different diagonals ``(r + c) % 3``
        (and anti-diagonals ``(r - c) % 3``); a jump takes a peg from two of them and adds one to
        the third, so the three peg counts all change parity and the parity of any two counts'
        sum never changes.
        """
        n = [bin(position & m).count("1") & 1 for m in self.class_masks]
        return (n[0] ^ n[1], n[1] ^ n[2], n[3] ^ n[4], n[4] ^ n[5])

    def class_allows(self, position: int, goal: int | None) -> bool:
        """False when the rule of three proves ``goal`` unreachable from ``position``
        (``goal`` ``None``: some single peg)."""
        if goal is not None:
            return self.position_class(position) == self.position_class(goal)
        mine = self.position_class(position)
        return any(self.position_class(self.bit(cell)) == mine for cell in self.cells)

    def is_goal(self, position: int, goal: int | None) -> bool:
        """True when ``position`` is the goal (``None``: one peg anywhere)."""
        return position == goal if goal is not None else self.count(position) == 1

    # ---- text ---------------------------------------------------------------------------------
    def format(self, position: int) -> str:
        """The text form (rows right-stripped, no trailing empty rows).

        >>> from game.core.puzzles.pegs_boards import ENGLISH_TEXT, english, parse_board
        >>> board, pos = english()
        >>> format_text = board.format(pos)
        >>> format_text == ENGLISH_TEXT and parse_board(format_text)[1] == pos
        True
        """
        lines = []
        for r in range(self.height):
            row = "".join("o" if self.has_peg(position, (r, c)) else "." if (r, c) in self._index else " "
                          for c in range(self.width))
            lines.append(row.rstrip())
        while lines and not lines[-1]:
            lines.pop()
        return "\n".join(lines)

    def move_matrix(self) -> list[dict[int, int]]:
        """The jump-incidence matrix A, column per jump: ``{bit index: +1 (start, over) / -1 (end)}``,
        so that ``A x = start - end`` for the jump counts ``x`` of any game."""
        out = []
        for j in self.jumps:
            out.append({self._index[j.start]: 1, self._index[j.over]: 1, self._index[j.end]: -1})
        return out

    def indices(self) -> Iterator[tuple[Cell, int]]:
        """``(cell, bit index)`` of every cell."""
        return iter(sorted(self._index.items()))


__all__ = ["DIRECTIONS", "Board", "Cell", "Jump", "Refusal"]
