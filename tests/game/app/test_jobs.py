"""The app's one job runner (:mod:`game.app.jobs`): typed events delivered once per frame, lanes, owners.

The jobs here are test doubles that block until cancelled (or until the test opens a gate), so no
assertion depends on the machine's speed: a test waits for a job's end with ``handle.wait`` before
it looks at what the next pump delivers.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from ai import facade
from ai.facade import Progress, SolveContext
from ai.kernel.base import SolveStatus
from game.app.app import App, Scene
from game.app.jobs import Execution, Job, JobEvent, JobEventKind, JobRunner, JobState
from game.core.level import Level
from tests.ai.kernel.test_process import nested_sleeper, wait_gone
from tests.conftest import ORIGINAL_SOLUTIONS, REPO


def blocks_until_cancelled(started: threading.Event | None = None) -> Job:
    """A job that waits on its context's cancel request (never finishes by itself)."""

    def job(ctx: SolveContext) -> Any:
        if started is not None:
            started.set()
        (cancel,) = ctx.cancel_events
        cancel.wait()
        return None

    return job


class Recorder:
    """Callbacks that write down what they were given."""

    def __init__(self) -> None:
        self.events: list[JobEvent] = []

    def __call__(self, event: JobEvent) -> None:
        self.events.append(event)

    @property
    def kinds(self) -> list[JobEventKind]:
        return [e.kind for e in self.events]

    def callbacks(self) -> dict[str, Any]:
        return {"on_done": self, "on_progress": self, "on_error": self, "on_cancelled": self}


def test_events_reach_the_callbacks_only_when_pumped() -> None:
    runner = JobRunner(execution=Execution.INLINE)
    seen = Recorder()

    def job(ctx: SolveContext) -> int:
        ctx.report("a")
        ctx.report("b")
        return 42

    handle = runner.submit(job, label="answer", **seen.callbacks())
    assert seen.events == [] and handle.state == JobState.RUNNING and handle.finished
    assert runner.pump() == 3
    assert seen.kinds == [JobEventKind.PROGRESS, JobEventKind.PROGRESS, JobEventKind.DONE]
    progress = [e.payload for e in seen.events[:2]]
    assert all(isinstance(p, Progress) and p.solver == "answer" for p in progress)
    assert [p.message for p in progress] == ["a", "b"] and seen.events[2].payload == 42
    assert all(e.handle is handle for e in seen.events)
    assert getattr(handle, "state") == JobState.DONE and handle.last_progress is progress[1]
    assert runner.running() == [] and runner.pump() == 0


@pytest.mark.parametrize("execution", [Execution.INLINE, Execution.THREAD, Execution.CHILD_PROCESS])
def test_the_runner_makes_the_jobs_context_from_its_time_limit(execution: Execution) -> None:
    if execution == Execution.CHILD_PROCESS and not hasattr(os, "fork"):
        pytest.skip("no fork: jobs run in threads")
    runner = JobRunner(execution=execution)
    seen = Recorder()

    def job(ctx: SolveContext) -> tuple[float | None, bool, str]:
        return ctx.remaining(), ctx.should_stop(), ctx.solver

    limited = runner.submit(job, label="limited", lane="a", time_limit=3600.0, **seen.callbacks())
    unlimited = runner.submit(job, label="unlimited", lane="b", **seen.callbacks())
    assert limited.wait(60) and unlimited.wait(60)
    runner.pump()
    answers = {e.handle.label: e.payload for e in seen.events if e.kind == JobEventKind.DONE}
    left, stopped, solver = answers["limited"]
    assert left is not None and 0.0 < left <= 3600.0 and not stopped and solver == "limited"
    assert answers["unlimited"] == (None, False, "unlimited")


