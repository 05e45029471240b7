"""Exact depth-first search over the cells the lemmings actually read.

The search replays the lemmings one after another.  Whenever a lemming reads an
undecided brickable cell (the cell below it, or the cell ahead once it stands on
something) the search branches: *no brick there, ever* or *a brick there*.  A brick set
therefore corresponds to exactly one leaf (its decisions are those the run reads, in
the order it reads them), so each brick set is produced once.  Bricks never go on
cells no run reads, which no minimum solution needs.

* **iterative deepening** on the brick count: budgets 0, 1, 2, ... up to B; the first
  budget with a solution is the proved minimum, and in mode ``all`` every leaf found
  at that budget is a minimum solution;
* **pruning** by the live states of :mod:`ai.reach` (a state from which no target can
  be reached in the frames left ends the branch);
* a **table of solved positions**: the key is the lemming, frame and state plus the
  decisions on the cells its future can still read (rows at or below it, columns within
  reach in the frames left, and every cell of the lemmings still to come).  An entry
  holds the budget it was solved with and every completion found (none, for a failed
  position), so a position reached again by another path is not searched twice.

The search is fastest on small single-lemming levels; on large, open levels with many
reads per frame and optima of 4+ bricks the branching grows as (reads)^bricks and
CP-SAT wins (see ``bench/results.md``).

>>> from game.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> SearchSolver().solve(level, mode=SolveMode.ALL).solutions
(((1, 2),),)
"""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass

from ai.base import ProgressCallback, SolveMode, SolveResult, SolveStatus
from ai.reach import ReachInfo, analyse
from ai.solver_util import (
    Cancelled,
    Deadline,
    OutOfTime,
    check,
    infeasible_by_reachability,
    make_result,
    report,
    stopped_status,
)
from game.level import Brick, Level

#: Cell codes in :attr:`Board.code` (brickable cells hold their bit index, >= 0).
WALL_CODE, FREE_CODE = -1, -2


@dataclass
class Board:
    """Flat, padded lookup tables of one level for the search inner loop."""

    width: int  #: padded width W+2
    frames: int
    code: list[int]  #: per padded cell: WALL_CODE, FREE_CODE or the read-cell bit index
    target: list[bool]  #: per padded cell
    cells: list[Brick]  #: read cell of each bit
    starts: list[tuple[int, int]]  #: per lemming: (padded position, direction)
    live: list[bytearray]  #: per lemming: live[t * plane * 2 + pos * 2 + channel]
    plane: int  #: padded cells per frame
    row_from: list[int]  #: per map row r: mask of the bits of cells in rows >= r
    col_prefix: list[int]  #: col_prefix[c]: mask of the bits of cells in columns < c
    later: list[int]  #: per lemming k: mask of every cell the lemmings after k may read

    @classmethod
    def of(cls, level: Level, info: ReachInfo) -> Board:
        """Tables for ``level`` given its reachability analysis."""
        pw, ph = level.width + 2, level.height + 2
        cells = list(info.read_cells)
        bit_of = {cell: i for i, cell in enumerate(cells)}
        code, target = [WALL_CODE] * (pw * ph), [False] * (pw * ph)
        for r in range(level.height):
            for c in range(level.width):
                p = (r + 1) * pw + c + 1
                target[p] = bool(level.target_map[r, c])
                if not level.wall_map[r, c]:
                    code[p] = bit_of.get((r, c), FREE_CODE)
        live = []
        for lem in info.lemmings:
            padded = bytearray(ph * pw * 2 * level.frames)
            for t, r, c, ch in zip(*lem.coords().T):
                padded[(t * ph * pw + (r + 1) * pw + c + 1) * 2 + ch] = 1
            live.append(padded)
        starts = [((lem.row + 1) * pw + lem.col + 1, lem.direction) for lem in level.lemmings]
        return cls(pw, level.frames, code, target, cells, starts, live, ph * pw,
                   _row_masks(cells, level.height), _col_prefix(cells, level.width),
                   _later_masks(level, info, bit_of))


