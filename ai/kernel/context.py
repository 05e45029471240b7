"""The solve context: the one way a solve learns its deadline, its cancel request and where to report.

Every solver receives a :class:`SolveContext` and hands it (or a :meth:`~SolveContext.child` of it) to
everything it calls that can take time: reachability, search loops, model building, MILP/LP backends,
gradient iterations, rule derivation.  Long loops call :meth:`~SolveContext.check` every few
milliseconds of work; it raises :class:`SolveStopped` once the caller cancelled or the deadline passed.
Code that waits inside a C++ solver uses :meth:`~SolveContext.watch`, the single stop-watcher thread.

>>> ctx = SolveContext.create(time_limit=None)
>>> ctx.remaining() is None, ctx.should_stop()
(True, False)
>>> event = threading.Event()
>>> child = ctx.child(time_limit=5.0, cancel=event)
>>> event.set()
>>> child.stop_reason(), ctx.stop_reason() is None
(<StopReason.CANCELLED: 'cancelled'>, True)
>>> SolveContext.create(time_limit=0.0).stop_reason()
<StopReason.TIMEOUT: 'timeout'>

The clock is injectable, so tests drive deadlines without sleeping (children inherit it):

>>> clock = ManualClock()
>>> timed = SolveContext.create(time_limit=2.0, clock=clock).child(time_limit=5.0)
>>> timed.remaining(), timed.should_stop()
(2.0, False)
>>> clock.advance(2.0)
>>> timed.stop_reason()
<StopReason.TIMEOUT: 'timeout'>
"""

from __future__ import annotations

import contextlib
import enum
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator


@dataclass(frozen=True)
class Progress:
    """A progress report sent to a context's ``progress`` sink during a solve (:meth:`SolveContext.report`)."""

    solver: str
    elapsed: float
    message: str = ""
    best_bricks: int | None = None
    best_bound: float | None = None
    solutions_found: int = 0


ProgressCallback = Callable[[Progress], None]

Clock = Callable[[], float]


class ManualClock:
    """A clock that moves only when told (:meth:`advance`), or by ``step`` each time it is read.

    Deterministic deadlines in tests: with ``step``, a deadline passes after a fixed number of reads
    (a fixed amount of the solver's work), whatever the machine's speed.

    >>> ticking = ManualClock(step=0.5)
    >>> ticking(), ticking(), ticking()
    (0.0, 0.5, 1.0)
    """

    def __init__(self, now: float = 0.0, *, step: float = 0.0) -> None:
        self.now = now
        self.step = step
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            now = self.now
            self.now += self.step
            return now

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` forward."""
        with self._lock:
            self.now += seconds


class StopReason(str, enum.Enum):
    """Why a solve must stop early."""

    CANCELLED = "cancelled"  #: the caller set a cancel event
    TIMEOUT = "timeout"  #: the deadline passed


class SolveStopped(Exception):
    """Raised by :meth:`SolveContext.check` inside any loop that must stop; the solver base catches it."""

    def __init__(self, reason: StopReason) -> None:
        super().__init__(reason.value)
        self.reason = reason


@dataclass(frozen=True)
class SolveContext:
    """Deadline, cancel events and progress sink of one solve (or of one part of it).

    ``deadline`` is an absolute value of ``clock`` (:func:`time.perf_counter` unless a test injects
    another; ``None``: no limit). A context is cancelled when any of its ``cancel_events`` is set, so a
    child made for a racer stops when the race ends *or* when the caller cancels.
    """

    start: float
    deadline: float | None = None
    cancel_events: tuple[threading.Event, ...] = ()
    progress: ProgressCallback | None = None
    solver: str = ""
    #: Work shared by everything under one solve (e.g. the reachability analysis), keyed by name.
    shared: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    #: Where the time comes from; children inherit it.
    clock: Clock = field(default=time.perf_counter, compare=False, repr=False)

    @classmethod
    def create(
        cls,
        *,
        time_limit: float | None = None,
        cancel: threading.Event | None = None,
        progress: ProgressCallback | None = None,
        solver: str = "",
        clock: Clock = time.perf_counter,
    ) -> SolveContext:
        """A context starting now; ``time_limit`` in seconds (``None`` or ``inf``: no limit)."""
        start = clock()
        deadline = None if time_limit is None or time_limit == float("inf") else start + max(0.0, time_limit)
        return cls(start, deadline, (cancel,) if cancel is not None else (), progress, solver, clock=clock)

    def child(
        self,
        *,
        time_limit: float | None = None,
        cancel: threading.Event | None = None,
        solver: str | None = None,
        share: bool = True,
    ) -> SolveContext:
        """A context for part of this solve: the earlier deadline, this context's cancel events plus ``cancel``.

        ``share=False`` gives the child its own :attr:`shared` cache (for a different level).
        """
        now = self.clock()
        deadline = self.deadline
        if time_limit is not None:
            own = now + max(0.0, time_limit)
            deadline = own if deadline is None else min(deadline, own)
        events = self.cancel_events + ((cancel,) if cancel is not None else ())
        return SolveContext(now, deadline, events, self.progress, self.solver if solver is None else solver,
                            self.shared if share else {}, self.clock)

    # ---- time ---------------------------------------------------------------------------------------
    def elapsed(self) -> float:
        """Seconds since this context started."""
        return self.clock() - self.start

    def remaining(self) -> float | None:
        """Seconds left before the deadline (never negative), ``None`` without one."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - self.clock())

    # ---- stopping -----------------------------------------------------------------------------------
    def cancelled(self) -> bool:
        """True once any cancel event is set."""
        return any(event.is_set() for event in self.cancel_events)

    def stop_reason(self) -> StopReason | None:
        """Why the solve must stop now, or ``None`` while it may go on (cancel wins over timeout)."""
        if self.cancelled():
            return StopReason.CANCELLED
        if self.deadline is not None and self.clock() >= self.deadline:
            return StopReason.TIMEOUT
        return None

    def should_stop(self) -> bool:
        """True once the solve must stop."""
        return self.stop_reason() is not None

    def check(self) -> None:
        """Raise :class:`SolveStopped` when the solve must stop; call it often in long loops."""
        reason = self.stop_reason()
        if reason is not None:
            raise SolveStopped(reason)

    @contextlib.contextmanager
    def watch(self, on_stop: Callable[[], None], *, poll: float = 0.005) -> Iterator[None]:
        """While inside, one watcher thread calls ``on_stop()`` once, within ``poll`` s of a stop.

        For code blocked in native solvers (CP-SAT ``stop_search``, an LP backend's interrupt).
        """
        done = threading.Event()

        def run() -> None:
            while not done.wait(poll):
                if self.should_stop():
                    on_stop()
                    return

        thread = threading.Thread(target=run, name=f"{self.solver or 'solve'}-stop-watch", daemon=True)
        thread.start()
        try:
            yield
        finally:
            done.set()
            thread.join()

    # ---- progress -----------------------------------------------------------------------------------
    def report(self, message: str, **fields: Any) -> None:
        """Send a :class:`Progress` report, when anyone listens."""
        if self.progress is not None:
            self.progress(Progress(solver=self.solver, elapsed=self.elapsed(), message=message, **fields))


__all__ = ["Clock", "ManualClock", "Progress", "ProgressCallback", "SolveContext", "SolveStopped", "StopReason"]
