"""Learning a physics by asking an engine: a query level per neighbourhood never seen, then dense-target games.

:func:`learn_by_asking` learns from the games it is given (:func:`ai.learning.physics_learner.learn_physics`),
then runs, on the engine (:func:`engine_for`: a level in, the observed game out), a two-frame level for each
neighbourhood never seen (:func:`query_level`), and games with many targets until it is known whether targets
stop lemmings.

>>> from game.core.physics_catalog import SHIPPED
>>> engine = engine_for(SHIPPED["classic"])
>>> engine(query_level(1 << NEIGHBOURS.index((1, 0)))).positions[0].tolist()  # solid below: it walks on
[[1, 1], [1, 2]]
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from ai.kernel.context import SolveContext
from ai.learning.observations import Game, observe, random_game
from ai.learning.physics_learner import LearnedPhysics, learn_physics
from game.core.level import Level
from game.core.physics import CLASSIC, CONFIGS, NEIGHBOURS, Physics


def engine_for(physics: Physics) -> Callable[[Any], Game]:
    """An engine to ask: runs a query level under ``physics`` (which the learner never reads)."""
    return lambda level: observe(level, physics=physics)


def query_level(config: int) -> Any:
    """A two-frame level whose lemming (facing right) stands in ``config``: one step shows its move."""
    grid = [[" "] * 4 for _ in range(3)]
    for bit, (dr, da) in enumerate(NEIGHBOURS):
        if config >> bit & 1:
            grid[1 + dr][1 + da] = "X"
    grid[1][1] = ">"
    grid[0][3] = "T"
    return Level.from_rows(["".join(r) for r in grid], 2, 0)


def learn_by_asking(engine: Callable[[Any], Game], games: Sequence[Game] = (), *, seed: int = 0,
                    most_queries: int = 300, name: str = "learned",
                    ctx: SolveContext | None = None) -> LearnedPhysics:
    """Active learning: learn from ``games``, then ask ``engine`` (a level in, the observed game out)
    about every neighbourhood never seen, and play dense-target games until it is known whether
    targets stop lemmings.  Ends :attr:`LearnedPhysics.sure` unless ``most_queries`` runs out."""
    ctx = ctx or SolveContext.create()
    data = list(games)
    queries = 0
    result = learn_physics(data, name=name, ctx=ctx) if data else None
    unseen = result.unseen.tolist() if result is not None else list(range(CONFIGS))
    for config in unseen:
        if queries >= most_queries:
            break
        ctx.check()
        data.append(engine(query_level(int(config))))
        queries += 1
    result = learn_physics(data, name=name, ctx=ctx)
    rng = np.random.default_rng(seed)
    while not result.targets_decided and queries < most_queries:
        ctx.check()
        probe = random_game(rng, CLASSIC, height=8, width=12, walls=0.3, targets=0.4, lemmings=40, frames=12)
        level = _level_of(probe)
        data.append(engine(level))
        queries += 1
        result = learn_physics(data, name=name, ctx=ctx)
    result.queries = queries
    return result


def _level_of(game: Game) -> Any:
    """A level with ``game``'s map and lemming starts (its frames), for asking an engine."""
    grid = [["X" if s else ("T" if t else " ") for s, t in zip(sr, tr)]
            for sr, tr in zip(game.solid.tolist(), game.target.tolist())]
    for pos, dirs in zip(game.positions, game.directions):
        d = int(dirs[0]) if dirs is not None else 1
        grid[int(pos[0, 0])][int(pos[0, 1])] = ">" if d > 0 else "<"
    return Level.from_rows(["".join(r) for r in grid], game.frames, 0)
