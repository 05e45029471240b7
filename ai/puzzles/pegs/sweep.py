"""Exhaustive search by whole levels: can a position still finish, and with which jump?

:func:`sweep` makes every position reachable from ``position`` level by level with numpy (every jump applied to
every position, each position reduced to its least image under the symmetries that fix the goal, repeats
dropped), like :func:`ai.puzzles.pegs.table.build_table`.  When the last level holds no goal position, no game
finishes: the answer says how many positions (classes under symmetry) it closed.  Otherwise it marks the
winnable classes level by level from the goal back up and walks down them: the moves of a game.  It is the exact
fallback of the hints behind the beam search: positions met in play that are lost, with up to about 22 pegs,
take it a second or a few (the depth-first search: far longer).

>>> from game.core.puzzles.pegs import english
>>> board, start = english()
>>> lost = board.position_of([(2, 2), (2, 4), (4, 2), (4, 4)])
>>> found = sweep(board, lost, None, SolveContext.create())
>>> found.winnable, found.closed
(False, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ai.kernel.context import SolveContext
from ai.puzzles.pegs.table import least_images, sorted_unique
from game.core.puzzles.pegs import Board, Jump

U64 = npt.NDArray[np.uint64]

#: Most classes one level may hold; a sweep that would make more gives up (memory stays bounded).
MAX_LEVEL = 2_000_000
#: Positions reduced to their least images at once.
CHUNK = 1 << 19

@dataclass(frozen=True)
class Swept:
    """What :func:`sweep` found: ``winnable`` with the ``moves`` of a game to the goal, and the classes of
    positions it made (``closed``)."""

    winnable: bool
    moves: list[Jump]
    closed: int


def _tables(board: Board, goal: int | None) -> U64:
    """The row images of the symmetries that fix ``goal`` (all of them for one peg anywhere)."""
    perms = tuple(p for p in board.symmetries if goal is None or board.transform(goal, p) == goal)
    return np.array(board.row_images(perms), dtype=np.uint64)


def _next_level(masks: U64, level: U64, board: Board, tables: U64) -> U64:
    """The classes one jump after ``level``."""
    found = []
    for ready, end, bits in masks:
        legal = ((level & ready) == ready) & ((level & end) == 0)
        kids = level[legal] ^ bits
        for at in range(0, len(kids), CHUNK):  # least_images takes 56 bytes a position: bounded by chunks
            found.append(least_images(board, kids[at:at + CHUNK], tables))
    if not found:
        return level[:0]
    return sorted_unique(np.concatenate(found))


def _winnable_above(masks: U64, level: U64, below: U64, board: Board, tables: U64) -> U64:
    """The classes of ``level`` with a jump into one of the (sorted) classes ``below``."""
    ok = np.zeros(len(level), dtype=bool)
    for ready, end, bits in masks:
        if not len(below):
            break
        index = np.flatnonzero(((level & ready) == ready) & ((level & end) == 0))
        images = least_images(board, level[index] ^ bits, tables)
        at = np.minimum(np.searchsorted(below, images), len(below) - 1)
        ok[index[below[at] == images]] = True
    return level[ok]


def sweep(board: Board, position: int, goal: int | None, ctx: SolveContext,
          max_level: int = MAX_LEVEL) -> Swept | None:
    """Decide exactly whether ``position`` can reach ``goal`` (``None``: one peg anywhere); ``None`` when a
    level would hold more than ``max_level`` classes.  Raises :class:`ai.kernel.context.SolveStopped` when
    ``ctx`` says stop."""
    target = 1 if goal is None else board.count(goal)
    if board.is_goal(position, goal):
        return Swept(True, [], 1)
    tables = _tables(board, goal)
    masks = np.array(board.jump_masks, dtype=np.uint64)
    levels = [least_images(board, np.array([position], dtype=np.uint64), tables)]
    for _ in range(board.count(position) - target):
        ctx.check()
        levels.append(_next_level(masks, levels[-1], board, tables))
        if len(levels[-1]) > max_level:
            return None
        if not len(levels[-1]):
            break
    closed = sum(len(level) for level in levels)
    last = levels[-1]
    if goal is not None and len(last):
        last = np.intersect1d(last, least_images(board, np.array([goal], dtype=np.uint64), tables))
    if board.count(position) - target != len(levels) - 1 or not len(last):
        return Swept(False, [], closed)
    winnable = [last]
    for depth in range(len(levels) - 2, 0, -1):
        ctx.check()
        winnable.append(_winnable_above(masks, levels[depth], winnable[-1], board, tables))
    return Swept(True, _walk(board, position, winnable[::-1], tables), closed)


def _walk(board: Board, position: int, winnable: list[U64], tables: U64) -> list[Jump]:
    """From ``position``, a jump into a class of each of the (sorted) ``winnable`` levels in turn."""
    moves: list[Jump] = []
    for level in winnable:
        for jump, (_, _, bits) in zip(board.jumps, board.jump_masks):
            if board.is_legal(position, jump):
                image = least_images(board, np.array([position ^ bits], dtype=np.uint64), tables)[0]
                at = int(np.searchsorted(level, image))
                if at < len(level) and level[at] == image:
                    moves.append(jump)
                    position ^= bits
                    break
        else:
            raise AssertionError("a winnable position with no jump into a winnable class")
    return moves


__all__ = ["CHUNK", "MAX_LEVEL", "Swept", "sweep"]
