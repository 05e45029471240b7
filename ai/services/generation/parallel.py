"""Generation runs across cores: rooms of many levels in child processes, a progress bar.

:func:`generate_run` makes ``count`` levels of one :class:`RunSpec`.  Level ``i`` of a run
is cut into rooms (:mod:`ai.services.generation.compartments`); room ``j`` of level ``i`` is one
task, generated from its own seed (:func:`room_seed`), so a seed gives the same levels
whatever the number of ``jobs``, and levels come out in order.  With ``jobs > 1`` up to
``jobs`` tasks run at once, each in a child process of the kernel (:class:`ai.kernel.process.ChildJob`,
killed outright when the run stops); with ``jobs == 1`` in this process.  With a ``difficulty`` band each stitched level is rated
(:func:`ai.services.rating.rate_level`) and kept only when its score falls inside.

>>> spec = RunSpec(8, 10, bricks=1, seed=3)
>>> [g.min_bricks for g in generate_run(spec, count=2, jobs=1)]
[1, 1]
"""

from __future__ import annotations

import collections
import functools
import os
import sys
import time
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator, TextIO

import numpy as np

from ai.kernel.context import SolveContext
from ai.kernel.process import ChildJob
from ai.services.generation.compartments import Room, make_room, plan_rooms, room_seed, stitch
from ai.services.generation.generator import GeneratedLevel, GenerationStats, default_frames
from ai.services.generation.names import level_title
from ai.services.rating import rate_level
from game.core.physics import CLASSIC, Physics

#: Levels tried per requested level at most (rooms that run out of attempts, off-band ratings).
LEVELS_TRIED_PER_LEVEL = 25
#: Seconds between two looks at the running rooms (and at the run's context).
POLL = 0.2


@dataclass(frozen=True)
class RunSpec:
    """What one generation run makes (``frames`` ``None``: the default of the largest room)."""

    height: int
    width: int
    bricks: int
    frames: int | None = None
    lemmings: int = 1
    unique: bool = False
    seed: int = 0
    solver: str | None = None
    time_limit: float | None = 60.0
    max_attempts: int | None = 5_000  #: candidates per room
    rooms: int | None = None  #: None: :func:`ai.services.generation.compartments.room_count`
    difficulty: tuple[float, float] | None = None  #: the rating score band to keep
    physics: Physics = CLASSIC  #: the rules every level's lemmings follow (its ``# physics:`` line)

    def plan(self) -> list[Room]:
        """The rooms every level of the run is cut into."""
        return plan_rooms(self.height, self.width, self.bricks, self.lemmings, self.rooms)

    def level_frames(self) -> int:
        """N of every level."""
        return self.frames if self.frames is not None else max(default_frames(r.height, r.width) for r in self.plan())


@dataclass(frozen=True)
class RunProgress:
    """Where a run stands (what the progress bar shows)."""

    accepted: int
    count: int
    rooms_done: int
    candidates: int
    elapsed: float
    rejected_levels: int = 0

    def bar(self, width: int = 24) -> str:
        """One line, e.g. ``[######------------------] 1/4 levels  0.50/min  812 candidates (40/s)  ETA 6:00``."""
        done = min(1.0, self.accepted / self.count) if self.count else 1.0
        fill = int(done * width)
        rate = self.accepted / self.elapsed * 60 if self.elapsed > 0 else 0.0
        cand_rate = self.candidates / self.elapsed if self.elapsed > 0 else 0.0
        if self.accepted:
            eta_s = self.elapsed / self.accepted * (self.count - self.accepted)
            eta = f"{int(eta_s // 60)}:{int(eta_s % 60):02d}"
        else:
            eta = "?"
        extra = f", {self.rejected_levels} off-band" if self.rejected_levels else ""
        return (f"[{'#' * fill}{'-' * (width - fill)}] {self.accepted}/{self.count} levels  {rate:.2f}/min  "
                f"{self.candidates} candidates ({cand_rate:.0f}/s{extra})  ETA {eta}")


