"""A retrograde table of the English central game: which positions of the game can still finish.

The positions reachable from the English start (32 pegs, the centre empty) fall into 23,475,688 classes
under the board's 8 symmetries; 1,679,072 of them can still reach one peg in the centre.
:func:`build_table` finds them with whole levels of positions at once (numpy ``uint64`` arrays): forward
from the start level by level, every jump applied to every position and the images reduced to their least
form, then backward from the goal, a position of level ``n`` being winnable when one of its jumps leads to a
winnable class of level ``n - 1``.  Building takes about two minutes on the 2-core machine, so the game
ships the classes with at least :data:`MIN_PEGS` pegs, the early game where the search is slow
(``english_winnable.bin``: 241,995 classes, 330 KB; ``python3 -m bench.make_pegs_table`` writes it).

Using it (:func:`table_answer`): a position of that part of the game whose class is in the table can finish,
and the table walks it down jump by jump to :data:`MIN_PEGS` pegs (the search finishes from there).  A
position whose class is not in the table is dead *if it can arise in the game*: by the duality of peg
solitaire (a jump ``a -> b`` is legal exactly when ``~b -> ~a`` is, ``~`` swapping pegs and holes) a
position ``p`` arises from the start exactly when its complement ``~p``, with at most 33 - 20 = 13 pegs,
can finish in the centre, which the search settles quickly.  Positions that cannot arise from the start
(set up in the editor) are left to the search.

>>> from game.core.puzzles.pegs_boards import english
>>> board, start = english()
>>> table = WinTable.load()
>>> table.applies(board, board.goal_position()), table.winnable(board, start)
(True, True)
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from game.core.puzzles.pegs import Board, Jump
from game.core.puzzles.pegs_boards import english

U64 = npt.NDArray[np.uint64]

#: The shipped table holds the classes with at least this many pegs.
MIN_PEGS = 20
#: The shipped table: zlib-compressed differences of the sorted least images, ``uint64`` little-endian.
TABLE_PATH = Path(__file__).with_name("english_winnable.bin")


def _row_tables(board: Board, perms: tuple[tuple[int, ...], ...] | None = None) -> U64:
    """:meth:`Board.row_images` as an array ``(symmetries, height, 2**width)``."""
    return np.array(board.row_images(perms), dtype=np.uint64)


def least_images(board: Board, positions: U64, tables: U64 | None = None) -> U64:
    """The least image of every position under the board's symmetries (as :meth:`Board.canonical`).

    >>> board, start = english()
    >>> p = board.apply(start, board.legal_jumps(start)[0])
    >>> int(least_images(board, np.array([p], dtype=np.uint64))[0]) == board.canonical(p)
    True
    """
    tables = _row_tables(board) if tables is None else tables
    w = board.width
    rows = [((positions >> np.uint64(w * r)) & np.uint64((1 << w) - 1)).astype(np.int64) for r in range(board.height)]
    best: U64 | None = None
    for s in range(tables.shape[0]):
        image = tables[s, 0][rows[0]]
        for r in range(1, board.height):
            image = image | tables[s, r][rows[r]]
        best = image if best is None else np.minimum(best, image)
    assert best is not None
    return best


def sorted_unique(values: U64) -> U64:
    """The distinct values, sorted (as ``np.unique``, whose hash-based path is many times slower on ``uint64``).

    >>> sorted_unique(np.array([5, 1, 5, 3], dtype=np.uint64)).tolist()
    [1, 3, 5]
    """
    ordered = np.sort(values)
    if len(ordered) < 2:
        return ordered
    return ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]


def build_table(board: Board, start: int, goal: int, min_pegs: int = 1) -> U64:
    """The sorted least images of every position reachable from ``start`` that can still reach ``goal``
    (only those with at least ``min_pegs`` pegs), under the symmetries of the board that fix the goal
    (all 8 for the English centre, so the images are :meth:`Board.canonical`)."""
    tables = _row_tables(board, tuple(p for p in board.symmetries if board.transform(goal, p) == goal))
    masks = np.array(board.jump_masks, dtype=np.uint64)
    levels = {board.count(start): least_images(board, np.array([start], dtype=np.uint64), tables)}
    n = board.count(start)
    while n > board.count(goal):  # forward: every class of every level
        level, found = levels[n], []
        for ready, end, bits in masks:
            legal = ((level & ready) == ready) & ((level & end) == 0)
            if legal.any():
                found.append(level[legal] ^ bits)
        if not found:
            break
        levels[n - 1] = sorted_unique(least_images(board, np.concatenate(found), tables))
        n -= 1
    goal_class = least_images(board, np.array([goal], dtype=np.uint64), tables)
    win = {board.count(goal): np.intersect1d(levels.get(board.count(goal), goal_class[:0]), goal_class)}
    for n in range(board.count(goal) + 1, board.count(start) + 1):  # backward: the winnable ones
        level, below = levels.get(n, goal_class[:0]), win.get(n - 1, goal_class[:0])
        ok = np.zeros(len(level), dtype=bool)
        for ready, end, bits in masks:
            if not len(below):
                break
            index = np.flatnonzero(((level & ready) == ready) & ((level & end) == 0))
            images = least_images(board, level[index] ^ bits, tables)
            at = np.minimum(np.searchsorted(below, images), len(below) - 1)
            ok[index[below[at] == images]] = True
        win[n] = level[ok]
    kept = [classes for n, classes in win.items() if n >= min_pegs]
    return np.sort(np.concatenate(kept)) if kept else goal_class[:0]


def encode(classes: U64) -> bytes:
    """``classes`` (sorted) as the file's bytes."""
    return zlib.compress(np.diff(classes, prepend=np.uint64(0)).astype("<u8").tobytes(), 9)


