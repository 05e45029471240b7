"""One state of the level editor (:class:`Draft`: it may not be a valid level yet) and the editor's
helpers for maps, sizes, edges and file names (:mod:`game.core.editor_model` edits drafts).

A draft's :attr:`Draft.fingerprint` covers everything an analysis of it depends on (the map with its
lemmings and targets, N, B and the physics), and agrees with :func:`level_fingerprint` of the level it
makes, so an analysis can tell whether it is still about the draft on screen.
"""

from __future__ import annotations

import enum
import hashlib
import re
import unicodedata
from dataclasses import dataclass, replace

from game.core.level import Brick, Level, cell_words
from game.core.level_text import EMPTY, LEMMING_LEFT, LEMMING_RIGHT, MAX_SIDE, TARGET, WALL
from game.core.physics import CLASSIC, Physics
from game.core.physics_catalog import level_line
from game.core.teach_words import who

#: Smallest map side the editor allows.
MIN_EDIT_SIDE = 2
#: Largest map side the editor allows: every size the game accepts.
MAX_EDIT_SIDE = MAX_SIDE


def fingerprint(grid: tuple[str, ...], frames: int, budget: int, physics: Physics) -> str:
    """A short hash of what an analysis depends on: physics, N, B and the map (lemmings and targets included).

    >>> a = fingerprint(("> T", "XXX"), 3, 0, CLASSIC)
    >>> a == fingerprint(("> T", "XXX"), 3, 1, CLASSIC), len(a)
    (False, 16)
    """
    body = "\n".join([level_line(physics), str(frames), str(budget), *grid])
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def level_fingerprint(level: Level) -> str:
    """:func:`fingerprint` of ``level`` (its title and other metadata play no part)."""
    return fingerprint(level.grid, level.frames, level.budget, level.physics)


class Edge(str, enum.Enum):
    """A side of the map, where rows or columns are added or removed."""

    TOP = "top"
    BOTTOM = "bottom"
    LEFT = "left"
    RIGHT = "right"

    @property
    def is_row(self) -> bool:
        """True for the top and bottom edges (they add or remove rows)."""
        return self in (Edge.TOP, Edge.BOTTOM)

    @property
    def line(self) -> str:
        """``"top row"``, ``"left column"``..."""
        return f"{self.value} {'row' if self.is_row else 'column'}"


@dataclass(frozen=True)
class Draft:
    """One editor state: map rows (canonical characters), N, B, the title and the physics."""

    grid: tuple[str, ...]
    frames: int
    budget: int
    title: str = ""
    meta: tuple[tuple[str, str], ...] = ()  #: other metadata kept from an opened file
    physics: Physics = CLASSIC
    physics_at: int | None = None  #: where the physics line stands among ``meta`` (:attr:`Level.physics_at`)

    @property
    def height(self) -> int:
        """Rows."""
        return len(self.grid)

    @property
    def width(self) -> int:
        """Columns."""
        return len(self.grid[0])

    def char_at(self, cell: Brick) -> str:
        """The character at ``cell``."""
        return self.grid[cell[0]][cell[1]]

    def with_char(self, cell: Brick, ch: str) -> Draft:
        """A copy with one cell changed."""
        r, c = cell
        row = self.grid[r]
        grid = self.grid[:r] + (row[:c] + ch + row[c + 1:],) + self.grid[r + 1:]
        return replace(self, grid=grid)

    def count(self, chars: str) -> int:
        """How many cells hold one of ``chars``."""
        return sum(row.count(ch) for row in self.grid for ch in chars)

    @property
    def fingerprint(self) -> str:
        """What an analysis of this draft depends on, hashed (see :func:`fingerprint`)."""
        return fingerprint(self.grid, self.frames, self.budget, self.physics)

    @property
    def bordered(self) -> bool:
        """True when the map has a wall all round (and an inside)."""
        if self.height < 3 or self.width < 3:
            return False
        return (set(self.grid[0]) == {WALL} and set(self.grid[-1]) == {WALL}
                and all(r[0] == WALL and r[-1] == WALL for r in self.grid))

    def lemming_number(self, cell: Brick) -> int:
        """The 1-based number of the lemming at ``cell`` (lemmings count in reading order, as in a level)."""
        r, c = cell
        before = sum(row.count(LEMMING_LEFT) + row.count(LEMMING_RIGHT) for row in self.grid[:r])
        head = self.grid[r][:c]
        return before + head.count(LEMMING_LEFT) + head.count(LEMMING_RIGHT) + 1


def edge_index(d: Draft, edge: Edge) -> int:
    """The row (top/bottom) or column (left/right) that adding or removing at ``edge`` works on: the edge
    itself, or the line just inside a wall border (the border stays)."""
    inset = 1 if d.bordered else 0
    size = d.height if edge.is_row else d.width
    return inset if edge in (Edge.TOP, Edge.LEFT) else size - 1 - inset


def line_cells(d: Draft, edge: Edge) -> list[Brick]:
    """The cells removing a line at ``edge`` deletes (inside the border of a bordered map)."""
    k = edge_index(d, edge)
    inset = 1 if d.bordered else 0
    if edge.is_row:
        return [(k, c) for c in range(inset, d.width - inset)]
    return [(r, k) for r in range(inset, d.height - inset)]


