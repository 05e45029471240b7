"""The rules of Lemming Bricks: where bricks may go, and how one lemming moves one step.

Each step, a lemming not on a target:

1. falls one cell if the cell below is free;
2. otherwise walks one cell in its direction if that cell is free;
3. otherwise turns around and stays.

A lemming on a target stays.  Walls, bricks and everything outside the map are
not free.  Lemmings do not interact.

>>> blocked = lambda r, c: (r, c) in {(1, 0), (1, 1), (0, 2)}
>>> step(blocked, lambda r, c: False, (0, 0, 1))   # floor below, free ahead: walk
(0, 1, 1)
>>> step(blocked, lambda r, c: False, (0, 1, 1))   # brick ahead: turn around
(0, 1, -1)
>>> step(blocked, lambda r, c: False, (0, 1, -1))  # hole below? no: walk back
(0, 0, -1)
"""

from __future__ import annotations

import re
from typing import Callable, Iterable

from game.errors import IllegalBricksError
from game.level import Brick, Level

State = tuple[int, int, int]
"""A lemming state ``(row, col, direction)`` with direction ``-1`` or ``+1``."""


def step(
    blocked: Callable[[int, int], bool],
    on_target: Callable[[int, int], bool],
    state: State,
) -> State:
    """One step of one lemming: the single statement of the movement rule."""
    row, col, direction = state
    if on_target(row, col):
        return state
    if not blocked(row + 1, col):
        return (row + 1, col, direction)
    if not blocked(row, col + direction):
        return (row, col + direction, direction)
    return (row, col, -direction)


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
    game.errors.IllegalBricksError: brick (0,1) is listed twice
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
    game.errors.IllegalBricksError: cannot read bricks '2,1)' at character 4: a closing parenthesis was never opened
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
