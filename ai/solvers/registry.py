"""The solvers by name: one typed registry, and :func:`solve`, the one way a named solver is run.

Every solution :func:`solve` returns has been replayed by the reference simulator
(:func:`ai.kernel.base.verify_result`).  The learned solver is registered here too; it runs its inner
solver through :data:`BASE_SOLVERS`, which it imports, so it cannot be one of them.

>>> sorted(SOLVERS)
['auto', 'brute', 'cpsat', 'gradient', 'learned', 'milp', 'search']
>>> get_solver("search").name
'search'
"""

from __future__ import annotations

import threading
from typing import Callable, Mapping

from ai.kernel.base import ProgressCallback, SolveMode, SolveResult, Solver, verify_result, with_seconds
from ai.kernel.context import SolveContext
from ai.solvers.base import solve_under
from ai.solvers.base_registry import BASE_SOLVERS, SolverFactory
from ai.solvers.learned import learned_solver
from game.core.level import Level

#: Every solver the game offers: name -> factory (keyword options -> :class:`Solver`), in menu order.
SOLVERS: Mapping[str, SolverFactory] = {**BASE_SOLVERS, "learned": learned_solver}


def available_solvers() -> list[str]:
    """Names of the solvers, in menu order."""
    return list(SOLVERS)


def get_solver(name: str, **options: object) -> Solver:
    """Build the solver called ``name`` with its options (ValueError naming the choices if unknown)."""
    if name not in SOLVERS:
        raise ValueError(f"unknown solver {name!r}; choose from {', '.join(SOLVERS)}")
    return SOLVERS[name](**options)


def solve(
    level: Level,
    *,
    solver: str | Solver = "auto",
    mode: SolveMode | str = SolveMode.MIN,
    time_limit: float | None = None,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
    context: SolveContext | None = None,
    **options: object,
) -> SolveResult:
    """Solve ``level`` with the named solver and replay-check every solution it returns.

    ``context``: the caller's :class:`ai.kernel.context.SolveContext`; the solver runs under a child of it
    (the earlier deadline, its cancel events and ``cancel``, its progress sink) and shares its work.
    Without one, ``time_limit``, ``progress`` and ``cancel`` make the context: they are for entry points.

    Raises :class:`ai.kernel.base.WrongSolutionError` if an answer does not win in the reference simulator.
    """
    impl = get_solver(solver, **options) if isinstance(solver, str) else solver
    name = getattr(impl, "name", "")
    if context is not None:
        ctx = context.child(time_limit=time_limit, cancel=cancel, solver=name)
    else:
        ctx = SolveContext.create(time_limit=time_limit, cancel=cancel, progress=progress, solver=name)
    result = solve_under(impl, level, SolveMode(mode), ctx)
    if result.stats.seconds == 0.0:
        result = with_seconds(result, ctx.elapsed())
    return verify_result(level, result, ctx)


__all__ = ["SOLVERS", "available_solvers", "get_solver", "solve"]
