"""Beam search for peg solitaire: whole levels of positions at once, the most promising ones kept.

A game from a position with ``n`` pegs to one peg takes exactly ``n - 1`` jumps, so the positions ``k`` jumps
in form one level.  :func:`beam_search` makes every level from the one before with numpy (every jump applied
to every position), drops repeated positions, and keeps the :data:`WIDTHS`-bounded best part of it: those
whose pegs sit nearest the goal cell (one peg anywhere: the centre of the frame), with a small seeded random
tie-break.  It finds a solution or says nothing: no answer is not a proof that none exists, so the callers
fall back on the exact search (:mod:`ai.puzzles.pegs.search`) and the proofs of :mod:`ai.puzzles.pegs`.

On the English and French boards, every single-vacancy problem that the position class allows is finished
at width 2,000 or 16,000, in a fraction of a second to a few seconds.

>>> from game.core.puzzles.pegs_boards import french
>>> board, _ = french()
>>> start = board.full ^ board.bit((2, 3))
>>> moves = beam_search(board, start, None, 2000, SolveContext.create())
>>> moves is not None and board.count(board.replay(start, moves))
1
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ai.kernel.context import SolveContext
from game.core.puzzles.pegs import Board, Jump

U64 = npt.NDArray[np.uint64]
F64 = npt.NDArray[np.float64]

#: The widths tried one after the other by :func:`widening_search`.
WIDTHS = (2000, 16000)
#: Weight of the random tie-break next to the squared distances (whole cells).
NOISE = 0.5


def fits(board: Board) -> bool:
    """True when the board's positions fit the ``uint64`` arrays of the level searches (at most 64 frame cells;
    a 9x9 board does not)."""
    return board.height * board.width <= 64


def _row_scores(board: Board, goal: int | None) -> list[F64]:
    """Per board row, the score of every bit pattern of that row: the squared distances of its pegs from the
    goal cell (one peg anywhere: the centre of the frame)."""
    if goal is not None and board.count(goal) == 1:
        cr, cc = (float(x) for x in board.pegs(goal)[0])
    else:
        cr, cc = (board.height - 1) / 2, (board.width - 1) / 2
    patterns = np.arange(1 << board.width)
    bits = ((patterns[:, None] >> np.arange(board.width)[None, :]) & 1).astype(np.float64)
    out = []
    for r in range(board.height):
        weights = np.array([(r - cr) ** 2 + (c - cc) ** 2 if board.on_board((r, c)) else 0.0
                            for c in range(board.width)])
        out.append(bits @ weights)
    return out


def _scores(board: Board, rows: list[F64], positions: U64) -> F64:
    """The score of every position (lower: more promising)."""
    mask = np.uint64((1 << board.width) - 1)
    total = np.zeros(len(positions))
    for r, table in enumerate(rows):
        total += table[((positions >> np.uint64(r * board.width)) & mask).astype(np.int64)]
    return total


def _children(masks: U64, level: U64) -> tuple[U64, npt.NDArray[np.int64]]:
    """Every position one jump after ``level`` (repeats dropped) and the index of a parent of each."""
    kids, parents = [], []
    for ready, end, bits in masks:
        index = np.flatnonzero(((level & ready) == ready) & ((level & end) == 0))
        if len(index):
            kids.append(level[index] ^ bits)
            parents.append(index)
    if not kids:
        return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int64)
    everything = np.concatenate(kids)
    order = np.argsort(everything, kind="stable")
    ordered = everything[order]
    first = np.concatenate(([True], ordered[1:] != ordered[:-1]))  # np.unique's hash path is far slower
    return ordered[first], np.concatenate(parents)[order[first]]


def beam_search(board: Board, start: int, goal: int | None, width: int, ctx: SolveContext,
                seed: int = 0) -> list[Jump] | None:
    """The jumps of a game from ``start`` to ``goal`` (``None``: one peg anywhere) found keeping at most
    ``width`` positions per level, or ``None`` when the beam found none (which proves nothing).
    Nothing either on a board too big for ``uint64`` (:func:`fits`).
    Raises :class:`ai.kernel.context.SolveStopped` when ``ctx`` says stop."""
    target = 1 if goal is None else board.count(goal)
    if board.count(start) < target or not fits(board):
        return None
    rows = _row_scores(board, goal)
    masks = np.array(board.jump_masks, dtype=np.uint64)
    rng = np.random.default_rng(seed)
    levels: list[tuple[U64, npt.NDArray[np.int64]]] = [(np.array([start], dtype=np.uint64), np.zeros(1, np.int64))]
    for _ in range(board.count(start) - target):
        ctx.check()
        kids, parents = _children(masks, levels[-1][0])
        if len(kids) > width:
            keep = np.argpartition(_scores(board, rows, kids) + NOISE * rng.random(len(kids)), width)[:width]
            kids, parents = kids[keep], parents[keep]
        if not len(kids):
            return None
        levels.append((kids, parents))
    final = levels[-1][0]
    hits = np.flatnonzero(final == np.uint64(goal)) if goal is not None else np.arange(len(final))
    if not len(hits):
        return None
    return _path(board, levels, int(hits[0]))


def _path(board: Board, levels: list[tuple[U64, npt.NDArray[np.int64]]], index: int) -> list[Jump]:
    """The jumps from the first level's position to position ``index`` of the last level."""
    by_bits: dict[int, list[Jump]] = {}
    for jump, (_, _, bits) in zip(board.jumps, board.jump_masks):
        by_bits.setdefault(bits, []).append(jump)  # a -> c and c -> a take the same three bits
    jumps: list[Jump] = []
    for depth in range(len(levels) - 1, 0, -1):
        positions, parents = levels[depth]
        parent = int(parents[index])
        before = int(levels[depth - 1][0][parent])
        jumps += [j for j in by_bits[int(positions[index]) ^ before] if board.has_peg(before, j.start)]
        index = parent
    return jumps[::-1]


def aims(board: Board, start: int, goal: int | None) -> list[int | None]:
    """What the beams aim at: ``goal``; for one peg anywhere, the centre of the frame and then each cell whose
    single peg the position class allows (a game ending there is a game ending with one peg)."""
    if goal is not None:
        return [goal]
    mine = board.position_class(start)
    cells = [board.bit(c) for c in sorted(board.cells) if board.position_class(board.bit(c)) == mine]
    return [None, *cells]


def widening_search(board: Board, start: int, goal: int | None, ctx: SolveContext,
                    widths: tuple[int, ...] = WIDTHS) -> tuple[list[Jump] | None, int]:
    """:func:`beam_search` at each of ``widths`` and each of :func:`aims` until one finds a game:
    ``(jumps or None, the last width)``."""
    for width in widths:
        for aim in aims(board, start, goal):
            moves = beam_search(board, start, aim, width, ctx)
            if moves is not None:
                return moves, width
    return None, widths[-1] if widths else 0


__all__ = ["NOISE", "WIDTHS", "aims", "beam_search", "fits", "widening_search"]
