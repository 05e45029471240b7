"""The exact and gradient solvers by name, without the learned solver (which runs one of these inside).

>>> list(BASE_SOLVERS)
['auto', 'cpsat', 'milp', 'search', 'brute', 'gradient']
"""

from __future__ import annotations

from typing import Callable, Mapping

from ai.kernel.base import Solver
from ai.solvers.brute import BruteForceSolver
from ai.solvers.cpsat import CpSatSolver
from ai.solvers.gradient import GradientSolver
from ai.solvers.milp.solver import MilpSolver
from ai.solvers.portfolio import PortfolioSolver
from ai.solvers.search import SearchSolver

#: A solver's factory: keyword options -> a :class:`Solver`.
SolverFactory = Callable[..., Solver]

#: name -> factory, in menu order.
BASE_SOLVERS: Mapping[str, SolverFactory] = {
    "auto": PortfolioSolver,
    "cpsat": CpSatSolver,
    "milp": MilpSolver,
    "search": SearchSolver,
    "brute": BruteForceSolver,
    "gradient": GradientSolver,
}


def build_base_solver(name: str, **options: object) -> Solver:
    """The solver ``name`` of :data:`BASE_SOLVERS` (ValueError naming the choices if unknown)."""
    if name not in BASE_SOLVERS:
        raise ValueError(f"unknown solver {name!r}; choose from {', '.join(BASE_SOLVERS)}")
    return BASE_SOLVERS[name](**options)


__all__ = ["BASE_SOLVERS", "SolverFactory", "build_base_solver"]
