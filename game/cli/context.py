"""A command's limits become its one :class:`~ai.kernel.context.SolveContext` here, at the entry point.

Every command that takes a ``--time-limit`` runs its work inside :func:`command_context` and passes the
context down (``ctx=``); inside the AI a budget is a child of it.  Ctrl-C cancels the context, so every
thread and stop-watcher working under it stops, and then interrupts as usual (``interrupted``, exit 130).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from types import FrameType
from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:
    from ai.facade import SolveContext


@contextlib.contextmanager
def _ctrl_c_cancels(cancel: threading.Event) -> Iterator[None]:
    """While inside, Ctrl-C sets ``cancel`` (so every thread and stop-watcher working under the context
    stops) and then raises :class:`KeyboardInterrupt` as usual.  Only in the main thread, and only when
    Python's own Ctrl-C handler is in place (an ignored or custom handler is left alone)."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return

    def on_ctrl_c(signum: int, frame: FrameType | None) -> None:
        cancel.set()
        signal.default_int_handler(signum, frame)

    signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@contextlib.contextmanager
def command_context(time_limit: float | None, *, solver: str = "") -> Iterator[SolveContext]:
    """The one context of a command: its ``--time-limit`` (``None``: no limit), cancelled by Ctrl-C.

    Ctrl-C sets the context's cancel event, then raises :class:`KeyboardInterrupt`:
    :func:`game.cli.main.main` prints ``interrupted`` and returns 130.
    """
    from ai.facade import SolveContext  # late: the AI (OR-Tools, numpy models) loads only when a command runs it

    cancel = threading.Event()
    with _ctrl_c_cancels(cancel):
        yield SolveContext.create(time_limit=time_limit, cancel=cancel, solver=solver)


__all__ = ["command_context"]
