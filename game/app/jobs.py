"""The app's one job runner: every AI job of the UI goes through :class:`JobRunner`.

The :class:`~game.app.app.App` owns one runner (``app.jobs``); scenes submit jobs to it and get a
typed :class:`JobHandle` back.  A job is ``job(ctx)``: ``ctx`` is the one
:class:`~ai.facade.SolveContext` of the job, made by the runner from ``submit(time_limit=...)``,
the handle's cancel request and the progress report (``ctx.report(...)``, or ``ctx.progress`` handed to
a solver); the job returns a picklable result.  By default it runs in a child process through
:func:`ai.facade.run_in_child` (the one child-process runner: no interpreter lock shared with the UI,
cancel kills the child and everything it started; the context is made in the child);
:attr:`Execution.THREAD` runs it in a thread of the game (where ``fork`` is missing, and for tests),
:attr:`Execution.INLINE` at once in the caller (a test double: no thread, no process).

The runner never calls back from another thread: the app calls :meth:`JobRunner.pump` once per frame,
which delivers the events (:class:`JobEvent`, kind :class:`JobEventKind`) to the callbacks given to
:meth:`JobRunner.submit`.  Jobs are grouped by ``owner`` (the scene that asked) and ``lane``: a new job in a
lane replaces the one running there (whose late events are dropped), and :meth:`JobRunner.close_owner`
(called by the app when a scene is popped or replaced) cancels the owner's jobs and drops their events.

>>> runner = JobRunner(execution=Execution.INLINE)
>>> answers = []
>>> handle = runner.submit(lambda ctx: 6 * 7, label="answer",
...                        on_done=lambda event: answers.append(event.payload))
>>> handle.state, answers                      # nothing is delivered before the frame's pump
(<JobState.RUNNING: 'running'>, [])
>>> runner.pump(), handle.state, answers
(1, <JobState.DONE: 'done'>, [42])
"""

from __future__ import annotations

import enum
import functools
import itertools
import queue
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Any, Callable

from ai.facade import JobCancelled, JobFailed, SolveContext, SolveStatus, fork_available, run_in_child

#: Where a job's progress reports go (in the game's process).
Report = Callable[[Any], None]
#: A job: called as ``job(ctx)`` with its :class:`~ai.facade.SolveContext` (deadline, cancel
#: request, progress sink; the cancel is never set in a child process, which is killed instead);
#: returns a picklable result.
Job = Callable[[SolveContext], Any]


class JobEventKind(enum.Enum):
    """What a :class:`JobEvent` reports."""

    PROGRESS = "progress"  #: a progress report (payload: e.g. :class:`ai.facade.Progress`)
    DONE = "done"  #: the job returned (payload: its result)
    ERROR = "error"  #: the job raised or its process died (message; detail: the traceback)
    CANCELLED = "cancelled"  #: the job stopped because it was cancelled


class JobState(enum.Enum):
    """Where a :class:`JobHandle` is, as the UI has seen it (changed only by :meth:`JobRunner.pump`
    and by cancelling)."""

    RUNNING = "running"  #: submitted, its end not delivered yet
    DONE = "done"  #: its result was delivered
    FAILED = "failed"  #: its error was delivered
    CANCELLED = "cancelled"  #: cancelled; the cancel was delivered
    DROPPED = "dropped"  #: replaced in its lane or its owner closed: no more callbacks


class Execution(enum.Enum):
    """Where a job runs."""

    CHILD_PROCESS = "child-process"  #: :func:`ai.facade.run_in_child` (the default where ``fork`` exists)
    THREAD = "thread"  #: a thread of the game (no ``fork``; tests)
    INLINE = "inline"  #: at once in the caller of :meth:`JobRunner.submit` (test double)


#: Final states: the handle gets no more events.
FINAL = frozenset({JobState.DONE, JobState.FAILED, JobState.CANCELLED, JobState.DROPPED})


@dataclass(frozen=True)
class JobEvent:
    """Something a job reported, delivered by :meth:`JobRunner.pump`."""

    kind: JobEventKind
    handle: JobHandle
    payload: Any = None
    message: str = ""
    detail: str = ""  #: the traceback of an error
    elapsed: float = 0.0  #: seconds since the job started, when it reported this


Callback = Callable[[JobEvent], None]