def test_cancel_stops_a_blocking_job_and_its_cancel_is_delivered() -> None:
    runner = JobRunner(execution=Execution.THREAD)
    seen = Recorder()
    started = threading.Event()
    handle = runner.submit(blocks_until_cancelled(started), label="blocker", owner="scene", **seen.callbacks())
    assert started.wait(10)
    runner.pump()
    assert handle.running and seen.events == []
    assert runner.cancel("scene") == [handle]
    assert handle.wait(10)
    runner.pump()
    assert seen.kinds == [JobEventKind.CANCELLED] and handle.state == JobState.CANCELLED


def test_a_new_job_in_a_lane_replaces_the_running_one() -> None:
    runner = JobRunner(execution=Execution.THREAD)
    first_seen, second_seen = Recorder(), Recorder()
    started = threading.Event()
    first = runner.submit(blocks_until_cancelled(started), label="first", owner="scene", lane="solve",
                          **first_seen.callbacks())
    assert started.wait(10)
    other = runner.submit(blocks_until_cancelled(), label="other lane", owner="scene", lane="export")
    second = runner.submit(lambda ctx: "second", label="second", owner="scene", lane="solve",
                           **second_seen.callbacks())
    assert first.state == JobState.DROPPED and first.cancel_requested
    assert first.wait(10) and second.wait(10)
    runner.pump()
    assert first_seen.events == []  # a replaced job's late events are dropped
    assert second_seen.kinds == [JobEventKind.DONE] and second_seen.events[0].payload == "second"
    assert runner.running("scene") == [other] and not other.cancel_requested  # other lanes go on
    runner.shutdown()
    assert other.wait(10)


def test_closing_an_owner_drops_its_jobs_but_lets_an_outliving_one_finish() -> None:
    runner = JobRunner(execution=Execution.THREAD)
    seen, kept_seen, others_seen = Recorder(), Recorder(), Recorder()
    gate = threading.Event()
    dropped = runner.submit(blocks_until_cancelled(), label="solve", owner="scene", lane="solve", **seen.callbacks())
    kept = runner.submit(lambda ctx: gate.wait(10) and "gif", label="gif", owner="scene", lane="export",
                         outlive_owner=True, **kept_seen.callbacks())
    another = runner.submit(blocks_until_cancelled(), label="elsewhere", owner="other scene",
                            **others_seen.callbacks())
    assert runner.close_owner("scene") == 1
    assert dropped.wait(10) and dropped.state == JobState.DROPPED
    gate.set()
    assert kept.wait(10)
    runner.pump()
    assert seen.events == [] and kept_seen.kinds == [JobEventKind.DONE] and kept.state == JobState.DONE
    assert runner.running() == [another] and not another.cancel_requested
    runner.shutdown()
    assert another.wait(10) and others_seen.events == []


@pytest.mark.parametrize("execution", [Execution.INLINE, Execution.THREAD])
def test_a_failing_job_becomes_an_error_event(execution: Execution) -> None:
    runner = JobRunner(execution=execution)
    seen = Recorder()

    def job(ctx: SolveContext) -> None:
        raise ValueError("bad input")

    handle = runner.submit(job, label="crashy", **seen.callbacks())
    assert handle.wait(10)
    runner.pump()
    assert seen.kinds == [JobEventKind.ERROR] and handle.state == JobState.FAILED
    assert seen.events[0].message == "ValueError: bad input" and "Traceback" in seen.events[0].detail


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork: jobs run in threads")
def test_the_default_runs_the_job_in_a_child_process() -> None:
    runner = JobRunner()
    assert runner.execution == Execution.CHILD_PROCESS
    seen = Recorder()
    handle = runner.submit(lambda ctx: os.getpid(), label="pid", **seen.callbacks())
    assert handle.wait(60)
    runner.pump()
    assert seen.kinds == [JobEventKind.DONE] and seen.events[0].payload != os.getpid()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork: jobs run in threads")
