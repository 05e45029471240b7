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


def build_solver(solvers: Mapping[str, SolverFactory], name: str, **options: object) -> Solver:
    """The solver ``name`` of ``solvers`` with its options (ValueError naming the choices if unknown)."""
    if name not in solvers:
        raise ValueError(f"unknown solver {name!r}; choose from {', '.join(solvers)}")
    return solvers[name](**options)


__all__ = ["BASE_SOLVERS", "SolverFactory", "build_solver"]
