"""The AI assistant: solvers behind one interface, hints, rule learning.

>>> from game.core.level import Level
>>> level = Level.load("levels/007_the_original.txt")      # doctest: +SKIP
>>> solve(level, solver="auto", mode="all").describe()     # doctest: +SKIP
'optimal: 3 bricks, proved in 0.05 s; 6 optimal solutions (complete)'

Imports ``game`` core only, never pygame.
"""

from __future__ import annotations

import importlib
import importlib.util
import threading
from typing import TYPE_CHECKING

from ai.kernel.base import (
    Progress,
    ProgressCallback,
    SolveMode,
    SolveResult,
    SolveStatus,
    Solver,
    WrongSolutionError,
    verify_result,
    with_seconds,
)
from game.core.level import Level

if TYPE_CHECKING:
    from ai.kernel.context import SolveContext

#: Solver name -> "module:factory".  Factories take keyword options and return a :class:`Solver`.
SOLVER_REGISTRY: dict[str, str] = {
    "auto": "ai.solvers.portfolio:PortfolioSolver",
    "cpsat": "ai.solvers.cpsat:CpSatSolver",
    "milp": "ai.solvers.milp.solver:MilpSolver",
    "search": "ai.solvers.search:SearchSolver",
    "brute": "ai.solvers.brute:BruteForceSolver",
    "gradient": "ai.solvers.gradient:GradientSolver",
    "learned": "ai.solvers.learned:learned_solver",
}


def available_solvers() -> list[str]:
    """Names of the solvers whose modules are present."""
    names = []
    for name, target in SOLVER_REGISTRY.items():
        module = target.split(":")[0]
        if importlib.util.find_spec(module) is not None:
            names.append(name)
    return names


def get_solver(name: str, **options: object) -> Solver:
    """Build the solver called ``name`` with its options."""
    if name not in SOLVER_REGISTRY:
        raise ValueError(f"unknown solver {name!r}; choose from {', '.join(SOLVER_REGISTRY)}")
    module_name, factory = SOLVER_REGISTRY[name].split(":")
    module = importlib.import_module(module_name)
    solver: Solver = getattr(module, factory)(**options)
    return solver


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

    ``context``: the caller's :class:`ai.kernel.context.SolveContext` (e.g. a hint's, a rating's); the solver
    then runs under a child of it (the earlier deadline, its cancel events and ``cancel``, its progress
    sink) and shares its work (the reachability analysis of ``level``).  Without one, ``time_limit``,
    ``progress`` and ``cancel`` make the context: they are for entry points (commands, worker jobs).

    Raises :class:`WrongSolutionError` if the solver's answer does not win in the
    reference simulator.
    """
    from ai.kernel.context import SolveContext
    from ai.solvers.base import solve_under

    impl = get_solver(solver, **options) if isinstance(solver, str) else solver
    name = getattr(impl, "name", "")
    if context is not None:
        ctx = context.child(time_limit=time_limit, cancel=cancel, solver=name)
    else:  # an entry point: the limit and the event become the one context
        ctx = SolveContext.create(time_limit=time_limit, cancel=cancel, progress=progress, solver=name)
    result = solve_under(impl, level, SolveMode(mode), ctx)
    if result.stats.seconds == 0.0:
        result = with_seconds(result, ctx.elapsed())
    return verify_result(level, result, ctx)


__all__ = [
    "Progress",
    "ProgressCallback",
    "SOLVER_REGISTRY",
    "SolveMode",
    "SolveResult",
    "SolveStatus",
    "Solver",
    "WrongSolutionError",
    "available_solvers",
    "get_solver",
    "solve",
    "verify_result",
]
