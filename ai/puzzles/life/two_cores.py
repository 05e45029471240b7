"""Reverse Life on two cores: the SAT chain in a forked child process while the caller runs the local search.

python-sat holds the interpreter lock while CaDiCaL searches, so a second thread cannot search beside it;
a child process can.  :class:`ChainChild` forks (from the calling thread, before any other work starts,
through the kernel's :class:`~ai.kernel.process.ChildJob`) a child that runs
:func:`ai.puzzles.life.sat.chain` until a deadline and sends back what it found (:class:`ChainAnswer`);
a watcher thread in the parent receives it and sets :attr:`ChainChild.exact` when
the answer is an exact start, so the local search beside it can stop at once.  :meth:`ChainChild.stop`
kills the child when it is still running (a cancel, or the local search found an exact start first).
For k >= 3, a chain that has stalled (:data:`STALL_SHARE`) gives way in the child to a second local search
(:func:`ai.puzzles.life.polish.polish_until_stopped`), whose best start comes back as the answer's ``best``.

The child ignores Ctrl-C (the parent stops it), dies with its parent on Linux, stays in the parent's
process group (a job runner that kills the group kills it too) and never runs past its deadline.
"""

from __future__ import annotations

import functools
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ai.kernel.context import SolveContext
from ai.kernel.process import ChildJob, JobFailed, fork_available
from ai.puzzles.life.polish import polish_until_stopped, wrong_cells
from ai.puzzles.life.sat import chain
from game.core.puzzles.life.rules import Board, Rule

#: How often the watcher thread looks at the pipe, in seconds.
POLL = 0.005
#: For k >= :data:`STALL_MIN_STEPS`, a chain that has met no board of level k - 1 within :data:`STALL_SHARE`
#: of its time has stalled: on the benchmark's dense 25x25 boards it finds one predecessor in a second or
#: two and never a second level in ten (nor a third on the 56- and 79-cell boards stuck at level 2), while
#: the chain's late exact starts (after 4-9 s) came on boards where it had reached level k - 1 within 3.5 s.
#: The child then runs a second local search beside the parent's (other random choices) for the rest of
#: the time.
STALL_MIN_STEPS = 3
STALL_SHARE = 0.4
#: The first seed of the child's local search (the parent's starts at 0).
CHILD_SEED = 1000


@dataclass(frozen=True)
class ChainAnswer:
    """What the child's chain found: an exact start (or None), whether the target has no predecessor at all
    (proved), and the board it met with the fewest wrong cells as a start (or None; ``polished``: found by
    the local search after the chain stalled)."""

    start: Board | None
    garden_of_eden: bool
    best: Board | None
    polished: bool = False


def can_fork() -> bool:
    """True where :class:`ChainChild` can run (a ``fork`` start method)."""
    return fork_available()


def _chain_job(target: Board, rule: Rule, steps: int, deadline: float, report: Callable[[Any], None]) -> ChainAnswer:
    """The child's job: the chain until ``deadline`` (a :func:`time.perf_counter` value), or the local search
    once the chain has stalled (:func:`_stalled_after`)."""
    ctx = SolveContext.create(time_limit=max(0.0, deadline - time.perf_counter()))
    fewest = [wrong_cells(np.zeros_like(target), target, rule, steps)]
    best: list[Board] = []
    deepest = [0]

    def consider(level: int, board: Board) -> None:
        deepest[0] = max(deepest[0], level)
        wrong = wrong_cells(board, target, rule, steps)
        if wrong < fewest[0]:
            fewest[0] = wrong
            best[:] = [board.copy()]

    stalled = threading.Event()
    after = _stalled_after(steps, ctx.remaining())
    timer = None if after is None else threading.Timer(
        after, lambda: stalled.set() if deepest[0] < steps - 1 else None)
    if timer is not None:
        timer.start()
    try:
        found = chain(target, rule, steps, ctx.child(cancel=stalled), on_board=consider)
    finally:
        if timer is not None:
            timer.cancel()
    polished = False
    if found.start is None and not found.garden_of_eden and stalled.is_set():
        origin = best[0] if best else np.zeros_like(target)
        if wrong_cells(target, target, rule, steps) < fewest[0]:
            origin = target
        start, wrong = polish_until_stopped(origin, target, rule, steps, ctx, seed=CHILD_SEED)
        if wrong < fewest[0]:
            best[:], polished = [start], True
    return ChainAnswer(found.start, found.garden_of_eden, best[0] if best else None, polished)


def _stalled_after(steps: int, remaining: float | None) -> float | None:
    """Seconds after which the child's chain, when it has met no board of level ``steps - 1``, gives way to
    the local search (None: never)."""
    if remaining is None or steps < STALL_MIN_STEPS:
        return None
    return remaining * STALL_SHARE


class ChainChild:
    """The SAT chain for ``target`` in a child process until ``deadline`` (a :func:`time.perf_counter` value).

    The child stays in this process's group and at its priority (the chain is half of this answer's work)."""

    def __init__(self, target: Board, rule: Rule, steps: int, deadline: float) -> None:
        self.exact = threading.Event()  #: set when the child's answer is an exact start
        self.answered = threading.Event()  #: set when the child's answer (any) arrived, or it is gone
        self.answer: ChainAnswer | None = None
        self._child = ChildJob(functools.partial(_chain_job, target, rule, steps, deadline), nice=0,
                               own_group=False, name="life-sat-chain")
        self._stopped = threading.Event()
        self._watcher = threading.Thread(target=self._watch, name="life-sat-chain-watcher", daemon=True)
        self._watcher.start()

    def _watch(self) -> None:
        """Receive the answer (or notice that the child is gone)."""
        while not self._stopped.is_set():
            try:
                done, answer = self._child.result(POLL)
            except JobFailed:
                break
            if not done:
                continue
            if isinstance(answer, ChainAnswer):
                self.answer = answer
                if answer.start is not None:
                    self.exact.set()
            break
        self.answered.set()

    def wait(self, timeout: float) -> ChainAnswer | None:
        """The answer, waiting at most ``timeout`` seconds for it."""
        self.answered.wait(max(0.0, timeout))
        return self.answer

    def stop(self) -> None:
        """Kill the child when it is still running; free the pipe and the watcher."""
        self._stopped.set()
        self._watcher.join()
        self._child.stop(wait=True)


__all__ = ["ChainAnswer", "ChainChild", "can_fork"]
