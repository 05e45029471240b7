"""The ``auto`` solver: decomposes, then races the exact search against CP-SAT (and MILP on long races).

1. **Decomposition** (:mod:`ai.solvers.decompose`): when the lemmings split into groups no brick couples,
   each part is solved by ``auto`` on its own and the answers combine (optimum = sum, sets = product),
   after a short whole-level search (cheaper than the parts' overhead on small levels).
2. **Small levels** get ``probe`` seconds of search inline (no thread overhead).
3. **The race**: the search (:mod:`ai.solvers.search`, the fastest exact solver on nearly every level we
   measured) starts at once; CP-SAT joins after ``probe`` seconds, MILP after ``milp_after`` seconds on
   levels with several lemmings (the LP bound proves large optima where the others branch for long).
   The first final answer wins; the others are cancelled.

Every racer runs under a child of the solve's :class:`~ai.kernel.context.SolveContext`
(``ctx.child(cancel=stop)``), so all of them share one reachability analysis, and the race loop itself
checks the deadline and the caller's cancel every 10 ms.

>>> from game.core.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> PortfolioSolver().solve_in(level, SolveMode.MIN, SolveContext.create()).bricks
((1, 2),)
"""

from __future__ import annotations

import atexit
import queue
import threading
import weakref
from dataclasses import dataclass
from typing import Callable

from ai.kernel.base import SolveMode, SolveResult, SolveStatus, Solver
from ai.kernel.context import SolveContext
from ai.solvers.cpsat import CpSatSolver
from ai.solvers.milp.solver import MilpSolver
from ai.solvers.reach import MAX_COORDS, ReachInfo, reach_for
from ai.solvers.search import SearchSolver, search_fits
from ai.solvers.base import Outcome, Partial, SolverBase
from ai.solvers.decompose import DecomposeSolver, may_split, split
from game.core.level import Level

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


def _search() -> Solver:
    return SearchSolver()


def _cpsat() -> Solver:
    return CpSatSolver()


def _milp() -> Solver:
    return MilpSolver()


@dataclass(frozen=True)
class Racer:
    """A solver of the race and when it joins (seconds after the race starts)."""

    name: str
    make: Callable[[], Solver]
    joins_at: float


