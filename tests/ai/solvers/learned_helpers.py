"""Small random levels and brute-force answers shared by the gradient and learned-solver tests."""

from __future__ import annotations

from itertools import combinations

import numpy as np

from game.core.batch import simulate_brick_sets
from game.core.level import Level


def random_small_level(rng: np.random.Generator) -> Level:
    """A random level of at most 6x7 cells, 1-2 lemmings, 1-2 targets, budget 0-2."""
    h, w = int(rng.integers(4, 7)), int(rng.integers(4, 8))
    grid = [["X" if rng.random() < 0.3 else " " for _ in range(w)] for _ in range(h)]
    grid[-1] = ["X"] * w
    free = [(r, c) for r in range(h - 1) for c in range(w) if grid[r][c] == " "]
    while len(free) < 4:
        r, c = int(rng.integers(0, h - 1)), int(rng.integers(0, w))
        grid[r][c] = " "
        free = [(r, c) for r in range(h - 1) for c in range(w) if grid[r][c] == " "]
    picks = rng.permutation(len(free))
    n_lem, n_tgt = int(rng.integers(1, 3)), int(rng.integers(1, 3))
    for i in picks[:n_lem]:
        r, c = free[i]
        grid[r][c] = ">" if rng.random() < 0.5 else "<"
    for i in picks[n_lem : n_lem + n_tgt]:
        r, c = free[i]
        grid[r][c] = "T"
    return Level.from_rows(["".join(row) for row in grid], frames=int(rng.integers(6, 15)),
                           budget=int(rng.integers(0, 3)))


def brute_force(level: Level) -> tuple[int | None, set[tuple[tuple[int, int], ...]]]:
    """The minimum brick count and every minimum solution, by trying every subset."""
    cells = level.brickable_cells
    for k in range(level.budget + 1):
        sets = [tuple(sorted(s)) for s in combinations(cells, k)]
        if not sets:
            continue
        won = simulate_brick_sets(level, [list(s) for s in sets]).won
        sols = {s for s, ok in zip(sets, won) if ok}
        if sols:
            return k, sols
    return None, set()


def interesting_small_levels(seed: int, count: int, *, others: int = 3) -> list[Level]:
    """``count`` random small levels that need at least one brick, plus ``others`` of any kind."""
    rng = np.random.default_rng(seed)
    needy: list[Level] = []
    rest: list[Level] = []
    for _ in range(2000):
        level = random_small_level(rng)
        best, _ = brute_force(level)
        if best is not None and best >= 1 and len(needy) < count:
            needy.append(level)
        elif len(rest) < others:
            rest.append(level)
        if len(needy) == count and len(rest) == others:
            break
    return needy + rest
