"""Compatibility shim for code not yet moved onto :class:`ai.solvers.base.SolverBase`.

The solvers now get a :class:`ai.context.SolveContext` and let the solver base build their
results.  What is left here is only what code outside the moved solvers still imports (the
portfolio and the hints, which are being moved too): delete each name once nothing imports it.

>>> d = Deadline(None)
>>> d.remaining() is None, d.expired()
(True, False)
"""

from __future__ import annotations

import time
from typing import Any, Iterable

from ai.base import SolveMode, SolveResult, SolveStats, SolveStatus
from ai.context import SolveContext
from ai.solvers.base import canonical
from game.level import Brick


class Deadline(SolveContext):
    """A solve context with only a time limit measured from creation (``None`` = no limit).

    Old spelling of ``SolveContext.create(time_limit=limit)``; accepted wherever a context is.
    """

    def __init__(self, limit: float | None) -> None:
        start = time.perf_counter()
        super().__init__(start, None if limit is None else start + max(0.0, limit))

    @property
    def limit(self) -> float | None:
        """The time limit in seconds."""
        return None if self.deadline is None else self.deadline - self.start

    def expired(self) -> bool:
        """True once the limit has passed."""
        return self.deadline is not None and time.perf_counter() >= self.deadline


def make_result(
    solver: str,
    mode: SolveMode,
    status: SolveStatus,
    deadline: SolveContext,
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


def infeasible_by_reachability(solver: str, mode: SolveMode, deadline: SolveContext) -> SolveResult:
    """The result when the reachability analysis alone proves infeasibility."""
    return make_result(
        solver, mode, SolveStatus.INFEASIBLE, deadline, complete=True,
        message="some lemming cannot reach a target in time, whatever the bricks",
        best_bound=float("inf"),
    )