def removal_loss(d: Draft, edge: Edge) -> tuple[list[str], int]:
    """What removing a line at ``edge`` would delete: the lemmings and targets named, and the walls counted.

    >>> lost, walls = removal_loss(Draft(("XXXX", "X>TX", "XX X", "XXXX"), 9, 0), Edge.TOP)
    >>> lost, walls
    (['the lemming (row 1, column 1)', 'the target at row 1, column 2'], 0)
    >>> removal_loss(Draft(("XXXX", "X>TX", "XX X", "XXXX"), 9, 0), Edge.BOTTOM)
    ([], 1)
    """
    lost: list[str] = []
    walls = 0
    for cell in line_cells(d, edge):
        ch = d.char_at(cell)
        if ch in (LEMMING_LEFT, LEMMING_RIGHT):
            name = who(d.lemming_number(cell) - 1, d.count(LEMMING_LEFT + LEMMING_RIGHT))
            lost.append(f"{name} ({cell_words(cell)})")
        elif ch == TARGET:
            lost.append(f"the target at {cell_words(cell)}")
        elif ch == WALL:
            walls += 1
    return lost, walls


def grown(d: Draft, edge: Edge) -> Draft | None:
    """``d`` with an empty line added at ``edge`` (inside a wall border), None at the largest size."""
    if (d.height if edge.is_row else d.width) >= MAX_EDIT_SIDE:
        return None
    border = d.bordered
    k = edge_index(d, edge) + (0 if edge in (Edge.TOP, Edge.LEFT) else 1)
    if edge.is_row:
        row = WALL + EMPTY * (d.width - 2) + WALL if border else EMPTY * d.width
        return replace(d, grid=d.grid[:k] + (row,) + d.grid[k:])
    last = d.height - 1
    rows = tuple(r[:k] + (WALL if border and i in (0, last) else EMPTY) + r[k:] for i, r in enumerate(d.grid))
    return replace(d, grid=rows)


def shrunk(d: Draft, edge: Edge) -> Draft | None:
    """``d`` without its line at ``edge`` (inside a wall border), None at the smallest size."""
    if (d.height if edge.is_row else d.width) <= MIN_EDIT_SIDE:
        return None
    k = edge_index(d, edge)
    if edge.is_row:
        return replace(d, grid=d.grid[:k] + d.grid[k + 1:])
    return replace(d, grid=tuple(r[:k] + r[k + 1:] for r in d.grid))


def cells_between(start: Brick, end: Brick) -> list[Brick]:
    """The cells of a straight line from ``start`` to ``end``, both included (Bresenham's line): what a drag
    from one pointer position to the next crosses, so a fast stroke leaves no gaps.

    >>> cells_between((0, 0), (2, 5))
    [(0, 0), (0, 1), (1, 2), (1, 3), (2, 4), (2, 5)]
    >>> cells_between((3, 3), (3, 3)), cells_between((2, 0), (0, 0))
    ([(3, 3)], [(2, 0), (1, 0), (0, 0)])
    """
    (r0, c0), (r1, c1) = start, end
    dr, dc = abs(r1 - r0), abs(c1 - c0)
    step_r, step_c = (1 if r1 > r0 else -1), (1 if c1 > c0 else -1)
    err = dc - dr
    cells = [(r0, c0)]
    while (r0, c0) != (r1, c1):
        twice = 2 * err
        if twice > -dr:
            err -= dr
            c0 += step_c
        if twice < dc:
            err += dc
            r0 += step_r
        cells.append((r0, c0))
    return cells


def bordered_grid(height: int, width: int) -> tuple[str, ...]:
    """An empty map with a wall all round.

    >>> bordered_grid(3, 4)
    ('XXXX', 'X  X', 'XXXX')
    """
    rows = []
    for r in range(height):
        if r in (0, height - 1):
            rows.append(WALL * width)
        else:
            rows.append(WALL + EMPTY * (width - 2) + WALL if width >= 2 else WALL * width)
    return tuple(rows)


def default_frames(height: int, width: int) -> int:
    """A generous default N for a new map: twice its width plus height."""
    return 2 * (height + width)


def slugify(title: str) -> str:
    """A file-name stem for a title.

    >>> slugify("Mind the Gap!"), slugify("  "), slugify("Été 2")
    ('mind_the_gap', 'untitled', 'ete_2')
    """
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
    stem = re.sub(r"[^a-z0-9]+", "_", ascii_title.lower()).strip("_")
    return stem[:48] or "untitled"


def parse_size(text: str) -> tuple[int, int] | None:
    """``"HxW"`` (or ``"H W"``, ``"H,W"``) -> ``(H, W)`` within the editor's limits, else None.

    >>> parse_size("10x14"), parse_size(" 8 * 9 "), parse_size("1x5"), parse_size("abc")
    ((10, 14), (8, 9), None, None)
    """
    m = re.fullmatch(r"\s*(\d{1,3})\s*[xX*, ]\s*(\d{1,3})\s*", text)
    if not m:
        return None
    h, w = int(m.group(1)), int(m.group(2))
    if not (MIN_EDIT_SIDE <= h <= MAX_EDIT_SIDE and MIN_EDIT_SIDE <= w <= MAX_EDIT_SIDE):
        return None
    return h, w
