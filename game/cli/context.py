"""A command's limits become its one :class:`~ai.kernel.context.SolveContext` here, and signals stop it.

Every command that takes a ``--time-limit`` runs its work inside :func:`command_context` and passes the
context down (``ctx=``); inside the AI a budget is a child of it.

Ctrl-C (SIGINT) and SIGTERM stop a command the same way (:func:`stop_signals`, entered by
:func:`game.cli.main.main` for the whole command and by every :func:`command_context`):

1. the signal cancels every open command context *at once*, even while the main thread is blocked in a
   native solver (a watcher thread reads Python's signal wake-up pipe), so every thread, stop-watcher and
   solver working under it stops;
2. then the main thread raises :class:`KeyboardInterrupt` (SIGINT) or :class:`Terminated` (SIGTERM), which
   unwinds the command (every ``finally`` runs: pools are terminated and joined, child processes killed,
   atomic writes abandoned); ``main`` prints ``interrupted`` (exit 130) or ``terminated`` (exit 143);
3. a process forked meanwhile (a pool worker, a job's child) leaves both signals to its parent: it ignores
   SIGINT (the terminal sends Ctrl-C to the whole process group) and dies quietly on SIGTERM (the parent's
   way of ending it), so no worker prints a traceback.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from types import FrameType
from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:
    from ai.facade import SolveContext


class Terminated(BaseException):
    """SIGTERM arrived: unwinds the command like Ctrl-C; ``main`` prints ``terminated`` and returns 143."""


#: The exit code of a command stopped by each signal (128 + the signal's number).
EXIT_CODES = {signal.SIGINT: 130, signal.SIGTERM: 143}


class _State:
    """The process's signal handling while :func:`stop_signals` is entered (main thread only)."""

    depth = 0  #: nesting of :func:`stop_signals` (handlers are installed by the outermost one)
    owner = 0  #: the process that installed the handlers (a forked child inherits them until it resets them)
    received: list[int] = []  #: the stop signals received, in order
    cancels: list[threading.Event] = []  #: the cancel events of the open command contexts


def _cancel_all() -> None:
    """Set the cancel event of every open command context."""
    for event in list(_State.cancels):
        event.set()


def _on_stop_signal(signum: int, frame: FrameType | None) -> None:
    """The handler of SIGINT and SIGTERM: cancel every open context, then unwind the main thread.  In a
    child forked before it set its own handlers (a pool worker starting), Ctrl-C is ignored and SIGTERM
    ends the child at once: an exception there could be swallowed and leave it running."""
    if os.getpid() != _State.owner:
        if signum == signal.SIGTERM:
            os._exit(128 + signum)
        return
    _State.received.append(signum)
    _cancel_all()
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Terminated


def _ours_or(handler: Any, default: Any) -> bool:
    """True when a signal's handler is ours or the one we take over (another one is left alone)."""
    return handler is _on_stop_signal or handler is default


def _watch_wakeup(read_fd: int, done: threading.Event) -> None:
    """The watcher thread: each signal number Python writes to the wake-up pipe cancels every context."""
    while not done.is_set():
        try:
            data = os.read(read_fd, 64)
        except OSError:
            return
        if not data:
            return
        signums = [byte for byte in data if byte in EXIT_CODES]
        if signums:
            _cancel_all()
            _State.received.extend(signums)  # the command may end on the cancel before the handler runs


