"""The level model: an immutable value object that parses from and prints back to text.

A level file is UTF-8 text::

    # title: The original          <- optional metadata lines, "# key: value"
    20                             <- N, the number of frames (frames 0..N-1)
    3                              <- B, the brick budget
    XXXXXXXXXX                     <- the map rows
    X<     XXX
    ...

Map characters: ``X`` wall, space or ``.`` empty, ``<``/``L`` lemming facing left,
``>``/``R`` lemming facing right, ``T`` target.  Short rows are padded with empty
cells.  Coordinates are ``(row, col)``, 0-based from the top-left map cell.

>>> level = Level.from_text("5\\n1\\n>  T\\nXXXX\\n")
>>> level.height, level.width, level.frames, level.budget
(2, 4, 5, 1)
>>> level.lemmings
(Lemming(row=0, col=0, direction=1),)
>>> level.targets
((0, 3),)
>>> print(level.to_text(), end="")
5
1
>  T
XXXX
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from game.core.errors import LevelFormatError
from game.core.level_text import (
    CANONICAL_CHAR, EMPTY, LEMMING_LEFT, LEMMING_RIGHT, MAX_FILE_BYTES, TARGET, WALL, decode_level, parse_level,
)
from game.core.physics import CLASSIC, Physics
from game.core.physics_catalog import level_line, resolve
from game.core.physics_views import views
from game.core.storage import read_regular_bytes
from game.core.writing import atomic_write_text
from game.core.text import terminal_safe

#: Direction of a lemming facing left.
LEFT = -1
#: Direction of a lemming facing right.
RIGHT = 1

Brick = tuple[int, int]
"""A brick position ``(row, col)``."""


def row_words(row: int) -> str:
    """A row the way every player-facing text writes it: counted from 0 at the top, as the ruler (N) numbers
    it, the frame counter counts frames and ``--bricks`` and the level files count cells.

    >>> row_words(3)
    'row 3'
    """
    return f"row {row}"


def column_words(col: int) -> str:
    """A column the way every player-facing text writes it: counted from 0 at the left, as the ruler shows.

    >>> column_words(5)
    'column 5'
    """
    return f"column {col}"


def cell_words(cell: Brick) -> str:
    """A cell the way every player-facing text writes it (:func:`row_words`, :func:`column_words`).

    >>> cell_words((3, 5))
    'row 3, column 5'
    """
    return f"{row_words(cell[0])}, {column_words(cell[1])}"


@dataclass(frozen=True, order=True)
class Lemming:
    """A lemming's start: cell and direction (``-1`` left, ``+1`` right).

    >>> Level.from_rows([" <T", "XXX"], frames=1, budget=0).lemmings
    (Lemming(row=0, col=1, direction=-1),)
    """

    row: int
    col: int
    direction: int


@dataclass(frozen=True)
class Level:
    """An immutable puzzle: the map, the frame count N and the brick budget B.

    ``grid`` holds the map rows in canonical characters (``X``, space, ``T``,
    ``<``, ``>``), all of the same width.  ``meta`` holds the other ``(key, value)``
    metadata pairs in file order; it does not take part in :attr:`puzzle_hash`.
    ``physics`` is the rules the lemmings follow, read once from the ``# physics:`` line
    (classic without one); the line is written back from the value when the level is
    printed (:attr:`meta_lines`).  ``physics_at`` is where that line stands among the
    ``meta`` lines (``None``: after them, and no line at all for classic).
    Build one with :meth:`from_text`, :meth:`load` or :meth:`from_rows`.

    >>> level = Level.from_text("# physics: climber\\n# note: steps\\n5\\n1\\n>  T\\nXXXX\\n")
    >>> level.physics.name, level.meta, level.physics_at
    ('climber', (('note', 'steps'),), 0)
    >>> level.to_text().splitlines()[:2]
    ['# physics: climber', '# note: steps']
    """

    frames: int
    budget: int
    grid: tuple[str, ...]
    meta: tuple[tuple[str, str], ...] = field(default=())
    physics: Physics = CLASSIC
    physics_at: int | None = None

    def __post_init__(self) -> None:
        if not self.grid or not self.grid[0]:
            raise ValueError("the map is empty")
        width = len(self.grid[0])
        for r, row in enumerate(self.grid):
            if len(row) != width:
                raise ValueError(f"row {r} has width {len(row)}, expected {width}")
            bad = set(row) - {WALL, EMPTY, TARGET, LEMMING_LEFT, LEMMING_RIGHT}
            if bad:
                raise ValueError(f"row {r} has non-canonical characters {sorted(bad)!r}")
        if self.frames < 1:
            raise ValueError(f"frames must be >= 1, got {self.frames}")
        if self.budget < 0:
            raise ValueError(f"budget must be >= 0, got {self.budget}")
        if not self.lemmings:
            raise ValueError("the map has no lemming")
        if not self.targets:
            raise ValueError("the map has no target")
        if any(key == "physics" for key, _ in self.meta):
            raise ValueError("the physics is the level's physics value, not a metadata pair")
        if self.physics_at is not None:
            if not 0 <= self.physics_at <= len(self.meta):
                raise ValueError(f"physics_at must be in 0..{len(self.meta)}, got {self.physics_at}")
            if self.physics_at == len(self.meta) and self.physics != CLASSIC:
                object.__setattr__(self, "physics_at", None)  # one form for "the line comes last"

    # ------------------------------------------------------------------ build
    @classmethod
    def from_rows(
        cls,
        rows: Sequence[str],
        frames: int,
        budget: int,
        *,
        title: str | None = None,
        meta: Iterable[tuple[str, str]] = (),
        physics: Physics | None = None,
    ) -> Level:
        """Build a level from map rows written in the file alphabet and metadata lines as a file holds
        them (a ``physics`` line is read into the physics value; ``physics`` replaces it).

        >>> Level.from_rows(["R.T", "XXX"], frames=4, budget=0, title="Walk").grid
        ('> T', 'XXX')
        >>> Level.from_rows(["R.T", "XXX"], 4, 0, meta=[("physics", "careful"), ("a", "b")]).physics_at
        0
        """
        width = max((len(row) for row in rows), default=0)
        grid = tuple(
            "".join(CANONICAL_CHAR[ch] for ch in row.ljust(width, EMPTY)) for row in rows
        )
        pairs = list(meta)
        if title is not None:
            pairs = [("title", title)] + [p for p in pairs if p[0] != "title"]
        at = None
        if physics is None:
            lines = [i for i, (key, _) in enumerate(pairs) if key == "physics"]
            if len(lines) > 1:
                raise ValueError("more than one physics line")
            if lines:
                at, physics = lines[0], resolve(pairs[lines[0]][1])
        rest = tuple(p for p in pairs if p[0] != "physics")
        return cls(frames, budget, grid, rest, CLASSIC if physics is None else physics, at)

    @classmethod
    def from_text(cls, text: str, path: str = "<string>") -> Level:
        """Parse level text; raise :class:`LevelFormatError` naming line and column."""
        return cls(*parse_level(text, path))

    @classmethod
    def from_bytes(cls, data: bytes, path: str = "<bytes>") -> Level:
        """Decode UTF-8 bytes and parse them (errors name line and column)."""
        return cls(*parse_level(decode_level(data, path), path))

    @classmethod
    def load(cls, path: str | Path) -> Level:
        """Read and parse a level file: only a regular file (never blocks on a FIFO or a device),
        never more than the size limit."""
        p = Path(path)
        try:
            data = read_regular_bytes(p, MAX_FILE_BYTES)
        except FileNotFoundError:
            raise LevelFormatError(str(p), 0, 0, "no such file") from None
        except OSError as exc:  # UserFileError: not a regular file, too large, unreadable
            message = str(exc)
            if message.startswith(f"{p} "):
                message = message[len(str(p)) + 1:]
            elif message.startswith(f"cannot read {p}: "):
                message = "cannot read file: " + message[len(f"cannot read {p}: "):]
            raise LevelFormatError(str(p), 0, 0, message) from None
        return cls.from_bytes(data, str(p))

    # ------------------------------------------------------------- printing
    @property
    def meta_lines(self) -> tuple[tuple[str, str], ...]:
        """The metadata lines as the file holds them: :attr:`meta` with the ``physics`` line in its place
        (the physics' shipped name, else its JSON on one line)."""
        at = self.physics_at
        if at is None:
            if self.physics == CLASSIC:
                return self.meta
            at = len(self.meta)
        return self.meta[:at] + (("physics", level_line(self.physics)),) + self.meta[at:]

    def to_text(self) -> str:
        """The level file text; ``Level.from_text(level.to_text()) == level``."""
        lines = [f"# {key}: {value}" for key, value in self.meta_lines]
        lines += [str(self.frames), str(self.budget), *self.grid]
        return "\n".join(lines) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the level file atomically (the old file survives a failed write)."""
        atomic_write_text(Path(path), self.to_text())

    def __str__(self) -> str:
        return self.to_text()

    # ------------------------------------------------------------- queries
    @property
    def height(self) -> int:
        """Number of map rows."""
        return len(self.grid)

    @property
    def width(self) -> int:
        """Number of map columns."""
        return len(self.grid[0])

    @property
    def title(self) -> str:
        """The ``title`` metadata, or ``""``."""
        return self.meta_value("title")

    def meta_value(self, key: str, default: str = "") -> str:
        """The first metadata value for ``key`` (the physics is :attr:`physics`, not a metadata value)."""
        for k, v in self.meta:
            if k == key:
                return v
        return default

    def with_meta(self, key: str, value: str) -> Level:
        """A copy with metadata ``key`` set (replaced in place or appended after every line, the
        ``physics`` line included); the physics is set with :meth:`with_physics`."""
        if key == "physics":
            raise ValueError("the physics is set with with_physics, not as a metadata pair")
        pairs = list(self.meta)
        at = self.physics_at
        for i, (k, _) in enumerate(pairs):
            if k == key:
                pairs[i] = (key, value)
                break
        else:
            if at is None and self.physics != CLASSIC:
                at = len(pairs)  # the physics line stays before the new one
            pairs.append((key, value))
        return replace(self, meta=tuple(pairs), physics_at=at)

    def with_physics(self, physics: Physics) -> Level:
        """A copy whose lemmings follow ``physics`` (its line stays in place; classic drops it)."""
        return replace(self, physics=physics, physics_at=None if physics == CLASSIC else self.physics_at)

    def with_limits(self, *, frames: int | None = None, budget: int | None = None) -> Level:
        """A copy with another frame count and/or brick budget."""
        return replace(self, frames=self.frames if frames is None else frames,
                       budget=self.budget if budget is None else budget)

    def with_cells(self, chars: Mapping[Brick, str]) -> Level:
        """A copy with each cell of ``chars`` set to its map character (e.g. ``WALL`` for a brick made a wall).

        >>> Level.from_rows(["> T", "XXX"], frames=3, budget=1).with_cells({(0, 1): "X"}).grid
        ('>XT', 'XXX')
        """
        rows = [list(row) for row in self.grid]
        for (r, c), ch in chars.items():
            rows[r][c] = ch
        return replace(self, grid=tuple("".join(row) for row in rows))

    @cached_property
    def lemmings(self) -> tuple[Lemming, ...]:
        """Lemming starts in reading order (row by row, left to right)."""
        found = []
        for r, row in enumerate(self.grid):
            for c, ch in enumerate(row):
                if ch == LEMMING_LEFT:
                    found.append(Lemming(r, c, LEFT))
                elif ch == LEMMING_RIGHT:
                    found.append(Lemming(r, c, RIGHT))
        return tuple(found)

    @cached_property
    def targets(self) -> tuple[Brick, ...]:
        """Target cells in reading order."""
        return tuple(
            (r, c) for r, row in enumerate(self.grid) for c, ch in enumerate(row) if ch == TARGET
        )

    @cached_property
    def wall_map(self) -> npt.NDArray[np.bool_]:
        """Read-only ``(H, W)`` boolean array, True on walls."""
        arr = np.array([[ch == WALL for ch in row] for row in self.grid], dtype=bool)
        arr.flags.writeable = False
        return arr

    @cached_property
    def target_map(self) -> npt.NDArray[np.bool_]:
        """Read-only ``(H, W)`` boolean array, True on targets."""
        arr = np.array([[ch == TARGET for ch in row] for row in self.grid], dtype=bool)
        arr.flags.writeable = False
        return arr

    @cached_property
    def brickable_map(self) -> npt.NDArray[np.bool_]:
        """Read-only ``(H, W)`` boolean array, True where a brick may be placed."""
        arr = np.array([[ch == EMPTY for ch in row] for row in self.grid], dtype=bool)
        arr.flags.writeable = False
        return arr

    @cached_property
    def brickable_cells(self) -> tuple[Brick, ...]:
        """Cells where a brick may be placed (empty: not wall, target or start)."""
        return tuple(
            (r, c) for r, row in enumerate(self.grid) for c, ch in enumerate(row) if ch == EMPTY
        )

    def in_bounds(self, row: int, col: int) -> bool:
        """True when ``(row, col)`` is a map cell."""
        return 0 <= row < self.height and 0 <= col < self.width

    def char_at(self, row: int, col: int) -> str:
        """The canonical map character at a cell (``X`` outside the map)."""
        return self.grid[row][col] if self.in_bounds(row, col) else WALL

    def obstacle_map(self, bricks: Iterable[Brick] = ()) -> npt.NDArray[np.bool_]:
        """A fresh ``(H, W)`` boolean array of walls plus the given bricks."""
        arr = np.array(self.wall_map, dtype=bool)
        for r, c in bricks:
            arr[r, c] = True
        return arr

    @cached_property
    def puzzle_hash(self) -> str:
        """Hash of what defines the puzzle (N, B, map, and the physics unless classic), not the metadata.

        >>> Level.from_rows(["> T", "XXX"], 3, 0, title="a").puzzle_hash == \\
        ...     Level.from_rows(["> T", "XXX"], 3, 0, title="b").puzzle_hash
        True
        """
        body = "\n".join([str(self.frames), str(self.budget), *self.grid])
        seen = views(self.physics)
        if not seen.is_classic:
            body += "\n" + seen.behaviour_key
        return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]

    def summary(self) -> str:
        """One line: size, N, B, lemmings, targets."""
        name = f"'{terminal_safe(self.title)}' " if self.title else ""
        return (
            f"{name}{self.height}x{self.width} map, N={self.frames} frames, "
            f"B={self.budget} bricks, {len(self.lemmings)} lemming"
            f"{'s' if len(self.lemmings) != 1 else ''}, {len(self.targets)} target"
            f"{'s' if len(self.targets) != 1 else ''}"
        )