class JobHandle:
    """One submitted job: its id, label, lane and owner, its :class:`JobState`, the latest progress."""

    def __init__(self, ident: int, label: str, lane: str, owner: object | None, *, outlive_owner: bool,
                 callbacks: dict[JobEventKind, Callback]) -> None:
        self.ident = ident
        self.label = label
        self.lane = lane
        self.owner = owner
        self.outlive_owner = outlive_owner  #: keeps running (and reporting) after its owner closed
        self.state = JobState.RUNNING
        self.last_progress: Any = None  #: the latest progress payload delivered
        self.started = time.perf_counter()
        self.ended: float | None = None  #: when the job's code stopped (any thread)
        self._callbacks = callbacks
        self._cancel = threading.Event()
        self._finished = threading.Event()

    def __repr__(self) -> str:
        return f"JobHandle({self.ident}, {self.label!r}, lane={self.lane!r}, {self.state.value})"

    @property
    def running(self) -> bool:
        """True until the job's end (or its dropping) has been delivered."""
        return self.state == JobState.RUNNING

    @property
    def finished(self) -> bool:
        """True once the job's code has stopped (its last event may still wait for the pump)."""
        return self._finished.is_set()

    @property
    def cancel_requested(self) -> bool:
        """True once :meth:`cancel` was called (or the handle was dropped)."""
        return self._cancel.is_set()

    @property
    def elapsed(self) -> float:
        """Seconds since the job started (until it stopped)."""
        return (self.ended if self.ended is not None else time.perf_counter()) - self.started

    def cancel(self) -> None:
        """Stop the job (a child process is killed at once); its ``CANCELLED`` event follows."""
        self._cancel.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the job's code stopped (tests and the command line); False on timeout."""
        return self._finished.wait(timeout)