@contextlib.contextmanager
def _wakeup_watcher() -> Iterator[None]:
    """While inside, a stop signal cancels every open context even when the main thread is blocked in C."""
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)
    try:
        previous = signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
    except ValueError:  # not the main thread
        os.close(read_fd)
        os.close(write_fd)
        yield
        return
    if previous != -1:  # someone else (an event loop) listens to the wake-up fd: leave it theirs
        signal.set_wakeup_fd(previous)
        os.close(read_fd)
        os.close(write_fd)
        yield
        return
    done = threading.Event()
    watcher = threading.Thread(target=_watch_wakeup, args=(read_fd, done), name="stop-signal-watch", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        signal.set_wakeup_fd(-1)
        done.set()
        os.write(write_fd, b"\0")  # wakes the watcher (0 is no signal)
        watcher.join()
        os.close(read_fd)
        os.close(write_fd)


@contextlib.contextmanager
def stop_signals() -> Iterator[list[int]]:
    """While inside: SIGINT and SIGTERM cancel every open command context, then raise
    :class:`KeyboardInterrupt` and :class:`Terminated` (see the module docstring).  Yields the list of
    stop signals received.  Re-entrant; only in the main thread; a handler someone else installed (an
    ignored signal, a custom handler) is left alone; the previous handlers are back afterwards."""
    if threading.current_thread() is not threading.main_thread():
        yield list(_State.received)
        return
    if _State.depth:
        _State.depth += 1
        try:
            yield _State.received
        finally:
            _State.depth -= 1
        return
    previous = {signal.SIGINT: signal.getsignal(signal.SIGINT), signal.SIGTERM: signal.getsignal(signal.SIGTERM)}
    defaults = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: signal.SIG_DFL}
    taken = [sig for sig, handler in previous.items() if _ours_or(handler, defaults[sig])]
    _State.depth, _State.received, _State.owner = 1, [], os.getpid()
    try:
        with _wakeup_watcher():
            for sig in taken:
                signal.signal(sig, _on_stop_signal)
            try:
                yield _State.received
            finally:
                for sig in taken:
                    signal.signal(sig, previous[sig])
    finally:
        _State.depth = 0


def _leave_signals_to_parent() -> None:
    """In a process forked while :func:`stop_signals` is entered: ignore Ctrl-C, die quietly on SIGTERM,
    and write nothing to the parent's wake-up pipe (the parent stops its children itself)."""
    if not _State.depth:
        return
    _State.depth, _State.cancels = 0, []
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    with contextlib.suppress(ValueError):
        signal.set_wakeup_fd(-1)


os.register_at_fork(after_in_child=_leave_signals_to_parent)


@contextlib.contextmanager
def command_context(time_limit: float | None, *, solver: str = "") -> Iterator[SolveContext]:
    """The one context of a command: its ``--time-limit`` (``None``: no limit), cancelled by Ctrl-C and SIGTERM.

    A stop signal sets the context's cancel event at once, then raises :class:`KeyboardInterrupt` or
    :class:`Terminated`: :func:`game.cli.main.main` prints ``interrupted`` (130) or ``terminated`` (143).
    Whatever else leaves the block early also sets it, so no thread keeps working under it.
    """
    from ai.facade import SolveContext  # late: the AI (OR-Tools, numpy models) loads only when a command runs it

    cancel = threading.Event()
    with stop_signals():
        _State.cancels.append(cancel)
        try:
            yield SolveContext.create(time_limit=time_limit, cancel=cancel, solver=solver)
        except BaseException:
            cancel.set()
            raise
        finally:
            _State.cancels.remove(cancel)


def stop_exit_code(received: list[int], exc: BaseException | None) -> int | None:
    """The exit code of a command that raised ``exc``: 130 or 143 when a stop signal is behind it (also for
    an error a library raised while a signal unwound it, e.g. an import cut short), else ``None``."""
    if isinstance(exc, Terminated):
        return EXIT_CODES[signal.SIGTERM]
    if isinstance(exc, KeyboardInterrupt):
        return EXIT_CODES[signal.SIGINT]
    return EXIT_CODES.get(signal.Signals(received[-1])) if received else None


#: What ``main`` prints for each exit code of a stopped command.
STOP_MESSAGES: dict[int, str] = {130: "interrupted", 143: "terminated"}

__all__ = ["EXIT_CODES", "STOP_MESSAGES", "Terminated", "command_context", "stop_exit_code", "stop_signals"]
