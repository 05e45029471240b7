"""Generate the large benchmark suite of the exact solvers: ``bench/suites/large/``.

Each level is 24x32 with 100 frames and 3 lemmings: three 24x11 walled compartments
(plus a wall column)
(platform mazes from :func:`ai.services.generation.random_levels.large_level`, one lemming each, targets where
the lemming ends under bricks planted on its run) glued side by side.  Compartments
with a proved optimum of at least one brick are combined until the total optimum
(the sum) is at least ``--min-bricks``; the optimum of the glued level is then proved
again by the exact search and stored in its ``optimum`` metadata.

    python bench/make_suite.py [--count 10] [--min-bricks 4] [--out bench/suites/large]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.facade import solve  # noqa: E402
from ai.services.generation.random_levels import large_level, side_by_side  # noqa: E402
from game.core.level import Level  # noqa: E402


#: Width of the suite's levels (three compartments of 11 share two walls: 31, plus one wall column).
WIDTH = 32


def compartments(first_seed: int):  # type: ignore[no-untyped-def]
    """Yield (level, optimum) of single-lemming 24x11 compartments needing >= 1 brick."""
    seed = first_seed
    while True:
        seed += 1
        part = large_level(seed, height=24, width=11, frames=100, lemmings=1, planted=6, budget=9)
        if part is None:
            continue
        result = solve(part, solver="search", time_limit=10)
        if result.min_bricks:
            yield part, result.min_bricks


def main(argv: list[str] | None = None) -> int:
    """Write ``--count`` levels; print each level's proved optimum."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--min-bricks", type=int, default=4)
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "suites" / "large"))
    parser.add_argument("--first-seed", type=int, default=3000)
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    source = compartments(args.first_seed)
    kept = 0
    while kept < args.count:
        parts = [next(source) for _ in range(3)]
        total = sum(opt for _, opt in parts)
        if total < args.min_bricks:
            continue
        level: Level = side_by_side([p for p, _ in parts], budget=total + 2,
                                    title=f"large suite {kept + 1}")
        level = replace(level, grid=tuple(row + "X" * (WIDTH - len(row)) for row in level.grid))
        result = solve(level, solver="search", mode="all", time_limit=60)
        if result.min_bricks is None or result.min_bricks < args.min_bricks or not result.complete:
            continue
        kept += 1
        level = level.with_meta("optimum", str(result.min_bricks))
        level = level.with_meta("solutions", str(len(result.solutions)))
        path = out / f"{kept:03d}_large.txt"
        level.save(path)
        print(f"{path.name}: {level.summary()}, optimum {result.min_bricks}, "
              f"{len(result.solutions)} optimal solutions", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
