"""Brute force: try every brick subset, smallest first, with the batched simulator.

Exact and simple, for tiny levels and as the oracle of the differential tests.  Only
cells some live lemming state reads (:mod:`ai.solvers.reach`) are tried: a brick elsewhere
never changes a run, so no minimum solution uses one.  The solve context is checked between
batches; every winner found is a minimum solution (all smaller sizes failed), so a stopped run
keeps them.

>>> from game.core.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> BruteForceSolver().solve_in(level, SolveMode.ALL, SolveContext.create()).solutions
(((1, 2),),)
"""

from __future__ import annotations

import itertools
from typing import Iterator

import numpy as np

from ai.kernel.base import BrickSet, SolveMode, SolveStatus
from ai.kernel.context import SolveContext
from ai.solvers.reach import reach_for
from ai.solvers.base import Outcome, Partial, SolverBase
from game.core.batch import simulate_brick_sets
from game.core.level import Brick, Level
from game.core.simulation import SimulationCancelled, simulate

#: Lemming-frames from which sets are replayed one by one (:meth:`BruteForceSolver.batch_size`).
LONG_RUNS = 20_000


def _chunks(cells: tuple[Brick, ...], size: int, chunk: int) -> Iterator[list[tuple[Brick, ...]]]:
    """Every ``size``-subset of ``cells`` in lexicographic order, ``chunk`` at a time."""
    combos = itertools.combinations(cells, size)
    while True:
        block = list(itertools.islice(combos, chunk))
        if not block:
            return
        yield block


def _replay_wins(level: Level, bricks: BrickSet, ctx: SolveContext) -> bool:
    """One brick set replayed by the reference simulator, which asks ``ctx`` every 256 frames."""
    try:
        return simulate(level, bricks, should_stop=ctx.should_stop).won
    except SimulationCancelled:
        ctx.check()
        raise


def _winners(level: Level, block: list[tuple[Brick, ...]]) -> list[BrickSet]:
    """The brick sets of ``block`` that win (batched simulation)."""
    masks = np.zeros((len(block), level.height, level.width), dtype=bool)
    for i, bricks in enumerate(block):
        for r, c in bricks:
            masks[i, r, c] = True
    won = simulate_brick_sets(level, masks, check=False).won
    return [tuple(sorted(block[i])) for i in np.flatnonzero(won)]


class BruteForceSolver(SolverBase):
    """Exact solver by enumeration of brick subsets in order of size (``chunk`` per batch).

    The batch is shrunk on big levels so that one batched simulation stays short: the solve
    context is checked between batches.
    """

    name = "brute"
    exact = True

    def __init__(self, *, chunk: int = 2048) -> None:
        self.chunk = chunk

    def batch_size(self, level: Level) -> int:
        """Brick sets simulated per batch: ``chunk``, fewer when one set is a big simulation.

        A batch costs at least one numpy pass per frame and cannot be interrupted, so on long
        levels (:data:`LONG_RUNS` lemming-frames or more) the sets are replayed one by one with the
        reference simulator instead (``0``), the solve context checked between them.
        """
        if level.frames * len(level.lemmings) >= LONG_RUNS:
            return 0
        work = level.height * level.width * level.frames * max(1, len(level.lemmings))
        return max(1, min(self.chunk, 20_000_000 // max(1, work)))

    def core(self, level: Level, mode: SolveMode, ctx: SolveContext, partial: Partial) -> Outcome:
        """Every subset of the read cells, smallest first."""
        cells = reach_for(level, ctx).read_cells
        chunk = self.batch_size(level)
        for size in range(min(level.budget, len(cells)) + 1):
            found: list[BrickSet] = []
            for block in _chunks(cells, size, chunk or 1):
                ctx.check()
                partial.nodes += len(block)
                winners = _winners(level, block) if chunk else [b for b in block if _replay_wins(level, b, ctx)]
                for bricks in winners:  # no smaller set wins: each is a minimum solution
                    partial.found(bricks)
                found += winners
                if found and mode != SolveMode.ALL:
                    break
            ctx.report(f"{size} bricks: {len(found)} solutions",
                       best_bound=float(size + (0 if found else 1)), solutions_found=len(found))
            if found:
                status = SolveStatus.FEASIBLE if mode == SolveMode.ANY else SolveStatus.OPTIMAL
                return Outcome(status, solutions=found, complete=mode == SolveMode.ALL, nodes=partial.nodes,
                               best_bound=float(size))
            partial.bound(float(size + 1))
        return Outcome(SolveStatus.INFEASIBLE, complete=True, best_bound=float("inf"), nodes=partial.nodes)
