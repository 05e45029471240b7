"""Small helpers shared by the exact solvers: deadlines, cancellation, result building.

>>> d = Deadline(None)
>>> d.remaining() is None, d.expired()
(True, False)
>>> canonical([[(2, 1), (0, 3)], [(0, 3), (2, 1)], [(1, 1)]])
(((0, 3), (2, 1)), ((1, 1),))
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any, Iterable

from ai.base import (
    BrickSet,
    Progress,
    ProgressCallback,
    SolveMode,
    SolveResult,
    SolveStats,
    SolveStatus,
)
from game.level import Brick


class Cancelled(Exception):
    """Raised inside a solver loop when the cancel event is set."""


class OutOfTime(Exception):
    """Raised inside a solver loop when the time limit is reached."""


@dataclass
class Deadline:
    """A time limit measured from creation (``None`` = no limit)."""

    limit: float | None
    start: float = field(default_factory=time.perf_counter)

    def elapsed(self) -> float:
        """Seconds since the start."""
        return time.perf_counter() - self.start

    def remaining(self) -> float | None:
        """Seconds left (never negative), or ``None`` without a limit."""
        if self.limit is None:
            return None
        return max(0.0, self.limit - self.elapsed())

    def expired(self) -> bool:
        """True once the limit has passed."""
        return self.limit is not None and self.elapsed() >= self.limit


def is_set(cancel: threading.Event | None) -> bool:
    """True when ``cancel`` exists and is set."""
    return cancel is not None and cancel.is_set()


def check(cancel: threading.Event | None, deadline: Deadline) -> None:
    """Raise :class:`Cancelled` or :class:`OutOfTime` when a loop must stop."""
    if is_set(cancel):
        raise Cancelled
    if deadline.expired():
        raise OutOfTime


def canonical(sets: Iterable[Iterable[Brick]]) -> tuple[BrickSet, ...]:
    """Distinct brick sets, each sorted, the list sorted."""
    return tuple(sorted({tuple(sorted((int(r), int(c)) for r, c in s)) for s in sets}))


def report(
    progress: ProgressCallback | None,
    solver: str,
    deadline: Deadline,
    message: str,
    **fields: Any,
) -> None:
    """Send a :class:`Progress` update when a callback is given."""
    if progress is not None:
        progress(Progress(solver=solver, elapsed=deadline.elapsed(), message=message, **fields))


def stopped_status(cancel: threading.Event | None) -> SolveStatus:
    """``cancelled`` when the event is set, else ``timeout``."""
    return SolveStatus.CANCELLED if is_set(cancel) else SolveStatus.TIMEOUT


def make_result(
    solver: str,
    mode: SolveMode,
    status: SolveStatus,
    deadline: Deadline,
    *,
    solutions: Iterable[Iterable[Brick]] = (),
    complete: bool = False,
    message: str = "",
    **stats: Any,
) -> SolveResult:
    """Build a :class:`SolveResult`; ``bricks`` is the first of the sorted solutions."""
    sols = canonical(solutions)
    if mode != SolveMode.ALL:
        sols = sols[:1]
    bricks = sols[0] if sols else None
    if status in (SolveStatus.TIMEOUT, SolveStatus.UNKNOWN) and bricks is not None:
        status = SolveStatus.FEASIBLE
    extra = stats.pop("extra", {})
    return SolveResult(
        status=status,
        solver=solver,
        mode=mode,
        bricks=bricks,
        solutions=sols,
        complete=complete,
        stats=SolveStats(seconds=deadline.elapsed(), extra=extra, **stats),
        message=message,
    )


def infeasible_by_reachability(solver: str, mode: SolveMode, deadline: Deadline) -> SolveResult:
    """The result when the reachability analysis alone proves infeasibility."""
    return make_result(
        solver, mode, SolveStatus.INFEASIBLE, deadline, complete=True,
        message="some lemming cannot reach a target in time, whatever the bricks",
        best_bound=float("inf"),
    )
