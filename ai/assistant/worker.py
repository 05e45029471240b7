"""Run solvers (and other long AI tasks) off the UI thread.

Jobs submitted with :meth:`Worker.submit_job` (every AI job of the UI: solves, hints, the editor's
analysis, GIF export) run in a child process through :func:`ai.process.run_in_child` when
:attr:`Worker.use_processes` is on (the default where ``fork`` exists): no interpreter lock shared with
the UI, and cancel kills the child and everything it started at once.  :meth:`Worker.submit` runs a
plain task in the worker's thread.

The UI submits a task, then calls :meth:`Worker.poll` once per frame to collect
:class:`WorkerEvent` s (progress, done, error, cancelled) without ever blocking.
Only one task runs at a time: a new submission cancels the running one, whose
late events are dropped.  A task that raises becomes an ``error`` event carrying
the message; the caller carries on.

>>> import threading
>>> worker = Worker()
>>> job = worker.submit(lambda cancel, report: 6 * 7, label="answer")
>>> worker.wait(job, timeout=5.0)
True
>>> [(e.kind.value, e.payload) for e in worker.poll()]
[('done', 42)]
>>> worker.shutdown()
"""

from __future__ import annotations

import enum
import queue
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable

from ai.base import Progress, SolveMode, SolveResult
from ai.process import JobCancelled, JobFailed, fork_available, run_in_child
from game.level import Level

Task = Callable[[threading.Event, Callable[[Any], None]], Any]
"""A task: called with a cancel event and a progress-report function; returns the result."""

ProcessJob = Callable[[Callable[[Any], None], threading.Event], Any]
"""A job for :meth:`Worker.submit_job`: called with a progress-report function and a cancel event
(never set in a child process, which is killed instead); returns a picklable result."""


class EventKind(str, enum.Enum):
    """What a :class:`WorkerEvent` reports."""

    PROGRESS = "progress"  #: a progress report (payload: e.g. :class:`ai.base.Progress`)
    DONE = "done"  #: the task returned (payload: its result)
    ERROR = "error"  #: the task raised or its process died (message, detail: the traceback)
    CANCELLED = "cancelled"  #: the task stopped because it was cancelled


@dataclass(frozen=True)
class WorkerEvent:
    """Something a task reported (see :class:`EventKind`)."""

    job: int
    kind: EventKind
    label: str
    payload: Any = None
    message: str = ""
    elapsed: float = 0.0
    detail: str = ""  #: the traceback of an ``error`` event


@dataclass
class _Job:
    ident: int
    label: str
    cancel: threading.Event
    started: float
    thread: threading.Thread | None = None
    finished: threading.Event = field(default_factory=threading.Event)
    last_progress: Any = None