def decode(data: bytes) -> U64:
    """The sorted classes of a file's bytes."""
    return np.cumsum(np.frombuffer(zlib.decompress(data), dtype="<u8")).astype(np.uint64)


@dataclass(frozen=True)
class WinTable:
    """The winnable classes of the English central game with at least :data:`MIN_PEGS` pegs."""

    board: Board
    goal: int
    classes: U64

    @staticmethod
    @lru_cache(maxsize=1)
    def load() -> WinTable:
        """The shipped table (read once per process)."""
        board, _ = english()
        goal = board.goal_position()
        assert goal is not None
        return WinTable(board, goal, decode(TABLE_PATH.read_bytes()))

    def applies(self, board: Board, goal: int | None) -> bool:
        """True for the English board with the centre as the goal."""
        return board.cells == self.board.cells and board.width == self.board.width and goal == self.goal

    def covers(self, board: Board, position: int) -> bool:
        """True when ``position`` has enough pegs for the table to know it."""
        return board.count(position) >= MIN_PEGS

    def winnable(self, board: Board, position: int) -> bool:
        """True when the class of ``position`` (covered) is in the table."""
        image = np.uint64(board.canonical(position))
        at = int(np.searchsorted(self.classes, image))
        return at < len(self.classes) and bool(self.classes[at] == image)

    def walk(self, board: Board, position: int) -> tuple[list[Jump], int]:
        """From a winnable covered ``position``, jumps through winnable classes down to :data:`MIN_PEGS`
        pegs: ``(jumps, the position reached)``."""
        jumps: list[Jump] = []
        while board.count(position) > MIN_PEGS:
            for jump in board.legal_jumps(position):
                after = board.apply(position, jump)
                if self.winnable(board, after):
                    jumps.append(jump)
                    position = after
                    break
            else:
                raise AssertionError("a winnable class with no winnable jump: the table is broken")
        return jumps, position


def complement(board: Board, position: int) -> int:
    """Pegs and holes swapped: ``a -> b`` is a legal jump exactly when ``~b -> ~a`` is, so a position arises
    from the English start (the centre empty) exactly when its complement can finish in the centre.

    >>> board, start = english()
    >>> board.pegs(complement(board, start))
    [(3, 3)]
    """
    return board.full & ~position


__all__ = ["MIN_PEGS", "TABLE_PATH", "WinTable", "build_table", "complement", "decode", "encode", "least_images",
           "sorted_unique"]
