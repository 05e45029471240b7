"""One state of the level editor (:class:`Draft`: it may not be a valid level yet) and the editor's
helpers for maps, sizes and file names (:mod:`game.core.editor_model` edits drafts).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace

from game.core.level import Brick
from game.core.level_text import EMPTY, MAX_SIDE, WALL
from game.core.physics import CLASSIC, Physics

#: Smallest map side the editor allows.
MIN_EDIT_SIDE = 2
#: Largest map side the editor allows (the file format allows up to 256; beyond ~64 cells get tiny).
MAX_EDIT_SIDE = min(64, MAX_SIDE)


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
