"""Cheap rejection of candidates, cheapest first, before any exact solver runs.

The simulating checks use the batched simulator (:mod:`game.core.batch`); the too-easy
ones return ``None`` when the candidate survives, else the rejection reason (one of
:data:`REASONS`):

* :func:`clustered`: all planted bricks in one clump (a filled pit) makes a dull level;
* :func:`too_easy_by_sampling`: no bricks, the planted solution minus one brick, and
  random brick sets of fewer than ``K`` bricks drawn from the cells the lemmings read;
  one winner means the level is too easy;
* :func:`too_easy_by_search`: the exhaustive read-set search (:mod:`ai.services.generation.readset`)
  up to ``K - 1`` bricks, when it fits under its cap: a proof that ``K`` is the minimum
  (the planted solution gives the upper bound);
* :func:`has_alternative`: swapping one planted brick for another read cell; a second
  winner of size ``K`` means the level is not unique.

>>> from game.core.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> too_easy_by_search(level, 1)
>>> has_alternative(level, ((1, 2),))
False
"""

from __future__ import annotations

from ai.kernel.context import SolveContext

import numpy as np

from ai.services.generation.readset import BrickSet, runs_of, search, wins_of
from game.core.level import Level

#: Why a candidate was dropped (keys of :attr:`GenerationStats.rejected`).
REASONS = (
    "planting_failed",   # no brick or target position fitted the layout
    "clustered",         # the planted bricks form one clump (e.g. a filled pit): dull
    "too_easy_sampled",  # a random set of fewer than K bricks wins
    "too_easy_proved",   # the read-set search found a winner with fewer than K bricks
    "not_unique_swap",   # another K-brick set found by swapping one planted brick
    "not_unique_search", # the read-set search found several K-brick solutions
    "duplicate",         # the same puzzle was already produced
    "exact_rejected",    # the exact solver disagreed (fewer bricks, or several solutions)
    "exact_gave_up",     # the exact solver timed out or gave up
)


def clustered(planted: BrickSet) -> bool:
    """True when two or more bricks all touch one another in one clump (8-neighbourhood).

    >>> clustered(((5, 3), (5, 4), (5, 5))), clustered(((5, 3), (2, 7))), clustered(((1, 1),))
    (True, False, False)
    """
    if len(planted) < 2:
        return False
    cells = set(planted)
    seen = {planted[0]}
    stack = [planted[0]]
    while stack:
        r, c = stack.pop()
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                cell = (r + dr, c + dc)
                if cell in cells and cell not in seen:
                    seen.add(cell)
                    stack.append(cell)
    return len(seen) == len(cells)


def too_easy_by_sampling(
    level: Level, bricks: int, rng: np.random.Generator, planted: BrickSet = (), samples: int = 128
) -> str | None:
    """Reject when 0 bricks win, when ``planted`` minus one brick wins, or when a random
    set of 1..``bricks``-1 cells read by the brick-free run wins."""
    wins, reads = runs_of(level, [()])
    if wins[0]:
        return "too_easy_sampled"
    sets: set[BrickSet] = {tuple(b for b in planted if b != drop) for drop in planted}
    cells = sorted(set(reads[0]))
    if bricks > 1 and cells:
        for _ in range(samples):
            size = min(int(rng.integers(1, bricks)), len(cells))
            pick = rng.choice(len(cells), size=size, replace=False)
            sets.add(tuple(sorted(cells[int(i)] for i in pick)))
    if not sets:
        return None
    return "too_easy_sampled" if wins_of(level, sorted(sets)).any() else None


def too_easy_by_search(
    level: Level, bricks: int, cap: int = 2_000, ctx: SolveContext | None = None
) -> str | None:
    """Reject when the read-set search finds a winner with fewer than ``bricks`` bricks.

    Passes (``None``) both when it proves there is none and when it hits its cap.
    """
    if bricks <= 0:
        return None
    out = search(level, bricks - 1, cap=cap, ctx=ctx)
    return "too_easy_proved" if out.solutions else None


def has_alternative(level: Level, planted: BrickSet) -> bool:
    """True when swapping one brick of ``planted`` for a cell its reduced run reads also wins."""
    if not planted:
        return False
    reduced = [tuple(b for b in planted if b != drop) for drop in planted]
    _, reads = runs_of(level, reduced)
    swaps: set[BrickSet] = set()
    for base, cells in zip(reduced, reads):
        for cell in cells:
            if cell not in base:
                swapped = tuple(sorted(base + (cell,)))
                if swapped != planted:
                    swaps.add(swapped)
    if not swaps:
        return False
    return bool(wins_of(level, sorted(swaps)).any())


def solutions_by_search(
    level: Level, bricks: int, cap: int = 2_000, ctx: SolveContext | None = None
) -> tuple[BrickSet, ...] | None:
    """Every minimum solution of at most ``bricks`` bricks, or ``None`` past the cap (or once ``ctx`` stops)."""
    out = search(level, bricks, cap=cap, ctx=ctx)
    return out.solutions if out.exhausted else None
