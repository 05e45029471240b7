"""Generate the scale suites: ``bench/suites/compartments/`` and ``bench/suites/large2/`` (seeded).

* **compartments**: 2x2 to 3x3 walled compartments of 12x16 one-lemming puzzles (platform mazes of
  :func:`ai.services.generation.random_levels.large_level`), glued with shared walls; the optimum (8 to 20) is the
  sum of the compartments' optima, each proved by the exact search, and the number of optimal solutions
  is the product of theirs.  Budget = optimum + 1.
* **large2**: 32x48 to 48x64 levels of the level generator, 150 to 800 frames, 3 to 6 lemmings, optimum
  3 to 5 certified by ``auto``, budget = optimum + 1 (one spare brick).

The stress levels (256x256 with N = 10,000, tilings of the large suite) are made on the fly by
:mod:`bench.stress`, not committed.

    python bench/make_scale_suites.py [--seed 1] [--count 8] [--only compartments|large2]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.facade import solve  # noqa: E402
from ai.services.generation.random_levels import large_level  # noqa: E402
from game.core.level import Level  # noqa: E402
from tests.level_builders import glue  # noqa: E402

SUITES = Path(__file__).resolve().parent / "suites"
PART_H, PART_W, PART_FRAMES = 12, 16, 60


def compartments(rng: random.Random) -> Iterator[tuple[Level, int, int]]:
    """Yield ``(part, optimum, optimal solution count)`` of one-lemming 12x16 puzzles needing >= 1 brick."""
    while True:
        part = large_level(rng.randrange(10**9), height=PART_H, width=PART_W, frames=PART_FRAMES, lemmings=1,
                           planted=rng.randint(2, 6), budget=8)
        if part is None:
            continue
        result = solve(part, solver="search", mode="all", time_limit=10)
        if result.min_bricks and result.complete:
            yield part, result.min_bricks, len(result.solutions)


#: Compartment grids and the optimum range of each level of the suite.
PLAN = [(2, 2, 8, 9), (2, 2, 10, 11), (2, 3, 11, 13), (3, 2, 12, 14), (2, 3, 13, 15), (3, 3, 14, 16),
        (3, 3, 16, 18), (3, 3, 18, 20)]


def make_compartments(seed: int, count: int, out: Path) -> None:
    """Write up to ``count`` compartment levels (:data:`PLAN`), optima spread over 8..20."""
    rng = random.Random(seed)
    source = compartments(rng)
    pool = [next(source) for _ in range(30)]
    for kept, (rows, cols, low, high) in enumerate(PLAN[:count], start=1):
        while True:
            chosen = rng.sample(pool, rows * cols)
            optimum = sum(opt for _, opt, _ in chosen)
            if low <= optimum <= high:
                break
            if rng.random() < 0.01:
                pool.append(next(source))
        parts = [chosen[r * cols:(r + 1) * cols] for r in range(rows)]
        solutions = math.prod(n for _, _, n in chosen)
        level = glue([[p for p, _, _ in row] for row in parts], budget=optimum + 1,
                     title=f"compartments {kept} ({rows}x{cols})")
        level = level.with_meta("optimum", str(optimum)).with_meta("solutions", str(solutions))
        path = out / f"{kept:03d}_compartments.txt"
        level.save(path)
        print(f"{path.name}: {level.summary()}, optimum {optimum}, {solutions} optimal solutions", flush=True)


def make_large2(seed: int, count: int, out: Path) -> None:
    """Write ``count`` large multi-lemming levels with optimum 3..5 and one spare brick.

    Made by the level generator (:func:`ai.services.generation.generator.generate_levels`, certified by ``auto``).
    """
    from ai.services.generation.generator import generate_levels

    rng = random.Random(seed)
    kept = 0
    while kept < count:
        height, width = [(32, 48), (40, 56), (48, 64)][kept % 3]
        frames, lemmings, optimum = rng.randint(150, 800), rng.randint(3, 6), rng.randint(3, 5)
        found = list(generate_levels(height, width, bricks=optimum, frames=frames, lemmings=lemmings, count=1,
                                     seed=rng.randrange(10**6), solver="auto", time_limit=20, max_attempts=60))
        if not found:
            continue
        level = found[0].level.with_limits(budget=optimum + 1)
        result = solve(level, solver="auto", mode="all", time_limit=60)
        if result.min_bricks != optimum:
            continue
        kept += 1
        level = level.with_meta("title", f"large2 {kept}").with_meta("optimum", str(optimum))
        level = level.with_meta("solutions", str(len(result.solutions)) if result.complete else "?")
        path = out / f"{kept:03d}_large2.txt"
        level.save(path)
        print(f"{path.name}: {level.summary()}, optimum {optimum}, {level.meta_value('solutions')} optimal solutions",
              flush=True)


def main(argv: list[str] | None = None) -> int:
    """Write the suites."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=8)
    parser.add_argument("--only", choices=["compartments", "large2"])
    args = parser.parse_args(argv)
    for name, make in (("compartments", make_compartments), ("large2", make_large2)):
        if args.only in (None, name):
            out = SUITES / name
            out.mkdir(parents=True, exist_ok=True)
            make(args.seed, args.count, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
