"""Reverse Life on two cores: the SAT chain in a child process beside the local search; answers replayed."""

from __future__ import annotations

import multiprocessing
import threading
import time

import numpy as np
import pytest

from ai.kernel.context import SolveContext, SolveStopped
from ai.puzzles.life.reverse import ReverseStatus, reverse
from ai.puzzles.life import two_cores
from ai.puzzles.life.sat import ChainResult
from ai.puzzles.life.two_cores import ChainChild, can_fork
from game.core.puzzles.life.rules import LIFE, step

pytestmark = pytest.mark.skipif(not can_fork(), reason="needs the fork start method")

#: A generous upper bound: the answers come in well under a second on an idle machine.
LIMIT = 120.0


def _soup(seed: int, steps: int) -> np.ndarray:
    """A 20x20 target made from a sparse random start (so a start exists)."""
    start = np.random.default_rng(seed).random((20, 20)) < 0.15
    return step(start, LIFE, steps)


def test_the_child_sends_back_an_exact_start() -> None:
    target = _soup(1, 2)
    child = ChainChild(target, LIFE, 2, time.perf_counter() + LIMIT)
    try:
        answer = child.wait(LIMIT)
    finally:
        child.stop()
    assert answer is not None and answer.start is not None and child.exact.is_set()
    assert np.array_equal(step(answer.start, LIFE, 2), target)
    assert multiprocessing.active_children() == []


def test_reverse_runs_the_chain_beside_the_local_search_and_replays_its_start() -> None:
    target = _soup(2, 3)
    reports: list[object] = []
    result = reverse(target, 3, SolveContext.create(time_limit=LIMIT, progress=reports.append), LIFE)
    assert any("second process" in str(r) for r in reports)
    assert not any("step back" in str(r) for r in reports)  # k >= 3: no CP-SAT chain beside the SAT chain
    assert result.status == ReverseStatus.EXACT and result.wrong_cells == 0
    assert np.array_equal(step(result.start, LIFE, 3), target)
    assert multiprocessing.active_children() == []


def test_a_cancel_stops_both_and_kills_the_child() -> None:
    cancel = threading.Event()

    def on_report(progress: object) -> None:
        if "second process" in str(progress):
            cancel.set()

    target = _soup(3, 2)
    with pytest.raises(SolveStopped):
        reverse(target, 2, SolveContext.create(time_limit=LIMIT, cancel=cancel, progress=on_report), LIFE)
    assert multiprocessing.active_children() == []


def _stuck_chain(target: np.ndarray, rule: object, steps: int, ctx: SolveContext, **_: object) -> ChainResult:
    """A chain that never finds a predecessor: it waits until its context stops."""
    while not ctx.should_stop():
        time.sleep(0.01)
    return ChainResult(None, False, [])


def test_a_stalled_chain_gives_way_to_the_local_search_whose_start_is_replayed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(two_cores, "chain", _stuck_chain)
    monkeypatch.setattr(two_cores, "STALL_SHARE", 0.0)
    target = np.zeros((20, 20), dtype=bool)
    target[9, 8:11] = True  # a blinker: the local search finds a start from nothing
    child = ChainChild(target, LIFE, 3, time.perf_counter() + LIMIT)
    try:
        answer = child.wait(LIMIT)
    finally:
        child.stop()
    assert answer is not None and answer.start is None and answer.polished and answer.best is not None
    assert np.array_equal(step(answer.best, LIFE, 3), target)


def test_for_two_steps_a_chain_is_never_called_stalled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(two_cores, "chain", _stuck_chain)
    monkeypatch.setattr(two_cores, "STALL_SHARE", 0.0)
    target = np.zeros((20, 20), dtype=bool)
    target[9, 8:11] = True
    child = ChainChild(target, LIFE, 2, time.perf_counter() + 0.5)
    try:
        answer = child.wait(LIMIT)
    finally:
        child.stop()
    assert answer is not None and answer.start is None and not answer.polished and answer.best is None
