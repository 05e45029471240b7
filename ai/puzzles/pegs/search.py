"""Backtracking search for peg solitaire: bit-parallel jump generation, a transposition table of dead
positions stored with all their symmetric images, and the per-jump use bounds of
:mod:`ai.puzzles.pegs.bounds`.

Positions are the ``int`` bitmasks of :mod:`game.core.puzzles.pegs`.  A position is *dead* when no sequence of
jumps leads from it to the goal; once the search has tried every jump from a position without
success it stores the position and its images under every symmetry that fixes the goal, so a later
branch that meets any of them backs off at once.  The jump bounds keep both facts sound: a jump of
bound 0 is in no solution from the root, and a jump used as often as its bound cannot appear again
in any solution through the current path (see docs/ARCHITECTURE.md, "Peg solitaire").

The table's memory is bounded by design: it holds at most :data:`MAX_DEAD` positions (derived from
:data:`TABLE_BUDGET_BYTES`); a search that would need more stops with :class:`TableFull`, an incomplete
answer like a timeout.

>>> from game.core.puzzles.pegs_boards import english
>>> board, start = english()
>>> search = Search(board, board.goal_position())
>>> moves = search.solve(start, SolveContext.create())
>>> board.replay(start, moves) == board.goal_position()
True
"""

from __future__ import annotations

from typing import Sequence

from ai.kernel.context import SolveContext
from ai.puzzles.pegs.pagoda import PagodaCuts
from game.core.puzzles.pegs import Board, Jump

#: Nodes between two :meth:`SolveContext.check` calls (a few milliseconds of search).
CHECK_EVERY = 128
#: Memory the table of dead positions may take, in bytes.
TABLE_BUDGET_BYTES = 600 * 2**20
#: Bytes per position of the table: the ``int`` (48 on a 9x9 board) and its share of the set's slots, at
#: most four 16-byte slots per position while the set doubles (measured: about 120 per position in all).
BYTES_PER_DEAD = 150
#: Most positions the table of dead positions holds.
MAX_DEAD = TABLE_BUDGET_BYTES // BYTES_PER_DEAD
#: A dead position teaches a pagoda when it has at most this many jumps to go ...
LEARN_LEFT = 12
#: ... and its refutation took at least this many nodes.
LEARN_SUBTREE = 50


class NodeLimit(Exception):
    """Raised by :meth:`Search.solve` when its ``node_limit`` is reached before an answer."""


class TableFull(Exception):
    """Raised by :meth:`Search.solve` when the table of dead positions reaches its cap (:data:`MAX_DEAD`)."""

    def __init__(self, positions: int) -> None:
        super().__init__(f"search stopped: {positions:,} positions (memory cap)")
        self.positions = positions


