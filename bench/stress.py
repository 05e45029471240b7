"""Stress levels of the scale targets, made on the fly (nothing large is committed).

* :func:`tiled`: a level repeated ``rows x cols`` times (walls between copies come from the level's own
  border), frames raised, budget scaled with the copies, padded with walls to a fixed size;
* :func:`stress_levels`: the stress suite: the large suite's first level tiled to 96x128 with N = 1,000,
  and to 256x256 with N = 10,000, and a 256x256 platform maze with N = 10,000.

>>> from game.core.level import Level
>>> big = tiled(Level.from_rows(["XXX", "X>T", "XXX"], 5, 1), rows=2, cols=3, frames=9, size=(7, 10))
>>> (big.height, big.width, big.frames, big.budget, len(big.lemmings))
(7, 10, 9, 6, 6)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.services.generation.random_levels import large_level  # noqa: E402
from game.core.level import Level  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LARGE_FIRST = ROOT / "bench" / "suites" / "large" / "001_large.txt"


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


def maze_256(seed: int = 1, frames: int = 10_000) -> Level:
    """A 256x256 platform maze with 4 lemmings (the first seed from ``seed`` that generates)."""
    while True:
        level = large_level(seed, height=256, width=256, frames=400, lemmings=4, planted=8, budget=10)
        if level is not None:
            return level.with_limits(frames=frames)
        seed += 1


STRESS: dict[str, Callable[[], Level]] = {
    "large001 tiled 4x4 (96x128, N=1000)": lambda: tiled(Level.load(LARGE_FIRST), rows=4, cols=4, frames=1000),
    "large001 tiled 10x8 (256x256, N=10000)": lambda: tiled(Level.load(LARGE_FIRST), rows=10, cols=8,
                                                            frames=10_000, size=(256, 256)),
    "maze 256x256, N=10000": maze_256,
}
"""The stress suite: name -> a function making the level."""


def stress_levels() -> list[tuple[str, Level]]:
    """The stress suite: ``(name, level)`` pairs."""
    return [(name, make()) for name, make in STRESS.items()]
