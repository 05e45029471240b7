"""Endless mode: levels of rising difficulty, one at a time, for a background worker.

A caller may run :func:`endless_levels` in a thread and take the levels from a queue (the game
itself runs :func:`rated_level` in its worker's child process, see below); setting the cancel event of its ``context`` stops generation (and the exact solver)
within about a tenth of a second of the current simulator batch::

    import queue, threading
    from ai.kernel.context import SolveContext
    from ai.services.generation.endless import endless_levels

    ready: queue.Queue = queue.Queue(maxsize=2)
    cancel = threading.Event()

    def worker() -> None:
        for generated in endless_levels(start=1, seed=42, context=SolveContext.create(cancel=cancel)):
            while not cancel.is_set():
                try:
                    ready.put(generated, timeout=0.1)   # generated.level, .difficulty, .min_bricks
                    break
                except queue.Full:
                    continue

    threading.Thread(target=worker, daemon=True).start()
    ...
    cancel.set()   # on leaving the mode

**Measured difficulty.** :func:`rated_level` is what the game's Endless mode runs (in the
UI worker's child process): it generates a few candidates from the step's
:class:`DifficultySpec`, rates each with :func:`ai.services.rating.rate_level`, and keeps the one
whose score is closest to :func:`target_score` of the step and not below the score of the
level before, so the ladder rises by measure, not by guess.

For one level of a given difficulty, call :func:`next_level`; as a job of the game's runner
(:class:`game.app.jobs.JobRunner`, whose jobs take their context) it reads::

    handle = runner.submit(
        lambda ctx: next_level(difficulty, seed=seed, context=ctx),
        label="generate",
    )   # the "done" event carries a GeneratedLevel (or None when cancelled)

>>> difficulty_spec(1)
DifficultySpec(height=8, width=10, bricks=1, lemmings=1, unique=False)
>>> difficulty_spec(99).bricks >= difficulty_spec(9).bricks
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterator

from ai.kernel.context import SolveContext
from ai.services.generation.generator import GeneratedLevel, GenerationProgress, generate_levels
from ai.services.rating import rate_level

#: Candidates rated per Endless step (the one nearest the target score is kept).
CANDIDATES_PER_STEP = 3
#: Extra batches tried when every candidate rates below the previous level.
EXTRA_BATCHES = 3
#: Seconds per exact solve while rating an Endless candidate.
RATING_TIME_LIMIT = 20.0


def target_score(step: int) -> float:
    """The rating score Endless aims at on step ``step`` (rises by half a point a step, up to 17).

    >>> target_score(1), target_score(5), target_score(99)
    (5.0, 7.0, 17.0)
    """
    return min(17.0, 5.0 + 0.5 * (max(1, step) - 1))


def rated_level(
    step: int,
    *,
    seed: int = 0,
    previous: float | None = None,
    context: SolveContext | None = None,
    solver: str | None = None,
    progress: GenerationProgress | None = None,
    candidates: int = CANDIDATES_PER_STEP,
) -> GeneratedLevel | None:
    """The Endless level of ``step``: rated, nearest :func:`target_score`, not easier than ``previous``.

    Deterministic for ``(step, seed, previous)`` (as long as the solvers answer in time);
    ``None`` when cancelled.  The result carries ``difficulty=step`` and its ``score``.
    """
    ctx = context if context is not None else SolveContext.create(solver="generate")
    spec = difficulty_spec(step)
    best: GeneratedLevel | None = None
    best_key: tuple[bool, float] = (True, float("inf"))
    for batch in range(1 + EXTRA_BATCHES):
        for generated in generate_levels(
            spec.height, spec.width, spec.bricks, None, spec.lemmings, candidates, spec.unique,
            _seed_of(seed, step) + 7919 * batch, ctx, progress, solver=solver,
        ):
            score = rate_level(generated.level, ctx.child(time_limit=RATING_TIME_LIMIT)).score
            if ctx.should_stop():
                return None
            rated = replace(generated, difficulty=step, score=score)
            key = (previous is not None and score < previous, abs(score - target_score(step)))
            if key < best_key:
                best, best_key = rated, key
        if ctx.should_stop():
            return None
        if best is not None and not best_key[0]:
            break
    return best


@dataclass(frozen=True)
class DifficultySpec:
    """What to generate at one difficulty step."""

    height: int
    width: int
    bricks: int
    lemmings: int
    unique: bool


#: Difficulty 1, 2, ...; beyond the table the last row is used with more bricks.
DIFFICULTY_TABLE: tuple[DifficultySpec, ...] = (
    DifficultySpec(8, 10, 1, 1, False),
    DifficultySpec(10, 12, 1, 1, True),
    DifficultySpec(10, 12, 2, 1, False),
    DifficultySpec(12, 14, 2, 1, True),
    DifficultySpec(12, 16, 2, 2, False),
    DifficultySpec(14, 18, 3, 1, False),
    DifficultySpec(16, 20, 3, 2, False),
    DifficultySpec(18, 24, 3, 2, True),
    DifficultySpec(20, 26, 4, 2, False),
    DifficultySpec(24, 32, 4, 2, False),
)


def difficulty_spec(difficulty: int) -> DifficultySpec:
    """The generation parameters of ``difficulty`` (1 = easiest)."""
    if difficulty < 1:
        raise ValueError("difficulty starts at 1")
    if difficulty <= len(DIFFICULTY_TABLE):
        return DIFFICULTY_TABLE[difficulty - 1]
    last = DIFFICULTY_TABLE[-1]
    extra = (difficulty - len(DIFFICULTY_TABLE) + 1) // 2
    return replace(last, bricks=last.bricks + extra)


def _seed_of(seed: int, difficulty: int) -> int:
    """The generator seed of ``difficulty`` in the stream of ``seed``."""
    return seed * 1000 + difficulty


def next_level(
    difficulty: int,
    *,
    seed: int = 0,
    context: SolveContext | None = None,
    solver: str | None = None,
    progress: GenerationProgress | None = None,
) -> GeneratedLevel | None:
    """One certified level of ``difficulty``, or ``None`` if ``context`` stopped first.

    The same level :func:`endless_levels` yields first at that difficulty for ``seed``.
    """
    spec = difficulty_spec(difficulty)
    for generated in generate_levels(
        spec.height, spec.width, spec.bricks, None, spec.lemmings, 1, spec.unique, _seed_of(seed, difficulty),
        context, progress, solver=solver,
    ):
        return replace(generated, difficulty=difficulty)
    return None


def endless_levels(
    *,
    start: int = 1,
    seed: int = 0,
    per_difficulty: int = 2,
    context: SolveContext | None = None,
    solver: str | None = None,
    progress: GenerationProgress | None = None,
) -> Iterator[GeneratedLevel]:
    """Yield levels forever (until ``context`` stops): ``per_difficulty`` at each difficulty from ``start`` up.

    Deterministic for a seed: difficulty ``d`` uses generator seed ``seed * 1000 + d``.
    Each yielded level has :attr:`GeneratedLevel.difficulty` set.
    """
    difficulty = start
    while context is None or not context.should_stop():
        spec = difficulty_spec(difficulty)
        for generated in generate_levels(
            spec.height, spec.width, spec.bricks, None, spec.lemmings, per_difficulty, spec.unique,
            _seed_of(seed, difficulty), context, progress, solver=solver,
        ):
            yield replace(generated, difficulty=difficulty)
        difficulty += 1
