"""Exact search over the cells the lemmings read, batched: the generator's own bound prover.

Let ``S`` be a winning brick set and ``T`` a losing subset of it.  The runs with ``T``
and with ``S`` start equal and differ first at a frame where some lemming's step reads a cell
that the branch of the physics it takes with ``T`` needs free (:mod:`game.core.reads`) and that is
blocked with ``S``: a cell of ``S - T`` that the run with ``T`` reads.  So breadth-first search that
extends each losing set only by the cells its own run reads reaches every minimal
winning set, at depth equal to its size.  Each depth is one batch of the batched
simulator (:func:`game.core.batch.simulate_brick_sets`, which follows the level's physics) with recorded paths.

The search gives up (``exhausted=False``) when a depth holds more than ``cap`` sets.

>>> from game.core.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> found = search(level, max_bricks=1)
>>> found.depth_proved, found.solutions, found.min_bricks
(0, (((1, 2),),), 1)
>>> search(level, max_bricks=0).solutions, search(level, max_bricks=0).depth_proved
((), 0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ai.kernel.base import SolveMode, SolveStatus
from ai.kernel.context import SolveContext
from ai.solvers.base import Outcome, Partial, SolverBase
from game.core.batch import simulate_brick_sets
from game.core.level import Brick, Level
from game.core.physics_views import views
from game.core.reads import branch_indices


BrickSet = tuple[Brick, ...]
IntArray = npt.NDArray[np.int64]

#: Rows simulated per batch at most ...
CHUNK = 1024
#: ... and fewer on large maps or long runs: at most this many padded map cells and recorded path entries
#: per batch (the arrays of a batch take a few times 8 bytes per entry: some 100 MB at the bound).
CHUNK_CELLS = 4_000_000


def chunk_rows(level: Level, record_paths: bool) -> int:
    """Brick sets simulated together on ``level``: :data:`CHUNK`, fewer where a batch would be large."""
    per_row = (level.height + 2) * (level.width + 2)
    if record_paths:
        per_row = max(per_row, level.frames * max(1, len(level.lemmings)) * 3)
    return max(1, min(CHUNK, CHUNK_CELLS // per_row))


@dataclass(frozen=True)
class SearchOutcome:
    """What the read-set search established.

    ``depth_proved``: every brick set of at most this size was covered (no winner below
    :attr:`min_bricks`).  ``solutions``: the winning sets of the smallest winning size
    found (every one of them, when ``exhausted``).  ``exhausted``: the search finished
    its last depth without hitting the cap or a stop of its context.
    """

    depth_proved: int
    solutions: tuple[BrickSet, ...]
    exhausted: bool
    sets_tried: int

    @property
    def min_bricks(self) -> int | None:
        """The minimum brick count, when a winner was found."""
        return len(self.solutions[0]) if self.solutions else None


def _masks(level: Level, sets: list[BrickSet]) -> npt.NDArray[np.bool_]:
    masks = np.zeros((len(sets), level.height, level.width), dtype=bool)
    for i, bricks in enumerate(sets):
        for r, c in bricks:
            masks[i, r, c] = True
    return masks


def wins_of(level: Level, sets: list[BrickSet]) -> npt.NDArray[np.bool_]:
    """Which of ``sets`` win (batched, no paths recorded; the budget is not checked)."""
    wins = np.zeros(len(sets), dtype=bool)
    step = chunk_rows(level, False)
    for lo in range(0, len(sets), step):
        block = sets[lo : lo + step]
        wins[lo : lo + len(block)] = simulate_brick_sets(level, _masks(level, block), check=False).won
    return wins


def runs_of(level: Level, sets: list[BrickSet], ctx: SolveContext | None = None
            ) -> tuple[npt.NDArray[np.bool_], list[list[Brick]]]:
    """Simulate ``sets``; return which win and, for each, the brickable cells its run reads and
    needs free (the free cells of the branch of the level's physics each step takes).

    Once ``ctx`` stops, the sets not simulated yet are left out: fewer read lists than sets (callers
    that pass a context check it before trusting the answer)."""
    h, w = level.height, level.width
    physics = level.physics
    wins = np.zeros(len(sets), dtype=bool)
    reads: list[list[Brick]] = []
    brickable = np.pad(level.brickable_map, 1, constant_values=False)
    target = np.pad(level.target_map, 1)
    pw = w + 2
    step = chunk_rows(level, True)
    for lo in range(0, len(sets), step):
        if ctx is not None and ctx.should_stop():
            break
        block = sets[lo : lo + step]
        masks = _masks(level, block)
        runs = simulate_brick_sets(level, masks, record_paths=True, check=False)
        wins[lo : lo + len(block)] = runs.won
        assert runs.paths is not None
        paths = runs.paths[:, :-1]  # (B, N-1, L, 3): states that still move on
        pad = np.pad(masks | level.wall_map, ((0, 0), (1, 1), (1, 1)), constant_values=True)
        b = np.arange(len(block))[:, None, None]
        r = paths[..., 0] + 1
        c = paths[..., 1] + 1
        d = paths[..., 2]
        moving = ~target[r, c] if physics.targets_stop else np.ones(r.shape, dtype=bool)
        taken = branch_indices(physics, pad, r, c, d, (b,))
        row_ids = np.broadcast_to(b, r.shape)
        keys = []
        for i, branch in enumerate(views(physics).branches):
            on = moving & (taken == i)
            for (dr, da), solid in branch.needs:
                if solid:
                    continue
                rr, cc = r + dr, c + da * d
                hit = on & brickable[rr, cc]
                keys.append(row_ids[hit] * (pw * (h + 2)) + rr[hit] * pw + cc[hit])
        per_row: list[list[Brick]] = [[] for _ in block]
        if keys:
            for key in np.unique(np.concatenate(keys)).tolist():
                row, cell = divmod(key, pw * (h + 2))
                per_row[row].append((cell // pw - 1, cell % pw - 1))
        reads.extend(per_row)
    return wins, reads


def search(
    level: Level,
    max_bricks: int,
    *,
    cap: int = 50_000,
    ctx: SolveContext | None = None,
) -> SearchOutcome:
    """Breadth-first search of winning brick sets of size 0..``max_bricks`` (budget ignored).

    Stops at the first depth holding a winner and returns every winner of that depth:
    those are all the minimum solutions.  Once ``ctx`` stops, it returns at once (not exhausted).
    """
    frontier: list[BrickSet] = [()]
    tried = 0
    for depth in range(max_bricks + 1):
        if ctx is not None and ctx.should_stop():
            return SearchOutcome(depth - 1, (), False, tried)
        wins, reads = runs_of(level, frontier, ctx)
        if ctx is not None and ctx.should_stop():
            return SearchOutcome(depth - 1, (), False, tried)
        tried += len(frontier)
        winners = tuple(sorted(s for s, won in zip(frontier, wins) if won))
        if winners:
            return SearchOutcome(depth - 1, winners, True, tried)
        if depth == max_bricks:
            return SearchOutcome(depth, winners, True, tried)
        children: set[BrickSet] = set()
        for k, (bricks, won, cells) in enumerate(zip(frontier, wins, reads)):
            if won:
                continue
            if k & 63 == 63 and ctx is not None and ctx.should_stop():
                return SearchOutcome(depth - 1, (), False, tried)
            have = set(bricks)
            for cell in cells:
                if cell not in have:
                    children.add(tuple(sorted(have | {cell})))
            if len(children) > cap:  # the next depth is too wide: give up now
                return SearchOutcome(depth, (), False, tried)
        frontier = sorted(children)
    return SearchOutcome(max_bricks, (), True, tried)  # pragma: no cover - loop always returns


class ReadSetSolver(SolverBase):
    """:func:`search` behind the solver contract (exact; gives up past ``cap``).

    The generator's fallback certifier when no registry solver is installed.

    >>> from ai.solvers.registry import solve
    >>> from game.core.level import Level
    >>> result = solve(Level.from_rows(["> .T", "XX.X"], frames=5, budget=1), solver=ReadSetSolver(), mode="all")
    >>> result.status.value, result.solutions, result.complete
    ('optimal', (((1, 2),),), True)
    """

    name = "readset"
    exact = True
    shortcuts = False  # its own search answers the no-brick and infeasible cases as cheaply

    def __init__(self, *, cap: int = 500_000) -> None:
        self.cap = cap

    def core(self, level: Level, mode: SolveMode, ctx: SolveContext, partial: Partial) -> Outcome:
        """Search within the budget; stopped between depths by ``ctx``."""
        out = search(level, level.budget, cap=self.cap, ctx=ctx)
        partial.nodes = out.sets_tried
        if out.solutions:
            sols = out.solutions if mode == SolveMode.ALL else out.solutions[:1]
            status = SolveStatus.FEASIBLE if mode == SolveMode.ANY else SolveStatus.OPTIMAL
            return Outcome(status, solutions=sols, complete=mode == SolveMode.ALL, nodes=out.sets_tried,
                           best_bound=float(out.depth_proved + 1))
        if out.exhausted:
            return Outcome(SolveStatus.INFEASIBLE, complete=True, nodes=out.sets_tried, best_bound=float("inf"))
        ctx.check()
        return Outcome(SolveStatus.UNKNOWN, nodes=out.sets_tried, message="search cap reached")
