"""How far back a lost game of peg solitaire can still finish: the latest of the positions played that a
solution is found from.

A jump from a lost position only reaches lost positions (else the first could have finished through it), so
along a game the positions that can finish come first and the lost ones after: :func:`undo_to_finish` finds the
last one that can finish by bisection, solving about ``log2(n)`` of the ``n`` positions (:func:`ai.puzzles.pegs.solve`,
each answer replayed).  A position whose solve stops unanswered (the deadline, the cancel) counts as not known to
finish, so the answer is always a position a solution is known from, perhaps not the latest.

>>> from game.core.puzzles.pegs_boards import english
>>> board, start = english()
>>> walk = [((1, 3), (3, 3)), ((2, 1), (2, 3)), ((2, 4), (2, 2)), ((2, 6), (2, 4)), ((4, 3), (2, 3)),
...         ((2, 3), (2, 5)), ((3, 1), (3, 3)), ((4, 1), (4, 3)), ((3, 4), (3, 2)), ((4, 4), (4, 2))]
>>> game = [board.replay(start, [Jump.between(a, b) for a, b in walk[:n]]) for n in range(len(walk) + 1)]
>>> found = undo_to_finish(board, game, board.goal_position())  # the ninth jump loses the game
>>> found.index, len(found.moves), [proof for _, proof in found.lost]
(8, 23, ['table', 'table'])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ai.kernel.context import SolveContext
from ai.puzzles.pegs import PegsStatus, solve
from game.core.puzzles.pegs import Board, Jump


@dataclass
class FinishBack:
    """The answer of :func:`undo_to_finish`: the position ``index`` (in the positions given) a solution is known
    from, that solution, and the positions proved lost on the way (with the proof's name)."""

    index: int | None  #: ``None``: no position is known to finish (every one proved lost, or the solves stopped)
    moves: list[Jump] = field(default_factory=list)
    lost: list[tuple[int, str]] = field(default_factory=list)


def undo_to_finish(board: Board, positions: Sequence[int], goal: int | None, *,
                   ctx: SolveContext | None = None) -> FinishBack:
    """The latest of ``positions`` (a game's positions, oldest first) a solution towards ``goal`` is found from
    (its index and the solution), with the positions proved lost on the way."""
    ctx = ctx if ctx is not None else SolveContext.create()
    lo, hi = 0, len(positions) - 1  # the answer, when there is one, is in lo..hi
    answer = FinishBack(None)
    while lo <= hi:
        mid = (lo + hi + 1) // 2
        result = solve(board, positions[mid], goal, ctx=ctx)
        if result.status == PegsStatus.SOLVED:
            answer.index, answer.moves, lo = mid, list(result.moves), mid + 1
        else:
            if result.status == PegsStatus.IMPOSSIBLE:
                answer.lost.append((positions[mid], result.proof.value))
            hi = mid - 1
    return answer


__all__ = ["FinishBack", "undo_to_finish"]
