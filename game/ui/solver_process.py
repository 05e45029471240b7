"""Compatibility for code written before :meth:`ai.assistant.worker.Worker.submit_job`.

The child-process runner is :func:`ai.process.run_in_child`; new code submits jobs with
``Worker.submit_job``.  :func:`process_task` wraps a job as a plain worker task (``None`` when cancelled).

>>> from ai.assistant.worker import Worker
>>> worker = Worker()
>>> job = worker.submit(process_task(lambda report: 6 * 7), label="answer")
>>> worker.wait(job, timeout=10.0)
True
>>> [(e.kind.value, e.payload) for e in worker.poll()]
[('done', 42)]
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from ai.process import Job, JobCancelled, JobFailed, fork_available, run_in_child


def process_task(job: Job, *, nice: int | None = None, preload: tuple[str, ...] = ()
                 ) -> Callable[[threading.Event, Callable[[Any], None]], Any]:
    """A worker task running ``job(report)`` through :func:`ai.process.run_in_child`."""

    def task(cancel: threading.Event, report: Callable[[Any], None]) -> Any:
        try:
            return run_in_child(job, cancel, report, nice=nice, preload=preload)
        except JobCancelled:
            return None

    return task


__all__ = ["JobFailed", "fork_available", "process_task"]
