"""What the exact encodings share: the gate map of a level and the physics' branches in array form.

A step of a lemming is *gated* by the cells its physics reads: each leaf of the decision tree
(:attr:`game.core.physics_views.PhysicsViews.branches`) needs some cells solid and some free.  In an encoding each cell
is either fixed by the map or decided by a brick variable.  :func:`gate_codes` gives, per cell of the
padded map (outside the map is wall), the index of its brick variable (``>= 0``) or one of two codes
derived from :class:`game.core.rules.Cell`: :data:`SOLID` (``Cell.solid``: walls and the outside) and
:data:`FREE`.  The search, the CP-SAT and the MILP encodings all read this one map.

:func:`possible` and :func:`destination` are the branches applied to whole arrays of states (row,
column, channel; padded coordinates), for the vectorised formulations.  The physics-only views the
encodings read (the branches, their binary tree, the effect groups) come from
:func:`game.core.physics_views.views`.

>>> from game.core.level import Level
>>> from game.core.physics import CLASSIC
>>> from game.core.physics_views import views
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> codes = gate_codes(level, [(1, 2)])
>>> codes[1:-1, 1:-1].tolist()
[[-1, -1, -1, -1], [-2, -2, 0, -2]]
>>> at = (np.array([1]), np.array([3]), np.array([1]))  # padded (1, 3) = map (0, 2), facing right
>>> [bool(possible(b, codes, *at)[0]) for b in views(CLASSIC).branches]
[True, True, False]
>>> branches = views(CLASSIC).branches
>>> [tuple(int(a[0]) for a in destination(b, np.array([0]), np.array([2]), np.array([1]))) for b in branches]
[(1, 2, 1), (0, 3, 1), (0, 2, 0)]
"""

from __future__ import annotations

from typing import Iterable

import numpy as np
import numpy.typing as npt

from game.core.level import Brick, Level
from game.core.physics_views import Branch
from game.core.rules import Cell, cell_codes

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


def need_codes(branch: Branch, codes: IntArray, prow: IntArray, pcol: IntArray,
               channel: IntArray) -> list[tuple[IntArray, bool]]:
    """Per cell ``branch`` needs: the gate codes of that cell for each state (padded ``prow``, ``pcol``),
    and the value it needs (``True``: solid)."""
    direction = 2 * channel - 1
    return [(codes[prow + dr, pcol + da * direction], solid) for (dr, da), solid in branch.needs]


def possible(branch: Branch, codes: IntArray, prow: IntArray, pcol: IntArray, channel: IntArray) -> BoolArray:
    """Where ``branch`` can apply: every cell it needs can take the value it needs (``codes``: padded
    gate map, states in padded coordinates)."""
    mask = np.ones(np.shape(prow), dtype=bool)
    for code, solid in need_codes(branch, codes, prow, pcol, channel):
        mask &= can_be(code, solid)
    return mask


def destination(branch: Branch, row: IntArray, col: IntArray, channel: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """The states ``(row, col, channel)`` reached by ``branch`` (channel 0 left, 1 right)."""
    direction = np.where(channel == 1, 1, -1)
    new_channel = 1 - channel if branch.turn else channel
    return row + branch.move[0], col + branch.move[1] * direction, new_channel


__all__ = ["FREE", "SOLID", "can_be", "destination", "gate_codes", "need_codes", "possible"]
