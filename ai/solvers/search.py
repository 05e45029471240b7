"""Exact depth-first search over the cells the lemmings actually read.

The search replays the lemmings one after another.  Whenever a lemming reads an
undecided brickable cell (walking the decision tree of the level's physics,
:attr:`game.core.physics_views.PhysicsViews.tree`, from the cell it reads first) the search branches: *no brick there, ever* or *a brick there*.  A brick set
therefore corresponds to exactly one leaf (its decisions are those the run reads, in
the order it reads them), so each brick set is produced once.  Bricks never go on
cells no run reads, which no minimum solution needs.

* **iterative deepening** on the brick count: budgets 0, 1, 2, ... up to B; the first
  budget with a solution is the proved minimum, and in mode ``all`` every leaf found
  at that budget is a minimum solution;
* **pruning** by the live states of :mod:`ai.solvers.reach` (a state from which no target can
  be reached in the frames left ends the branch);
* a **table of solved positions**: the key is the lemming, frame and state plus the
  decisions on the cells its future can still read (rows at or below it, or every row when the
  physics reads above, columns within reach in the frames left, and every cell of the lemmings
  still to come).  An entry
  holds the budget it was solved with and every completion found (none, for a failed
  position), so a position reached again by another path is not searched twice.

The cells come from the gate map of :mod:`ai.solvers.gates` (a read cell's bit, or a cell fixed
solid or free), the one map the CP-SAT and MILP encodings read too.  The solve context is
checked every :data:`CHECK_EVERY` nodes; a stopped search keeps its proved bound (the budgets
already exhausted).

The search is fastest on small single-lemming levels; on large, open levels with many
reads per frame and optima of 4+ bricks the branching grows as (reads)^bricks and
CP-SAT wins (see ``bench/results.md``).

>>> from game.core.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> SearchSolver().solve_in(level, SolveMode.ALL, SolveContext.create()).solutions
(((1, 2),),)
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ai.kernel.base import SolveMode, SolveStatus
from ai.kernel.context import SolveContext
from ai.solvers.reach import ReachInfo, reach_for
from ai.solvers.base import Outcome, Partial, SolverBase
from ai.solvers.gates import SOLID, gate_codes
from game.core.level import Brick, Level
from game.core.physics import Physics
from game.core.physics_views import FlatTree, flat_tree, views

#: The search checks the solve context every this many nodes (a node costs microseconds).
CHECK_EVERY = 256


@dataclass
class Board:
    """Flat, padded lookup tables of one level for the search inner loop."""

    width: int  #: padded width W+2
    frames: int
    code: list[int]  #: per padded cell: its gate code (:mod:`ai.solvers.gates`): the read-cell bit, SOLID or FREE
    target: list[bool]  #: per padded cell
    cells: list[Brick]  #: read cell of each bit
    starts: list[tuple[int, int]]  #: per lemming: (padded position, direction)
    live: list[memoryview]  #: per lemming: live[t * plane * 2 + inner[pos] + channel] (the analysis' own array)
    plane: int  #: map cells per frame
    inner: list[int]  #: per padded cell inside the map: 2 * its index in the unpadded map (else -1)
    row_from: list[int]  #: per map row r: mask of the bits of cells in rows >= r
    col_prefix: list[int]  #: col_prefix[c]: mask of the bits of cells in columns < c
    later: list[int]  #: per lemming k: mask of every cell the lemmings after k may read
    tree: dict[int, FlatTree]  #: per direction: the physics' decision tree in flat positions
    physics: Physics  #: the level's physics
    stops: bool  #: targets stop lemmings
    upward: bool  #: the physics reads above a lemming (its future may read any row)

    @classmethod
    def of(cls, level: Level, info: ReachInfo, ctx: SolveContext | None = None) -> Board:
        """Tables for ``level`` given its reachability analysis (``ctx`` may stop the work)."""
        ctx = ctx or SolveContext.create()
        pw, ph = level.width + 2, level.height + 2
        cells = list(info.read_cells)
        code = gate_codes(level, cells).ravel().tolist()
        target = np.pad(level.target_map, 1).ravel().tolist()
        # the live maps are read in place (no padded copy: on big levels they are the largest arrays)
        live = [np.ascontiguousarray(lem.dense(ctx)).view(np.uint8).data.cast("B") for lem in info.lemmings]
        inner = np.full((ph, pw), -1, dtype=np.int64)
        inner[1:-1, 1:-1] = 2 * np.arange(level.height * level.width).reshape(level.height, level.width)
        starts = [((lem.row + 1) * pw + lem.col + 1, lem.direction) for lem in level.lemmings]
        ctx.check()
        return cls(pw, level.frames, code, target, cells, starts, live, level.height * level.width,
                   inner.ravel().tolist(),
                   _row_masks(cells, level.height), _col_prefix(cells, level.width),
                   _later_masks(level, info, cells, ctx), flat_tree(level.physics, pw),
                   level.physics, level.physics.targets_stop, views(level.physics).reads_above)


def _mask(bits: np.ndarray) -> int:
    """The integer whose bit ``i`` is ``bits[i]``."""
    return int.from_bytes(np.packbits(bits.astype(bool), bitorder="little").tobytes(), "little")


def _row_masks(cells: list[Brick], height: int) -> list[int]:
    """``out[r]``: bits of the cells in rows ``>= r`` (``out[height]`` = 0)."""
    rows = np.array([r for r, _ in cells], dtype=np.int64)
    return [_mask(rows >= r) for r in range(height + 2)]


def _col_prefix(cells: list[Brick], width: int) -> list[int]:
    """``out[c]``: bits of the cells in columns ``< c``, for ``c`` in 0..width."""
    cols = np.array([c for _, c in cells], dtype=np.int64)
    return [_mask(cols < c) for c in range(width + 1)]


def _later_masks(level: Level, info: ReachInfo, cells: list[Brick], ctx: SolveContext) -> list[int]:
    """Per lemming ``k``: bits of every cell the lemmings ``k+1..`` may read."""
    rows = np.array([r for r, _ in cells], dtype=np.int64)
    cols = np.array([c for _, c in cells], dtype=np.int64)
    masks = [0] * len(info.lemmings)
    acc = 0
    for k in range(len(info.lemmings) - 1, -1, -1):
        ctx.check()
        masks[k] = acc
        acc |= _mask(info.lemmings[k].read_map[rows, cols])
    return masks


class _Search:
    """One search run: the board, the table of solved positions and the counters."""

    def __init__(self, board: Board, ctx: SolveContext, *, compiled: bool = True) -> None:
        self.b = board
        self.ctx = ctx
        self.table: dict[tuple[int, ...], tuple[int, list[int]]] = {}
        self.nodes = 0
        self.first_only = False
        #: the step loop: :meth:`_run` specialised to the board's physics (:func:`compiled_run`), or
        #: :meth:`_run` itself (which walks the physics' tree as data)
        self.run = compiled_run(board) if compiled else _Search._run

    def relevant(self, k: int, t: int, pos: int) -> int:
        """Bits of the cells that lemming ``k`` (from ``pos`` at ``t``) or later lemmings may read."""
        b = self.b
        r, c = divmod(pos, b.width)
        reach = b.frames - t  # columns within reach (one more for the cell ahead)
        lo, hi = max(0, c - 1 - reach), min(len(b.col_prefix) - 1, c + reach)
        cols = b.col_prefix[hi] ^ b.col_prefix[lo]
        rows = b.row_from[0] if b.upward else b.row_from[r - 1]
        return (rows & cols) | b.later[k]

    def explore(self, k: int, t: int, pos: int, d: int, bricks: int, forbidden: int, budget: int) -> list[int]:
        """Every completion (mask of bricks added) of the position with at most ``budget`` more bricks."""
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0:
            self.ctx.check()
        rel = self.relevant(k, t, pos)
        key = (k, t, pos, d, bricks & rel, forbidden & rel)
        hit = self.table.get(key)
        if hit is not None and budget <= hit[0]:
            return [m for m in hit[1] if m.bit_count() <= budget]
        found = self.run(self, k, t, pos, d, bricks, forbidden, budget)
        if not found or not self.first_only:
            self.table[key] = (budget, found)
        return found

    def _run(self, k: int, t: int, pos: int, d: int, bricks: int, forbidden: int, budget: int) -> list[int]:
        """Advance lemming ``k`` until it ends, dies or reads an undecided cell (then branch)."""
        b = self.b
        code, target, last, stops = b.code, b.target, b.frames - 1, b.stops
        live, inner, tree = b.live[k], b.inner, b.tree
        span = b.plane * 2
        decided = bricks | forbidden
        while True:
            if not live[t * span + inner[pos] + (d > 0)]:
                return []
            if t == last or (stops and target[pos]):
                return self._next_lemming(k, bricks, forbidden, budget)
            node, nodes, leaves = tree[d]
            while node >= 0:  # walk the physics' decision tree
                delta, solid_child, free_child = nodes[node]
                cell = code[pos + delta]
                if cell >= 0 and not (decided >> cell) & 1:
                    if budget == 0:
                        decided |= 1 << cell
                    else:
                        return self._branch(k, t, pos, d, bricks, forbidden, budget, cell)
                if cell == SOLID or (cell >= 0 and (bricks >> cell) & 1):
                    node = solid_child
                else:
                    node = free_child
            move, turns = leaves[~node]
            pos += move
            if turns:
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


RunFunction = Callable[[_Search, int, int, int, int, int, int, int], list[int]]
_COMPILED: dict[tuple[str, int], RunFunction] = {}


def _run_source(physics: Physics, pw: int) -> str:
    """The source of :func:`compiled_run`'s function for ``physics`` on a padded map ``pw`` cells wide: the step
    loop of :meth:`_Search._run` with the physics' decision tree unrolled into nested ``if`` s."""
    root, nodes = views(physics).tree
    lines = ["def run(self, k, t, pos, d, bricks, forbidden, budget):",
             "    b = self.b",
             "    code, target, last, stops = b.code, b.target, b.frames - 1, b.stops",
             "    live, inner = b.live[k], b.inner",
             "    span = b.plane * 2",
             "    decided = bricks | forbidden",
             "    while True:",
             "        if not live[t * span + inner[pos] + (d > 0)]:",
             "            return []",
             "        if t == last or (stops and target[pos]):",
             "            return self._next_lemming(k, bricks, forbidden, budget)"]

    def shift(dr: int, da: int) -> str:
        rows = "" if dr == 0 else f" + {dr * pw}" if dr > 0 else f" - {-dr * pw}"
        return "pos" + rows + ("" if da == 0 else " + d" if da == 1 else " - d")

    def emit(node: int, indent: str) -> None:
        if node < 0:
            branch = views(physics).branches[~node]
            (mdr, mda), turns = branch.move, branch.turn
            if (mdr, mda) != (0, 0):
                lines.append(f"{indent}pos = {shift(mdr, mda)}")
            if turns:
                lines.append(f"{indent}d = -d")
            if (mdr, mda) == (0, 0) and not turns:
                lines.append(f"{indent}pass")
            return
        (dr, da), solid, free = nodes[node].offset, nodes[node].solid, nodes[node].free
        lines.extend([f"{indent}cell = code[{shift(dr, da)}]",
                      f"{indent}if cell >= 0 and not (decided >> cell) & 1:",
                      f"{indent}    if budget == 0:",
                      f"{indent}        decided |= 1 << cell",
                      f"{indent}    else:",
                      f"{indent}        return self._branch(k, t, pos, d, bricks, forbidden, budget, cell)",
                      f"{indent}if cell == {SOLID} or (cell >= 0 and (bricks >> cell) & 1):"])
        emit(solid, indent + "    ")
        lines.append(f"{indent}else:")
        emit(free, indent + "    ")

    emit(root, " " * 8)
    lines.append("        t += 1")
    return "\n".join(lines) + "\n"


