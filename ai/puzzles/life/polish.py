"""Reverse Life, approximately: a local search on the start for the fewest wrong cells after k steps.

When no exact start is found in time, :func:`polish` improves the best start in hand.  Each round picks a
:data:`BLOCK` x :data:`BLOCK` block of the start centred within :data:`RADIUS` of a cell that is wrong
after k generations, tries every filling of the block at once (:func:`block_trial`: 512 boards, stepped
only where a change of the block can reach in k generations, each generation losing the edge it no longer
knows: on boards more than 4k + 3 cells across, a window sliced 64 fillings to a word; else bit-packed rows
of :mod:`game.core.puzzles.life.packed` for outer-totalistic rules), and keeps a filling with the fewest
wrong cells (one as good at random: sideways moves cross plateaus; the block's own filling is among them,
so a round never makes the start worse).  The trial's last generation of the filling kept updates the
search's copy of the start's last generation (:class:`BlockTrial`), so the whole board is stepped again
only after a restart.  After :data:`RESTART` rounds without a better start it starts again from the best
one with a :data:`RUIN` x :data:`RUIN` square around one of its wrong cells cleared (ruin and recreate).
The best start seen is returned.

Measured in bench/results.md ("Reverse Life"): on the hard boards of the notes' setting (the dense ones
the SAT chain leaves without an exact start) 3x3 blocks leave about a fifth fewer wrong cells than the
best single flip per round did in the same time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ai.kernel.context import SolveContext, SolveStopped
from game.core.puzzles.life.packed import (ALL_BOARDS, count_bits, generation, pack, packs, step_band, step_packed,
                                          step_sliced, unpack)
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


@dataclass(frozen=True)
class BlockTrial:
    """Every filling of one block tried (:func:`block_trial`): its wrong cells, and (outer-totalistic rules)
    the window of the last generation a change of the block can reach, per filling."""

    errors: npt.NDArray[np.int64]  #: wrong cells after the steps, per filling
    rows_at: npt.NDArray[np.int64] | None = None  #: the board rows of the window
    cols_at: npt.NDArray[np.int64] | None = None  #: its board columns (``None``: every column)
    packed_rows: npt.NDArray[np.uint64] | None = None  #: the window as packed rows, per filling
    sliced: npt.NDArray[np.uint64] | None = None  #: the window sliced, 64 fillings per word
    width: int = 0  #: the board's columns

    def last_generation(self, index: int) -> Board | None:
        """The window (rows :attr:`rows_at`, columns :attr:`cols_at`) of the last generation with filling
        ``index``, or ``None`` when the trial did not keep it."""
        if self.packed_rows is not None:
            window: Board = unpack(self.packed_rows[index], self.width)
            return window
        if self.sliced is not None:
            word, bit = divmod(index, 64)
            sliced: Board = ((self.sliced[word] >> np.uint64(bit)) & np.uint64(1)).astype(bool)
            return sliced
        return None


@lru_cache(maxsize=4)
def _sliced_fillings(cells: int) -> npt.NDArray[np.uint64]:
    """Cell ``m`` of the block in every filling, 64 fillings per word: row ``m``, word ``w``, bit ``j`` is
    cell ``m`` of filling ``64 w + j`` (:func:`fillings`)."""
    fills = fillings(cells).astype(np.uint64).reshape(-1, 64, cells)  # word, bit, cell
    words: npt.NDArray[np.uint64] = (fills << np.arange(64, dtype=np.uint64)[None, :, None]).sum(axis=1,
                                                                                                 dtype=np.uint64)
    return words.T


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
    return block_trial(board, top, left, target, rule, steps, wrong=wrong).errors


def block_trial(board: Board, top: int, left: int, target: Board, rule: Rule, steps: int, *,
                wrong: int | None = None) -> BlockTrial:
    """:func:`block_errors`, with the window of the last generation that a change of the block can reach, per
    filling (outer-totalistic rules that pack or slice: :class:`BlockTrial`)."""
    height, width = board.shape
    side_r, side_c = min(BLOCK, height), min(BLOCK, width)
    fills = fillings(side_r * side_c)
    block_at = [(top + i) % height for i in range(side_r)]
    cols = [(left + j) % width for j in range(side_c)]
    current = int(sum(1 << int(m) for m in np.flatnonzero(board[np.ix_(block_at, cols)])))  # its own filling
    if wrong is None:
        wrong = wrong_cells(board, target, rule, steps)
    if rule.bs is not None and len(fills) % 64 == 0 and max(side_r - height, side_c - width) + 4 * steps < 0:
        return _sliced_trial(board, top, left, target, rule, steps, current, wrong)
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
    last_rows, rows_at = None, None
    if packs(rule, width):
        last_rows = _stepped_fillings(pack(sub), block_rows, cols, fills, rule, width, steps, inner == slice(None))
        inner_wrong = count_bits(last_rows ^ pack(goal))
        rows_at = band[inner]
    else:
        boards = np.repeat(sub[None], len(fills), axis=0)
        for i, r in enumerate(block_rows):
            boards[:, r, cols] = fills[:, i * side_c:(i + 1) * side_c]
        inner_wrong = np.count_nonzero(step(boards, rule, steps)[:, inner, inner_cols] != goal, axis=(1, 2))
    errors: npt.NDArray[np.int64] = inner_wrong - inner_wrong[current] + wrong
    return BlockTrial(errors, rows_at, None, last_rows, None, width)


def _sliced_trial(board: Board, top: int, left: int, target: Board, rule: Rule, steps: int, current: int,
                  wrong: int) -> BlockTrial:
    """:func:`block_trial` on a window of rows and columns that does not wrap: the 512 fillings sliced 64 to
    a word (:func:`~game.core.puzzles.life.packed.step_sliced`), each generation losing the window's edge."""
    height, width = board.shape
    rows = np.arange(top - 2 * steps, top + BLOCK + 2 * steps) % height
    cols = np.arange(left - 2 * steps, left + BLOCK + 2 * steps) % width
    fills = _sliced_fillings(BLOCK * BLOCK)
    words = np.repeat(np.where(board[np.ix_(rows, cols)], ALL_BOARDS, np.uint64(0))[None], fills.shape[1], axis=0)
    for m in range(BLOCK * BLOCK):
        words[:, 2 * steps + m // BLOCK, 2 * steps + m % BLOCK] = fills[m]
    last = step_sliced(words, rule, steps)
    inner_rows, inner_cols = rows[steps:len(rows) - steps], cols[steps:len(cols) - steps]
    misses = last ^ np.where(target[np.ix_(inner_rows, inner_cols)], ALL_BOARDS, np.uint64(0))
    per_bit = np.unpackbits(misses.reshape(len(misses), -1, 1).view(np.uint8), axis=-1, bitorder="little")
    inner_wrong = per_bit.sum(axis=1, dtype=np.int64).ravel()  # filling 64 w + j at w * 64 + j
    errors: npt.NDArray[np.int64] = inner_wrong - inner_wrong[current] + wrong
    return BlockTrial(errors, inner_rows, inner_cols, None, last, width)


def _stepped_fillings(rows: npt.NDArray[np.uint64], block_rows: list[int], cols: list[int],
                      fills: npt.NDArray[np.bool_], rule: Rule, width: int, steps: int,
                      wraps: bool) -> npt.NDArray[np.uint64]:
    """The packed ``rows`` with the block (``block_rows`` x ``cols``) set to each of ``fills``, after
    ``steps`` generations: all rows on the torus (``wraps``), else the inner rows of a band."""
    side_c = len(cols)
    boards = np.repeat(rows[None], len(fills), axis=0)
    keep = ~np.uint64(sum(1 << c for c in cols))
    for i, r in enumerate(block_rows):
        value = np.zeros(len(fills), dtype=np.uint64)
        for j, c in enumerate(cols):
            value |= fills[:, i * side_c + j].astype(np.uint64) << np.uint64(c)
        boards[:, r] = (boards[:, r] & keep) | value
    if wraps:
        return step_packed(boards, rule, width, steps)
    return step_band(boards, rule, width, steps)  # the band's rows do not wrap: each generation loses its edges


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
    last = generation(current, rule, steps)  # kept up to date from each round's trial where it can be
    wrong = int(np.count_nonzero(last != target))
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
            last = generation(current, rule, steps)
        misses = last != target
        centres = np.argwhere(near_cells(misses, RADIUS))
        r, c = centres[rng.integers(len(centres))]
        top, left = int(r) - side_r // 2, int(c) - side_c // 2
        trial = block_trial(current, top, left, target, rule, steps, wrong=int(misses.sum()))
        wrong = int(trial.errors.min())
        chosen = int(rng.choice(np.flatnonzero(trial.errors == wrong)))
        current[np.ix_(np.arange(top, top + side_r) % height, np.arange(left, left + side_c) % width)] = \
            fillings(side_r * side_c)[chosen].reshape(side_r, side_c)
        window = trial.last_generation(chosen)
        if window is None or trial.rows_at is None:
            last = generation(current, rule, steps)
        else:
            last[np.ix_(trial.rows_at, np.arange(width) if trial.cols_at is None else trial.cols_at)] = window
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


__all__ = ["BLOCK", "BlockTrial", "PATIENCE", "RADIUS", "RESTART", "RUIN", "block_errors", "block_trial", "fillings",
           "polish", "polish_until_stopped", "wrong_cells"]
