"""Cellular-automaton rules over the 3x3 neighbourhood, and the step on a torus.

A rule is a table of 512 entries: the next state of a cell for each neighbourhood.  The
neighbourhood's index has bit ``3 * (dr + 1) + (dc + 1)`` set when the cell at row offset ``dr``
and column offset ``dc`` is alive (so the centre is bit 4, value 16).  Outer-totalistic rules
(the next state depends on the centre and the number of live neighbours) print as ``B3/S23``;
any other table prints as ``T`` followed by 128 hexadecimal digits (entry 511 first).

>>> LIFE.name
'B3/S23'
>>> parse_rule("highlife").name, parse_rule("b36/s23").name
('B36/S23', 'B36/S23')
>>> import numpy as np
>>> blinker = np.zeros((5, 5), dtype=bool); blinker[2, 1:4] = True
>>> step(blinker, LIFE).astype(int)[1:4, 2].tolist()
[1, 1, 1]
>>> rule = Rule(tuple(i % 3 == 0 for i in range(512)))
>>> rule.outer_totalistic, parse_rule(rule.name) == rule
(False, True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from game.core.errors import GameError

#: Board type: a 2-D numpy array of booleans (True: alive).
Board = npt.NDArray[np.bool_]
#: Bit of the centre cell in a neighbourhood index.
CENTRE_BIT = 4
#: Offsets (dr, dc) in bit order 0..8.
OFFSETS: tuple[tuple[int, int], ...] = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))
#: Common names accepted by :func:`parse_rule`.
ALIASES = {"life": "B3/S23", "conway": "B3/S23", "highlife": "B36/S23", "seeds": "B2/S",
           "daynight": "B3678/S34678", "daynight2": "B3678/S34678"}

_BS = re.compile(r"B([0-8]*)/S([0-8]*)", re.IGNORECASE)
_SB = re.compile(r"([0-8]*)/([0-8]*)")
_TABLE = re.compile(r"T([0-9a-fA-F]{128})")


class RuleError(GameError):
    """A rule string that cannot be read."""


def centre(index: int) -> bool:
    """Whether the centre cell is alive in neighbourhood ``index``.

    >>> centre(16), centre(495)
    (True, False)
    """
    return bool(index >> CENTRE_BIT & 1)


def neighbours(index: int) -> int:
    """Live cells around the centre in neighbourhood ``index`` (0..8).

    >>> neighbours(511), neighbours(16), neighbours(0b000000111)
    (8, 0, 3)
    """
    return bin(index & ~(1 << CENTRE_BIT)).count("1")


@dataclass(frozen=True)
class Rule:
    """A 512-entry rule table (see the module docstring for the index)."""

    table: tuple[bool, ...]

    def __post_init__(self) -> None:
        if len(self.table) != 512:
            raise ValueError(f"a rule table has 512 entries, not {len(self.table)}")

    @classmethod
    def from_bs(cls, born: set[int] | frozenset[int], survive: set[int] | frozenset[int]) -> Rule:
        """The outer-totalistic rule that births on ``born`` counts and keeps on ``survive`` counts."""
        return cls(tuple((neighbours(i) in survive) if centre(i) else (neighbours(i) in born) for i in range(512)))

    @cached_property
    def array(self) -> npt.NDArray[np.bool_]:
        """The table as a numpy array (for :func:`step`)."""
        return np.array(self.table, dtype=bool)

    @cached_property
    def bs(self) -> tuple[frozenset[int], frozenset[int]] | None:
        """(born counts, survive counts) when the rule is outer-totalistic, else ``None``."""
        born: dict[int, bool] = {}
        survive: dict[int, bool] = {}
        for i, value in enumerate(self.table):
            group = survive if centre(i) else born
            if group.setdefault(neighbours(i), value) != value:
                return None
        return (frozenset(n for n, v in born.items() if v), frozenset(n for n, v in survive.items() if v))

    @property
    def outer_totalistic(self) -> bool:
        """True when the next state depends only on the centre and the live-neighbour count."""
        return self.bs is not None

    @cached_property
    def name(self) -> str:
        """``B3/S23`` for outer-totalistic rules, else ``T`` + 128 hex digits."""
        if self.bs is not None:
            born, survive = self.bs
            return "B" + "".join(map(str, sorted(born))) + "/S" + "".join(map(str, sorted(survive)))
        value = sum(1 << i for i, v in enumerate(self.table) if v)
        return f"T{value:0128x}"

    def __str__(self) -> str:
        return self.name


def parse_rule(text: str) -> Rule:
    """A rule from ``B3/S23``, ``23/3`` (S/B order), a name (``life``, ``highlife``) or ``T`` + 128 hex.

    >>> parse_rule("23/3").name
    'B3/S23'
    >>> parse_rule("B9/S")
    Traceback (most recent call last):
    ...
    game.core.puzzles.life.rules.RuleError: not a rule: 'B9/S' (expected e.g. B3/S23, a name like life or highlife, or T + 128 hex digits)
    """
    s = text.strip()
    s = ALIASES.get(s.lower(), s)
    m = _BS.fullmatch(s)
    if m:
        return Rule.from_bs({int(c) for c in m.group(1)}, {int(c) for c in m.group(2)})
    m = _SB.fullmatch(s)
    if m and s != "/":
        return Rule.from_bs({int(c) for c in m.group(2)}, {int(c) for c in m.group(1)})
    m = _TABLE.fullmatch(s)
    if m:
        value = int(m.group(1), 16)
        return Rule(tuple(bool(value >> i & 1) for i in range(512)))
    shown = s if len(s) <= 40 else s[:40] + "..."
    raise RuleError(f"not a rule: {shown!r} (expected e.g. B3/S23, a name like life or highlife, "
                    "or T + 128 hex digits)")


#: Conway's Game of Life.
LIFE = Rule.from_bs({3}, {2, 3})


def neighbourhood_indices(board: Board) -> npt.NDArray[np.int32]:
    """The neighbourhood index of every cell of ``board`` on a torus (same shape; a stack of boards,
    ``(..., H, W)``, gives each board's)."""
    idx = np.zeros(board.shape, dtype=np.int32)
    for bit, (dr, dc) in enumerate(OFFSETS):
        idx |= np.roll(board, (-dr, -dc), axis=(-2, -1)).astype(np.int32) << bit
    return idx


def near_cells(board: Board, radius: int) -> Board:
    """Cells with a live cell of ``board`` within ``radius`` (a (2r+1)x(2r+1) square, on the torus).

    >>> b = np.zeros((7, 7), dtype=bool); b[0, 0] = True
    >>> int(near_cells(b, 2).sum())
    25
    """
    across = np.zeros_like(board, dtype=bool)
    for dc in range(-radius, radius + 1):  # a square is a row of cells, then a column of rows
        across |= np.roll(board, dc, axis=-1)
    near = np.zeros_like(across)
    for dr in range(-radius, radius + 1):
        near |= np.roll(across, dr, axis=-2)
    return near


def step(board: Board, rule: Rule = LIFE, steps: int = 1) -> Board:
    """``board`` after ``steps`` generations of ``rule`` on a torus (a new array; a stack of boards,
    ``(..., H, W)``, steps each board)."""
    out = np.asarray(board, dtype=bool)
    for _ in range(steps):
        out = rule.array[neighbourhood_indices(out)]
    return out.copy() if steps == 0 else out


def trajectory(board: Board, rule: Rule, steps: int) -> list[Board]:
    """``[board, step(board), ..., step^steps(board)]``."""
    out = [np.asarray(board, dtype=bool)]
    for _ in range(steps):
        out.append(step(out[-1], rule))
    return out


__all__ = ["ALIASES", "Board", "CENTRE_BIT", "LIFE", "OFFSETS", "Rule", "RuleError", "centre", "near_cells",
           "neighbourhood_indices", "neighbours", "parse_rule", "step", "trajectory"]
