"""Every exact solver stops soon after a cancel that comes mid-work, and honours deadlines.

No test here waits for a wall-clock delay: the cancel fires on the solver's own 5th check of its
context (:class:`tests.stopping.CancelOnPoll`), and deadlines come from an injected clock that moves
a fixed step at each read (:class:`ai.kernel.context.ManualClock`).  The contract's figure (100 ms) is
measured by ``bench/contracts3.py``; the bound asserted here is 3x that, for slower machines.
"""

from __future__ import annotations

import time

import pytest

from ai.facade import get_solver
from ai.kernel.base import SolveMode, SolveStatus
from ai.kernel.context import ManualClock, SolveContext
from game.core.simulation import simulate
from tests.ai.solvers.exact_helpers import busy_level
from tests.stopping import STOP_GUARD, CancelOnPoll, expired

EXACT = [("cpsat", {}), ("search", {}), ("milp", {"backend": "scip"}), ("milp", {"backend": "highs"}),
         ("milp", {"backend": "cbc"}), ("auto", {}), ("brute", {})]


def _correct(result_bricks: tuple[tuple[int, int], ...] | None) -> bool:
    level = busy_level()
    return result_bricks is not None and simulate(level, result_bricks).won


@pytest.mark.parametrize("name,options", EXACT)
def test_cancel_mid_work_stops_quickly(name: str, options: dict) -> None:
    cancel = CancelOnPoll(5)
    result = get_solver(name, **options).solve_in(busy_level(), SolveMode.ALL,
                                                SolveContext.create(time_limit=60.0, cancel=cancel))
    done = time.perf_counter()
    if cancel.fired_at is None:  # finished within 5 checks: then it proved the answer
        assert result.status == SolveStatus.OPTIMAL and _correct(result.bricks)
        return
    assert done - cancel.fired_at < STOP_GUARD, f"{name} took {(done - cancel.fired_at) * 1000:.0f} ms to stop"
    assert result.status == SolveStatus.CANCELLED or (result.status == SolveStatus.OPTIMAL and not result.complete)
    assert result.bricks is None or _correct(result.bricks)


@pytest.mark.parametrize("name", ["cpsat", "search", "auto", "brute", "gradient", "learned"])
def test_past_deadline_returns_timeout_at_once(name: str) -> None:
    result = get_solver(name).solve_in(busy_level(), SolveMode.ALL, expired(solver=name))
    assert result.status == SolveStatus.TIMEOUT and result.bricks is None and not result.complete


@pytest.mark.parametrize("name", ["cpsat", "search"])
def test_deadline_on_an_injected_clock(name: str) -> None:
    """The deadline passes after a fixed number of clock reads: the solve ends with an honest status."""
    clock = ManualClock(step=0.01)
    ctx = SolveContext.create(time_limit=0.3, clock=clock, solver=name)
    result = get_solver(name).solve_in(busy_level(), SolveMode.ALL, ctx)
    if result.status == SolveStatus.OPTIMAL:  # proved within 30 reads of the clock
        assert result.complete and _correct(result.bricks)
    else:
        assert result.status in (SolveStatus.TIMEOUT, SolveStatus.FEASIBLE) and ctx.should_stop()
        assert result.bricks is None or _correct(result.bricks)
