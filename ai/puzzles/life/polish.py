"""Reverse Life, approximately: a local search on the start for the fewest wrong cells after k steps.

When no exact start is found in time, :func:`polish` improves the best start in hand.  Each round picks a
:data:`BLOCK` x :data:`BLOCK` block of the start centred within :data:`RADIUS` of a cell that is wrong
after k generations, tries every filling of the block at once (:func:`block_errors`: 512 boards,
bit-packed rows of :mod:`game.core.puzzles.life.packed` for outer-totalistic rules, and only the band of rows a change
of the block can reach in k generations), and keeps a filling with the fewest wrong cells (one as good at
random: sideways moves cross plateaus; the block's own filling is among them, so a round never makes
the start worse).  After :data:`RESTART` rounds without a better start it starts again from the best one
with a :data:`RUIN` x :data:`RUIN` square around one of its wrong cells cleared (ruin and recreate).  The
best start seen is returned.

Measured in bench/results.md ("Reverse Life"): on the hard boards of the notes' setting (the dense ones
the SAT chain leaves without an exact start) 3x3 blocks leave about a fifth fewer wrong cells than the
best single flip per round did in the same time.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ai.kernel.context import SolveContext, SolveStopped
from game.core.puzzles.life.packed import count_bits, generation, pack, packs, step_packed
from game.core.puzzles.life.rules import Board, Rule, near_cells, step

#: Side of the block whose fillings one round tries (2**9 boards).
BLOCK = 3
#: Blocks are centred on cells within this distance of a wrong cell of the last generation (1 left fewer
#: wrong cells than k, the farthest a flip can still reach, on the benchmark's boards).
RADIUS = 1
#: Rounds without a better best start after which the search restarts from the best start with a square
#: around one of its wrong cells cleared.
RESTART = 500
#: Side of the square a restart clears (see bench/results.md, "Reverse Life", for the sizes tried).
RUIN = 5
#: Rounds without a better best start after which :func:`polish` stops (when the time does not end first).
PATIENCE = 5000


def wrong_cells(start: Board, target: Board, rule: Rule, steps: int) -> int:
    """Cells where ``start`` after ``steps`` generations differs from ``target`` (the replay)."""
    return int(np.count_nonzero(step(start, rule, steps) != target))


@lru_cache(maxsize=8)
def fillings(cells: int) -> npt.NDArray[np.bool_]:
    """Every filling of ``cells`` cells: row ``i`` sets cell ``m`` alive when bit ``m`` of ``i`` is set.

    >>> fillings(2).astype(int).tolist()
    [[0, 0], [1, 0], [0, 1], [1, 1]]
    """
    return (np.arange(2 ** cells)[:, None] >> np.arange(cells) & 1).astype(bool)


def block_errors(board: Board, top: int, left: int, target: Board, rule: Rule, steps: int, *,
                 wrong: int | None = None) -> npt.NDArray[np.int64]:
    """Wrong cells after ``steps`` generations of ``board`` with its block at (``top``, ``left``) (rows and
    columns wrap; :data:`BLOCK` square, smaller on smaller boards) set to each of :func:`fillings` (cells
    row by row); ``wrong``: the board's own wrong cells, when known.

    >>> from game.core.puzzles.life.rules import LIFE, parse_rule
    >>> rng = np.random.default_rng(0)
    >>> board, target = rng.random((20, 9)) < 0.4, rng.random((20, 9)) < 0.4
    >>> def one_by_one(rule):
    ...     out = []
    ...     for fill in fillings(9):
    ...         b = board.copy()
    ...         for m, alive in enumerate(fill):
    ...             b[(18 + m // 3) % 20, (7 + m % 3) % 9] = alive
    ...         out.append(wrong_cells(b, target, rule, 2))
    ...     return out
    >>> odd = parse_rule("T" + "3" * 128)  # not outer-totalistic: the 512-entry table
    >>> [block_errors(board, 18, 7, target, rule, 2).tolist() == one_by_one(rule) for rule in (LIFE, odd)]
    [True, True]
    """
    height, width = board.shape
    side_r, side_c = min(BLOCK, height), min(BLOCK, width)
    fills = fillings(side_r * side_c)
    block_at = [(top + i) % height for i in range(side_r)]
    cols = [(left + j) % width for j in range(side_c)]
    current = int(sum(1 << int(m) for m in np.flatnonzero(board[np.ix_(block_at, cols)])))  # its own filling
    if side_r + 4 * steps < height:  # only the band a change can reach; its edges wrap wrongly, its inner rows not
        band = np.arange(top - 2 * steps, top + side_r + 2 * steps) % height
        inner = slice(steps, side_r + 3 * steps)
        block_rows = [2 * steps + i for i in range(side_r)]
    else:
        band, inner = np.arange(height), slice(None)
        block_rows = block_at
    sub, goal = board[band], target[band][inner]
    inner_cols = slice(None)
    if not packs(rule, width) and side_c + 4 * steps < width:  # wide boards: the band of columns too
        near_cols = np.arange(left - 2 * steps, left + side_c + 2 * steps) % width
        inner_cols = slice(steps, side_c + 3 * steps)
        sub, goal = sub[:, near_cols], goal[:, near_cols][:, inner_cols]
        cols = [2 * steps + j for j in range(side_c)]
    if packs(rule, width):
        rows = np.repeat(pack(sub)[None], len(fills), axis=0)
        keep = ~np.uint64(sum(1 << c for c in cols))
        for i, r in enumerate(block_rows):
            value = np.zeros(len(fills), dtype=np.uint64)
            for j, c in enumerate(cols):
                value |= fills[:, i * side_c + j].astype(np.uint64) << np.uint64(c)
            rows[:, r] = (rows[:, r] & keep) | value
        inner_wrong = count_bits(step_packed(rows, rule, width, steps)[:, inner] ^ pack(goal))
    else:
        boards = np.repeat(sub[None], len(fills), axis=0)
        for i, r in enumerate(block_rows):
            boards[:, r, cols] = fills[:, i * side_c:(i + 1) * side_c]
        inner_wrong = np.count_nonzero(step(boards, rule, steps)[:, inner, inner_cols] != goal, axis=(1, 2))
    if wrong is None:
        wrong = wrong_cells(board, target, rule, steps)
    errors: npt.NDArray[np.int64] = inner_wrong - inner_wrong[current] + wrong
    return errors


def polish(start: Board, target: Board, rule: Rule, steps: int, ctx: SolveContext, *, seed: int = 0,
           rounds: int | None = None) -> tuple[Board, int]:
    """The best start found from ``start`` and its wrong cells (see the module docstring); stops at the
    context's end, after ``rounds`` rounds when given, or after :data:`PATIENCE` rounds without progress.

    >>> from game.core.puzzles.life.rules import LIFE
    >>> target = np.zeros((8, 8), dtype=bool); target[3, 2:5] = True  # a blinker, found from nothing
    >>> board, wrong = polish(np.zeros_like(target), target, LIFE, 1, SolveContext.create(), rounds=50)
    >>> wrong, bool((step(board, LIFE) == target).all())
    (0, True)
    """
    rng = np.random.default_rng(seed)
    current = np.asarray(start, dtype=bool).copy()
    height, width = current.shape
    side_r, side_c = min(BLOCK, height), min(BLOCK, width)
    wrong = wrong_cells(current, target, rule, steps)
    best, best_wrong = current.copy(), wrong
    done = stale = 0
    while best_wrong and (rounds is None or done < rounds) and stale < PATIENCE:
        try:
            ctx.check()
        except SolveStopped:
            if ctx.cancelled():
                raise
            break
        done += 1
        if stale and stale % RESTART == 0:  # stuck: from the best start, a square around a wrong cell cleared
            current = best.copy()
            wrong_at = np.argwhere(generation(current, rule, steps) != target)
            r, c = wrong_at[rng.integers(len(wrong_at))]
            current[np.ix_(np.arange(r - RUIN // 2, r - RUIN // 2 + RUIN) % height,
                           np.arange(c - RUIN // 2, c - RUIN // 2 + RUIN) % width)] = False
        misses = generation(current, rule, steps) != target
        centres = np.argwhere(near_cells(misses, RADIUS))
        r, c = centres[rng.integers(len(centres))]
        top, left = int(r) - side_r // 2, int(c) - side_c // 2
        errors = block_errors(current, top, left, target, rule, steps, wrong=int(misses.sum()))
        wrong = int(errors.min())
        fill = fillings(side_r * side_c)[int(rng.choice(np.flatnonzero(errors == wrong)))]
        current[np.ix_(np.arange(top, top + side_r) % height, np.arange(left, left + side_c) % width)] = \
            fill.reshape(side_r, side_c)
        if wrong < best_wrong:
            best, best_wrong, stale = current.copy(), wrong, 0
        else:
            stale += 1
    return best, best_wrong


def polish_until_stopped(start: Board, target: Board, rule: Rule, steps: int, ctx: SolveContext, *,
                         seed: int = 0) -> tuple[Board, int]:
    """:func:`polish` from ``start`` until the context ends (again from ``start`` with the next seed whenever
    it gives up; once only without a deadline): the best start found and its wrong cells."""
    best = np.asarray(start, dtype=bool).copy()
    best_wrong = wrong_cells(best, target, rule, steps)
    while best_wrong and not ctx.should_stop():
        found, wrong = polish(start, target, rule, steps, ctx, seed=seed)
        if wrong < best_wrong:
            best, best_wrong = found, wrong
        seed += 1
        if ctx.remaining() is None:
            break
    return best, best_wrong


__all__ = ["BLOCK", "PATIENCE", "RADIUS", "RESTART", "RUIN", "block_errors", "fillings", "polish",
           "polish_until_stopped", "wrong_cells"]
