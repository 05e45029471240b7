"""The one way AI work runs in a child process: :func:`run_in_child`.

Used by the UI's one job runner (``game.app.jobs.JobRunner`` runs every assistant, editor, export and
puzzle job through it) and by MILP's cancellable backend (:mod:`ai.solvers.milp.solver`), including when a
MILP solve itself runs inside such a child.  The child:

* is forked (``fork`` start method) and **not daemonic**, so it may start processes of its own;
* leads its own process group when started from a process that is not itself a runner child, so
  cancelling kills the job *and everything it started* (``killpg``) at once;
* dies with its parent on Linux (``PR_SET_PDEATHSIG``), and every live child is killed when the
  parent's interpreter exits (``atexit``), so no solver keeps running after the game closed;
* leaves Ctrl-C and SIGTERM to its parent (:func:`leave_signals_to_parent`): no traceback from it on a stop;
* runs at a lower CPU priority (``nice``) and sends its progress reports (throttled) and its result
  back through a pipe.  A job that raises becomes :class:`JobFailed` with the traceback as detail;
* never garbage-collects what it inherits (``gc.freeze`` across the fork): a finalizer run there could
  wait forever on a lock that another thread of the parent held at the fork.

Where ``fork`` is not available (Windows) the job runs in the calling thread.

>>> import threading
>>> run_in_child(lambda report: 6 * 7, threading.Event())
42
>>> try:
...     run_in_child(lambda report: 1 // 0, threading.Event())
... except JobFailed as exc:
...     print(exc, "|", "Traceback" in exc.detail)
ZeroDivisionError: integer division or modulo by zero | True
"""

from __future__ import annotations

import atexit
import ctypes
import gc
import multiprocessing
import multiprocessing.util  # noqa: F401 - registers its exit handler before ours (ours runs first)
import os
import signal
import sys
import threading
import time
import traceback
from typing import Any, Callable

from ai.kernel.libraries import PRELOAD, load

#: A job: called (in the child) with a progress-report function; returns a picklable result.
Job = Callable[[Callable[[Any], None]], Any]
#: Where progress reports go in the parent.
Report = Callable[[Any], None]

#: Nice value added in a top-level child, so the game's UI keeps priority on a busy machine.
CHILD_NICE = 10
#: Progress reports sent per second at most (later ones within the interval are dropped).
PROGRESS_RATE = 20.0
#: How often the supervising thread checks the pipe and the cancel event, in seconds.
POLL = 0.005

#: True in a process started by :func:`run_in_child` (its children stay in its process group).
_in_child = False
#: Live children started by this process: pid -> leads its own process group.
_live: dict[int, bool] = {}
_live_lock = threading.Lock()


