"""Random Reverse Life cases as in the Kaggle "Conway's Reverse Game of Life 2020" setting.

A random board of random density (uniform in 1 %..99 %), ``warmup`` generations (5) so that it looks
like a board that occurs in play, then the start; the target is the start after ``steps`` generations.

>>> import numpy as np
>>> case = random_case(np.random.default_rng(1), 25, 2)
>>> case.start.shape, case.steps, bool((case.target == step(case.start, LIFE, 2)).all())
((25, 25), 2, True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from game.core.puzzles.life.rules import LIFE, Board, Rule, step

#: Generations run on the random board before it becomes the start.
WARMUP = 5


@dataclass(frozen=True)
class Case:
    """A known start, its target after ``steps`` generations, and the density it was drawn with."""

    start: Board
    target: Board
    steps: int
    density: float


def random_board(rng: np.random.Generator, size: int, density: float) -> Board:
    """A ``size`` x ``size`` board whose cells are alive with probability ``density``."""
    return rng.random((size, size)) < density


def random_case(rng: np.random.Generator, size: int, steps: int, rule: Rule = LIFE, *,
                warmup: int = WARMUP, min_density: float = 0.01, max_density: float = 0.99) -> Case:
    """One case (see the module docstring)."""
    density = float(rng.uniform(min_density, max_density))
    start = step(random_board(rng, size, density), rule, warmup)
    return Case(start, step(start, rule, steps), steps, density)


__all__ = ["Case", "WARMUP", "random_board", "random_case"]
