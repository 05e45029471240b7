"""Backtracking search for peg solitaire: bit-parallel jump generation, a transposition table of dead
positions stored with all their symmetric images, and the per-jump use bounds of
:mod:`ai.pegs.bounds`.

Positions are the ``int`` bitmasks of :mod:`game.pegs`.  A position is *dead* when no sequence of
jumps leads from it to the goal; once the search has tried every jump from a position without
success it stores the position and its images under every symmetry that fixes the goal, so a later
branch that meets any of them backs off at once.  The jump bounds keep both facts sound: a jump of
bound 0 is in no solution from the root, and a jump used as often as its bound cannot appear again
in any solution through the current path (see docs/ARCHITECTURE.md, "Peg solitaire").

>>> from game.pegs import english
>>> board, start = english()
>>> search = Search(board, board.goal_position())
>>> moves = search.solve(start, SolveContext.create())
>>> board.replay(start, moves) == board.goal_position()
True
"""

from __future__ import annotations

from typing import Sequence

from ai.context import SolveContext
from game.pegs import Board, Jump

#: Nodes between two :meth:`SolveContext.check` calls.
CHECK_EVERY = 2048


class NodeLimit(Exception):
    """Raised by :meth:`Search.solve` when its ``node_limit`` is reached before an answer."""


def _shift(x: int, k: int) -> int:
    """``x`` moved ``k`` bit places towards the low bits (negative: towards the high bits)."""
    return x >> k if k >= 0 else x << -k


class Search:
    """Depth-first search from positions of one board towards one goal (``None``: one peg anywhere).

    ``bounds`` maps jump indices of ``board.jumps`` to the most times a solution from the root may use
    them (missing: unbounded); jumps of bound 0 are never tried.
    """

    def __init__(self, board: Board, goal: int | None, bounds: Sequence[int] | None = None) -> None:
        self.board = board
        self.goal = goal
        self.goal_count = 1 if goal is None else board.count(goal)
        w = board.width
        index = {j: k for k, j in enumerate(board.jumps)}
        # per direction: (bit shift from start to over, start mask, {start bit index: jump index})
        self.directions: list[tuple[int, int, dict[int, int]]] = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            step = dr * w + dc
            mask = 0
            ids: dict[int, int] = {}
            for j in board.jumps:
                if (j.over[0] - j.start[0], j.over[1] - j.start[1]) == (dr, dc):
                    k = index[j]
                    if bounds is not None and bounds[k] <= 0:
                        continue
                    i = j.start[0] * w + j.start[1]
                    mask |= 1 << i
                    ids[i] = k
            self.directions.append((step, mask, ids))
        self.bounds = list(bounds) if bounds is not None else None
        #: Jumps whose bound can bind (smaller than the number of jumps left at the root), by index.
        self.limited: dict[int, int] = {}
        self.used: dict[int, int] = {}
        goal_images = {goal} if goal is not None else set()
        self.perms = [p for p in board.symmetries
                      if goal is None or board.transform(goal, p) in goal_images]
        self._tables = self._row_tables()
        self._row_mask = (1 << board.width) - 1
        self._row_shifts = [r * board.width for r in range(board.height)]
        self.dead: set[int] = set()
        self.nodes = 0
        self.node_limit: int | None = None
        # try first the jumps that bring pegs nearest the centre of the frame (sum of squared distances);
        # ties broken by column (tuned on the English central game: 8,686 nodes instead of 27,777)
        cr, cc = (board.height - 1) / 2, (board.width - 1) / 2
        weight = {cell: (cell[0] - cr) ** 2 + (cell[1] - cc) ** 2 + 0.01 * (cell[1] - cc) for cell in board.cells}
        self.delta = [weight[j.end] - weight[j.start] - weight[j.over] for j in board.jumps]

    def _row_tables(self) -> list[list[list[int]]]:
        """Per symmetry, per row, the image of every row bit pattern (for fast :meth:`images`)."""
        w, h = self.board.width, self.board.height
        tables = []
        for perm in self.perms:
            rows = []
            for r in range(h):
                table = []
                for bits in range(1 << w):
                    out = 0
                    for c in range(w):
                        if bits >> c & 1 and self.board.on_board((r, c)):
                            out |= 1 << perm[r * w + c]
                    table.append(out)
                rows.append(table)
            tables.append(rows)
        return tables

    def images(self, position: int) -> set[int]:
        """``position`` under every symmetry that fixes the goal."""
        chunks = [(position >> shift) & self._row_mask for shift in self._row_shifts]
        get = list.__getitem__
        return {sum(map(get, rows, chunks)) for rows in self._tables}

    def successors(self, position: int) -> list[tuple[int, int, int]]:
        """``(jump index, jump bits, next position)`` for every allowed jump in ``position``."""
        empty = self.board.full & ~position
        out = []
        for step, mask, ids in self.directions:
            starts = position & _shift(position, step) & _shift(empty, 2 * step) & mask
            while starts:
                low = starts & -starts
                starts ^= low
                i = low.bit_length() - 1
                bits = low | _shift(low, -step) | _shift(low, -2 * step)
                out.append((ids[i], bits, position ^ bits))
        delta = self.delta
        out.sort(key=lambda move: delta[move[0]])
        return out

    def solve(self, start: int, ctx: SolveContext, node_limit: int | None = None) -> list[Jump] | None:
        """A list of jumps from ``start`` to the goal, or ``None`` when there is none.

        Raises :class:`ai.context.SolveStopped` when ``ctx`` says stop, :class:`NodeLimit` once
        :attr:`nodes` reaches ``node_limit`` (the dead positions found so far stay valid).
        """
        self.node_limit = node_limit
        left = self.board.count(start) - self.goal_count
        self.limited = {}
        if self.bounds is not None:
            self.limited = {k: b for k, b in enumerate(self.bounds) if 0 < b < left}
        self.used = {k: 0 for k in self.limited}
        path: list[int] = []
        found = self._dfs(start, left, path, ctx)
        if not found:
            return None
        return [self.board.jumps[k] for k in path]

    def _dfs(self, position: int, left: int, path: list[int], ctx: SolveContext) -> bool:
        if left == 0:
            return self.goal is None or position == self.goal
        if position in self.dead:
            return False
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0:
            ctx.check()
            if self.node_limit is not None and self.nodes >= self.node_limit:
                raise NodeLimit
        limited, used = self.limited, self.used
        for k, _bits, nxt in self.successors(position):
            if k in limited:
                if used[k] >= limited[k]:
                    continue
                used[k] += 1
            path.append(k)
            if self._dfs(nxt, left - 1, path, ctx):
                return True
            path.pop()
            if k in limited:
                used[k] -= 1
        self.dead.update(self.images(position))
        return False


__all__ = ["CHECK_EVERY", "NodeLimit", "Search"]
