"""The assistant's background jobs (the app's job runner) inside the real app: cancel latency, crashes, frame rate.

The solvers here are test doubles that follow the :class:`ai.kernel.base.Solver` contract (they
check ``cancel`` every few milliseconds); the frame-rate test uses one that never releases
the interpreter on its own (a pure-Python busy loop), the worst case for the UI thread.
"""

from __future__ import annotations

import os
import time

import pygame
import pytest

from ai.kernel.base import SolveMode, SolveResult, SolveStatus
from ai.kernel.context import SolveContext
from game.core.error_log import error_log_path
from game.core.level import Level
from game.app.app import App
from game.app.assistant import Assistant, assistant_of
from game.core.catalog import pack_entries
from game.app.scenes.play import PlayScene
from tests.game.app.conftest import press, run_until
from tests.conftest import ORIGINAL_INDEX
from tests.stopping import STOP_GUARD


class SlowSolver:
    """Works for ``seconds`` (checking ``cancel`` every 5 ms, reporting a bound), then gives up."""

    name = "slow"
    exact = False

    def __init__(self, seconds: float = 30.0) -> None:
        self.seconds = seconds

    def solve_in(self, level: Level, mode: SolveMode, ctx: SolveContext) -> SolveResult:
        start = time.perf_counter()
        while time.perf_counter() - start < self.seconds:
            if ctx.cancelled():
                return SolveResult(SolveStatus.CANCELLED, self.name, SolveMode(mode))
            ctx.report("", best_bound=2.0)
            time.sleep(0.005)
        return SolveResult(SolveStatus.UNKNOWN, self.name, SolveMode(mode), message="gave up")


class BusySolver:
    """A pure-Python busy loop (holds the GIL as much as Python lets it) until cancelled."""

    name = "busy"
    exact = False

    def solve_in(self, level: Level, mode: SolveMode, ctx: SolveContext) -> SolveResult:
        x = 0
        while not ctx.cancelled():
            for i in range(2000):
                x += i * i
        return SolveResult(SolveStatus.CANCELLED, self.name, SolveMode(mode))


class DyingSolver:
    """Kills its own process (a native crash in a real solver would look like this)."""

    name = "dying"
    exact = True

    def solve_in(self, level: Level, mode: SolveMode, ctx: SolveContext) -> SolveResult:
        os._exit(3)


class CrashingSolver:
    """Raises at once."""

    name = "crashy"
    exact = True

    def solve_in(self, level: Level, mode: SolveMode, ctx: SolveContext) -> SolveResult:
        raise RuntimeError("boom: solver bug")


def open_original(app: App) -> PlayScene:
    scene = PlayScene(app, playlist=pack_entries(), index=ORIGINAL_INDEX)
    app.push(scene)
    app.run_frames(1)
    return scene


def wait_idle(app: App, assistant: Assistant, timeout: float = 20.0) -> None:
    """Step the app (as the game would) until the assistant's job has been collected (``timeout``: a hang
    guard, never a speed check), then one frame more."""
    run_until(app, lambda: not assistant.busy and assistant.job is None, "the assistant's job", timeout)
    app.run_frames(1)
    assert assistant.job is None, "the assistant's job did not finish"


@pytest.mark.parametrize("in_process", [True, False], ids=["child-process", "thread"])
def test_esc_cancels_a_long_solve(app: App, in_process: bool) -> None:
    """Esc stops a solver that would work for 30 s; the latency is a figure of ``bench/ui_assistant.py``."""
    scene = open_original(app)
    assistant = assistant_of(scene)
    assistant.use_processes = in_process and assistant.use_processes
    assistant.add_solver(SlowSolver())
    press(app, pygame.K_s)
    # the spinner names the solver, the elapsed time and the bound reported so far (the report
    # comes from another process or thread: step the app in real time until it has arrived)
    end = time.perf_counter() + STOP_GUARD
    while not any("bound >= 2" in line for line in scene.status_lines) and time.perf_counter() < end:
        app.run_frames(1)
        time.sleep(0.002)
    assert assistant.busy
    spinner = scene.status_lines[0]
    assert "slow solving" in spinner and " s" in spinner and "bound >= 2" in spinner
    handle = assistant.handle
    assert handle is not None
    press(app, pygame.K_ESCAPE)
    assert handle.cancel_requested, "Esc did not cancel the solve"
    assert not assistant.busy  # the UI lets go at once
    assert handle.wait(STOP_GUARD), "the solver did not stop on Esc"
    app.run_frames(2)
    assert app.top is scene, "Esc cancelled the solve; it must not also leave the level"
    assert any("cancelled" in line for line in scene.status_lines)
    press(app, pygame.K_ESCAPE)  # nothing left to cancel: Esc leaves the level as usual
    assert app.top is not scene


