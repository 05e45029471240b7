"""Every exact solver stops within 100 ms of the cancel event, and honours time limits."""

from __future__ import annotations

import threading
import time

import pytest

from ai import get_solver
from ai.base import SolveStatus
from tests.ai.exact_helpers import busy_level


@pytest.mark.parametrize("name,options", [
    ("cpsat", {}), ("search", {}), ("milp", {"backend": "scip"}),
    ("milp", {"backend": "highs"}), ("milp", {"backend": "cbc"}), ("auto", {}), ("brute", {}),
])
def test_cancel_within_100ms(name: str, options: dict) -> None:
    cancel = threading.Event()
    solver = get_solver(name, **options)
    set_at: list[float] = []

    def fire() -> None:
        set_at.append(time.perf_counter())
        cancel.set()

    timer = threading.Timer(0.1, fire)
    timer.start()
    result = solver.solve(busy_level(), mode="all", time_limit=5.0, cancel=cancel)
    done = time.perf_counter()
    timer.cancel()
    if not set_at:
        pytest.skip(f"{name} finished before the cancel fired")
    assert result.status == SolveStatus.CANCELLED or result.solved
    assert done - set_at[0] < 0.1, f"{name} took {(done - set_at[0]) * 1000:.0f} ms to stop"


@pytest.mark.parametrize("name", ["cpsat", "search"])
def test_time_limit(name: str) -> None:
    start = time.perf_counter()
    result = get_solver(name).solve(busy_level(), mode="all", time_limit=0.3)
    assert time.perf_counter() - start < 1.5
    assert result.status in (SolveStatus.TIMEOUT, SolveStatus.FEASIBLE, SolveStatus.OPTIMAL, SolveStatus.INFEASIBLE)
