"""Deterministic random levels for the solver tests and the benchmark suite.

Small levels (``small_level``) are tiny random maps for differential testing against
brute force.  Large levels (``large_level``) are platform mazes: rows of floors with
gaps, walls and lemmings scattered on them, with the targets placed where the
lemmings stand after a random brick set (so the level has a solution), meant to
be filtered by their proved optimum.

>>> small_level(7).height <= 7
True
>>> small_level(7) == small_level(7)
True
"""

from __future__ import annotations

import random

from game.core.batch import simulate_brick_sets
from game.core.level import Level
from game.core.physics import CLASSIC, Physics
from game.core.physics_views import views
from game.core.simulation import simulate


def small_level(seed: int, *, max_side: int = 7, max_lemmings: int = 2, physics: Physics = CLASSIC) -> Level:
    """A small random level (deterministic in ``seed``): 3..max_side per side, 6..18 frames, whose
    lemmings follow ``physics``."""
    rng = random.Random(seed)
    h = rng.randint(3, max_side)
    w = rng.randint(3, max_side)
    density = rng.choice([0.15, 0.25, 0.35])
    grid = [["X" if rng.random() < density else " " for _ in range(w)] for _ in range(h)]
    if rng.random() < 0.6:
        grid[-1] = ["X"] * w
    cells = [(r, c) for r in range(h) for c in range(w) if grid[r][c] == " "]
    if len(cells) < 2:
        grid[0][0], grid[0][1 % w] = " ", " "
        cells = [(r, c) for r in range(h) for c in range(w) if grid[r][c] == " "]
    rng.shuffle(cells)
    n_lem = rng.randint(1, max_lemmings) if len(cells) > 3 else 1
    n_tgt = rng.randint(1, 2) if len(cells) > n_lem + 1 else 1
    for r, c in cells[:n_lem]:
        grid[r][c] = rng.choice("<>")
    for r, c in cells[n_lem:n_lem + n_tgt]:
        grid[r][c] = "T"
    frames = rng.randint(6, 18)
    budget = rng.randint(0, 3)
    return Level.from_rows(["".join(row) for row in grid], frames=frames, budget=budget,
                           title=f"random small {seed}").with_physics(physics)


def _platform_map(rng: random.Random, height: int, width: int) -> list[list[str]]:
    """Floors every 3-4 rows with gaps, a border of wall, a few wall stubs."""
    grid = [[" "] * width for _ in range(height)]
    for r in range(height):
        grid[r][0] = grid[r][width - 1] = "X"
    grid[0] = ["X"] * width
    grid[height - 1] = ["X"] * width
    r = 3
    while r < height - 1:
        for c in range(1, width - 1):
            if rng.random() < 0.78:
                grid[r][c] = "X"
        for _ in range(rng.randint(1, 3)):
            c = rng.randint(1, width - 2)
            grid[r - 1][c] = "X"
        r += rng.randint(3, 4)
    return grid


def _plant_on_runs(rng: random.Random, level: Level, count: int) -> list[tuple[int, int]]:
    """Place ``count`` bricks one by one, each on a cell the current runs may read (the physics'
    read offsets around each state, lower cells first, then ahead before behind)."""
    bricks: list[tuple[int, int]] = []
    free = set(level.brickable_cells)
    offsets = sorted(views(level.physics).read_offsets, key=lambda o: (-o[0], -o[1]))
    for _ in range(count):
        run = simulate(level, bricks, enforce_budget=False)
        reads = []
        for track in run.tracks:
            for t, (r, c, d) in enumerate(track.path[:-1]):
                cells = ((r + dr, c + da * d) for dr, da in offsets)
                reads += [cell for cell in cells if cell in free and cell not in bricks]
        if not reads:
            break
        bricks.append(rng.choice(reads))
    return bricks


def large_level(
    seed: int,
    *,
    height: int = 24,
    width: int = 32,
    frames: int = 100,
    lemmings: int = 2,
    planted: int = 6,
    budget: int = 8,
    physics: Physics = CLASSIC,
) -> Level | None:
    """A platform level with targets where the lemmings end under ``planted`` bricks.

    The bricks are planted one at a time on cells the lemmings' current runs read, so
    each one changes a run.  Returns ``None`` when the attempt is degenerate (e.g. a
    lemming ends where it started).
    """
    rng = random.Random(seed)
    grid = _platform_map(rng, height, width)
    empty = [(r, c) for r in range(1, height - 1) for c in range(1, width - 1) if grid[r][c] == " "]
    starts = rng.sample([cell for cell in empty if cell[0] < height // 3], lemmings)
    for r, c in starts:
        grid[r][c] = rng.choice("<>")
    rows = ["".join(row) for row in grid]
    probe = Level.from_rows(rows[:-1] + [rows[-1][:-1] + "T"], frames=frames, budget=len(empty)).with_physics(physics)
    bricks = _plant_on_runs(rng, probe, planted)
    run = simulate_brick_sets(probe, [bricks], check=False)
    ends = {(int(r), int(c)) for r, c, _ in run.final[0]}
    if any(cell in starts for cell in ends) or any(cell in bricks for cell in ends):
        return None
    if any(r >= height - 5 for r, _ in ends):
        return None  # targets in the bottom corridor are reached by wandering lemmings anyway
    for r, c in ends:
        grid[r][c] = "T"
    return Level.from_rows(["".join(row) for row in grid], frames=frames, budget=budget,
                           title=f"generated {height}x{width} #{seed}").with_physics(physics)


def side_by_side(parts: list[Level], *, budget: int, title: str) -> Level:
    """Glue levels of equal height and frames left to right (shared border columns merged).

    Each part keeps its own walls, so its lemmings never meet the others' cells: the
    optimum of the whole is the sum of the parts' optima.
    """
    rows = list(parts[0].grid)
    for part in parts[1:]:
        rows = [left + right[1:] for left, right in zip(rows, part.grid)]
    level = Level.from_rows(list(rows), frames=parts[0].frames, budget=budget, title=title)
    return level.with_physics(parts[0].physics)
