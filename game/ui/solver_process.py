"""Run an AI job in a child process, as an :class:`ai.assistant.worker.Worker` task.

A solver running in a thread of the game's process shares the interpreter lock with the
UI thread: a pure-Python solver then steals frames, and a solver that is slow to honour
``cancel`` keeps the CPU busy after Esc.  :func:`process_task` wraps a job so that the
worker's thread only supervises a forked child process: the child computes (at a lower
CPU priority) and sends its progress reports and its result back through a pipe; the
worker's cancel kills the child at once; a job that raises, or a child that dies, becomes
the worker's ``error`` event.  Where ``fork`` is not available the job runs in the
worker's thread as before.

>>> from ai.assistant.worker import Worker
>>> worker = Worker()
>>> job = worker.submit(process_task(lambda report: 6 * 7), label="answer")
>>> worker.wait(job, timeout=10.0)
True
>>> [(e.kind, e.payload) for e in worker.poll()]
[('done', 42)]
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import threading
import time
import traceback
from typing import Any, Callable

#: A job for :func:`process_task`: called (in the child) with a progress-report function.
Job = Callable[[Callable[[Any], None]], Any]

#: Nice value added in the child, so the game's UI keeps priority on a busy machine.
CHILD_NICE = 10
#: Progress reports sent per second at most (the latest one always wins).
PROGRESS_RATE = 20.0
#: How often the supervising thread checks the pipe and the cancel event, in seconds.
POLL = 0.005


class JobFailed(RuntimeError):
    """The job raised in the child (message: ``"ErrorType: text"``) or the child died."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail


def fork_available() -> bool:
    """True where jobs can run in a forked child process (Linux, macOS)."""
    return "fork" in multiprocessing.get_all_start_methods()


def process_task(job: Job, *, nice: int = CHILD_NICE, preload: tuple[str, ...] = ()
                 ) -> Callable[[threading.Event, Callable[[Any], None]], Any]:
    """A :data:`ai.assistant.worker.Task` that runs ``job(report)`` in a forked child process.

    ``preload`` names modules to import in the game's process first (once), so that every
    later child inherits them instead of importing them again (OR-Tools takes ~0.5 s).
    Returns ``None`` when cancelled (the worker then reports ``cancelled``); raises
    :class:`JobFailed` when the job raised or the child died.
    """

    def task(cancel: threading.Event, report: Callable[[Any], None]) -> Any:
        if not fork_available():
            return job(report)
        for name in preload:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 - the child meets (and reports) the same error
                pass
        if cancel.is_set():
            return None
        ctx = multiprocessing.get_context("fork")
        receiver, sender = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_child, args=(job, sender, nice), daemon=True, name="ai-job")
        proc.start()
        sender.close()
        try:
            while True:
                if cancel.is_set():
                    return None
                if receiver.poll(POLL):
                    try:
                        message = receiver.recv()
                    except (EOFError, OSError):
                        proc.join(1.0)
                        raise JobFailed(f"the solver process died (exit code {proc.exitcode})") from None
                    kind = message[0]
                    if kind == "progress":
                        report(message[1])
                    elif kind == "done":
                        return message[1]
                    else:
                        raise JobFailed(message[1], message[2])
                elif not proc.is_alive() and not receiver.poll():
                    raise JobFailed(f"the solver process died (exit code {proc.exitcode})")
        finally:
            if proc.is_alive():
                proc.kill()  # SIGKILL: the child stops computing now; reap it without waiting
                threading.Thread(target=proc.join, args=(5.0,), name="ai-job-reaper", daemon=True).start()
            else:
                proc.join(1.0)
            receiver.close()

    return task


def _child(job: Job, sender: Any, nice: int) -> None:
    """The child process: run the job, send progress (throttled) and the outcome."""
    try:
        os.nice(nice)
    except (AttributeError, OSError):
        pass
    last = [0.0]
    lock = threading.Lock()

    def report(payload: Any) -> None:
        now = time.monotonic()
        if now - last[0] < 1.0 / PROGRESS_RATE:
            return
        last[0] = now
        with lock:
            try:
                sender.send(("progress", payload))
            except Exception:  # noqa: BLE001 - an unpicklable report is dropped, never fatal
                pass

    try:
        result = job(report)
        with lock:
            sender.send(("done", result))
    except BaseException as exc:  # noqa: BLE001 - every failure goes back to the game
        with lock:
            try:
                sender.send(("error", f"{type(exc).__name__}: {exc}", traceback.format_exc()))
            except Exception:  # noqa: BLE001
                pass
    finally:
        sender.close()


__all__ = ["JobFailed", "fork_available", "process_task"]