class JobFailed(RuntimeError):
    """The job raised in the child (message ``"ErrorType: text"``, traceback in ``detail``) or the
    child died."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail


class JobCancelled(Exception):
    """The cancel event was set: the child was killed before it answered."""


def fork_available() -> bool:
    """True where jobs can run in a forked child process (Linux, macOS)."""
    return "fork" in multiprocessing.get_all_start_methods()


def in_child() -> bool:
    """True inside a process started by :func:`run_in_child`."""
    return _in_child


def run_in_child(job: Job, cancel: threading.Event, report: Report | None = None, *,
                 nice: int | None = None, preload: bool = True) -> Any:
    """Run ``job(report)`` in a child process and return its result.

    Raises :class:`JobCancelled` as soon as ``cancel`` is set (the child and its own children are
    killed), :class:`JobFailed` when the job raised or the child died.  With ``preload`` (for a process
    that starts many children, such as the app's job runner) the heavy libraries every job needs
    (:data:`ai.kernel.libraries.PRELOAD`) load here first, so that later children inherit them; without
    it the child loads what it uses, inside the time it may be killed at (a one-off child under a deadline).
    ``nice`` defaults to :data:`CHILD_NICE` at top level and 0 inside a runner child.
    """
    if not fork_available():
        return job(report or _ignore)
    if preload:
        load(*PRELOAD)
    if cancel.is_set():
        raise JobCancelled
    child = ChildJob(job, nice=nice)
    try:
        while True:
            if cancel.is_set():
                raise JobCancelled
            done, result = child.result(POLL, report)
            if done:
                return result
    finally:
        child.stop()


class ChildJob:
    """One job started in a forked child (as the module docstring says) that its caller polls: what
    :func:`run_in_child` waits on, and what a caller working beside its child uses directly (reverse Life
    on two cores).  ``own_group``: the child leads its own process group (default: when this process is
    not itself a runner child); ``nice`` as for :func:`run_in_child`."""

    def __init__(self, job: Job, *, nice: int | None = None, own_group: bool | None = None,
                 name: str = "ai-job") -> None:
        context = multiprocessing.get_context("fork")
        self._receiver, sender = context.Pipe(duplex=False)
        self.own_group = not _in_child if own_group is None else own_group
        niceness = nice if nice is not None else (CHILD_NICE if self.own_group else 0)
        self._process = context.Process(target=_child_main, name=name, daemon=False,
                                        args=(job, sender, niceness, self.own_group, os.getpid()))
        # The child never collects what it inherits: a finalizer run there by the garbage collector could
        # wait forever on a lock another thread of this process held at the fork.
        gc.freeze()
        try:
            self._process.start()
        finally:
            gc.unfreeze()
        assert self._process.pid is not None
        self.pid: int = self._process.pid
        if self.own_group:
            try:
                os.setpgid(self.pid, self.pid)  # also here: a stop right after the start must reach the group
            except OSError:
                pass
        with _live_lock:
            _live[self.pid] = self.own_group
        sender.close()

    def result(self, timeout: float, report: Report | None = None) -> tuple[bool, Any]:
        """Wait at most ``timeout`` seconds for the job's result: ``(True, result)`` once it has returned,
        ``(False, None)`` while it still runs (a progress report that came meanwhile goes to ``report``);
        :class:`JobFailed` when the job raised or the child died without answering."""
        if self._receiver.poll(timeout):
            try:
                message = self._receiver.recv()
            except (EOFError, OSError):
                self._process.join(1.0)
                raise JobFailed(f"the solver process died (exit code {self._process.exitcode})") from None
            if message[0] == "done":
                return True, message[1]
            if message[0] != "progress":
                raise JobFailed(message[1], message[2])
            if report is not None:
                report(message[1])
        elif not self._process.is_alive() and not self._receiver.poll():
            raise JobFailed(f"the solver process died (exit code {self._process.exitcode})")
        return False, None

    def stop(self, *, wait: bool = False) -> None:
        """Kill the child (and its group, when it leads one) if still running, reap it (``wait``: before
        returning; else in a thread when it has not died yet), close the pipe."""
        _stop(self.pid, self.own_group)
        if wait:
            self._process.join()
        elif self._process.is_alive():
            # reap without waiting: the kill is immediate, the join is bookkeeping
            threading.Thread(target=self._process.join, args=(5.0,), name="ai-job-reaper", daemon=True).start()
        else:
            self._process.join(1.0)
        self._receiver.close()


def _stop(pid: int, own_group: bool) -> None:
    """SIGKILL the child (and its process group, when it leads one); forget it."""
    with _live_lock:
        _live.pop(pid, None)
    if own_group:
        try:
            os.killpg(pid, signal.SIGKILL)
            return
        except (ProcessLookupError, PermissionError):
            pass
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def kill_all() -> None:
    """Kill every live child of this process (and their groups); called at interpreter exit."""
    with _live_lock:
        live = list(_live.items())
    for pid, own_group in live:
        _stop(pid, own_group)


def leave_signals_to_parent() -> None:
    """In a worker or child process: ignore Ctrl-C (the terminal sends it to the whole process group) and
    die quietly on SIGTERM (how the parent ends its workers), so a stop prints no traceback from a worker;
    the parent stops, terminates and joins its workers.  Also detaches from the parent's signal wake-up
    pipe, so a signal here never reaches the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        signal.set_wakeup_fd(-1)
    except ValueError:  # not the main thread: nothing was inherited there
        pass


def _ignore(payload: Any) -> None:
    """A report function that drops everything."""


def die_with_parent(parent: int) -> None:
    """Linux: SIGKILL this process when the thread that forked it ends; exit if that already happened."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)


def _child_main(job: Job, sender: Any, nice: int, own_group: bool, parent: int) -> None:
    """The child process: run the job, send progress (throttled) and the outcome."""
    global _in_child, _live, _live_lock
    _in_child = True
    _live, _live_lock = {}, threading.Lock()  # the parent's children are not ours; its lock may be held
    leave_signals_to_parent()  # the parent kills this process (and its group) when it stops
    if own_group:
        try:
            os.setpgid(0, 0)
        except OSError:
            pass
    die_with_parent(parent)
    if nice:
        try:
            os.nice(nice)
        except OSError:
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
    except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent
        with lock:
            try:
                sender.send(("error", f"{type(exc).__name__}: {exc}", traceback.format_exc()))
            except Exception:  # noqa: BLE001
                pass
    finally:
        sender.close()


atexit.register(kill_all)

__all__ = ["CHILD_NICE", "ChildJob", "Job", "JobCancelled", "JobFailed", "fork_available", "in_child", "kill_all",
           "die_with_parent", "leave_signals_to_parent", "run_in_child"]
