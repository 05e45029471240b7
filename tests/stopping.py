"""Test doubles for stopping, so no test depends on the machine's speed.

* :class:`CancelOnPoll`: a cancel event that sets itself the ``n``-th time anyone asks it
  (:meth:`~threading.Event.is_set`), i.e. after a fixed amount of the solver's own work
  (its ``ctx.check()`` calls, or its stop-watcher's polls), never after a wall-clock delay.
  ``fired_at`` says when, so a test can bound how long the solver took to stop after that.
* :func:`expired`: a context whose deadline has already passed (the injected clock is past it).
* :func:`cancelled`: an event that is already set.
* :data:`STOP_GUARD`: how long a test waits for work to stop before calling it a hang. It is a
  guard, not a speed figure: each test's work would run far longer (or forever) if the stop
  were ignored, so the test fails on an ignored stop, on any machine. The stop latencies
  themselves are figures of ``bench/`` (results.md: "Cancel latency").

>>> event = CancelOnPoll(2)
>>> event.is_set(), event.is_set(), event.is_set(), event.fired_at is not None
(False, True, True, True)
>>> expired().should_stop(), cancelled().is_set()
(True, True)
"""

from __future__ import annotations

import threading
import time

from ai.kernel.context import ManualClock, SolveContext

STOP_GUARD = 10.0
"""Seconds a test waits for a stop before calling it a hang (never a speed requirement)."""


class CancelOnPoll(threading.Event):
    """An event that sets itself on the ``n``-th :meth:`is_set` call (``n`` >= 1) and records when."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n
        self.polls = 0
        self.fired_at: float | None = None
        self._count = threading.Lock()

    def is_set(self) -> bool:
        """Whether the event is set; the ``n``-th call sets it."""
        with self._count:
            self.polls += 1
            if self.polls == self.n and not super().is_set():
                self.fired_at = time.perf_counter()
                self.set()
        return super().is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Like :meth:`threading.Event.wait`, counting as one poll."""
        if self.is_set():
            return True
        return super().wait(timeout)


def expired(*, solver: str = "") -> SolveContext:
    """A context whose deadline has passed (its clock is already past it)."""
    clock = ManualClock(100.0)
    ctx = SolveContext.create(time_limit=1.0, clock=clock, solver=solver)
    clock.advance(2.0)
    return ctx


def cancelled() -> threading.Event:
    """A cancel event that is already set."""
    event = threading.Event()
    event.set()
    return event


__all__ = ["STOP_GUARD", "CancelOnPoll", "cancelled", "expired"]