def compiled_run(board: Board) -> RunFunction:
    """:meth:`_Search._run` with the board's decision tree unrolled into nested ``if`` s (generated from
    the tree, one function per physics and map width, kept): the step loop is the search's hot spot, and
    the unrolled walk costs what a hand-written rule would.

    >>> from game.core.level import Level
    >>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
    >>> run = compiled_run(Board.of(level, reach_for(level, SolveContext.create())))
    >>> print(run.source.splitlines()[11])  # classic reads the cell below first (padded width 6)
            cell = code[pos + 6]
    """
    physics = board.physics
    key = (views(physics).behaviour_key, board.width)
    known = _COMPILED.get(key)
    if known is not None:
        return known
    source = _run_source(physics, board.width)
    namespace: dict[str, object] = {}
    exec(compile(source, f"<search step of {physics.name}>", "exec"), namespace)  # noqa: S102 - our own text
    run = namespace["run"]
    run.source = source  # type: ignore[attr-defined]
    _COMPILED[key] = run  # type: ignore[assignment]
    return run  # type: ignore[return-value]


#: Largest table the search keeps (bytes: frames x padded cells x 2 directions x lemmings).
SEARCH_TABLE_BYTES = 300_000_000


def search_fits(level: Level) -> bool:
    """True when the search's per-frame table of the level fits in memory (not on 256x256 x 10,000 frames)."""
    return level.frames * (level.height + 2) * (level.width + 2) * 2 * len(level.lemmings) <= SEARCH_TABLE_BYTES



