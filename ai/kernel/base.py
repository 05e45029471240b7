"""The one solver interface and the one result type.

Every solver implements :class:`Solver` and returns a :class:`SolveResult`.  The
front door is :func:`ai.solvers.registry.solve`, which looks the solver up by name, runs it and
replays every returned solution with the reference simulator
(:func:`verify_result`): a wrong answer raises :class:`WrongSolutionError`, it is
never shown to a user.

Modes:

* ``min``: the fewest bricks within the budget, proved optimal;
* ``any``: the first solution within the budget;
* ``all``: every minimum-brick solution, with ``complete=True`` once proved exhaustive.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from ai.kernel.context import SolveContext, StopReason
from game.core.level import Brick, Level
from game.core.rules import check_bricks
from game.core.simulation import SimulationCancelled, simulate

BrickSet = tuple[Brick, ...]
"""A sorted tuple of brick positions."""


class SolveStatus(str, enum.Enum):
    """How a solve ended."""

    OPTIMAL = "optimal"        #: the returned bricks are proved minimal
    FEASIBLE = "feasible"      #: a winning brick set, optimality not proved
    INFEASIBLE = "infeasible"  #: proved: no brick set within the budget wins
    TIMEOUT = "timeout"        #: time limit reached without an answer of the above kinds
    CANCELLED = "cancelled"    #: the cancel event was set
    UNKNOWN = "unknown"        #: the method gave up (e.g. a heuristic found nothing)


class SolveMode(str, enum.Enum):
    """What a solve is asked for."""

    MIN = "min"
    ANY = "any"
    ALL = "all"


@dataclass(frozen=True)
class SolveStats:
    """Statistics of one solve."""

    seconds: float = 0.0
    variables: int = 0
    constraints: int = 0
    nodes: int = 0  #: search nodes, branches or conflicts, whatever the method counts
    best_bound: float | None = None  #: proved lower bound on the brick count
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RelaxedSolution:
    """A fractional answer (LP relaxation or gradient densities), for display.

    ``obstacles`` is ``(H, W)`` brick density on placeable cells; ``occupancy`` is the
    ``(N, H, W, 2)`` lemming mass it produces in the occupancy simulator.
    """

    obstacles: npt.NDArray[np.float64]
    occupancy: npt.NDArray[np.float64]
    objective: float


@dataclass(frozen=True)
class SolveResult:
    """The answer of any solver.

    ``bricks`` is the best brick set found (``None`` if none); ``solutions`` lists the
    solutions found (all minimum ones in mode ``all``); ``complete`` says whether
    that list is proved to hold every minimum solution.
    """

    status: SolveStatus
    solver: str
    mode: SolveMode
    bricks: BrickSet | None = None
    solutions: tuple[BrickSet, ...] = ()
    complete: bool = False
    stats: SolveStats = field(default_factory=SolveStats)
    message: str = ""
    relaxed: RelaxedSolution | None = None

    @property
    def solved(self) -> bool:
        """True when a winning brick set was found."""
        return self.bricks is not None

    @property
    def min_bricks(self) -> int | None:
        """The proved minimum brick count, when the status is ``optimal``."""
        if self.status == SolveStatus.OPTIMAL and self.bricks is not None:
            return len(self.bricks)
        return None

    @property
    def solution_count(self) -> int | None:
        """How many minimum solutions there are, when known: counted without listing them (a level split
        into independent parts: the product of the parts' counts) or the length of a complete list.

        >>> SolveResult(SolveStatus.OPTIMAL, "x", SolveMode.ALL, ((1, 1),), (((1, 1),),), True).solution_count
        1
        """
        counted = self.stats.extra.get("solution_count")
        if isinstance(counted, int) and self.stats.extra.get("solution_count_exact", True):
            return counted
        return len(self.solutions) if self.complete and self.mode == SolveMode.ALL else None

    def to_json(self) -> dict[str, Any]:
        """The JSON object printed by ``main.py solve --json`` (schema in the README, "JSON output").

        ``bricks`` is ``null`` when no winning set was found (``[]`` is the 0-brick solution);
        ``best_bound`` is ``null`` when none is known or it is infinite (proved infeasible);
        ``relaxed`` carries a fractional answer (``--lp``): its objective and the nonzero densities.

        >>> SolveResult(SolveStatus.TIMEOUT, "x", SolveMode.MIN).to_json()["bricks"] is None
        True
        """
        bound = self.stats.best_bound
        return {
            "status": self.status.value,
            "solver": self.solver,
            "mode": self.mode.value,
            "min_bricks": self.min_bricks,
            "bricks": [list(b) for b in self.bricks] if self.bricks is not None else None,
            "solutions": [[list(b) for b in s] for s in self.solutions],
            "complete": self.complete,
            "solution_count": self.solution_count,
            "best_bound": bound if bound is not None and np.isfinite(bound) else None,
            "seconds": round(self.stats.seconds, 6),
            "message": self.message,
            "relaxed": _relaxed_json(self.relaxed) if self.relaxed is not None else None,
        }

    def describe(self) -> str:
        """One line for the HUD or the terminal, e.g. ``optimal: 3 bricks, proved in 0.04 s``.

        Counts are pluralised ("1 brick", "2 bricks", "1 optimal solution"):

        >>> one = SolveStats(seconds=0.5)
        >>> SolveResult(SolveStatus.FEASIBLE, "x", SolveMode.ANY, bricks=((1, 2),), stats=one).describe()
        'feasible: 1 brick (not proved minimal), 0.50 s'
        >>> SolveResult(SolveStatus.FEASIBLE, "x", SolveMode.ANY, bricks=((1, 2), (3, 4)), stats=one).describe()
        'feasible: 2 bricks (not proved minimal), 0.50 s'
        >>> SolveResult(SolveStatus.OPTIMAL, "x", SolveMode.ALL, bricks=((1, 2),), solutions=(((1, 2),),),
        ...             complete=True, stats=one).describe()
        'optimal: 1 brick, proved in 0.50 s; 1 optimal solution (complete)'
        >>> SolveResult(SolveStatus.OPTIMAL, "x", SolveMode.ALL, bricks=(), solutions=((), ((0, 0),)),
        ...             stats=SolveStats(seconds=0.002)).describe()
        'optimal: 0 bricks, proved in 2.0 ms; 2 optimal solutions (maybe more)'
        >>> SolveResult(SolveStatus.OPTIMAL, "x", SolveMode.ALL, bricks=(), solutions=((), ((0, 0),)),
        ...             stats=SolveStats(seconds=1.5, extra={"solution_count": 3200})).describe()
        'optimal: 0 bricks, proved in 1.50 s; 3200 optimal solutions (counted; 2 listed)'
        """
        secs = f"{self.stats.seconds:.2f} s" if self.stats.seconds >= 0.01 else f"{self.stats.seconds * 1000:.1f} ms"
        if self.status == SolveStatus.OPTIMAL and self.bricks is not None:
            text = f"optimal: {_count(len(self.bricks), 'brick')}, proved in {secs}"
            if self.mode == SolveMode.ALL:
                counted = self.solution_count
                if counted is not None and counted > len(self.solutions):
                    text += f"; {_count(counted, 'optimal solution')} (counted; {len(self.solutions)} listed)"
                else:
                    text += f"; {_count(len(self.solutions), 'optimal solution')}"
                    text += " (complete)" if self.complete else " (maybe more)"
            return text
        if self.status == SolveStatus.FEASIBLE and self.bricks is not None:
            return f"feasible: {_count(len(self.bricks), 'brick')} (not proved minimal), {secs}"
        if self.status == SolveStatus.INFEASIBLE:
            return f"infeasible: proved no solution within the budget, in {secs}"
        return f"{self.status.value}: {self.message or 'no solution found'} ({secs})"


def _count(n: int, noun: str) -> str:
    """``n`` and ``noun``, pluralised: ``1 brick``, ``0 bricks``, ``2 bricks``.

    >>> _count(1, "brick"), _count(0, "brick"), _count(3, "optimal solution")
    ('1 brick', '0 bricks', '3 optimal solutions')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _relaxed_json(relaxed: RelaxedSolution) -> dict[str, Any]:
    """The ``relaxed`` object of :meth:`SolveResult.to_json`: objective and nonzero densities."""
    cells = np.argwhere(relaxed.obstacles > 1e-6)
    return {
        "objective": round(float(relaxed.objective), 6),
        "densities": [{"cell": [int(r), int(c)], "density": round(float(relaxed.obstacles[r, c]), 6)}
                      for r, c in cells],
    }


@runtime_checkable
class Solver(Protocol):
    """What every solver provides: a name, whether it is exact, and :meth:`solve_in`.

    ``solve_in`` must honour ``ctx``: return status ``cancelled`` within 100 ms of a cancel request,
    ``timeout`` by the deadline, and report progress through ``ctx.report`` (from the solving thread).
    """

    name: str
    #: True for solvers that prove optimality and infeasibility.
    exact: bool

    def solve_in(self, level: Level, mode: SolveMode, ctx: SolveContext) -> SolveResult:
        """Solve ``level`` in ``mode`` under ``ctx`` (its deadline, cancel request and progress sink)."""
        ...


class WrongSolutionError(AssertionError):
    """A solver returned a brick set that the reference simulator does not confirm: a bug."""


#: Seconds the replay may go on after the solve's context stopped (the contract allows a limit + 0.3 s).
REPLAY_GRACE = 0.2


def verify_result(level: Level, result: SolveResult, ctx: SolveContext | None = None) -> SolveResult:
    """Replay every solution with the reference simulator; raise if any is wrong.

    Checks: each set is legal within the budget and wins; ``bricks`` is among the
    solutions; solutions are distinct; in ``min``/``all`` with status ``optimal``
    all solutions have the same size; ``infeasible`` comes with no solution.

    ``ctx`` (the solve's context): the replay goes on at most :data:`REPLAY_GRACE` s after it stops;
    the sets not replayed by then are dropped (never shown unchecked) and the list is marked incomplete.
    ``bricks`` is replayed first; if even it cannot be, the result says ``timeout``/``cancelled``.
    """
    sets = list(result.solutions)
    if result.bricks is not None and result.bricks not in sets:
        sets.append(result.bricks)
    if len(set(sets)) != len(sets):
        raise WrongSolutionError(f"{result.solver}: duplicate solutions returned")
    if result.bricks is not None:  # the answer first
        sets.remove(result.bricks)
        sets.insert(0, result.bricks)
    if result.status == SolveStatus.INFEASIBLE and sets:
        raise WrongSolutionError(f"{result.solver}: infeasible but returned solutions")
    if result.status == SolveStatus.OPTIMAL and result.mode in (SolveMode.MIN, SolveMode.ALL):
        if result.bricks is None:
            raise WrongSolutionError(f"{result.solver}: optimal without bricks")
        if any(len(s) != len(result.bricks) for s in sets):
            raise WrongSolutionError(f"{result.solver}: optimal solutions of different sizes")
    if result.status in (SolveStatus.OPTIMAL, SolveStatus.FEASIBLE) and result.bricks is None:
        raise WrongSolutionError(f"{result.solver}: status {result.status.value} without bricks")
    stop = _replay_stop(ctx)
    replayed = 0
    for bricks in sets:
        if stop():
            break
        try:
            placed = check_bricks(level, bricks)
        except Exception as exc:  # an illegal set is a solver bug
            raise WrongSolutionError(f"{result.solver}: illegal brick set {bricks}: {exc}") from exc
        if placed != tuple(bricks):
            raise WrongSolutionError(f"{result.solver}: brick set {bricks} is not sorted")
        try:
            won = simulate(level, placed, should_stop=stop).won
        except SimulationCancelled:
            break
        if not won:
            raise WrongSolutionError(
                f"{result.solver}: brick set {bricks} does not win in the reference simulator"
            )
        replayed += 1
    if replayed == len(sets):
        return result
    if replayed == 0 and ctx is not None:  # not even the answer could be replayed in time: not shown
        status = SolveStatus.CANCELLED if ctx.stop_reason() is StopReason.CANCELLED else SolveStatus.TIMEOUT
        note = f"a {result.status.value} answer was found but its replay did not finish in time"
        return replace(result, status=status, bricks=None, solutions=(), complete=False, message=note)
    kept = set(sets[:replayed])
    note = f"stopped while replaying: {replayed} of {len(sets)} solutions listed"
    return replace(result, solutions=tuple(s for s in result.solutions if s in kept), complete=False,
                   message=f"{result.message}; {note}" if result.message else note)


def _replay_stop(ctx: SolveContext | None) -> Callable[[], bool]:
    """True once :data:`REPLAY_GRACE` s have passed since ``ctx`` was first seen stopped."""
    if ctx is None:
        return lambda: False
    grace_end: list[float] = []

    def stop() -> bool:
        if not ctx.should_stop():
            return False
        if not grace_end:
            grace_end.append(ctx.clock() + REPLAY_GRACE)
        return ctx.clock() >= grace_end[0]

    return stop


def with_seconds(result: SolveResult, seconds: float) -> SolveResult:
    """A copy of ``result`` with ``stats.seconds`` set."""
    return replace(result, stats=replace(result.stats, seconds=seconds))


__all__ = [
    "REPLAY_GRACE", "BrickSet", "RelaxedSolution", "SolveMode", "SolveResult",
    "SolveStats", "SolveStatus", "Solver", "WrongSolutionError", "verify_result", "with_seconds",
]