def test_a_new_request_replaces_the_running_one(app: App) -> None:
    scene = open_original(app)
    assistant = assistant_of(scene)
    assistant.add_solver(SlowSolver())
    press(app, pygame.K_s)
    first = assistant.job
    assert assistant.busy
    assistant.select_solver("auto")
    press(app, pygame.K_s)
    assert assistant.job != first
    wait_idle(app, assistant)
    assert assistant.shown is not None and len(assistant.shown) == 3
    assert scene.status_lines[0].startswith("Auto: 3 bricks, the fewest possible")


@pytest.mark.parametrize("in_process", [True, False], ids=["child-process", "thread"])
def test_crashing_solver_shows_a_message_and_the_game_carries_on(app: App, in_process: bool) -> None:
    scene = open_original(app)
    assistant = assistant_of(scene)
    assistant.use_processes = in_process and assistant.use_processes
    assistant.add_solver(CrashingSolver())
    press(app, pygame.K_s)
    wait_idle(app, assistant)
    assert app.running and app.top is scene
    # a friendly line, never the Python error; the details go to the error log in the data folder
    assert any(line == "crashy could not finish (details in errors.log)" for line in scene.status_lines)
    assert not any("boom" in line or "Error" in line for line in scene.status_lines)
    log = error_log_path().read_text()
    assert "RuntimeError: boom: solver bug" in log and "Traceback" in log
    # the game still plays: place a brick, release, and the frames advance
    scene.apply_bricks([(2, 1)])
    press(app, pygame.K_SPACE, unicode=" ")
    app.run_frames(30)
    assert scene.t > 0
    # and the assistant still works with another solver
    assistant.select_solver("auto")
    press(app, pygame.K_s)
    wait_idle(app, assistant)
    assert assistant.shown is not None


def test_a_solver_process_that_dies_is_reported(app: App) -> None:
    scene = open_original(app)
    assistant = assistant_of(scene)
    if not assistant.use_processes:
        pytest.skip("solvers run in threads on this platform")
    assistant.add_solver(DyingSolver())
    press(app, pygame.K_a)
    wait_idle(app, assistant)
    assert app.running and app.top is scene
    assert any(line == "dying could not finish (details in errors.log)" for line in scene.status_lines)
    assert "the solver process died (exit code 3)" in error_log_path().read_text()


@pytest.mark.parametrize("in_process", [True, False], ids=["child-process", "thread"])
def test_the_run_plays_on_while_a_busy_solver_works(app: App, in_process: bool) -> None:
    """A solver that never lets go (until cancelled) does not hold up the frames.

    Counted in frames, not timed: the frame rate while solving is a figure of ``bench/ui_assistant.py``.
    """
    scene = open_original(app)
    assistant = assistant_of(scene)
    assistant.use_processes = in_process and assistant.use_processes
    assistant.add_solver(BusySolver())
    press(app, pygame.K_s)
    handle = assistant.handle
    assert assistant.busy and handle is not None
    scene.toggle_run()  # the run plays while the solver works
    app.run_frames(60)
    assert scene.t > 0 and assistant.busy and not handle.finished  # it stops only when cancelled
    press(app, pygame.K_ESCAPE)
    assert handle.wait(STOP_GUARD), "the busy solver did not stop on Esc"


@pytest.mark.parametrize("key", [pygame.K_h, pygame.K_s, pygame.K_a, pygame.K_f])
def test_every_request_finishes_in_the_background(app: App, key: int) -> None:
    scene = open_original(app)
    press(app, key)
    assert assistant_of(scene).job is not None
    wait_idle(app, assistant_of(scene))
    assert not any("failed" in line for line in scene.status_lines)
