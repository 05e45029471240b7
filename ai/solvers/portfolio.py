"""The ``auto`` solver: races the exact search against CP-SAT.

The search (:mod:`ai.solvers.search`) is the fastest exact solver on nearly every level we
have measured, pack and large suite alike (see ``bench/results.md``), but its running
time grows as (cells read)^bricks, so it has no guarantee.  ``auto`` therefore starts
the search at once in a worker thread and, if it has not answered after ``probe``
seconds, starts CP-SAT in a second thread (CP-SAT releases the GIL while it solves);
the first final answer wins and the other solver is cancelled.  On small levels
the search first runs inline for the probe time, which avoids the thread overhead
(a sizeable fraction of a millisecond-long solve).  On levels the search
solves within the probe time, ``auto`` costs the search time plus thread overhead.

>>> from game.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> PortfolioSolver().solve(level).bricks
((1, 2),)
"""

from __future__ import annotations

import atexit
import queue
import threading
import weakref
from dataclasses import replace

from ai.base import ProgressCallback, SolveMode, SolveResult, SolveStatus, Solver
from ai.solvers.cpsat import CpSatSolver
from ai.reach import ReachInfo, analyse
from ai.solvers.search import SearchSolver
from ai.solver_util import Deadline, infeasible_by_reachability, make_result
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
    """Exact portfolio: the search first, CP-SAT too after ``probe`` seconds.

    Small levels (``H·W·N·lemmings ≤ small``) first get ``probe`` seconds of search
    inline, with no thread overhead.

    ``race=False`` runs the search alone (when it looks fast) or CP-SAT alone.
    """

    name = "auto"
    exact = True

    def __init__(self, *, race: bool = True, probe: float = 0.4, small: int = 50_000,
                 max_search_cells: int = 90) -> None:
        self.race = race
        self.probe = probe
        self.small = small
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
        if self.race:
            if level.height * level.width * level.frames * len(level.lemmings) <= self.small:
                quick = SearchSolver().solve(level, mode=mode, time_limit=self.probe, progress=progress,
                                             cancel=cancel)
                if _is_final(quick, mode) or is_cancelled(cancel):
                    return self._relabel(quick, "search", deadline)
            return self._race(level, mode, deadline, progress, cancel)
        info = analyse(level)
        if not info.feasible:
            return infeasible_by_reachability(self.name, mode, deadline)
        use_search = search_looks_fast(level, info, max_cells=self.max_search_cells)
        solver: Solver = SearchSolver() if use_search else CpSatSolver()
        result = solver.solve(level, mode=mode, time_limit=time_limit, progress=progress, cancel=cancel)
        return self._relabel(result, solver.name, deadline)

    def _relabel(self, result: SolveResult, used: str, deadline: Deadline) -> SolveResult:
        """The result under the name ``auto``, noting which solver produced it."""
        stats = replace(result.stats, seconds=deadline.elapsed(), extra={**result.stats.extra, "used": used})
        return replace(result, solver=self.name, stats=stats)

    def _race(self, level: Level, mode: SolveMode, deadline: Deadline, progress: ProgressCallback | None,
              cancel: threading.Event | None) -> SolveResult:
        """The search now, CP-SAT after the probe time; the first final answer wins."""
        stop = threading.Event()
        answers: queue.Queue[tuple[str, SolveResult]] = queue.Queue()

        def run(name: str, solver: Solver) -> None:
            try:
                result = solver.solve(level, mode=mode, time_limit=deadline.remaining(), progress=progress,
                                      cancel=stop)
            except Exception as exc:  # a crash of one racer must not hang the race
                result = make_result(name, mode, SolveStatus.UNKNOWN, deadline, message=f"{name} failed: {exc}")
            answers.put((name, result))

        def start(name: str, solver: Solver) -> None:
            thread = threading.Thread(target=run, args=(name, solver), name=f"auto-{name}", daemon=True)
            _RACERS.add(thread)
            thread.start()

        start("search", SearchSolver())
        running, results = 1, []
        cpsat_started = False
        while running and not is_cancelled(cancel):
            try:
                name, result = answers.get(timeout=0.01)
            except queue.Empty:
                if not cpsat_started and deadline.elapsed() >= self.probe:
                    start("cpsat", CpSatSolver())
                    cpsat_started, running = True, running + 1
                continue
            running -= 1
            results.append((name, result))
            if _is_final(result, mode):
                stop.set()
                return self._relabel(result, name, deadline)
            if not cpsat_started:
                start("cpsat", CpSatSolver())
                cpsat_started, running = True, running + 1
        stop.set()  # cancelled (the racers stop on their own) or both finished without a final answer
        while True:
            try:
                results.append(answers.get_nowait())
            except queue.Empty:
                break
        if not results:
            return make_result(self.name, mode, SolveStatus.CANCELLED, deadline, extra={"used": "none"})
        name, best = max(results, key=lambda nr: (nr[1].solved, len(nr[1].solutions)))
        if is_cancelled(cancel) and not _is_final(best, mode):
            best = replace(best, status=SolveStatus.CANCELLED if not best.solved else best.status)
        return self._relabel(best, name, deadline)


_RACERS: "weakref.WeakSet[threading.Thread]" = weakref.WeakSet()
"""Racer threads that may still be running after their race returned (their stop event is set)."""


@atexit.register
def _join_racers(timeout: float = 2.0) -> None:
    """Let losing racers finish stopping before the interpreter exits.

    A losing CP-SAT racer is told to stop when the race ends but may still be inside
    the C++ solver for a few milliseconds; killing a daemon thread there at exit aborts
    the process ("terminate called without an active exception").  Joining at exit
    keeps that wait off the solve's own latency.
    """
    for thread in list(_RACERS):
        thread.join(timeout)


def is_cancelled(cancel: threading.Event | None) -> bool:
    """True when the caller's cancel event is set."""
    return cancel is not None and cancel.is_set()
