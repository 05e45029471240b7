"""The ``auto`` solver: picks or races the exact solvers per level.

* Levels where the search is expected to be quick (one lemming, few cells read, see
  :func:`search_looks_fast`) are **raced**: the search runs in this thread and CP-SAT
  in a worker thread (CP-SAT releases the GIL while it solves); the first exact answer
  wins and the other solver is cancelled.
* Other levels go to CP-SAT alone, the fastest exact solver on large and
  multi-lemming levels (see ``bench/results.md``).

>>> from game.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> PortfolioSolver().solve(level).bricks
((1, 2),)
"""

from __future__ import annotations

import queue
import threading
from dataclasses import replace

from ai.base import ProgressCallback, SolveMode, SolveResult, SolveStatus, Solver
from ai.cpsat import CpSatSolver
from ai.reach import ReachInfo, analyse
from ai.search import SearchSolver
from ai.solver_util import Deadline, infeasible_by_reachability
from game.level import Level

#: Statuses that end a race (an exact, final answer).
FINAL = {SolveStatus.OPTIMAL, SolveStatus.INFEASIBLE}


def search_looks_fast(level: Level, info: ReachInfo, *, max_cells: int = 90) -> bool:
    """Heuristic: the search is competitive when few cells are read by one lemming."""
    return len(level.lemmings) == 1 and len(info.read_cells) <= max_cells


def _is_final(result: SolveResult, mode: SolveMode) -> bool:
    """True for an answer that needs no other solver (complete list in mode ``all``)."""
    if result.status not in FINAL and not (mode == SolveMode.ANY and result.solved):
        return False
    return mode != SolveMode.ALL or result.complete or result.status == SolveStatus.INFEASIBLE


class PortfolioSolver:
    """Exact portfolio of CP-SAT and search (``race`` = False: pick one, never race)."""

    name = "auto"
    exact = True

    def __init__(self, *, race: bool = True, max_search_cells: int = 90) -> None:
        self.race = race
        self.max_search_cells = max_search_cells

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
        if not search_looks_fast(level, info, max_cells=self.max_search_cells):
            return self._relabel(CpSatSolver().solve(level, mode=mode, time_limit=time_limit,
                                                     progress=progress, cancel=cancel), "cpsat", deadline)
        if not self.race:
            return self._relabel(SearchSolver().solve(level, mode=mode, time_limit=time_limit,
                                                      progress=progress, cancel=cancel), "search", deadline)
        return self._race(level, mode, deadline, progress, cancel)

    def _relabel(self, result: SolveResult, used: str, deadline: Deadline) -> SolveResult:
        """The result under the name ``auto``, noting which solver produced it."""
        stats = replace(result.stats, seconds=deadline.elapsed(), extra={**result.stats.extra, "used": used})
        return replace(result, solver=self.name, stats=stats)

    def _race(self, level: Level, mode: SolveMode, deadline: Deadline, progress: ProgressCallback | None,
              cancel: threading.Event | None) -> SolveResult:
        """Search here, CP-SAT in a worker thread; the first final answer wins."""
        stop = threading.Event()
        answers: queue.Queue[tuple[str, SolveResult]] = queue.Queue()

        def watch_cancel() -> None:
            if cancel is not None:
                while not stop.is_set():
                    if cancel.wait(0.01):
                        stop.set()

        def run(name: str, solver: Solver) -> None:
            result = solver.solve(level, mode=mode, time_limit=deadline.remaining(), progress=progress, cancel=stop)
            answers.put((name, result))

        threading.Thread(target=watch_cancel, daemon=True).start()
        worker = threading.Thread(target=run, args=("cpsat", CpSatSolver()), daemon=True)
        worker.start()
        run("search", SearchSolver())
        results: list[tuple[str, SolveResult]] = []
        while len(results) < 2:
            name, result = answers.get()
            results.append((name, result))
            if _is_final(result, mode):
                stop.set()
                return self._relabel(result, name, deadline)
        stop.set()
        best = max(results, key=lambda nr: (nr[1].solved, len(nr[1].solutions)))
        if is_cancelled(cancel):
            best = (best[0], replace(best[1], status=SolveStatus.CANCELLED if not best[1].solved else best[1].status))
        return self._relabel(best[1], best[0], deadline)


def is_cancelled(cancel: threading.Event | None) -> bool:
    """True when the caller's cancel event is set."""
    return cancel is not None and cancel.is_set()