class Worker:
    """Runs one background task at a time; poll it from the UI thread."""

    def __init__(self, *, use_processes: bool | None = None) -> None:
        #: Run :meth:`submit_job` jobs in a child process (False: in the worker's thread).
        self.use_processes = fork_available() if use_processes is None else use_processes
        self._events: queue.Queue[WorkerEvent] = queue.Queue()
        self._lock = threading.Lock()
        self._next = 1
        self._current: _Job | None = None

    # --------------------------------------------------------------- submit
    def submit(self, task: Task, *, label: str) -> int:
        """Start ``task`` in a background thread, cancelling any running task; return its job id."""
        with self._lock:
            if self._current is not None:
                self._current.cancel.set()
            job = _Job(self._next, label, threading.Event(), time.perf_counter())
            self._next += 1
            self._current = job
        thread = threading.Thread(target=self._run, args=(job, task), name=f"worker-{label}", daemon=True)
        job.thread = thread
        thread.start()
        return job.ident

    def submit_job(self, job: ProcessJob, *, label: str, preload: tuple[str, ...] = ()) -> int:
        """Start ``job(report, cancel)`` in a child process (see :func:`ai.process.run_in_child`), or in
        the worker's thread when :attr:`use_processes` is off; return its job id.

        ``preload``: modules to import in this process first, so every later child inherits them.
        """
        if not self.use_processes:
            return self.submit(lambda cancel, report: job(report, cancel), label=label)

        def task(cancel: threading.Event, report: Callable[[Any], None]) -> Any:
            return run_in_child(lambda child_report: job(child_report, threading.Event()), cancel, report,
                                preload=preload)

        return self.submit(task, label=label)

    def solve(
        self,
        level: Level,
        *,
        solver: str = "auto",
        mode: SolveMode | str = SolveMode.MIN,
        time_limit: float | None = None,
        label: str | None = None,
    ) -> int:
        """Submit ``ai.solve(level, ...)``; progress events carry :class:`ai.base.Progress`."""

        def job(report: Callable[[Any], None], cancel: threading.Event) -> SolveResult:
            from ai import solve

            return solve(level, solver=solver, mode=mode, time_limit=time_limit, progress=report, cancel=cancel)

        return self.submit_job(job, label=label or f"{solver} {SolveMode(mode).value}")

    # --------------------------------------------------------------- control
    def cancel(self) -> None:
        """Cancel the running task (its ``cancelled`` event follows once it stops)."""
        with self._lock:
            if self._current is not None:
                self._current.cancel.set()

    def poll(self) -> list[WorkerEvent]:
        """Every event of the current job since the last poll (never blocks)."""
        out = []
        while True:
            try:
                event = self._events.get_nowait()
            except queue.Empty:
                break
            with self._lock:
                current = self._current.ident if self._current else None
            if event.job == current:
                out.append(event)
        return out

    def wait(self, job: int, timeout: float | None = None) -> bool:
        """Block until ``job`` has finished (for tests and the command line)."""
        with self._lock:
            current = self._current
        if current is None or current.ident != job:
            return True
        return current.finished.wait(timeout)

    @property
    def busy(self) -> bool:
        """True while a task is running."""
        with self._lock:
            return self._current is not None and not self._current.finished.is_set()

    @property
    def label(self) -> str:
        """Label of the current (or last) task."""
        with self._lock:
            return self._current.label if self._current else ""

    @property
    def elapsed(self) -> float:
        """Seconds since the current task started."""
        with self._lock:
            return time.perf_counter() - self._current.started if self._current else 0.0

    @property
    def last_progress(self) -> Any:
        """The latest progress payload of the current task (e.g. :class:`Progress`)."""
        with self._lock:
            return self._current.last_progress if self._current else None

    def shutdown(self, timeout: float = 1.0) -> None:
        """Cancel the running task and wait briefly for its thread."""
        with self._lock:
            job = self._current
        if job is not None:
            job.cancel.set()
            if job.thread is not None:
                job.thread.join(timeout)

    # --------------------------------------------------------------- thread
    def _run(self, job: _Job, task: Task) -> None:
        def report(payload: Any) -> None:
            job.last_progress = payload
            self._put(job, "progress", payload)

        try:
            result = task(job.cancel, report)
        except JobCancelled:
            self._put(job, "cancelled", None)
        except JobFailed as exc:
            self._put(job, "error", None, str(exc), exc.detail)
        except Exception as exc:  # a crashing task must never take the app down
            self._put(job, "error", None, f"{type(exc).__name__}: {exc}", traceback.format_exc())
        else:
            kind = "cancelled" if job.cancel.is_set() and _is_cancelled(result) else "done"
            self._put(job, kind, result)
        finally:
            job.finished.set()

    def _put(self, job: _Job, kind: str, payload: Any, message: str = "", detail: str = "") -> None:
        elapsed = time.perf_counter() - job.started
        self._events.put(WorkerEvent(job.ident, EventKind(kind), job.label, payload, message, elapsed, detail))


def _is_cancelled(result: Any) -> bool:
    """True when a result says it was cancelled (a SolveResult with status cancelled, or None)."""
    status = getattr(result, "status", None)
    return result is None or getattr(status, "value", status) == "cancelled"


__all__ = ["EventKind", "ProcessJob", "Progress", "Task", "Worker", "WorkerEvent"]