class Search:
    """Depth-first search from positions of one board towards one goal (``None``: one peg anywhere).

    ``bounds`` maps jump indices of ``board.jumps`` to the most times a solution from the root may use
    them (missing: unbounded); jumps of bound 0 are never tried.
    """

    def __init__(self, board: Board, goal: int | None, bounds: Sequence[int] | None = None,
                 cuts: PagodaCuts | None = None) -> None:
        self.board = board
        #: Pagoda functions checked at every node; one more is sought (by LP) for each position proved dead
        #: with at most :data:`LEARN_LEFT` jumps to go after at least :data:`LEARN_SUBTREE` nodes.
        self.cuts = cuts
        self.goal = goal
        self.goal_count = 1 if goal is None else board.count(goal)
        self.bounds = list(bounds) if bounds is not None else None
        #: Jumps whose bound can bind (smaller than the number of jumps left at the root), by index.
        self.limited: dict[int, int] = {}
        self.used: dict[int, int] = {}
        goal_images = {goal} if goal is not None else set()
        self.perms = [p for p in board.symmetries
                      if goal is None or board.transform(goal, p) in goal_images]
        self._tables = board.row_images(self.perms)
        self._row_mask = (1 << board.width) - 1
        self._row_shifts = [r * board.width for r in range(board.height)]
        self.dead: set[int] = set()
        #: Most positions :attr:`dead` may hold (:data:`MAX_DEAD`).
        self.max_dead = MAX_DEAD
        self.nodes = 0
        self.node_limit: int | None = None
        # try first the jumps that bring pegs nearest the centre of the frame (sum of squared distances);
        # ties broken by column (tuned on the English central game: 8,686 nodes instead of 27,777), then by
        # direction (up, down, left, right) and start cell.  Jumps are numbered by *rank* in that order, so a
        # node sorts plain ints.
        w = board.width
        cr, cc = (board.height - 1) / 2, (board.width - 1) / 2
        weight = {cell: (cell[0] - cr) ** 2 + (cell[1] - cc) ** 2 + 0.01 * (cell[1] - cc) for cell in board.cells}
        self.delta = [weight[j.end] - weight[j.start] - weight[j.over] for j in board.jumps]
        steps = ((-1, 0), (1, 0), (0, -1), (0, 1))
        keys = []
        for k, j in enumerate(board.jumps):
            d = steps.index((j.over[0] - j.start[0], j.over[1] - j.start[1]))
            keys.append((self.delta[k], d, j.start[0] * w + j.start[1], k))
        keys.sort()
        #: rank -> jump index of ``board.jumps``, and rank -> the jump's three bits
        self.by_rank = [k for *_, k in keys]
        self.rank_bits = [board.jump_masks[k][2] for k in self.by_rank]
        rank_of = {k: r for r, k in enumerate(self.by_rank)}
        # per direction: (towards the low bits?, over shift, end shift, start mask, {start bit: rank})
        self.directions: list[tuple[bool, int, int, int, dict[int, int]]] = []
        for d, (dr, dc) in enumerate(steps):
            step = dr * w + dc
            mask = 0
            ids: dict[int, int] = {}
            for _delta, dj, i, k in keys:
                if dj != d or (bounds is not None and bounds[k] <= 0):
                    continue
                mask |= 1 << i
                ids[i] = rank_of[k]
            self.directions.append((step > 0, abs(step), 2 * abs(step), mask, ids))

    def images(self, position: int) -> set[int]:
        """``position`` under every symmetry that fixes the goal."""
        chunks = [(position >> shift) & self._row_mask for shift in self._row_shifts]
        get = list.__getitem__
        return {sum(map(get, rows, chunks)) for rows in self._tables}

    def legal_ranks(self, position: int) -> list[int]:
        """The ranks of the allowed jumps in ``position``, best first."""
        empty = self.board.full & ~position
        out = []
        for low_bits, s1, s2, mask, ids in self.directions:
            if low_bits:
                starts = position & (position >> s1) & (empty >> s2) & mask
            else:
                starts = position & (position << s1) & (empty << s2) & mask
            while starts:
                low = starts & -starts
                starts ^= low
                out.append(ids[low.bit_length() - 1])
        out.sort()
        return out

    def successors(self, position: int) -> list[tuple[int, int]]:
        """``(jump index, next position)`` for every allowed jump in ``position``, best first."""
        return [(self.by_rank[r], position ^ self.rank_bits[r]) for r in self.legal_ranks(position)]

    def solve(self, start: int, ctx: SolveContext, node_limit: int | None = None) -> list[Jump] | None:
        """A list of jumps from ``start`` to the goal, or ``None`` when there is none.

        Raises :class:`ai.kernel.context.SolveStopped` when ``ctx`` says stop, :class:`NodeLimit` once
        :attr:`nodes` reaches ``node_limit`` (the dead positions found so far stay valid), :class:`TableFull`
        once the table of dead positions holds :attr:`max_dead` positions.
        """
        self.node_limit = node_limit
        left = self.board.count(start) - self.goal_count
        self.limited = {}
        if self.bounds is not None:
            self.limited = {k: b for k, b in enumerate(self.bounds) if 0 < b < left}
        self.used = {k: 0 for k in self.limited}
        path: list[int] = []
        if left <= 0:
            return [] if self.goal is None or start == self.goal else None
        if start in self.dead or not self._dfs(start, left, path, ctx):
            return None
        return [self.board.jumps[k] for k in path]

    def _dfs(self, position: int, left: int, path: list[int], ctx: SolveContext) -> bool:
        """Search from ``position`` (not known dead, ``left`` > 0 jumps to go); the jumps found go on ``path``."""
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0:
            ctx.check()
            if self.node_limit is not None and self.nodes >= self.node_limit:
                raise NodeLimit
            if len(self.dead) >= self.max_dead:
                raise TableFull(len(self.dead))
            if self.nodes % (16 * CHECK_EVERY) == 0:
                ctx.report(f"{self.nodes:,} positions searched, {len(self.dead):,} known dead")
        cuts = self.cuts
        if cuts is not None and cuts.prunes(position):
            self.dead.add(position)
            return False
        before = self.nodes
        limited, used, dead, by_rank, rank_bits = self.limited, self.used, self.dead, self.by_rank, self.rank_bits
        for r in self.legal_ranks(position):
            nxt = position ^ rank_bits[r]
            k = by_rank[r]
            if left == 1:
                if self.goal is None or nxt == self.goal:
                    path.append(k)
                    return True
                continue
            if nxt in dead:
                continue
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
        dead.update(self.images(position))
        if cuts is not None and left <= LEARN_LEFT and self.nodes - before >= LEARN_SUBTREE:
            cuts.learn(position)
        return False


__all__ = ["CHECK_EVERY", "MAX_DEAD", "NodeLimit", "Search", "TableFull"]