class SearchSolver(SolverBase):
    """Exact depth-first search with iterative deepening (see the module docstring)."""

    name = "search"
    exact = True

    def core(self, level: Level, mode: SolveMode, ctx: SolveContext, partial: Partial) -> Outcome:
        """Iterative deepening on the brick count (``any`` goes straight to the budget)."""
        if not search_fits(level):
            return Outcome(SolveStatus.UNKNOWN, message="too large for the search: its frame table would exceed "
                                                        f"{SEARCH_TABLE_BYTES // 1_000_000} MB (a smaller N or map helps)")
        board = Board.of(level, reach_for(level, ctx), ctx)
        search = _Search(board, ctx)
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, 10_000 + 4 * len(board.cells)))
        try:
            budgets = [level.budget] if mode == SolveMode.ANY else range(min(level.budget, len(board.cells)) + 1)
            for budget in budgets:
                try:
                    found = search.solve(budget, first_only=mode != SolveMode.ALL)
                finally:
                    partial.nodes = search.nodes
                partial.extra["table"] = len(search.table)
                ctx.report(f"budget {budget}: {len(found)} solutions",
                           best_bound=float(budget + (0 if found else 1)), solutions_found=len(found))
                if found:
                    sols = [[board.cells[i] for i in range(len(board.cells)) if m >> i & 1] for m in found]
                    status = SolveStatus.FEASIBLE if mode == SolveMode.ANY else SolveStatus.OPTIMAL
                    return Outcome(status, solutions=sols, complete=mode == SolveMode.ALL, nodes=search.nodes,
                                   best_bound=float(budget) if mode != SolveMode.ANY else None,
                                   extra={"table": len(search.table)})
                if mode != SolveMode.ANY:
                    partial.bound(float(budget + 1))
        finally:
            sys.setrecursionlimit(old_limit)
        return Outcome(SolveStatus.INFEASIBLE, complete=True, best_bound=float("inf"), nodes=search.nodes,
                       extra={"table": len(search.table)})
