"""The level generator: designed layouts, planted solutions, cheap filters, exact certification.

:func:`generate_levels` is a lazy generator: it yields one :class:`GeneratedLevel` at a
time, checks its solve context between candidates (and passes it to the exact solver), and
reports :class:`GenerationStats` through ``progress``.  Candidate ``i`` of seed ``s``
is built from its own random generator seeded ``(s, i)``, so a seed always gives the
same levels (as long as the exact solver answers within ``time_limit``).

>>> levels = list(generate_levels(8, 10, bricks=1, count=1, seed=4, solver="readset"))
>>> [(g.min_bricks, g.level.budget, g.level.height, g.level.width) for g in levels]
[(1, 1, 8, 10)]
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Callable, Iterator

import numpy as np

from ai.solvers import registry
from ai.kernel.base import BrickSet, SolveMode, SolveStatus, Solver
from ai.kernel.context import SolveContext
from ai.services.generation.candidates import plant_candidate
from ai.services.generation.filters import (
    REASONS,
    clustered,
    has_alternative,
    solutions_by_search,
    too_easy_by_sampling,
    too_easy_by_search,
)
from ai.services.generation.layout import MIN_SIDE, make_layout
from ai.services.generation.names import level_title
from ai.services.generation.readset import ReadSetSolver
from game.core.level import Level
from game.core.physics import CLASSIC, Physics

#: Exact solvers tried in order when none is named (the first one installed is used);
#: "search" first: on generated 16x20 levels it proves the minimum in ~0.05 s where
#: "cpsat" takes ~15 s.
DEFAULT_CERTIFIER = "search"


@dataclass(frozen=True)
class GeneratedLevel:
    """One certified level.

    ``solutions`` are optimal brick sets the exact solver returned (all of them when
    ``unique`` was asked: then exactly one).  ``seconds`` is the time spent since the
    previous level was yielded (rejected candidates included).
    """

    level: Level
    min_bricks: int
    solutions: tuple[BrickSet, ...]
    unique: bool
    seed: int
    attempt: int
    solver: str
    seconds: float
    difficulty: int | None = None
    #: CPU seconds spent on it in every process (set by :mod:`ai.services.generation.parallel`).
    cpu_seconds: float = 0.0
    #: The measured difficulty score (:mod:`ai.services.rating`), when it was rated.
    score: float | None = None


@dataclass
class GenerationStats:
    """Counters of one :func:`generate_levels` run."""

    attempts: int = 0
    accepted: int = 0
    rejected: dict[str, int] = field(default_factory=lambda: {reason: 0 for reason in REASONS})
    exact_calls: int = 0
    exact_seconds: float = 0.0
    seconds: float = 0.0
    #: Seconds spent per stage: planting, sampling, search (read-set bounds), exact.
    stage_seconds: dict[str, float] = field(
        default_factory=lambda: {"planting": 0.0, "sampling": 0.0, "search": 0.0, "exact": 0.0}
    )

    @property
    def rejection_rate(self) -> float:
        """Fraction of candidates rejected."""
        return 1.0 - self.accepted / self.attempts if self.attempts else 0.0

    def snapshot(self) -> GenerationStats:
        """An independent copy (what ``progress`` callbacks receive: safe to keep across threads)."""
        return GenerationStats(
            self.attempts, self.accepted, dict(self.rejected), self.exact_calls,
            self.exact_seconds, self.seconds, dict(self.stage_seconds),
        )

    def summary(self) -> str:
        """One line: accepted/attempts and the non-zero rejection counts."""
        parts = ", ".join(f"{k} {v}" for k, v in self.rejected.items() if v)
        return (
            f"{self.accepted} levels from {self.attempts} candidates in {self.seconds:.1f} s "
            f"({self.exact_calls} exact solves, {self.exact_seconds:.1f} s); rejected: {parts or 'none'}"
        )


GenerationProgress = Callable[[GenerationStats], None]


def default_frames(height: int, width: int) -> int:
    """The default frame count N: three times the map's width plus height.

    >>> default_frames(10, 12)
    66
    """
    return 3 * (height + width)


def pick_certifier(name: str | None = None) -> str:
    """The exact solver to certify with: ``name`` if given, else :data:`DEFAULT_CERTIFIER`."""
    return name or DEFAULT_CERTIFIER


class _StageClock:
    """Adds the time since the previous lap to a stage of :attr:`GenerationStats.stage_seconds`."""

    def __init__(self, st: GenerationStats) -> None:
        self.st = st
        self.last = time.perf_counter()

    def lap(self, stage: str) -> float:
        now = time.perf_counter()
        spent = now - self.last
        self.st.stage_seconds[stage] += spent
        self.last = now
        return spent


def _solver(name: str) -> str | Solver:
    return ReadSetSolver() if name == "readset" else name


@dataclass(frozen=True)
class _Ask:
    """What every candidate of one :func:`generate_levels` run must be, and how it is checked."""

    seed: int
    height: int
    width: int
    bricks: int
    frames: int
    lemmings: int
    unique: bool
    certifier: str
    time_limit: float | None
    search_cap: int
    physics: Physics


def _check_sizes(height: int, width: int, bricks: int, lemmings: int, seed: int) -> None:
    """Raise ``ValueError`` for a map, brick count, lemming count or seed no level can have."""
    if height < MIN_SIDE or width < MIN_SIDE:
        raise ValueError(f"maps must be at least {MIN_SIDE}x{MIN_SIDE}")
    if bricks < 1:
        raise ValueError("bricks must be at least 1")
    if lemmings < 1:
        raise ValueError("lemmings must be at least 1")
    if seed < 0:
        raise ValueError("seed must be >= 0")


def generate_levels(
    height: int, width: int, bricks: int, frames: int | None = None, lemmings: int = 1, count: int = 1,
    unique: bool = False, seed: int = 0, context: SolveContext | None = None,
    progress: GenerationProgress | None = None, *, solver: str | None = None, time_limit: float | None = 60.0,
    max_attempts: int | None = None, stats: GenerationStats | None = None, search_cap: int = 2_000,
    physics: Physics = CLASSIC,
) -> Iterator[GeneratedLevel]:
    """Yield ``count`` levels whose minimum brick count is exactly ``bricks`` (certified).

    Every level has budget B = ``bricks``, ``frames`` frames (default
    :func:`default_frames`) and ``lemmings`` lemmings; with ``unique`` it has exactly
    one optimal solution.  Stops early (without raising) once ``context`` stops (cancel or
    deadline; default: never) or after ``max_attempts`` candidates; ``time_limit`` caps each
    exact solve (a child of ``context``).  Pass a :class:`GenerationStats` to read the
    counters afterwards; ``progress`` receives a snapshot of it after every candidate.
    ``search_cap`` bounds the cheap read-set search (sets per depth) run before the
    exact solver ``solver`` (default :func:`pick_certifier`).  The lemmings follow ``physics``, which
    every level carries (its ``# physics:`` line).
    """
    _check_sizes(height, width, bricks, lemmings, seed)
    ctx = context if context is not None else SolveContext.create(solver="generate")
    n_frames = frames if frames is not None else default_frames(height, width)
    ask = _Ask(seed, height, width, bricks, n_frames, lemmings, unique, pick_certifier(solver), time_limit,
               search_cap, physics)
    st = stats if stats is not None else GenerationStats()
    seen: set[str] = set()
    started = last = time.perf_counter()
    produced = 0
    attempt = -1
    while produced < count:
        attempt += 1
        if ctx.should_stop() or (max_attempts is not None and attempt >= max_attempts):
            return
        result = _try_candidate(ask, attempt, ctx, st, seen)
        st.seconds = time.perf_counter() - started
        if result == "cancelled":
            return
        st.attempts += 1
        if isinstance(result, str):
            st.rejected[result] += 1
            if progress is not None:
                progress(st.snapshot())
            continue
        produced += 1
        st.accepted += 1
        now = time.perf_counter()
        result = replace(result, seconds=now - last)
        last = now
        if progress is not None:
            progress(st.snapshot())
        yield result


def _try_candidate(ask: _Ask, attempt: int, ctx: SolveContext, st: GenerationStats,
                   seen: set[str]) -> GeneratedLevel | str:
    """Build and check candidate ``attempt``; return the level or the rejection reason."""
    rng = np.random.default_rng([ask.seed, attempt])
    clock = _StageClock(st)
    walls = make_layout(rng, ask.height, ask.width)
    cand = plant_candidate(rng, walls, bricks=ask.bricks, lemmings=ask.lemmings, frames=ask.frames,
                           bridges_only=ask.unique, physics=ask.physics, stop=ctx.should_stop)
    clock.lap("planting")
    if ctx.should_stop():
        return "cancelled"
    if cand is None:
        return "planting_failed"
    level = cand.level
    if level.puzzle_hash in seen:
        return "duplicate"
    seen.add(level.puzzle_hash)
    if clustered(cand.planted):
        return "clustered"
    reason = _cheap_rejection(ask, level, cand.planted, rng, clock, ctx)
    if reason:
        return reason
    return _certify(ask, attempt, level, ctx, st, clock)


def _cheap_rejection(ask: _Ask, level: Level, planted: BrickSet, rng: np.random.Generator, clock: _StageClock,
                     ctx: SolveContext) -> str | None:
    """The reason the sampling and read-set filters reject the candidate, if they do."""
    bricks = ask.bricks
    reason = too_easy_by_sampling(level, bricks, rng, planted)
    clock.lap("sampling")
    if ctx.should_stop():
        return "cancelled"
    if reason:
        return reason
    if not ask.unique:
        reason = too_easy_by_search(level, bricks, cap=ask.search_cap, ctx=ctx)
        clock.lap("search")
        return reason
    if has_alternative(level, planted):
        clock.lap("sampling")
        return "not_unique_swap"
    clock.lap("sampling")
    sols = solutions_by_search(level, bricks, cap=ask.search_cap, ctx=ctx)
    clock.lap("search")
    if sols is not None:
        if not sols or len(sols[0]) < bricks:
            return "too_easy_proved"
        if len(sols) > 1:
            return "not_unique_search"
    return None


def _certify(ask: _Ask, attempt: int, level: Level, ctx: SolveContext, st: GenerationStats,
             clock: _StageClock) -> GeneratedLevel | str:
    """The exact solver, last: the certified, titled level or the rejection reason."""
    bricks, unique = ask.bricks, ask.unique
    mode = SolveMode.ALL if unique else SolveMode.MIN
    res = registry.solve(level, solver=_solver(ask.certifier), mode=mode, ctx=ctx.child(time_limit=ask.time_limit))
    st.exact_calls += 1
    st.exact_seconds += clock.lap("exact")
    if res.status == SolveStatus.CANCELLED or ctx.should_stop():
        return "cancelled"
    if res.status != SolveStatus.OPTIMAL or res.bricks is None:
        return "exact_gave_up" if res.status != SolveStatus.INFEASIBLE else "exact_rejected"
    if len(res.bricks) != bricks:
        return "exact_rejected"
    if unique and not (res.complete and len(res.solutions) == 1):
        return "exact_rejected" if res.complete else "exact_gave_up"
    title = level_title(np.random.default_rng([ask.seed, attempt, 1]))
    level = Level(
        level.frames, bricks, level.grid,
        (
            ("title", title),
            ("generator", f"seed={ask.seed} attempt={attempt} size={ask.height}x{ask.width} bricks={bricks} "
                          f"lemmings={ask.lemmings} frames={ask.frames} unique={'yes' if unique else 'no'} "
                          f"solver={res.solver}"),
            ("min-bricks", str(bricks)),
        ) + ((("solutions", "1"),) if unique else ()),
    ).with_physics(ask.physics)
    return GeneratedLevel(level, bricks, res.solutions or (res.bricks,), unique, ask.seed, attempt, res.solver, 0.0)