class JobRunner:
    """Runs the UI's AI jobs (see the module docstring); ``execution`` is the default of every submit."""

    def __init__(self, *, execution: Execution | None = None) -> None:
        #: Where jobs run unless a submit says otherwise.
        self.execution = execution if execution is not None else default_execution()
        self._events: queue.Queue[tuple[JobHandle, JobEventKind, Any, str, str, float]] = queue.Queue()
        self._active: list[JobHandle] = []
        self._ids = itertools.count(1)

    # ----------------------------------------------------------------- submitting
    def submit(self, job: Job, *, label: str, owner: object | None = None, lane: str = "",
               time_limit: float | None = None,
               on_done: Callback | None = None, on_progress: Callback | None = None,
               on_error: Callback | None = None, on_cancelled: Callback | None = None,
               execution: Execution | None = None, outlive_owner: bool = False) -> JobHandle:
        """Start ``job``; the callbacks are called by :meth:`pump` (on the UI thread) with its events.

        ``time_limit``: seconds the job's context allows (None: no deadline; the job's own code stops
        at its context's deadline).  A job already running in the same ``owner`` and ``lane`` is
        cancelled and dropped.  ``outlive_owner``: :meth:`close_owner` lets this job finish (e.g. a GIF
        being written).
        """
        for old in self.running(owner, lane):
            self._drop(old)
        callbacks = {kind: cb for kind, cb in ((JobEventKind.DONE, on_done), (JobEventKind.PROGRESS, on_progress),
                                               (JobEventKind.ERROR, on_error),
                                               (JobEventKind.CANCELLED, on_cancelled)) if cb is not None}
        handle = JobHandle(next(self._ids), label, lane, owner, outlive_owner=outlive_owner, callbacks=callbacks)
        self._active.append(handle)
        how = execution if execution is not None else self.execution
        if how == Execution.INLINE:
            self._run(handle, job, how, time_limit)
        else:
            thread = threading.Thread(target=self._run, args=(handle, job, how, time_limit),
                                      name=f"job-{label}", daemon=True)
            thread.start()
        return handle

    # ----------------------------------------------------------------- per frame
    def pump(self) -> int:
        """Deliver every event waiting (never blocks); returns how many were delivered."""
        delivered = 0
        while True:
            try:
                handle, kind, payload, message, detail, elapsed = self._events.get_nowait()
            except queue.Empty:
                return delivered
            if handle.state != JobState.RUNNING:
                continue  # dropped (or a late report of a job whose end was delivered)
            if kind == JobEventKind.PROGRESS:
                handle.last_progress = payload
            else:
                handle.state = _END_STATE[kind]
                self._forget(handle)
            callback = handle._callbacks.get(kind)
            delivered += 1
            if callback is not None:
                callback(JobEvent(kind, handle, payload, message, detail, elapsed))

    # ----------------------------------------------------------------- control
    def running(self, owner: object | None = None, lane: str | None = None) -> list[JobHandle]:
        """The jobs not ended yet (of ``owner`` and ``lane`` when given; ``owner`` None: every owner)."""
        return [h for h in self._active
                if (owner is None or h.owner is owner) and (lane is None or h.lane == lane)]

    def cancel(self, owner: object, lane: str | None = None) -> list[JobHandle]:
        """Cancel ``owner``'s running jobs (of ``lane`` only, when given); their cancel events follow."""
        handles = self.running(owner, lane)
        for handle in handles:
            handle.cancel()
        return handles

    def close_owner(self, owner: object) -> int:
        """``owner`` is gone (a scene popped): cancel its jobs and drop their events, except the jobs
        submitted with ``outlive_owner``.  Returns how many were stopped."""
        stopped = [h for h in self.running(owner) if not h.outlive_owner]
        for handle in stopped:
            self._drop(handle)
        return len(stopped)

    def shutdown(self, timeout: float = 1.0) -> None:
        """Cancel and drop every job, waiting up to ``timeout`` seconds in all for them to stop."""
        handles = list(self._active)
        for handle in handles:
            self._drop(handle)
        end = time.perf_counter() + timeout
        for handle in handles:
            handle.wait(max(0.0, end - time.perf_counter()))

    # ----------------------------------------------------------------- internals
    def _drop(self, handle: JobHandle) -> None:
        handle.cancel()
        handle.state = JobState.DROPPED
        self._forget(handle)

    def _forget(self, handle: JobHandle) -> None:
        if handle in self._active:
            self._active.remove(handle)

    def _run(self, handle: JobHandle, job: Job, how: Execution, time_limit: float | None) -> None:
        """The job's thread (or the caller, inline): run it, queue its events."""
        def put(kind: JobEventKind, payload: Any = None, message: str = "", detail: str = "") -> None:
            self._events.put((handle, kind, payload, message, detail, time.perf_counter() - handle.started))

        def report(payload: Any) -> None:
            put(JobEventKind.PROGRESS, payload)

        try:
            if how == Execution.CHILD_PROCESS:  # (a partial: no frame of this method in the child's stack)
                result = run_in_child(functools.partial(_in_child, job, time_limit, handle.label), handle._cancel,
                                      report)
            else:
                result = job(SolveContext.create(time_limit=time_limit, cancel=handle._cancel, progress=report,
                                                 solver=handle.label))
        except JobCancelled:
            handle.ended = time.perf_counter()
            put(JobEventKind.CANCELLED)
        except JobFailed as exc:
            handle.ended = time.perf_counter()
            put(JobEventKind.ERROR, None, str(exc), exc.detail)
        except Exception as exc:  # noqa: BLE001 - a crashing job must never take the app down
            handle.ended = time.perf_counter()
            put(JobEventKind.ERROR, None, f"{type(exc).__name__}: {exc}", traceback.format_exc())
        else:
            handle.ended = time.perf_counter()
            put(JobEventKind.CANCELLED if handle.cancel_requested and _says_cancelled(result) else JobEventKind.DONE,
                result)
        finally:
            handle._finished.set()


_END_STATE = {JobEventKind.DONE: JobState.DONE, JobEventKind.ERROR: JobState.FAILED,
              JobEventKind.CANCELLED: JobState.CANCELLED}


def default_execution() -> Execution:
    """A child process where ``fork`` exists, else a thread."""
    return Execution.CHILD_PROCESS if fork_available() else Execution.THREAD


def _in_child(job: Job, time_limit: float | None, label: str, report: Report) -> Any:
    """The job in its child process, with a context made there (a cancel kills the child)."""
    return job(SolveContext.create(time_limit=time_limit, progress=report, solver=label))


def _says_cancelled(result: Any) -> bool:
    """True when a result says it was cancelled: None, or a solve result with status cancelled."""
    return result is None or getattr(result, "status", None) == SolveStatus.CANCELLED


__all__ = ["Callback", "Execution", "FINAL", "Job", "Report", "JobEvent", "JobEventKind", "JobHandle", "JobRunner",
           "JobState", "default_execution"]
