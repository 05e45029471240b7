"""Exhaustive search by whole levels: can a position still finish, and with which jump?

:func:`sweep` makes every position reachable from ``position`` level by level with numpy (every jump applied to
every position, each position reduced to its least image under the symmetries that fix the goal, repeats
dropped), like :func:`ai.puzzles.pegs.table.build_table`.  When the last level holds no goal position, no game
finishes: the answer says how many positions (classes under symmetry) it closed.  Otherwise it marks the
winnable classes level by level from the goal back up and walks down them: the moves of a game.  It is the exact
fallback of the hints behind the beam search: a lost position met in play with 20-26 pegs takes it from a tenth of
a second to a few seconds of CPU (the depth-first search: minutes).

>>> from game.core.puzzles.pegs_boards import english
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
from ai.puzzles.pegs.beam import fits
from ai.puzzles.pegs.table import sorted_unique
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


class Canon:
    """Least images under the symmetries that fix a goal, two board rows per table look-up (boards up to 8
    wide): the same images as :func:`ai.puzzles.pegs.table.least_images`, in about half the time."""

    def __init__(self, board: Board, goal: int | None) -> None:
        perms = tuple(p for p in board.symmetries if goal is None or board.transform(goal, p) == goal)
        rows = np.array(board.row_images(perms), dtype=np.uint64)  # (symmetries, rows, 2**width)
        w, step = board.width, 2 if board.width <= 8 else 1
        self.count = len(perms)
        #: per part of the position: (shift, mask, images of every bit pattern per symmetry)
        self.parts: list[tuple[np.uint64, np.uint64, U64]] = []
        for r in range(0, board.height, step):
            if step == 2 and r + 1 < board.height:  # pattern hi * 2**w + lo: row r + 1 high, row r low
                table = (rows[:, r + 1][:, :, None] | rows[:, r][:, None, :]).reshape(self.count, -1)
                self.parts.append((np.uint64(r * w), np.uint64((1 << 2 * w) - 1), table))
            else:
                self.parts.append((np.uint64(r * w), np.uint64((1 << w) - 1), rows[:, r]))

    def least(self, positions: U64) -> U64:
        """The least image of every position."""
        index = [((positions >> shift) & mask).astype(np.intp) for shift, mask, _ in self.parts]
        best: U64 | None = None
        for s in range(self.count):
            image = self.parts[0][2][s][index[0]]
            for k in range(1, len(self.parts)):
                image |= self.parts[k][2][s][index[k]]
            best = image if best is None else np.minimum(best, image)
        assert best is not None
        return best


def _next_level(masks: U64, level: U64, canon: Canon) -> U64:
    """The classes one jump after ``level``."""
    kids = [level[((level & ready) == ready) & ((level & end) == 0)] ^ bits for ready, end, bits in masks]
    distinct = sorted_unique(np.concatenate(kids))  # many children have several parents: reduce them once
    found = [canon.least(distinct[at:at + CHUNK])  # about 40 bytes a position: bounded by chunks
             for at in range(0, len(distinct), CHUNK)]
    return sorted_unique(np.concatenate(found)) if found else level[:0]


def _winnable_above(masks: U64, level: U64, below: U64, canon: Canon) -> U64:
    """The classes of ``level`` with a jump into one of the (sorted) classes ``below``."""
    ok = np.zeros(len(level), dtype=bool)
    for ready, end, bits in masks:
        if not len(below):
            break
        index = np.flatnonzero(((level & ready) == ready) & ((level & end) == 0))
        images = canon.least(level[index] ^ bits)
        at = np.minimum(np.searchsorted(below, images), len(below) - 1)
        ok[index[below[at] == images]] = True
    return level[ok]


def sweep(board: Board, position: int, goal: int | None, ctx: SolveContext,
          max_level: int = MAX_LEVEL) -> Swept | None:
    """Decide exactly whether ``position`` can reach ``goal`` (``None``: one peg anywhere); ``None`` when a
    level would hold more than ``max_level`` classes, or on a board too big for ``uint64`` (9x9).  Raises :class:`ai.kernel.context.SolveStopped` when
    ``ctx`` says stop."""
    target = 1 if goal is None else board.count(goal)
    if board.is_goal(position, goal):
        return Swept(True, [], 1)
    if not fits(board):
        return None
    canon = Canon(board, goal)
    masks = np.array(board.jump_masks, dtype=np.uint64)
    levels = [canon.least(np.array([position], dtype=np.uint64))]
    for _ in range(board.count(position) - target):
        ctx.check()
        levels.append(_next_level(masks, levels[-1], canon))
        if len(levels[-1]) > max_level:
            return None
        if not len(levels[-1]):
            break
    closed = sum(len(level) for level in levels)
    last = levels[-1]
    if goal is not None and len(last):
        last = np.intersect1d(last, canon.least(np.array([goal], dtype=np.uint64)))
    if board.count(position) - target != len(levels) - 1 or not len(last):
        return Swept(False, [], closed)
    winnable = [last]
    for depth in range(len(levels) - 2, 0, -1):
        ctx.check()
        winnable.append(_winnable_above(masks, levels[depth], winnable[-1], canon))
    return Swept(True, _walk(board, position, winnable[::-1], canon), closed)


def _walk(board: Board, position: int, winnable: list[U64], canon: Canon) -> list[Jump]:
    """From ``position``, a jump into a class of each of the (sorted) ``winnable`` levels in turn."""
    moves: list[Jump] = []
    for level in winnable:
        for jump, (_, _, bits) in zip(board.jumps, board.jump_masks):
            if board.is_legal(position, jump):
                image = canon.least(np.array([position ^ bits], dtype=np.uint64))[0]
                at = int(np.searchsorted(level, image))
                if at < len(level) and level[at] == image:
                    moves.append(jump)
                    position ^= bits
                    break
        else:
            raise AssertionError("a winnable position with no jump into a winnable class")
    return moves


__all__ = ["CHUNK", "Canon", "MAX_LEVEL", "Swept", "sweep"]