def _row_masks(cells: list[Brick], height: int) -> list[int]:
    """``out[r]``: bits of the cells in rows ``>= r`` (``out[height]`` = 0)."""
    out = [0] * (height + 2)
    for r in range(height, -1, -1):
        out[r] = out[r + 1] | sum(1 << i for i, cell in enumerate(cells) if cell[0] == r)
    return out


def _col_prefix(cells: list[Brick], width: int) -> list[int]:
    """``out[c]``: bits of the cells in columns ``< c``, for ``c`` in 0..width."""
    out = [0] * (width + 1)
    for c in range(1, width + 1):
        out[c] = out[c - 1] | sum(1 << i for i, cell in enumerate(cells) if cell[1] == c - 1)
    return out


def _later_masks(level: Level, info: ReachInfo, bit_of: dict[Brick, int]) -> list[int]:
    """Per lemming ``k``: bits of every cell the lemmings ``k+1..`` may read."""
    masks = [0] * len(info.lemmings)
    acc = 0
    for k in range(len(info.lemmings) - 1, -1, -1):
        masks[k] = acc
        read = info.lemmings[k].read_map
        acc |= sum(1 << bit_of[(int(r), int(c))] for r, c in zip(*read.nonzero()))
    return masks


class _Search:
    """One search run: the board, the table of solved positions and the counters."""

    def __init__(self, board: Board, deadline: Deadline, cancel: threading.Event | None) -> None:
        self.b = board
        self.deadline = deadline
        self.cancel = cancel
        self.table: dict[tuple[int, ...], tuple[int, list[int]]] = {}
        self.nodes = 0
        self.first_only = False

    def relevant(self, k: int, t: int, pos: int) -> int:
        """Bits of the cells that lemming ``k`` (from ``pos`` at ``t``) or later lemmings may read."""
        b = self.b
        r, c = divmod(pos, b.width)
        reach = b.frames - t  # columns within reach (one more for the cell ahead)
        lo, hi = max(0, c - 1 - reach), min(len(b.col_prefix) - 1, c + reach)
        cols = b.col_prefix[hi] ^ b.col_prefix[lo]
        return (b.row_from[r - 1] & cols) | b.later[k]

    def explore(self, k: int, t: int, pos: int, d: int, bricks: int, forbidden: int, budget: int) -> list[int]:
        """Every completion (mask of bricks added) of the position with at most ``budget`` more bricks."""
        self.nodes += 1
        if self.nodes & 255 == 0:
            check(self.cancel, self.deadline)
        rel = self.relevant(k, t, pos)
        key = (k, t, pos, d, bricks & rel, forbidden & rel)
        hit = self.table.get(key)
        if hit is not None and budget <= hit[0]:
            return [m for m in hit[1] if m.bit_count() <= budget]
        found = self._run(k, t, pos, d, bricks, forbidden, budget)
        if not found or not self.first_only:
            self.table[key] = (budget, found)
        return found

    def _run(self, k: int, t: int, pos: int, d: int, bricks: int, forbidden: int, budget: int) -> list[int]:
        """Advance lemming ``k`` until it ends, dies or reads an undecided cell (then branch)."""
        b = self.b
        code, target, pw, last = b.code, b.target, b.width, b.frames - 1
        live = b.live[k]
        span = b.plane * 2
        decided = bricks | forbidden
        while True:
            if not live[t * span + pos * 2 + (d > 0)]:
                return []
            if t == last or target[pos]:
                return self._next_lemming(k, bricks, forbidden, budget)
            cell = code[pos + pw]
            if cell >= 0 and not (decided >> cell) & 1:
                if budget == 0:
                    decided |= 1 << cell
                else:
                    return self._branch(k, t, pos, d, bricks, forbidden, budget, cell)
            if cell == FREE_CODE or (cell >= 0 and not (bricks >> cell) & 1):
                pos += pw
                t += 1
                continue
            ahead = code[pos + d]
            if ahead >= 0 and not (decided >> ahead) & 1:
                if budget == 0:
                    decided |= 1 << ahead
                else:
                    return self._branch(k, t, pos, d, bricks, forbidden, budget, ahead)
            if ahead == FREE_CODE or (ahead >= 0 and not (bricks >> ahead) & 1):
                pos += d
            else:
                d = -d
            t += 1

    def _branch(self, k: int, t: int, pos: int, d: int, bricks: int, forbidden: int, budget: int,
                cell: int) -> list[int]:
        """Decide ``cell``: first 'never a brick', then 'a brick'."""
        bit = 1 << cell
        found = self.explore(k, t, pos, d, bricks, forbidden | bit, budget)
        if found and self.first_only:
            return found
        with_brick = self.explore(k, t, pos, d, bricks | bit, forbidden, budget - 1)
        return found + [m | bit for m in with_brick]

    def _next_lemming(self, k: int, bricks: int, forbidden: int, budget: int) -> list[int]:
        """Lemming ``k`` ended on a target: run the next one, or report a solution."""
        if k + 1 == len(self.b.starts):
            return [0]
        pos, d = self.b.starts[k + 1]
        return self.explore(k + 1, 0, pos, d, bricks, forbidden, budget)

    def solve(self, budget: int, first_only: bool) -> list[int]:
        """All (or the first) winning brick masks with at most ``budget`` bricks."""
        self.first_only = first_only
        pos, d = self.b.starts[0]
        return self.explore(0, 0, pos, d, 0, 0, budget)