def _room_task(spec: RunSpec, index: int, j: int, room: Room, frames: int,
               ctx: SolveContext | None = None
               ) -> tuple[int, int, GeneratedLevel | None, GenerationStats, float]:
    """Generate room ``j`` of level ``index`` (in a child process, or here); returns its CPU seconds too."""
    cpu = time.process_time()
    stats = GenerationStats()
    made = make_room(room, frames, spec.unique, room_seed(spec.seed, index, j), ctx, solver=spec.solver,
                     time_limit=spec.time_limit, max_attempts=spec.max_attempts, stats=stats, physics=spec.physics)
    return index, j, made, stats, time.process_time() - cpu


def _finish(spec: RunSpec, index: int, rooms: list[Room], made: list[GeneratedLevel], frames: int,
            cpu: float, wall: float) -> GeneratedLevel:
    """Stitch the rooms of level ``index`` and title it."""
    title = level_title(np.random.default_rng([spec.seed, index, 1]))
    solver = made[0].solver
    meta = (
        ("title", title),
        ("generator", f"seed={spec.seed} index={index} size={spec.height}x{spec.width} bricks={spec.bricks} "
                      f"lemmings={spec.lemmings} frames={frames} unique={'yes' if spec.unique else 'no'} "
                      f"rooms={len(rooms)} solver={solver}"),
        ("min-bricks", str(spec.bricks)),
    ) + ((("solutions", "1"),) if spec.unique else ())
    if len(rooms) == 1:
        level = made[0].level
        g = replace(made[0], level=type(level)(level.frames, level.budget, level.grid, meta).with_physics(spec.physics))
    else:
        g = stitch(rooms, made, spec.height, spec.width, frames, meta)
    return replace(g, seed=spec.seed, attempt=index, seconds=wall, cpu_seconds=cpu)


Task = tuple[int, int, GeneratedLevel | None, GenerationStats, float]


class _Run:
    """The bookkeeping of one :func:`generate_run`: finished rooms, counters, levels emitted in order."""

    def __init__(self, spec: RunSpec, count: int, ctx: SolveContext,
                 progress: Callable[[RunProgress], None] | None) -> None:
        self.spec, self.count, self.ctx, self.progress = spec, count, ctx, progress
        self.rooms = spec.plan()
        self.frames = spec.level_frames()
        self.started = time.perf_counter()
        self.state = {"accepted": 0, "rooms": 0, "candidates": 0, "off": 0}
        self.results: dict[int, dict[int, tuple[GeneratedLevel | None, float]]] = {}
        self.level_started: dict[int, float] = {}
        self.max_levels = count * LEVELS_TRIED_PER_LEVEL
        self.next_index = 0  # the next level index to schedule
        self.emit = 0  # the next level index to emit

    def tell(self) -> None:
        """Report the progress."""
        if self.progress is not None:
            state = self.state
            self.progress(RunProgress(state["accepted"], self.count, state["rooms"], state["candidates"],
                                      time.perf_counter() - self.started, state["off"]))

    def record(self, index: int, j: int, made: GeneratedLevel | None, stats: GenerationStats, cpu: float) -> None:
        """Keep room ``j`` of level ``index``."""
        self.results.setdefault(index, {})[j] = (made, cpu)
        self.state["rooms"] += 1
        self.state["candidates"] += stats.attempts

    def ready_levels(self) -> Iterator[GeneratedLevel]:
        """The next levels whose rooms are all done, stitched (and rated), skipping failed and off-band ones."""
        spec, rooms, results = self.spec, self.rooms, self.results
        while self.emit in results and len(results[self.emit]) == len(rooms):
            parts = results.pop(self.emit)
            index = self.emit
            self.emit += 1
            made = [parts[j][0] for j in range(len(rooms))]
            if any(m is None for m in made):
                continue
            cpu = sum(parts[j][1] for j in range(len(rooms)))
            wall = time.perf_counter() - self.level_started.pop(index, self.started)
            level = _finish(spec, index, rooms, [m for m in made if m is not None], self.frames, cpu, wall)
            if spec.difficulty is not None:
                score = rate_level(level.level, self.ctx.child(time_limit=spec.time_limit)).score
                level = replace(level, score=score)
                if not spec.difficulty[0] <= score <= spec.difficulty[1]:
                    self.state["off"] += 1
                    continue
            yield level

    def serial(self) -> Iterator[GeneratedLevel]:
        """The run in this process, room after room."""
        state, ctx = self.state, self.ctx
        while state["accepted"] < self.count and self.next_index < self.max_levels and not ctx.should_stop():
            self.level_started[self.next_index] = time.perf_counter()
            for j, room in enumerate(self.rooms):
                _, _, made, stats, cpu = _room_task(self.spec, self.next_index, j, room, self.frames, ctx)
                if ctx.should_stop():
                    return
                self.record(self.next_index, j, made, stats, cpu)
                self.tell()
                if made is None:
                    break
            for j in range(len(self.rooms)):  # a failed room ends its level
                self.results[self.next_index].setdefault(j, (None, 0.0))
            self.next_index += 1
            for level in self.ready_levels():
                state["accepted"] += 1
                self.tell()
                yield level
                if state["accepted"] >= self.count:
                    return

    def pooled(self, jobs: int) -> Iterator[GeneratedLevel]:
        """The run with up to ``jobs`` rooms made at once, each in a child process; the rooms still being made
        are killed at the end."""
        state, count = self.state, self.count
        waiting: collections.deque[tuple[int, int, Room]] = collections.deque()  # rooms not started yet
        running: list[ChildJob] = []
        try:
            while state["accepted"] < count and not self.ctx.should_stop():
                # Keep the cores busy: schedule whole levels while fewer than 2 x jobs rooms wait or run.
                while len(waiting) + len(running) < 2 * jobs and self.next_index < self.max_levels and \
                        self.next_index - self.emit < max(1, count - state["accepted"]) + jobs:
                    self.level_started[self.next_index] = time.perf_counter()
                    waiting.extend((self.next_index, j, room) for j, room in enumerate(self.rooms))
                    self.next_index += 1
                while len(running) < jobs and waiting:
                    index, j, room = waiting.popleft()
                    running.append(ChildJob(functools.partial(_room_job, self.spec, index, j, room, self.frames),
                                            nice=0, name="generate-room"))
                if not running:
                    break
                for child in list(running):
                    done, task = child.result(POLL / len(running))
                    if done:
                        child.stop(wait=True)
                        running.remove(child)
                        self.record(*task)
                self.tell()
                for level in self.ready_levels():
                    state["accepted"] += 1
                    self.tell()
                    yield level
                    if state["accepted"] >= count:
                        break
        finally:  # also on Ctrl-C or SIGTERM: no room outlives the run
            for child in running:
                child.stop(wait=True)


