"""What the exact encodings share: the gate map of a level and the move table in array form.

A step of a lemming is *gated* by the cells it reads (:func:`game.rules.step_reads`): the cell
below, and the cell ahead once grounded.  In an encoding each cell is either fixed by the map
or decided by a brick variable.  :func:`gate_codes` gives, per cell of the padded map (outside
the map is wall), the index of its brick variable (``>= 0``) or one of two codes derived from
:class:`game.rules.Cell`: :data:`SOLID` (``Cell.solid``: walls and the outside) and :data:`FREE`.
The search, the CP-SAT and the MILP encodings all read this one map.

:func:`possible` and :func:`destination` are the rows of :data:`game.rules.MOVE_TABLE` applied to
whole arrays of states (row, column, channel), for the vectorised formulations.

>>> from game.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> codes = gate_codes(level, [(1, 2)])
>>> codes[1:-1, 1:-1].tolist()
[[-1, -1, -1, -1], [-2, -2, 0, -2]]
>>> [bool(possible(rule, codes[2:3, 3], codes[1:2, 4])[0]) for rule in MOVE_TABLE]  # at (0, 2), facing right
[True, True, False]
>>> [tuple(int(a[0]) for a in destination(rule, np.array([0]), np.array([2]), np.array([1]))) for rule in MOVE_TABLE]
[(1, 2, 1), (0, 3, 1), (0, 2, 0)]
"""

from __future__ import annotations

from typing import Iterable

import numpy as np
import numpy.typing as npt

from game.level import Brick, Level
from game.rules import MOVE_TABLE, Cell, MoveRule, cell_codes

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: Gate code of a cell fixed solid by the map (a wall, or outside the map).
SOLID = -2
#: Gate code of a cell fixed free: no brick variable decides it.
FREE = -1

#: The cell codes that block a lemming.
SOLID_CELLS = tuple(int(cell) for cell in Cell if cell.solid)


def gate_codes(level: Level, cells: Iterable[Brick]) -> IntArray:
    """``(H+2, W+2)`` gate codes: ``i`` for the ``i``-th of ``cells``, else :data:`SOLID` or :data:`FREE`.

    ``cells`` are the cells that get a brick variable; each must be brickable.
    """
    codes = cell_codes(level, padded=True)
    out: IntArray = np.where(np.isin(codes, SOLID_CELLS), SOLID, FREE).astype(np.int64)
    for i, (r, c) in enumerate(cells):
        if not Cell(int(codes[r + 1, c + 1])).brickable:
            raise ValueError(f"cell ({r},{c}) cannot hold a brick")
        out[r + 1, c + 1] = i
    return out


def can_be(code: IntArray, solid: bool) -> BoolArray:
    """Where a cell of gate ``code`` can be solid (``solid=True``) or free (``solid=False``)."""
    result: BoolArray = code != (FREE if solid else SOLID)
    return result


def possible(rule: MoveRule, below: IntArray, ahead: IntArray) -> BoolArray:
    """Where ``rule`` can apply, given the gate codes of the cells below and ahead of each state."""
    mask = can_be(below, rule.below_solid)
    if rule.ahead_solid is not None:
        mask = mask & can_be(ahead, rule.ahead_solid)
    return mask


def destination(rule: MoveRule, row: IntArray, col: IntArray, channel: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """The states ``(row, col, channel)`` reached by ``rule`` (channel 0 left, 1 right)."""
    direction = np.where(channel == 1, 1, -1)
    new_channel = 1 - channel if rule.turns else channel
    return row + rule.d_row, col + rule.d_col * direction, new_channel


__all__ = ["FREE", "SOLID", "can_be", "destination", "gate_codes", "possible"]
