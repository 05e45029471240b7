"""``auto --all`` on independent compartments with many lemmings, long N, spare budget.

Levels: 3x3 compartments of 12x16 platform mazes with 6 lemmings each (54 lemmings), made from seeded
:func:`ai.services.generation.random_levels.large_level` rooms glued with shared walls (:func:`tests.level_builders.glue`),
N = 60 or 1,500, budget = minimum + 3 (spare).  Each is solved by ``auto`` in mode ``all`` with a 20 s limit::

    python3 -m bench.compartments_all [--frames 60 1500] [--seed 3] [--time-limit 20]

Prints one line per level: seconds, status, minimum, solution count (exact?), listed, parts.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import facade  # noqa: E402
from ai.services.generation.random_levels import large_level  # noqa: E402
from tests.level_builders import glue  # noqa: E402
from game.core.level import Level  # noqa: E402


def room(rng: random.Random, frames: int, lemmings: int = 6) -> tuple[Level, int]:
    """A 12x16 room of ``lemmings`` lemmings needing 1 to 2 bricks (seeded), and its minimum."""
    while True:
        part = large_level(rng.randrange(10**9), height=12, width=16, frames=60, lemmings=lemmings,
                           planted=rng.randint(1, 3), budget=4)
        if part is None:
            continue
        part = part.with_limits(frames=frames)
        res = facade.solve(part, solver="auto", mode="min", time_limit=30)
        if res.min_bricks in (1, 2):
            return part, res.min_bricks


def compartment_level(seed: int, frames: int, *, rows: int = 3, cols: int = 3, spare: int = 3,
                      lemmings: int = 6) -> Level:
    """``rows x cols`` rooms (54 lemmings for 3x3 of 6), budget = the sum of the rooms' minima + ``spare``."""
    rng = random.Random(seed)
    made = [[room(rng, frames, lemmings) for _ in range(cols)] for _ in range(rows)]
    minimum = sum(m for row in made for _, m in row)
    parts = [[part for part, _ in row] for row in made]
    return glue(parts, budget=minimum + spare, title=f"compartments {rows}x{cols}, {lemmings} lemmings each, N={frames}")


def main(argv: list[str] | None = None) -> int:
    """Build the levels, solve each with ``auto --all`` and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, nargs="+", default=[60, 1500])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--spare", type=int, default=3, help="budget above the minimum (default 3)")
    parser.add_argument("--lemmings", type=int, default=6, help="lemmings per room (default 6)")
    parser.add_argument("--save", type=Path, default=None, help="folder to save the levels in")
    args = parser.parse_args(argv)
    for frames in args.frames:
        level = compartment_level(args.seed, frames, spare=args.spare, lemmings=args.lemmings)
        if args.save is not None:
            args.save.mkdir(parents=True, exist_ok=True)
            level.save(args.save / f"compartments_{len(level.lemmings)}_N{frames}_s{args.seed}.txt")
        start = time.perf_counter()
        res = facade.solve(level, solver="auto", mode="all", time_limit=args.time_limit)
        seconds = time.perf_counter() - start
        extra = res.stats.extra
        print(f"N={frames} lemmings={len(level.lemmings)} B={level.budget}: {seconds:.2f} s {res.status.value} "
              f"min={res.min_bricks} count={extra.get('solution_count')} exact={extra.get('solution_count_exact')} "
              f"listed={len(res.solutions)} complete={res.complete} parts={extra.get('parts')} "
              f"used={extra.get('used')} {res.message}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
