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

import enum
import re
from dataclasses import dataclass
from typing import Callable, Iterable

import numpy as np
import numpy.typing as npt

from game.errors import IllegalBricksError
from game.level import Brick, Level

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


class Move(str, enum.Enum):
    """What one step does."""

    REST = "rest"  #: on a target: stay
    FALL = "fall"  #: one cell down
    WALK = "walk"  #: one cell in the lemming's direction
    TURN = "turn"  #: turn around, stay in the cell


#: The cell a step reads first, relative to the lemming: the one below.
BELOW: tuple[int, int] = (1, 0)


def ahead(direction_: int) -> tuple[int, int]:
    """The cell a grounded step reads, relative to the lemming: the next one in its direction."""
    return (0, direction_)


@dataclass(frozen=True)
class MoveRule:
    """One row of the move table: when the move happens and where it takes the lemming.

    ``below_solid``/``ahead_solid`` are the required states of the cells read (``None``: not read).
    The new state is ``(row + d_row, col + d_col * direction, -direction if turns else direction)``.
    """

    move: Move
    below_solid: bool
    ahead_solid: bool | None
    d_row: int
    d_col: int
    turns: bool

    def apply(self, state: State) -> State:
        """The state after this move from ``state``.

        >>> MOVE_TABLE[1].apply((3, 4, -1))
        (3, 3, -1)
        """
        row, col, direction_ = state
        return (row + self.d_row, col + self.d_col * direction_, -direction_ if self.turns else direction_)


#: Every move of a lemming not on a target, with the cells it reads.  Every encoding derives from this.
MOVE_TABLE: tuple[MoveRule, ...] = (
    MoveRule(Move.FALL, below_solid=False, ahead_solid=None, d_row=1, d_col=0, turns=False),
    MoveRule(Move.WALK, below_solid=True, ahead_solid=False, d_row=0, d_col=1, turns=False),
    MoveRule(Move.TURN, below_solid=True, ahead_solid=True, d_row=0, d_col=0, turns=True),
)
FALL_RULE, WALK_RULE, TURN_RULE = MOVE_TABLE


def move_rule(below_solid: bool, ahead_solid: bool) -> MoveRule:
    """The row of :data:`MOVE_TABLE` that applies (``ahead_solid`` is ignored when falling).

    >>> move_rule(False, True).move, move_rule(True, False).move, move_rule(True, True).move
    (<Move.FALL: 'fall'>, <Move.WALK: 'walk'>, <Move.TURN: 'turn'>)
    """
    if not below_solid:
        return FALL_RULE
    return TURN_RULE if ahead_solid else WALK_RULE


def step_reads(state: State, below_solid: bool) -> tuple[tuple[int, int], ...]:
    """The cells one step of a lemming not on a target reads: below, and ahead when grounded.

    This is the one meaning of "which cells a step reads" (hints, reachability, search, generator).

    >>> step_reads((2, 5, 1), below_solid=False)
    ((3, 5),)
    >>> step_reads((2, 5, -1), below_solid=True)
    ((3, 5), (2, 4))
    """
    row, col, direction_ = state
    below = (row + BELOW[0], col + BELOW[1])
    if not below_solid:
        return (below,)
    dr, dc = ahead(direction_)
    return (below, (row + dr, col + dc))


def step(
    blocked: Callable[[int, int], bool],
    on_target: Callable[[int, int], bool],
    state: State,
) -> State:
    """One step of one lemming: :data:`MOVE_TABLE` applied (a lemming on a target rests)."""
    row, col, direction_ = state
    if on_target(row, col):
        return state
    if not blocked(row + 1, col):
        return FALL_RULE.apply(state)
    if not blocked(row, col + direction_):
        return WALK_RULE.apply(state)
    return TURN_RULE.apply(state)


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
