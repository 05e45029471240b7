"""Make the mystery worlds' levels: small platform maps whose minimum under a shipped physics is certified
by exhaustive enumeration of brick sets (every set of up to K bricks replayed by the reference simulator).

A candidate is kept when no brick set smaller than K wins, some set of K bricks wins, and the winning
sets differ from the classic game's (so the level teaches its physics).  Levels of a world are ordered
by K, then by fewer winning sets (harder), and written as ``levels/NNN_slug.txt``.

Run: ``python3 -m bench.make_worlds --out levels --first 41`` (a few minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

import numpy as np

from game.core.level import Level
from game.core.physics_catalog import SHIPPED, level_line
from game.core.simulation import simulate

#: World title, physics, level names: the player is told the title only.
WORLDS = (
    ("The Timid Plains", "careful", ["Edge of Reason", "Mind the Brink", "Bridge Builders", "Cold Feet",
                                    "No Leap of Faith", "Safe Passage", "Timid Steps", "The Long Way Round",
                                    "Second Thoughts", "Holding Back"]),
    ("The Steps", "climber", ["Up We Go", "Stairway", "One Step Higher", "Foothold", "The Ledge",
                              "Scramble", "Handholds", "Summit", "Rock Face", "Overhang"]),
    ("Windy Heights", "drifter", ["Gliding", "Tailwind", "Drift", "Leaf Fall", "Slipstream",
                                  "Soft Landing", "Updraft", "Crosswind", "Sail Away", "Feather"]),
    ("The Hall of Clocks", "restless", ["Don't Stop", "Pacing", "Right on Time", "Keep Moving", "The Vigil",
                                    "Last Call", "Standing Room", "Clockwork", "Two Minds", "Curtain"]),
)


def platform_map(rng: np.random.Generator, height: int, width: int) -> list[list[str]] | None:
    """Walls round the edge, a few platforms and pillars, 1-2 lemmings and 1-2 targets on floors."""
    grid = [[" "] * width for _ in range(height)]
    for c in range(width):
        grid[height - 1][c] = "X"
    for _ in range(int(rng.integers(2, 5))):
        r = int(rng.integers(2, height - 1))
        c0 = int(rng.integers(0, width - 2))
        length = int(rng.integers(2, width // 2 + 2))
        for c in range(c0, min(width, c0 + length)):
            grid[r][c] = "X"
    for _ in range(int(rng.integers(0, 3))):
        c = int(rng.integers(1, width - 1))
        r0 = int(rng.integers(1, height - 2))
        for r in range(r0, min(height - 1, r0 + int(rng.integers(1, 3)))):
            grid[r][c] = "X"
    floors = [(r, c) for r in range(height - 1) for c in range(width)
              if grid[r][c] == " " and grid[r + 1][c] == "X"]
    tops = [(r, c) for r in range(0, 2) for c in range(width) if grid[r][c] == " "]
    if len(floors) < 4:
        return None
    picks = rng.permutation(len(floors))
    targets = int(rng.integers(1, 3))
    for k in picks[:targets]:
        r, c = floors[k]
        grid[r][c] = "T"
    starts = [p for p in tops + floors if grid[p[0]][p[1]] == " "]
    for _ in range(int(rng.integers(1, 3))):
        r, c = starts[int(rng.integers(0, len(starts)))]
        grid[r][c] = rng.choice(["<", ">"])
    return grid


def winning_sets(level: Level, most: int) -> tuple[int, list[tuple[tuple[int, int], ...]]]:
    """The fewest bricks that win (up to ``most``) and every winning set of that size (-1: none)."""
    cells = level.brickable_cells
    for k in range(most + 1):
        wins = [s for s in itertools.combinations(cells, k) if simulate(level, s, enforce_budget=False).won]
        if wins:
            return k, wins
    return -1, []


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="levels")
    parser.add_argument("--first", type=int, default=41)
    parser.add_argument("--per-world", type=int, default=8)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--only", default="", help="make this world's levels only (physics name)")
    args = parser.parse_args()
    for index, (world, name, titles) in enumerate(WORLDS):
        number = args.first + index * args.per_world
        if args.only and name != args.only:
            continue
        physics = SHIPPED[name]
        rng = np.random.default_rng(args.seed)
        found: list[tuple[int, int, Level]] = []
        tries = 0
        while len(found) < args.per_world + 1 and tries < 4000:
            tries += 1
            height, width = int(rng.integers(6, 9)), int(rng.integers(9, 13))
            grid = platform_map(rng, height, width)
            if grid is None:
                continue
            frames = int(rng.integers(height + width, 2 * (height + width)))
            try:
                level = Level.from_rows(["".join(r) for r in grid], frames, 3, physics=physics)
            except ValueError:
                continue
            if len(level.brickable_cells) > 70:
                continue
            k, wins = winning_sets(level, 3 if len(level.brickable_cells) <= 45 else 2)
            if k < 1:
                continue
            classic_k, classic_wins = winning_sets(level.with_physics(SHIPPED["classic"]), k)
            if classic_k == k and set(classic_wins) == set(wins):
                continue  # the classic game plays this level the same way: no mystery
            found.append((k, len(wins), level.with_limits(budget=k)))
            print(f"{name}: try {tries}, K={k}, {len(wins)} winning sets", flush=True)
        found.sort(key=lambda item: (item[0], -item[1]))
        chosen = found[:: max(1, len(found) // args.per_world)][: args.per_world]
        chosen.sort(key=lambda item: (item[0], -item[1]))
        for (k, n_wins, level), title in zip(chosen, titles):
            slug = title.lower().replace(" ", "_").replace("'", "")
            meta = [("title", title), ("author", "Lemming Bricks world maker (bench/make_worlds.py)"),
                    ("world", world), ("physics", level_line(physics)),
                    ("certified", f"minimum {k} bricks, {n_wins} winning sets (exhaustive)")]
            lv = Level.from_rows(level.grid, level.frames, level.budget, meta=meta)
            Path(args.out, f"{number:03d}_{slug}.txt").write_text(lv.to_text(), encoding="utf-8")
            number += 1


if __name__ == "__main__":
    main()
