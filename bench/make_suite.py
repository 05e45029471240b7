"""Generate the large benchmark suite of the exact solvers: ``bench/suites/large/``.

Levels are 24x32 (and 28x40) platform mazes with 2-3 lemmings and 100-120 frames,
targets placed where the lemmings end under a random planted brick set; a level is
kept when CP-SAT proves an optimum of at least ``--min-bricks`` bricks.

    python bench/make_suite.py [--count 12] [--min-bricks 4] [--out bench/suites/large]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import solve  # noqa: E402
from ai.randlevels import large_level  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Write ``--count`` levels; print each kept level's proved optimum."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=12)
    parser.add_argument("--min-bricks", type=int, default=4)
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "suites" / "large"))
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--time-limit", type=float, default=30.0)
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    kept, seed = 0, args.first_seed
    while kept < args.count:
        seed += 1
        big = kept % 3 == 2
        level = large_level(seed, height=28 if big else 24, width=40 if big else 32,
                            frames=120 if big else 100, lemmings=3 if kept % 2 else 2,
                            planted=6, budget=8)
        if level is None:
            continue
        result = solve(level, solver="cpsat", time_limit=args.time_limit)
        if result.min_bricks is None or result.min_bricks < args.min_bricks:
            print(f"seed {seed}: skipped ({result.describe()})", file=sys.stderr, flush=True)
            continue
        kept += 1
        level = level.with_meta("optimum", str(result.min_bricks))
        path = out / f"{kept:03d}_seed{seed}.txt"
        level.save(path)
        print(f"{path.name}: {level.summary()}, optimum {result.min_bricks}, cpsat {result.stats.seconds:.2f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
