"""How a learned physics compares with the true one: lemmings released on large unseen random maps.

:func:`agreement` replays the same starts under both physics and counts the lemmings whose positions agree
at every frame; with positions only the learner may name left and right the other way round, so the
learned physics is also tried with every start direction reversed.  It also says whether the tables agree
and whether positions agree from any start on any map (:func:`game.core.physics_views.moves_alike`).

>>> from game.core.physics_catalog import SHIPPED
>>> agreement(SHIPPED["climber"], SHIPPED["climber"], maps=1, lemmings=20).exact
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ai.kernel.context import SolveContext
from ai.learning.observations import Game, random_game
from game.core.level import Level
from game.core.physics import Physics
from game.core.physics_views import moves_alike, same_behaviour
from game.core.simulation import simulate


@dataclass(frozen=True)
class Agreement:
    """How a learned physics compares with the true one on large unseen maps."""

    lemmings: int  #: lemmings compared
    alike: int  #: lemmings whose positions agree at every frame
    flipped: bool  #: the learned directions are named the other way round (positions only)
    table_exact: bool  #: the tables agree on all 256 configurations and targets alike
    #: positions agree from any start on any map (:func:`~game.core.physics_views.moves_alike`; when ``flipped``,
    #: with every start direction of the learned physics reversed: positions alone cannot name left and right)
    proved: bool = False
    #: positions agree from any start on any map with the directions named as the true physics names them
    same_names: bool = False

    @property
    def exact(self) -> bool:
        """Every lemming moved exactly like under the true physics."""
        return self.alike == self.lemmings


def agreement(learned: Physics, truth: Physics, *, seed: int = 12345, maps: int = 3, height: int = 48,
              width: int = 64, lemmings: int = 600, frames: int = 60, ctx: SolveContext | None = None) -> Agreement:
    """Release ``lemmings`` on ``maps`` large random maps under both physics and compare positions
    frame by frame; with positions only the learner may name the directions the other way round, so
    the learned physics is also tried with every start direction reversed.  ``ctx`` (default: no limit) is
    checked between the runs (:class:`ai.kernel.context.SolveStopped`)."""
    rng = np.random.default_rng(seed)
    total = best_alike = 0
    alike = {False: 0, True: 0}
    for _ in range(maps):
        if ctx is not None:
            ctx.check()
        truth_game = random_game(rng, truth, height=height, width=width, lemmings=lemmings, frames=frames)
        total += len(truth_game.positions)
        for flip in (False, True):
            if ctx is not None:
                ctx.check()
            alike[flip] += _alike(truth_game, learned, flip)
    flipped = alike[True] > alike[False]
    best_alike = alike[flipped]
    same_names = moves_alike(truth, learned)
    return Agreement(total, best_alike, flipped, same_behaviour(learned, truth),
                     same_names or moves_alike(truth, learned, opposite=flipped), same_names)


def _alike(game: Game, physics: Physics, flip: bool) -> int:
    """How many of ``game``'s lemmings move the same under ``physics`` from the same starts."""
    rows = ["".join("X" if s else ("T" if t else " ") for s, t in zip(sr, tr))
            for sr, tr in zip(game.solid.tolist(), game.target.tolist())]
    grid = [list(r) for r in rows]
    starts = [(int(p[0, 0]), int(p[0, 1]), int(d[0]) if d is not None else 1)
              for p, d in zip(game.positions, game.directions)]
    for r, c, d in starts:
        grid[r][c] = "<" if (d < 0) != flip else ">"
    if not any("T" in "".join(r) for r in grid):
        return 0
    level = Level.from_rows(["".join(r) for r in grid], game.frames, 0, physics=physics)
    run = simulate(level, enforce_budget=False)
    where = {(r, c): k for k, (r, c, _) in enumerate(starts)}
    alike = 0
    for lem, track in zip(level.lemmings, run.tracks):
        k = where[(lem.row, lem.col)]
        ours = np.array([(r, c) for r, c, _ in track.path], dtype=np.int64)
        alike += int(np.array_equal(ours, game.positions[k]))
    return alike