def test_cancelling_a_child_process_job_kills_it() -> None:
    runner = JobRunner()
    seen = Recorder()

    def forever(ctx: SolveContext) -> None:
        threading.Event().wait()  # in the child the cancel event is never set: it is killed

    handle = runner.submit(forever, label="forever", **seen.callbacks())
    handle.cancel()
    assert handle.wait(10)
    runner.pump()
    assert seen.kinds == [JobEventKind.CANCELLED]


class JobScene(Scene):
    """A scene that asks for one blocking job when it is pushed."""

    def __init__(self, app: App, job: Job) -> None:
        super().__init__(app)
        self.seen = Recorder()
        self.handle = app.jobs.submit(job, label="scene job", owner=self, execution=Execution.THREAD,
                                      **self.seen.callbacks())


def test_the_app_pumps_each_frame_and_stops_a_closed_scenes_jobs(app: App) -> None:
    gate = threading.Event()
    first = app.push(JobScene(app, lambda ctx: gate.wait(10) and "made"))
    assert isinstance(first, JobScene)
    app.run_frames(1)
    assert first.seen.events == []
    gate.set()
    assert first.handle.wait(10)
    app.run_frames(1)  # the frame delivers the result to the scene
    assert first.seen.kinds == [JobEventKind.DONE] and first.seen.events[0].payload == "made"
    second = app.push(JobScene(app, blocks_until_cancelled()))
    assert isinstance(second, JobScene)
    app.run_frames(1)
    assert second.handle.running
    app.pop()  # the scene closes: its job is cancelled, nothing reaches it any more
    assert second.handle.wait(10) and second.handle.state == JobState.DROPPED
    app.run_frames(1)
    assert second.seen.events == [] and app.jobs.running() == []


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork: jobs run in threads")
def test_milp_in_a_child_job_returns_the_optimum_of_the_original_level() -> None:
    """MILP starts a child of its own: it works inside the job's child (which is not daemonic)."""
    level = Level.load(REPO / "levels" / "007_the_original.txt")
    runner = JobRunner()
    seen = Recorder()
    handle = runner.submit(lambda ctx: facade.solve(level, solver="milp", mode="all", ctx=ctx), time_limit=60,
                           label="milp", **seen.callbacks())
    assert handle.wait(90)
    runner.pump()
    final = [e for e in seen.events if e.kind != JobEventKind.PROGRESS]
    assert [e.kind for e in final] == [JobEventKind.DONE], [e.message for e in final]
    result = final[0].payload
    assert result.status == SolveStatus.OPTIMAL and len(result.bricks) == 3
    assert set(result.solutions) == ORIGINAL_SOLUTIONS and result.complete


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork: jobs run in threads")
def test_cancel_kills_the_jobs_child_and_grandchild() -> None:
    runner = JobRunner()
    seen = Recorder()
    def job(ctx: SolveContext) -> None:
        assert ctx.progress is not None  # the runner's report: each process says its pid through it
        nested_sleeper(ctx.progress)

    handle = runner.submit(job, label="sleep", **seen.callbacks())
    pids: list[int] = []
    end = time.perf_counter() + 30
    while len(pids) < 2 and time.perf_counter() < end:  # both processes said their pid
        runner.pump()
        pids = [e.payload for e in seen.events if e.kind == JobEventKind.PROGRESS]
        time.sleep(0.005)
    assert len(pids) == 2 and handle.running
    handle.cancel()
    assert handle.wait(10)
    runner.pump()
    assert seen.kinds[-1] == JobEventKind.CANCELLED
    assert wait_gone(pids) == []


def test_no_ui_module_makes_a_worker_of_its_own() -> None:
    """Every AI job of the UI goes through the app's runner."""
    root = Path(__file__).resolve().parents[3] / "game" / "app"
    assert (root / "jobs.py").exists()
    offenders = [str(path.relative_to(root)) for path in sorted(root.rglob("*.py"))
                 if "Worker(" in path.read_text(encoding="utf-8") or "ai.services.worker" in
                 path.read_text(encoding="utf-8")]
    assert offenders == []
