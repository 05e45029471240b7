"""Simulator throughput: reference vs batched vs occupancy maps.

Runs 1,000 random legal brick sets on a 24x32, 100-frame level with 2 lemmings and
reports lemming-steps per second.  ``python bench/simulators.py [--sets 1000]``;
``--update`` rewrites the "## Simulators" section of bench/results.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.results import update_section  # noqa: E402
from game.core.batch import simulate_brick_sets  # noqa: E402
from game.core.level import Brick, Level  # noqa: E402
from game.core.occupancy import simulate_level  # noqa: E402
from game.core.simulation import simulate  # noqa: E402


def bench_level(height: int = 24, width: int = 32, frames: int = 100, seed: int = 7) -> Level:
    """A deterministic 24x32 level of ledges and pillars with two lemmings."""
    rng = np.random.default_rng(seed)
    grid = [[" "] * width for _ in range(height)]
    for c in range(width):
        grid[height - 1][c] = "X"
    for r in range(4, height - 1, 4):
        for _ in range(3):
            start = int(rng.integers(0, width - 6))
            for c in range(start, start + int(rng.integers(3, 9))):
                grid[r][min(c, width - 1)] = "X"
    for _ in range(6):
        c = int(rng.integers(1, width - 1))
        r = int(rng.integers(height - 5, height - 1))
        grid[r][c] = "X"
    grid[0][2] = ">"
    grid[0][width - 3] = "<"
    grid[height - 2][width // 2] = "T"
    grid[height - 2][3] = "T"
    return Level.from_rows(["".join(row) for row in grid], frames, 6, title="bench 24x32")


def random_sets(level: Level, count: int, seed: int = 1) -> list[tuple[Brick, ...]]:
    """``count`` random legal brick sets of 0..B bricks."""
    rng = np.random.default_rng(seed)
    cells = level.brickable_cells
    sets = []
    for _ in range(count):
        k = int(rng.integers(0, level.budget + 1))
        idx = rng.choice(len(cells), size=k, replace=False)
        sets.append(tuple(sorted(cells[i] for i in idx)))
    return sets


def run(count: int) -> list[tuple[str, float, float]]:
    """Time each simulator; return ``(name, seconds, lemming-steps/s)`` rows."""
    level = bench_level()
    sets = random_sets(level, count)
    steps = count * len(level.lemmings) * (level.frames - 1)
    rows = []

    start = time.perf_counter()
    ref = [simulate(level, s).won for s in sets]
    secs = time.perf_counter() - start
    rows.append(("reference (pure Python)", secs, steps / secs))

    start = time.perf_counter()
    batch = simulate_brick_sets(level, sets)
    secs = time.perf_counter() - start
    rows.append((f"batched ({count} sets in one batch)", secs, steps / secs))
    assert batch.won.tolist() == ref

    occ_count = min(count, 100)
    start = time.perf_counter()
    for s in sets[:occ_count]:
        simulate_level(level, s, per_lemming=True)
    secs = time.perf_counter() - start
    occ_steps = occ_count * len(level.lemmings) * (level.frames - 1)
    rows.append((f"occupancy maps (per lemming, {occ_count} sets)", secs, occ_steps / secs))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sets", type=int, default=1000)
    parser.add_argument("--update", action="store_true", help="write bench/results.md")
    args = parser.parse_args()
    rows = run(args.sets)
    lines = [
        f"{args.sets} random brick sets (0-6 bricks) on a 24x32 level, 100 frames, 2 lemmings; "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, numpy {np.__version__}.",
        "",
        "| simulator | seconds | lemming-steps / s |",
        "|---|---:|---:|",
    ]
    lines += [f"| {name} | {secs:.3f} | {rate:,.0f} |" for name, secs, rate in rows]
    lines += ["", "Command: `python bench/simulators.py --update`."]
    print("\n".join(lines))
    if args.update:
        update_section("Simulators", "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
