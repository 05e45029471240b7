"""Few-shot learning of physics: how often the learned physics moves every lemming exactly like the true one.

Regimes (see README, "Learning the rules"):

* ordinary: ONE ordinary random game (16x24, walls ~30 %, targets ~8 %, 2-4 lemmings, 40 frames) of
  the classic physics, seeds 0-7 (``learn --games 1 --seed S``);
* issue: 1, 2, 3 games of the issue's setting (16x24, walls ~30 %, targets ~8 %, 30 lemmings,
  40 frames) for every shipped physics and ``--random`` random physics of the class, fully
  observed and positions only.

"Exact" = proved: every lemming's positions agree with the true physics' from any start on any map
(``physics_views.moves_alike``); otherwise the cell says how many of 1,800 lemmings on 3 unseen 48x64 maps
(600 lemmings, 60 frames each) moved alike; "table" = the 256-configuration tables agree too.

Run: ``python3 -m bench.physics_learning [--random 20] [--seeds 8]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from ai.learning.observations import ordinary_games, random_game
from ai.learning.physics_agreement import agreement
from ai.learning.physics_learner import learn_physics
from game.core.physics import random_physics
from game.core.physics_catalog import SHIPPED


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--random", type=int, default=20)
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--seed-base", type=int, default=1000,
                        help="random physics k is drawn with seed SEED_BASE + k (2000: the held-out set)")
    parser.add_argument("--only", choices=["all", "random-positions", "random"], default="all",
                        help="random-positions: only the random physics, positions only")
    args = parser.parse_args()
    classic = SHIPPED["classic"]
    rows = []
    for seed in range(args.seeds if args.only == "all" else 0):
        rng = np.random.default_rng(seed)
        result = learn_physics(ordinary_games(rng, classic, 1))
        rows.append(agreement(result.physics, classic).proved)
    if rows:
        print(f"| classic, ONE ordinary game (2-4 lemmings), fully observed | seeds 0-{args.seeds - 1} | "
          f"{sum(rows)}/{len(rows)} exact |")
    physics = [(name, p) for name, p in SHIPPED.items()] if args.only == "all" else []
    physics += [(f"random-{k}", random_physics(np.random.default_rng(args.seed_base + k))) for k in range(args.random)]
    print("| physics | observed | 1 game | 2 games | 3 games | learn time (median, 3 games) |")
    print("|---|---|---|---|---|---|")
    groups: dict[tuple[str, bool, int], list[bool]] = {}
    for positions_only in ((True,) if args.only == "random-positions" else (False, True)):
        for name, truth in physics:
            cells, times = [], []
            for games in (1, 2, 3):
                rng = np.random.default_rng(7)
                data = [random_game(rng, truth) for _ in range(games)]
                if positions_only:
                    data = [g.without_directions() for g in data]
                start = time.perf_counter()
                result = learn_physics(data)
                times.append(time.perf_counter() - start)
                agree = agreement(result.physics, truth)
                group = "shipped" if not name.startswith("random") else "random"
                groups.setdefault((group, positions_only, games), []).append(agree.proved)
                mark = "exact" if agree.proved else f"{agree.alike}/{agree.lemmings}"
                shortest = {True: ", unique", False: ", rival"}.get(result.unique, "") if games == 3 else ""
                cells.append(mark + (" (table" + shortest + ")" if agree.table_exact else
                                     (" (" + shortest[2:] + ")" if shortest else "")))
            if not name.startswith("random") or args.random <= 30:
                print(f"| {name} | {'positions only' if positions_only else 'fully'} | {' | '.join(cells)} | "
                      f"{times[-1]:.2f} s |")
    print()
    print("| group | observed | 1 game | 2 games | 3 games |")
    print("|---|---|---|---|---|")
    for group in ("shipped", "random"):
        for positions_only in (False, True):
            if (group, positions_only, 1) not in groups:
                continue
            counts = [groups[(group, positions_only, g)] for g in (1, 2, 3)]
            print(f"| {group} | {'positions only' if positions_only else 'fully'} | "
                  + " | ".join(f"{sum(c)}/{len(c)}" for c in counts) + " |")
    _ = statistics  # medians are printed per row


if __name__ == "__main__":
    main()
