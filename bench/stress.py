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

from game.core.level import Level  # noqa: E402
from tests.level_builders import LARGE_FIRST, maze_256, tiled  # noqa: E402

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
