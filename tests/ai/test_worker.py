"""The background worker: results, progress, cancellation, replacement and crashes."""

from __future__ import annotations

import threading
import time
from typing import Any, Callable

from ai.assistant.worker import Worker, WorkerEvent


def collect(worker: Worker, job: int, timeout: float = 5.0) -> list[WorkerEvent]:
    assert worker.wait(job, timeout)
    time.sleep(0.01)
    return worker.poll()


def slow_task(cancel: threading.Event, report: Callable[[Any], None]) -> str | None:
    for i in range(10_000):
        if cancel.wait(0.005):
            return None
        report(i)
    return "finished"


def test_progress_then_done() -> None:
    worker = Worker()

    def task(cancel: threading.Event, report: Callable[[Any], None]) -> int:
        for i in range(3):
            report(i)
        return 7

    job = worker.submit(task, label="count")
    events = collect(worker, job)
    assert [(e.kind, e.payload) for e in events] == [
        ("progress", 0), ("progress", 1), ("progress", 2), ("done", 7)
    ]
    assert all(e.label == "count" for e in events)
    assert not worker.busy


def test_cancel_stops_within_100_ms() -> None:
    worker = Worker()
    job = worker.submit(slow_task, label="slow")
    time.sleep(0.05)
    assert worker.busy
    start = time.perf_counter()
    worker.cancel()
    assert worker.wait(job, timeout=1.0)
    assert time.perf_counter() - start < 0.1
    assert collect(worker, job)[-1].kind == "cancelled"


def test_new_request_replaces_running_one() -> None:
    worker = Worker()
    first = worker.submit(slow_task, label="first")
    time.sleep(0.02)
    second = worker.submit(lambda cancel, report: "second", label="second")
    events = collect(worker, second)
    assert [e.kind for e in events if e.kind != "progress"] == ["done"]
    assert all(e.job == second for e in events)
    assert events[-1].payload == "second"
    assert first != second


def test_crashing_task_becomes_an_error_event() -> None:
    worker = Worker()

    def crash(cancel: threading.Event, report: Callable[[Any], None]) -> None:
        raise RuntimeError("solver exploded")

    job = worker.submit(crash, label="crash")
    events = collect(worker, job)
    assert [e.kind for e in events] == ["error"]
    assert events[0].message == "RuntimeError: solver exploded"
    assert "Traceback" in events[0].detail
    # The worker keeps working after a crash.
    job = worker.submit(lambda cancel, report: 1, label="after")
    assert collect(worker, job)[-1].payload == 1