class SearchSolver:
    """Exact depth-first search with iterative deepening (see the module docstring)."""

    name = "search"
    exact = True

    def solve(
        self,
        level: Level,
        *,
        mode: SolveMode = SolveMode.MIN,
        time_limit: float | None = None,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> SolveResult:
        """Solve ``level``; see :class:`ai.base.Solver`."""
        mode = SolveMode(mode)
        deadline = Deadline(time_limit)
        info = analyse(level)
        if not info.feasible:
            return infeasible_by_reachability(self.name, mode, deadline)
        board = Board.of(level, info)
        search = _Search(board, deadline, cancel)
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, 10_000 + 4 * len(board.cells)))
        try:
            return self._deepen(level, board, search, mode, deadline, progress)
        except (Cancelled, OutOfTime):
            return make_result(self.name, mode, stopped_status(cancel), deadline, nodes=search.nodes)
        finally:
            sys.setrecursionlimit(old_limit)

    def _deepen(self, level: Level, board: Board, search: _Search, mode: SolveMode, deadline: Deadline,
                progress: ProgressCallback | None) -> SolveResult:
        """Iterative deepening on the brick count (``any`` goes straight to the budget)."""
        budgets = [level.budget] if mode == SolveMode.ANY else range(min(level.budget, len(board.cells)) + 1)
        for budget in budgets:
            found = search.solve(budget, first_only=mode != SolveMode.ALL)
            report(progress, self.name, deadline, f"budget {budget}: {len(found)} solutions",
                   best_bound=float(budget + (0 if found else 1)), solutions_found=len(found))
            if found:
                sols = [[board.cells[i] for i in range(len(board.cells)) if m >> i & 1] for m in found]
                status = SolveStatus.FEASIBLE if mode == SolveMode.ANY else SolveStatus.OPTIMAL
                return make_result(self.name, mode, status, deadline, solutions=sols,
                                   complete=mode == SolveMode.ALL, nodes=search.nodes,
                                   best_bound=float(budget) if mode != SolveMode.ANY else None,
                                   extra={"table": len(search.table)})
        return make_result(self.name, mode, SolveStatus.INFEASIBLE, deadline, complete=True,
                           nodes=search.nodes, extra={"table": len(search.table)})