def _room_job(spec: RunSpec, index: int, j: int, room: Room, frames: int, report: Callable[[Any], None]) -> Task:
    """A child process's job: one room (:func:`_room_task`)."""
    return _room_task(spec, index, j, room, frames)


def generate_run(
    spec: RunSpec,
    count: int,
    *,
    jobs: int = 1,
    context: SolveContext | None = None,
    progress: Callable[[RunProgress], None] | None = None,
) -> Iterator[GeneratedLevel]:
    """Yield ``count`` certified levels of ``spec`` in order (fewer once ``context`` stops, or out of tries)."""
    ctx = context if context is not None else SolveContext.create(solver="generate")
    run = _Run(spec, count, ctx, progress)
    yield from (run.serial() if jobs <= 1 else run.pooled(jobs))


def default_jobs() -> int:
    """All cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class ProgressBar:
    """Draws :class:`RunProgress` on a stream: redrawn in place on a terminal, else a line every ``every`` s."""

    def __init__(self, stream: TextIO = sys.stderr, every: float = 10.0) -> None:
        self.stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.every = every
        self._last = 0.0
        self._shown = False

    def __call__(self, p: RunProgress) -> None:
        now = time.perf_counter()
        if self.tty:
            if now - self._last >= 0.1 or p.accepted == p.count:
                self._last = now
                self.stream.write("\r" + p.bar() + "\x1b[K")
                self.stream.flush()
                self._shown = True
        elif now - self._last >= self.every:
            self._last = now
            self.stream.write(p.bar() + "\n")
            self.stream.flush()

    def close(self) -> None:
        """End the in-place line."""
        if self.tty and self._shown:
            self.stream.write("\n")
            self.stream.flush()
