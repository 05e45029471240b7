"""Big levels the tests build on the fly (nothing large is committed): tilings, gluings, a maze, the largest.

* :data:`LARGE_FIRST`: the large suite's first level (24x32, a data file of the benchmark suites);
* :func:`large`: level ``number`` of the large suite;
* :func:`tiled`: a level repeated ``rows x cols`` times, frames raised, budget scaled, optionally padded;
* :func:`glue`: compartments (levels with walled borders) glued, sharing the border walls;
* :func:`stress_level`: the large suite's first level tiled 4x4 (96x128), N = 1,000, B = its minimum 80;
* :func:`maze_256`: a 256x256 platform maze of the level generator;
* :func:`largest_level`: the largest valid level (256x256, N = 10,000, 16,128 lemmings).

>>> big = tiled(Level.from_rows(["XXX", "X>T", "XXX"], 5, 1), rows=2, cols=3, frames=9, size=(7, 10))
>>> (big.height, big.width, big.frames, big.budget, len(big.lemmings))
(7, 10, 9, 6, 6)
>>> part = Level.from_rows(["XXX", "X>T", "XXX"], 5, 1)
>>> glued = glue([[part, part], [part, part]], budget=4, title="four")
>>> (glued.height, glued.width, len(glued.lemmings))
(5, 5, 4)
"""

from __future__ import annotations

from pathlib import Path

from ai.services.generation.random_levels import large_level
from game.core.level import Level
from game.core.level_text import MAX_FRAMES, MAX_SIDE

REPO = Path(__file__).resolve().parent.parent
LARGE_SUITE = REPO / "bench" / "suites" / "large"
LARGE_FIRST = LARGE_SUITE / "001_large.txt"


def large(number: int) -> Level:
    """Level ``number`` of the large suite (24x32)."""
    return Level.load(LARGE_SUITE / f"{number:03d}_large.txt")


def tiled(level: Level, *, rows: int, cols: int, frames: int, size: tuple[int, int] | None = None) -> Level:
    """``level`` repeated ``rows x cols`` times, with ``frames`` frames and ``budget x copies`` bricks.

    ``size`` pads the result with walls (bottom and right) to ``(height, width)``.
    """
    grid = [row * cols for row in level.grid] * rows
    if size is not None:
        height, width = size
        grid = [row + "X" * (width - len(row)) for row in grid] + ["X" * width] * (height - len(grid))
    return Level.from_rows(grid, frames=frames, budget=level.budget * rows * cols,
                           title=f"{level.title or 'level'} tiled {rows}x{cols}, N={frames}")


def glue(parts: list[list[Level]], *, budget: int, title: str) -> Level:
    """Compartments (rows of levels of equal size, walled borders) glued, sharing the border walls."""
    rows: list[str] = []
    for i, row_parts in enumerate(parts):
        band = list(row_parts[0].grid)
        for part in row_parts[1:]:
            band = [left + right[1:] for left, right in zip(band, part.grid)]
        rows += band if i == 0 else band[1:]
    return Level.from_rows(rows, frames=parts[0][0].frames, budget=budget, title=title)


def stress_level() -> Level:
    """The large suite's first level tiled 4x4: 96x128, N = 1,000, 48 lemmings, B = 80 (its minimum).

    Too large for the search's frame table; its 48 independent parts make it easy for ``auto``.
    """
    return tiled(Level.load(LARGE_FIRST), rows=4, cols=4, frames=1000).with_limits(budget=80)


def maze_256(seed: int = 1, frames: int = 10_000) -> Level:
    """A 256x256 platform maze with 4 lemmings (the first seed from ``seed`` that generates)."""
    while True:
        level = large_level(seed, height=256, width=256, frames=400, lemmings=4, planted=8, budget=10)
        if level is not None:
            return level.with_limits(frames=frames)
        seed += 1


def largest_level() -> Level:
    """256x256, N = 10,000, 16,128 lemmings: 63 rows of 256 lemmings (each on a floor), targets below."""
    rows = []
    for _ in range(63):
        rows.append(">" * (MAX_SIDE // 2) + "<" * (MAX_SIDE // 2))
        rows.append("X" * (MAX_SIDE // 2 - 1) + " " * 2 + "X" * (MAX_SIDE // 2 - 1))
        rows.append(" " * MAX_SIDE)
        rows.append(" " * MAX_SIDE)
    while len(rows) < MAX_SIDE - 1:
        rows.append(" " * MAX_SIDE)
    rows.append("X" * (MAX_SIDE // 2 - 1) + "TT" + "X" * (MAX_SIDE // 2 - 1))
    return Level.from_rows(rows, frames=MAX_FRAMES, budget=3, title="Largest valid level")
