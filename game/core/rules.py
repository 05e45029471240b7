"""Where bricks may go, the cell codes of the array encodings, and brick lists as text.

How a lemming moves is not here: it is the level's physics (:mod:`game.core.physics`), the one value every
simulator and encoding derives from.  Walls, bricks and everything outside the map are solid.
"""

from __future__ import annotations

import enum
import re
from typing import Iterable

import numpy as np
import numpy.typing as npt

from game.core.errors import IllegalBricksError
from game.core.level import Brick, Level

State = tuple[int, int, int]
"""A lemming state ``(row, col, direction)`` with direction ``-1`` or ``+1``."""

LEFT, RIGHT = -1, 1
"""The two directions.  Array encodings store them as channels: :func:`channel` and :func:`direction`."""


def channel(direction: int) -> int:
    """The array channel of a direction: 0 for left, 1 for right.

    >>> channel(LEFT), channel(RIGHT)
    (0, 1)
    """
    return 1 if direction > 0 else 0


def direction(channel_index: int) -> int:
    """The direction stored in array channel ``channel_index`` (0 left, 1 right).

    >>> direction(0), direction(1)
    (-1, 1)
    """
    return RIGHT if channel_index else LEFT


class Cell(enum.IntEnum):
    """The one cell code of every array encoding (padded maps use :attr:`WALL` outside the map).

    >>> cell_codes(Level.from_rows(["> T", "XX "], 3, 1)).tolist()
    [[4, 0, 3], [1, 1, 0]]
    >>> Cell.BRICK.solid, Cell.TARGET.solid, Cell.EMPTY.brickable
    (True, False, True)
    """

    EMPTY = 0  #: free, a brick may go here
    WALL = 1  #: a wall of the map, or outside it
    BRICK = 2  #: a brick the player placed
    TARGET = 3  #: free, the lemming stops here; no brick
    START = 4  #: free, a lemming's start; no brick

    @property
    def solid(self) -> bool:
        """True for cells a lemming can neither fall into nor walk into."""
        return self in (Cell.WALL, Cell.BRICK)

    @property
    def brickable(self) -> bool:
        """True for cells where the player may place a brick."""
        return self is Cell.EMPTY


def cell_codes(level: Level, bricks: Iterable[Brick] = (), *, padded: bool = False) -> npt.NDArray[np.int8]:
    """``(H, W)`` :class:`Cell` codes of ``level`` with ``bricks`` placed; ``padded`` adds a ring of walls."""
    codes = np.full((level.height, level.width), Cell.EMPTY, dtype=np.int8)
    codes[level.wall_map] = Cell.WALL
    codes[level.target_map] = Cell.TARGET
    for lem in level.lemmings:
        codes[lem.row, lem.col] = Cell.START
    for r, c in bricks:
        codes[r, c] = Cell.BRICK
    return np.pad(codes, 1, constant_values=Cell.WALL) if padded else codes


def brick_problem(level: Level, brick: Brick) -> str | None:
    """Why a single brick may not be placed, or ``None`` when it may.

    >>> lv = Level.from_rows(["> T", "XXX"], 3, 1)
    >>> brick_problem(lv, (0, 1)) is None
    True
    >>> brick_problem(lv, (1, 1))
    'brick (1,1) is on a wall'
    """
    r, c = brick
    if not level.in_bounds(r, c):
        return f"brick ({r},{c}) is outside the {level.height}x{level.width} map"
    ch = level.char_at(r, c)
    if ch == "X":
        return f"brick ({r},{c}) is on a wall"
    if ch == "T":
        return f"brick ({r},{c}) is on a target"
    if ch in "<>":
        return f"brick ({r},{c}) is on a lemming's start"
    return None


def check_bricks(level: Level, bricks: Iterable[Brick], *, enforce_budget: bool = True) -> tuple[Brick, ...]:
    """Validate a brick set and return it sorted; raise :class:`IllegalBricksError` if illegal.

    Legal: every brick inside the map on an empty cell (not a wall, target or
    lemming start), no duplicates, and at most B of them.

    >>> lv = Level.from_rows(["> T", "XXX"], 3, 1)
    >>> check_bricks(lv, [(0, 1)])
    ((0, 1),)
    >>> check_bricks(lv, [(0, 1), (0, 1)])
    Traceback (most recent call last):
    ...
    game.core.errors.IllegalBricksError: brick (0,1) is listed twice
    """
    seen: set[Brick] = set()
    for brick in bricks:
        brick = (int(brick[0]), int(brick[1]))
        problem = brick_problem(level, brick)
        if problem:
            raise IllegalBricksError(problem)
        if brick in seen:
            raise IllegalBricksError(f"brick ({brick[0]},{brick[1]}) is listed twice")
        seen.add(brick)
    if enforce_budget and len(seen) > level.budget:
        raise IllegalBricksError(f"{len(seen)} bricks exceed the budget of {level.budget}")
    return tuple(sorted(seen))


_BRICK = re.compile(r"(\()?\s*(-?[0-9]{1,9})\s*,\s*(-?[0-9]{1,9})\s*(\))?", re.ASCII)
#: Most bricks one brick list may hold (a 256x256 map has 65,536 cells).
MAX_BRICKS_IN_TEXT = 65_536


def parse_bricks(text: str) -> tuple[Brick, ...]:
    """Parse ``"r,c;r,c;..."`` (also ``"(r,c) (r,c)"``) into brick positions.

    Numbers are ASCII digits (at most 9 of them); parentheses, when used, must pair up.

    >>> parse_bricks("2,1;5,4; 6,6")
    ((2, 1), (5, 4), (6, 6))
    >>> parse_bricks("(2,1) (5,4)")
    ((2, 1), (5, 4))
    >>> parse_bricks("")
    ()
    >>> parse_bricks("2,1)")
    Traceback (most recent call last):
    ...
    game.core.errors.IllegalBricksError: cannot read bricks '2,1)' at character 4: a closing parenthesis was never opened
    """
    bricks: list[Brick] = []
    rest = text.strip()
    shown = repr(text if len(text) <= 60 else text[:60] + "...")
    pos = 0
    while pos < len(rest):
        if rest[pos] in " ;\t":
            pos += 1
            continue
        match = _BRICK.match(rest, pos)
        if not match:
            raise IllegalBricksError(
                f"cannot read bricks {shown} at character {pos + 1}: expected 'row,col;row,col;...' "
                "with row and col in ASCII digits"
            )
        if match.group(1) and not match.group(4):
            raise IllegalBricksError(
                f"cannot read bricks {shown} at character {pos + 1}: an opening parenthesis is never closed")
        if match.group(4) and not match.group(1):
            raise IllegalBricksError(
                f"cannot read bricks {shown} at character {match.end()}: a closing parenthesis was never opened")
        if len(bricks) >= MAX_BRICKS_IN_TEXT:
            raise IllegalBricksError(f"too many bricks (more than {MAX_BRICKS_IN_TEXT:,})")
        bricks.append((int(match.group(2)), int(match.group(3))))
        pos = match.end()
    return tuple(bricks)


def format_bricks(bricks: Iterable[Brick]) -> str:
    """Print bricks the way :func:`parse_bricks` reads them.

    >>> format_bricks([(2, 1), (5, 4)])
    '2,1;5,4'
    """
    return ";".join(f"{r},{c}" for r, c in bricks)
