"""Brute force: try every brick subset, smallest first, with the batched simulator.

Exact and simple, for tiny levels and as the oracle of the differential tests.  Only
cells some live lemming state reads (:mod:`ai.reach`) are tried: a brick elsewhere
never changes a run, so no minimum solution uses one.

>>> from game.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> BruteForceSolver().solve(level, mode=SolveMode.ALL).solutions
(((1, 2),),)
"""

from __future__ import annotations

import itertools
import threading
from typing import Iterator

import numpy as np

from ai.base import BrickSet, ProgressCallback, SolveMode, SolveResult, SolveStatus
from ai.reach import analyse
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
from game.batch import simulate_brick_sets
from game.level import Brick, Level


def _chunks(cells: tuple[Brick, ...], size: int, chunk: int) -> Iterator[list[tuple[Brick, ...]]]:
    """Every ``size``-subset of ``cells`` in lexicographic order, ``chunk`` at a time."""
    combos = itertools.combinations(cells, size)
    while True:
        block = list(itertools.islice(combos, chunk))
        if not block:
            return
        yield block


def _winners(level: Level, block: list[tuple[Brick, ...]]) -> list[BrickSet]:
    """The brick sets of ``block`` that win (batched simulation)."""
    masks = np.zeros((len(block), level.height, level.width), dtype=bool)
    for i, bricks in enumerate(block):
        for r, c in bricks:
            masks[i, r, c] = True
    won = simulate_brick_sets(level, masks, check=False).won
    return [tuple(sorted(block[i])) for i in np.flatnonzero(won)]


class BruteForceSolver:
    """Exact solver by enumeration of brick subsets in order of size (``chunk`` per batch)."""

    name = "brute"
    exact = True

    def __init__(self, *, chunk: int = 2048) -> None:
        self.chunk = chunk

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
        cells = info.read_cells
        tried = 0
        try:
            for size in range(min(level.budget, len(cells)) + 1):
                found: list[BrickSet] = []
                for block in _chunks(cells, size, self.chunk):
                    check(cancel, deadline)
                    tried += len(block)
                    found += _winners(level, block)
                    if found and mode != SolveMode.ALL:
                        break
                report(progress, self.name, deadline, f"{size} bricks: {len(found)} solutions",
                       best_bound=float(size + (0 if found else 1)), solutions_found=len(found))
                if found:
                    status = SolveStatus.FEASIBLE if mode == SolveMode.ANY else SolveStatus.OPTIMAL
                    return make_result(self.name, mode, status, deadline, solutions=found,
                                       complete=mode == SolveMode.ALL, nodes=tried, best_bound=float(size))
        except (Cancelled, OutOfTime):
            return make_result(self.name, mode, stopped_status(cancel), deadline, nodes=tried)
        return make_result(self.name, mode, SolveStatus.INFEASIBLE, deadline, complete=True, nodes=tried)
