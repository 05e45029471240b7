"""What the exact encodings share: the gate map of a level and the physics' branches in array form.

A step of a lemming is *gated* by the cells its physics reads: each leaf of the decision tree
(:attr:`game.core.physics.Physics.branches`) needs some cells solid and some free.  In an encoding each cell
is either fixed by the map or decided by a brick variable.  :func:`gate_codes` gives, per cell of the
padded map (outside the map is wall), the index of its brick variable (``>= 0``) or one of two codes
derived from :class:`game.core.rules.Cell`: :data:`SOLID` (``Cell.solid``: walls and the outside) and
:data:`FREE`.  The search, the CP-SAT and the MILP encodings all read this one map.

:func:`possible` and :func:`destination` are the branches applied to whole arrays of states (row,
column, channel; padded coordinates), for the vectorised formulations; :func:`decision_tree` is the
branches as a binary tree (the search walks it, the product formulation splits mass along it).

>>> from game.core.level import Level
>>> from game.core.physics import CLASSIC
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> codes = gate_codes(level, [(1, 2)])
>>> codes[1:-1, 1:-1].tolist()
[[-1, -1, -1, -1], [-2, -2, 0, -2]]
>>> at = (np.array([1]), np.array([3]), np.array([1]))  # padded (1, 3) = map (0, 2), facing right
>>> [bool(possible(b, codes, *at)[0]) for b in CLASSIC.branches]
[True, True, False]
>>> [tuple(int(a[0]) for a in destination(b, np.array([0]), np.array([2]), np.array([1]))) for b in CLASSIC.branches]
[(1, 2, 1), (0, 3, 1), (0, 2, 0)]
>>> decision_tree(CLASSIC)
(0, (TreeNode(offset=(1, 0), solid=1, free=-1), TreeNode(offset=(0, 1), solid=-3, free=-2)))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

import numpy as np
import numpy.typing as npt

from game.core.level import Brick, Level
from game.core.physics import Branch, Offset, Physics
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


@dataclass(frozen=True)
class TreeNode:
    """An inner node of :func:`decision_tree`: the cell it reads and its two children (``>= 0``: a node,
    ``< 0``: ``~i`` for leaf ``physics.branches[i]``)."""

    offset: Offset
    solid: int
    free: int


def decision_tree(physics: Physics) -> tuple[int, tuple[TreeNode, ...]]:
    """The branches as a binary tree: the root (a node, or ``~i`` when the physics reads nothing) and the nodes."""
    branches = physics.branches
    nodes: list[TreeNode] = []

    def grow(depth: int, members: list[int]) -> int:
        if len(members) == 1 and len(branches[members[0]].needs) == depth:
            return ~members[0]
        offset = branches[members[0]].needs[depth][0]
        index = len(nodes)
        nodes.append(TreeNode(offset, 0, 0))
        solid = grow(depth + 1, [i for i in members if branches[i].needs[depth][1]])
        free = grow(depth + 1, [i for i in members if not branches[i].needs[depth][1]])
        nodes[index] = TreeNode(offset, solid, free)
        return index

    root = grow(0, list(range(len(branches))))
    return root, tuple(nodes)

FlatTree = tuple[int, list[tuple[int, int, int]], list[tuple[int, bool]]]
"""A decision tree in flat padded positions: the root, the nodes ``(cell delta, solid child, free child)``
and the leaves ``(position delta, turns)``; children ``< 0`` are ``~leaf``."""


def flat_tree(physics: Physics, pw: int) -> dict[int, FlatTree]:
    """:func:`decision_tree` with offsets as deltas of flat padded positions (padded width ``pw``), per
    direction (``-1``, ``1``): what the Python step loops walk.

    >>> from game.core.physics import CLASSIC
    >>> flat_tree(CLASSIC, 6)[1]   # below (+6), then ahead (+1); leaves: fall, walk, turn
    (0, [(6, 1, -1), (1, -3, -2)], [(6, False), (1, False), (0, True)])
    """
    root, nodes = decision_tree(physics)
    out = {}
    for d in (-1, 1):
        flat = [(n.offset[0] * pw + n.offset[1] * d, n.solid, n.free) for n in nodes]
        leaves = [(b.move[0] * pw + b.move[1] * d, b.turn) for b in physics.branches]
        out[d] = (root, flat, leaves)
    return out


def reads_above(physics: Physics) -> bool:
    """True when a lemming may read or move into the row above it (its runs are not confined to rows
    at or below it)."""
    return any(dr < 0 for dr, _ in physics.read_offsets)


@dataclass(frozen=True)
class EffectGroup:
    """Branches of a physics with the same effect (move and turn), and when one of them applies as clauses
    (a conjunction of disjunctions of ``(offset, solid)`` needs, none implied by another)."""

    branches: tuple[int, ...]
    clauses: tuple[tuple[tuple[Offset, bool], ...], ...]


@lru_cache(maxsize=64)
def effect_groups(physics: Physics) -> tuple[EffectGroup, ...]:
    """The branches grouped by effect, in order of first branch (one group per branch when no two share
    an effect).  Drifter's two plain falls are one group: below free, and ahead or the diagonal solid.
    Kept per physics (the encodings ask for them per lemming).

    >>> from game.core.physics_catalog import SHIPPED
    >>> [g.clauses for g in effect_groups(SHIPPED["drifter"]) if len(g.branches) > 1]
    [((((0, 1), True), ((1, 1), True)), (((1, 0), False),))]
    """
    by_effect: dict[tuple[Offset, bool], list[int]] = {}
    for k, branch in enumerate(physics.branches):
        by_effect.setdefault((branch.move, branch.turn), []).append(k)
    out = []
    for members in by_effect.values():
        clauses: list[frozenset[tuple[Offset, bool]]] = [frozenset()]
        for k in members:  # (A1 & A2 ...) | (B1 & ...) as clauses: one literal of each conjunction,
            # tautologies and clauses implied by a smaller one dropped as they come (the list stays short)
            grown = {c | {need} for c in clauses for need in physics.branches[k].needs
                     if (need[0], not need[1]) not in c}
            clauses = [c for c in grown if not any(other < c for other in grown)]
        out.append(EffectGroup(tuple(members), tuple(sorted(tuple(sorted(c)) for c in clauses))))
    return tuple(out)


__all__ = ["FREE", "SOLID", "EffectGroup", "FlatTree", "TreeNode", "can_be", "decision_tree", "destination",
           "effect_groups", "flat_tree", "gate_codes", "need_codes", "possible", "reads_above"]
