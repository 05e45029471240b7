"""The heavy third-party libraries of the AI, declared here once and each loaded the first time it is used.

OR-Tools (with pandas under it), SciPy and scikit-learn take from 0.2 to 2.5 s each to import, and most
runs need few of them or none: the game's window opens, a level is checked or a quick hint is shown without
any.  Every module of the AI names them by importing them from here, at its top; a name stands for its
module and loads it on its first attribute (the scientific-Python convention for lazy loading, SPEC 1).
Type checkers see the real modules.

>>> import sys
>>> from ai.kernel.libraries import scipy_sparse
>>> scipy_sparse.csr_matrix.__name__
'csr_matrix'
>>> "scipy.sparse" in sys.modules
True
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any


class LazyModule:
    """A module by name, imported on first attribute access (then behaving as the module)."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attribute: str) -> Any:
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attribute)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}{'' if self._module is None else ' (loaded)'}>"


if TYPE_CHECKING:
    import scipy.optimize as scipy_optimize
    import scipy.sparse as scipy_sparse
    import sklearn.exceptions as sklearn_exceptions
    import sklearn.linear_model as sklearn_linear_model
    import sklearn.neural_network as sklearn_neural_network
    import sklearn.tree as sklearn_tree
    from ortools.linear_solver import pywraplp as pywraplp  # type: ignore[attr-defined, unused-ignore]
    from ortools.linear_solver.python import model_builder as model_builder
    from ortools.sat.python import cp_model as cp_model
else:
    cp_model = LazyModule("ortools.sat.python.cp_model")
    pywraplp = LazyModule("ortools.linear_solver.pywraplp")
    model_builder = LazyModule("ortools.linear_solver.python.model_builder")
    scipy_sparse = LazyModule("scipy.sparse")
    scipy_optimize = LazyModule("scipy.optimize")
    sklearn_tree = LazyModule("sklearn.tree")
    sklearn_exceptions = LazyModule("sklearn.exceptions")
    sklearn_linear_model = LazyModule("sklearn.linear_model")
    sklearn_neural_network = LazyModule("sklearn.neural_network")

#: What the job runner loads before it forks its first child, so that every child inherits it loaded.
PRELOAD: tuple[Any, ...] = (cp_model, scipy_sparse)


def load(*modules: Any) -> None:
    """Load the given lazy modules now (e.g. before forking children, which then inherit them)."""
    for module in modules:
        getattr(module, "__name__", None)


__all__ = ["LazyModule", "PRELOAD", "cp_model", "load", "model_builder", "pywraplp", "scipy_optimize",
           "scipy_sparse", "sklearn_exceptions", "sklearn_linear_model", "sklearn_neural_network", "sklearn_tree"]
