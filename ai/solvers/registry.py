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

from typing import Mapping

from ai.kernel.base import SolveMode, SolveResult, Solver, verify_result, with_seconds
from ai.kernel.context import SolveContext
from ai.solvers.base_registry import BASE_SOLVERS, SolverFactory, build_solver
from ai.solvers.learned import learned_solver
from game.core.level import Level

#: Every solver the game offers: name -> factory (keyword options -> :class:`Solver`), in menu order.
SOLVERS: Mapping[str, SolverFactory] = {**BASE_SOLVERS, "learned": learned_solver}


def get_solver(name: str, **options: object) -> Solver:
    """Build the solver called ``name`` with its options (ValueError naming the choices if unknown)."""
    return build_solver(SOLVERS, name, **options)


def solve(
    level: Level,
    *,
    solver: str | Solver = "auto",
    mode: SolveMode | str = SolveMode.MIN,
    ctx: SolveContext | None = None,
    time_limit: float | None = None,
    **options: object,
) -> SolveResult:
    """Solve ``level`` with the named solver and replay-check every solution it returns.

    ``solver``: a name of :data:`SOLVERS` (built with ``options``) or any :class:`ai.kernel.base.Solver`.
    ``ctx``: the caller's :class:`ai.kernel.context.SolveContext` (its deadline, cancel request and progress
    sink; an entry point makes it from a limit and a cancel event); the solver runs under a child of it and
    shares its work.  None: no limit.  ``time_limit``: a budget of its own within ``ctx``'s, in seconds.

    Raises :class:`ai.kernel.base.WrongSolutionError` if an answer does not win in the reference simulator.
    """
    impl = get_solver(solver, **options) if isinstance(solver, str) else solver
    parent = ctx if ctx is not None else SolveContext.create()
    own = parent.child(time_limit=time_limit, solver=impl.name)
    result = impl.solve_in(level, SolveMode(mode), own)
    if result.stats.seconds == 0.0:
        result = with_seconds(result, own.elapsed())
    return verify_result(level, result, own)


__all__ = ["SOLVERS", "get_solver", "solve"]