class PortfolioSolver(SolverBase):
    """Exact portfolio: decomposition, then the search first, CP-SAT after ``probe`` s, MILP later.

    ``race=False`` runs the search alone (when it looks fast) or CP-SAT alone; ``milp_after=None`` never
    races MILP; ``decompose=False`` solves the level whole; a level that splits first gets ``split_probe``
    seconds of whole-level search; in mode ``all`` a split level lists at most ``max_listed`` of its
    optimal sets (their number is always counted).
    """

    name = "auto"
    exact = True

    def __init__(self, *, race: bool = True, probe: float = 1.0, small: int = 50_000,
                 max_search_cells: int = 90, decompose: bool = True, milp_after: float | None = 2.0,
                 split_probe: float = 0.25, max_listed: int = 1000) -> None:
        self.race = race
        self.probe = probe
        self.small = small
        self.max_search_cells = max_search_cells
        self.decompose = decompose
        self.milp_after = milp_after
        self.split_probe = split_probe
        self.max_listed = max_listed

    def core(self, level: Level, mode: SolveMode, ctx: SolveContext, partial: Partial) -> Outcome:
        """Decompose when the level splits, else the inline probe and the race."""
        if self.decompose and len(level.lemmings) > 1 and may_split(level, ctx):
            if self.race and self.split_probe > 0 and search_fits(level) and self._small(level):
                # a short whole-level search first: on small multi-part levels it beats the parts' overhead
                quick = _search().solve_in(level, mode, ctx.child(time_limit=self.split_probe, solver="search"))
                if _is_final(quick, mode):
                    return _outcome(quick, "search")
                ctx.check()
            parts = split(level, ctx)
            if len(parts) > 1:
                outcome = DecomposeSolver(inner=self._whole, max_solutions=self.max_listed).combine(level, mode, ctx, partial, parts)
                outcome.extra["used"] = "decompose"
                return outcome
        info = reach_for(level, ctx)
        if info.state_bound > MAX_COORDS and info.count_live_states(ctx) > MAX_COORDS:
            return Outcome(SolveStatus.UNKNOWN, message=f"{info.live_state_count:,} live lemming states: too large "
                                                        "for the exact solvers (a smaller N or map helps)")
        if not self.race:
            fast = search_fits(level) and search_looks_fast(level, info, max_cells=self.max_search_cells)
            name, make = ("search", _search) if fast else ("cpsat", _cpsat)
            return _outcome(make().solve_in(level, mode, ctx.child(solver=name)), name)
        if search_fits(level) and (self._small(level) or info.state_bound <= self.small // 2):
            quick = _search().solve_in(level, mode, ctx.child(time_limit=self.probe, solver="search"))
            if _is_final(quick, mode):
                return _outcome(quick, "search")
            ctx.check()
        return self._race(level, mode, ctx, partial)

    def _small(self, level: Level) -> bool:
        """Small enough for an inline search probe: cells x frames x lemmings at most :attr:`small`."""
        return level.height * level.width * level.frames * len(level.lemmings) <= self.small

    def _whole(self) -> Solver:
        """``auto`` without decomposition, for the parts of a decomposed level."""
        return PortfolioSolver(race=self.race, probe=self.probe, small=self.small,
                               max_search_cells=self.max_search_cells, decompose=False,
                               milp_after=self.milp_after)

    def racers(self, level: Level) -> list[Racer]:
        """Who races on ``level``, and when each joins."""
        out = [Racer("search", _search, 0.0)] if search_fits(level) else []
        out.append(Racer("cpsat", _cpsat, self.probe if out else 0.0))
        if self.milp_after is not None and len(level.lemmings) > 1:
            out.append(Racer("milp", _milp, max(self.milp_after, self.probe)))
        return out

    def _race(self, level: Level, mode: SolveMode, ctx: SolveContext, partial: Partial) -> Outcome:
        """Start the racers on time; the first final answer wins; stop on the deadline or cancel."""
        stop = threading.Event()
        answers: queue.Queue[tuple[str, SolveResult]] = queue.Queue()
        waiting = self.racers(level)
        running = 0
        results: list[tuple[str, SolveResult]] = []

        def run(racer: Racer, racer_ctx: SolveContext) -> None:
            try:
                result = racer.make().solve_in(level, mode, racer_ctx)
            except Exception as exc:  # a crash of one racer must not hang the race
                result = SolveResult(SolveStatus.UNKNOWN, racer.name, mode, message=f"{racer.name} failed: {exc}")
            answers.put((racer.name, result))

        try:
            while True:
                while waiting and (waiting[0].joins_at <= ctx.elapsed() or running == 0):
                    racer = waiting.pop(0)
                    thread = threading.Thread(target=run, args=(racer, ctx.child(cancel=stop, solver=racer.name)),
                                              name=f"auto-{racer.name}", daemon=True)
                    _RACERS.add(thread)
                    thread.start()
                    running += 1
                if running == 0:
                    break
                ctx.check()
                try:
                    name, result = answers.get(timeout=0.01)
                except queue.Empty:
                    continue
                running -= 1
                results.append((name, result))
                for bricks in result.solutions:
                    partial.found(bricks)
                if result.stats.best_bound is not None and result.status != SolveStatus.INFEASIBLE:
                    partial.bound(result.stats.best_bound)
                if _is_final(result, mode):
                    return _outcome(result, name)
        finally:
            stop.set()
        name, best = max(results, key=lambda nr: (nr[1].solved, len(nr[1].solutions)))
        return _outcome(best, name)


def _outcome(result: SolveResult, used: str) -> Outcome:
    """A racer's result as the portfolio's outcome, noting which solver produced it."""
    solutions = list(result.solutions) or ([result.bricks] if result.bricks is not None else [])
    return Outcome(result.status, solutions=solutions, complete=result.complete,
                   best_bound=result.stats.best_bound, nodes=result.stats.nodes,
                   variables=result.stats.variables, constraints=result.stats.constraints,
                   message=result.message, relaxed=result.relaxed,
                   extra={**result.stats.extra, "used": used})


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


__all__ = ["PortfolioSolver", "Racer", "search_looks_fast"]
