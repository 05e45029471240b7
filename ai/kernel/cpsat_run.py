"""Running OR-Tools CP-SAT under a solve context: the one place that turns a context into CP-SAT's time limit
and stops a running search within milliseconds (also on Ctrl-C: :func:`leave_ctrl_c_to_python`).

Every CP-SAT model of the project (the lemming encodings, reverse Life, hidden directions, peg bounds) is
solved through :func:`solve_under`.

>>> from ortools.sat.python import cp_model
>>> model = cp_model.CpModel()
>>> x = model.new_bool_var("x")
>>> model.add(x == 1)  # doctest: +ELLIPSIS
<...>
>>> solver = cp_model.CpSolver()
>>> solve_under(solver, model, SolveContext.create()) == cp_model.OPTIMAL, solver.value(x)
(True, 1)
>>> solve_under(cp_model.CpSolver(), model, SolveContext.create(time_limit=0.0)) == cp_model.UNKNOWN
True
"""

from __future__ import annotations

import functools
import threading
from typing import Any, Callable

from ai.kernel.libraries import cp_model
from ai.kernel.context import SolveContext


def leave_ctrl_c_to_python(solver: cp_model.CpSolver) -> None:
    """CP-SAT would catch Ctrl-C itself, end the search and return as if its time were up (the command then
    went on with its next stage): leave it to Python, whose handler cancels the context (which stops the
    search within milliseconds) and then raises :class:`KeyboardInterrupt`."""
    solver.parameters.catch_sigint_signal = False


def solve_under(solver: cp_model.CpSolver, model: cp_model.CpModel, ctx: SolveContext,
                callback: cp_model.CpSolverSolutionCallback | None = None) -> Any:
    """Solve ``model`` with ``solver`` (its other parameters already set) within ``ctx``: the time left
    becomes CP-SAT's limit, a stop of ``ctx`` ends the search within a few milliseconds (through the
    context's stop-watcher), and an already stopped context returns ``UNKNOWN`` without solving."""
    remaining = ctx.remaining()
    if remaining is not None:
        solver.parameters.max_time_in_seconds = max(remaining, 0.001)
    leave_ctrl_c_to_python(solver)
    if ctx.should_stop():
        return cp_model.UNKNOWN
    finished = threading.Event()

    def stop() -> None:
        # stop_search is lost if it comes before CP-SAT has started: repeat it until the solve returns
        while not finished.is_set():
            solver.stop_search()
            finished.wait(0.005)

    with ctx.watch(stop):
        try:
            return solver.solve(model, callback)
        finally:
            finished.set()


def solution_callback(on_solution: Callable[[cp_model.CpSolverSolutionCallback], None]
                      ) -> cp_model.CpSolverSolutionCallback:
    """A CP-SAT solution callback that calls ``on_solution(values)`` at each solution found."""
    return _callback_class()(on_solution)  # type: ignore[no-any-return]


@functools.cache
def _callback_class() -> Any:
    """The callback's class, made on first use (it subclasses OR-Tools', which loads only then)."""

    class Callback(cp_model.CpSolverSolutionCallback):
        def __init__(self, on_solution: Callable[[cp_model.CpSolverSolutionCallback], None]) -> None:
            super().__init__()
            self._on_solution = on_solution

        def on_solution_callback(self) -> None:
            self._on_solution(self)

    return Callback


__all__ = ["leave_ctrl_c_to_python", "solution_callback", "solve_under"]
