"""The learned solver (a learned physics, solved with the exact solvers, replayed under the level's) against
CP-SAT under the same physics, on the pack and the large suites.

The rules are learned once per physics from 3 random games of the issue's setting (fully observed), as
``learn --physics NAME --games 3 --out R.json`` would; each level is then solved in mode ``min`` by
``--solver learned --rules R.json`` and by ``--solver cpsat``.  Prints one row per suite: the median and
worst ratio learned / cpsat and the total seconds of each.

Run: ``python3 -m bench.learned_vs_cpsat [--time-limit 60]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

from ai import facade
from ai.kernel.base import SolveResult
from ai.learning.observations import random_game
from ai.learning.physics_learner import learn_physics
from game.core.level import Level
from game.core.pack import pack_level_paths
from game.core.physics import Physics
from game.core.physics_views import views

SUITES = {
    "pack": pack_level_paths(),
    "large": sorted(Path("bench/suites/large").glob("*.txt")),
    "large2": sorted(Path("bench/suites/large2").glob("*.txt")),
}


def learned_rules(truth: Physics, cache: dict[str, Physics]) -> Physics:
    """Rules learned from 3 fully observed random games of ``truth``."""
    key = views(truth).behaviour_key
    if key not in cache:
        rng = np.random.default_rng(0)
        cache[key] = learn_physics([random_game(rng, truth) for _ in range(3)]).physics
    return cache[key]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--time-limit", type=float, default=60.0)
    args = parser.parse_args()
    cache: dict[str, Physics] = {}
    print("| suite | levels | learned total (s) | cpsat total (s) | ratio median | ratio worst | same minimum |")
    print("|---|---|---|---|---|---|---|")
    for name, paths in SUITES.items():
        ratios, lt, ct, same = [], 0.0, 0.0, 0
        for path in paths:
            level = Level.load(path)
            rules = learned_rules(level.physics, cache)

            def timed(solver: Any) -> tuple[float, SolveResult]:
                """The best of two runs (the first also fills the caches both solvers share, such as the
                level's reachability: whichever ran first used to pay for them), of five when a run takes
                under 50 ms (a millisecond of noise is a large share of those)."""
                runs: list[tuple[float, SolveResult]] = []
                while len(runs) < (2 if runs and runs[0][0] >= 0.05 else 5):
                    start = time.perf_counter()
                    result = facade.solve(level, solver=solver, time_limit=args.time_limit)
                    runs.append((time.perf_counter() - start, result))
                return min(runs, key=lambda run: run[0])

            a, learned = timed(facade.get_solver("learned", rules=rules))
            b, exact = timed("cpsat")
            lt, ct = lt + a, ct + b
            ratios.append(a / max(b, 1e-3))
            same += learned.min_bricks == exact.min_bricks
        print(f"| {name} | {len(paths)} | {lt:.2f} | {ct:.2f} | {statistics.median(ratios):.2f} | "
              f"{max(ratios):.2f} | {same}/{len(paths)} |", flush=True)


if __name__ == "__main__":
    main()
