"""Observed games: what a learner of physics is shown, and the steps it reads from them.

A game is a map (``X`` solid, ``T`` target, anything else free; bricks are just ``X``), a frame count N
and each lemming's positions at frames 0..N-1, with its directions when they were observed.  The
documented exchange format is JSON lines, one game a line::

    {"map": ["X  T", ...], "frames": N, "lemmings": [{"positions": [[r, c], ...], "directions": [1, -1, ...]}]}

:func:`steps_of` turns games into :class:`Steps`: for every lemming and frame ``t < N-1`` its
neighbourhood in absolute orientation (bit ``i`` set: the cell at ``NEIGHBOURS[i]`` with the column
offset taken as is, i.e. to the right, is solid), whether it stood on a target, its move ``(dr, dc)``
and its directions at ``t`` and ``t+1`` (0 when unobserved).  Files of games are read by
:mod:`ai.learning.observations_file`.

>>> from game.core.level import Level
>>> game = observe(Level.from_rows([">  T", "XXXX"], frames=5, budget=0))
>>> game.to_json()["lemmings"][0]["positions"][:3]
[[0, 0], [0, 1], [0, 2]]
>>> steps = steps_of([game])
>>> steps.count, steps.moves[0].tolist(), int(steps.direction[0])
(4, [0, 1], 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import numpy as np
import numpy.typing as npt

from ai.kernel.context import SolveContext
from game.core.level import Brick, Level
from game.core.physics import MIRRORED, NEIGHBOURS, Physics
from game.core.simulation import simulate

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]

#: For each absolute configuration, the configuration seen by a lemming facing left (columns mirrored).
MIRROR: IntArray = np.array(MIRRORED, dtype=np.int64)


@dataclass(frozen=True)
class Game:
    """One observed game: the solid and target maps, and each lemming's positions (and directions)."""

    solid: BoolArray
    target: BoolArray
    positions: tuple[IntArray, ...]  #: per lemming, ``(N, 2)`` rows and columns
    #: per lemming, ``(N,)`` of -1/+1 (0 where not observed), or None (positions only)
    directions: tuple[IntArray | None, ...]

    @property
    def frames(self) -> int:
        """N, the number of frames observed."""
        return int(self.positions[0].shape[0]) if self.positions else 0

    def to_json(self) -> dict[str, Any]:
        """The documented JSON form."""
        rows = ["".join("X" if s else ("T" if t else " ") for s, t in zip(srow, trow))
                for srow, trow in zip(self.solid.tolist(), self.target.tolist())]
        lemmings: list[dict[str, Any]] = []
        for pos, dirs in zip(self.positions, self.directions):
            item: dict[str, Any] = {"positions": pos.tolist()}
            if dirs is not None and dirs.size > 1 and dirs[0] != 0 and not dirs[1:].any():
                item["start"] = int(dirs[0])
            elif dirs is not None:
                item["directions"] = dirs.tolist()
            lemmings.append(item)
        return {"map": rows, "frames": self.frames, "lemmings": lemmings}

    def without_directions(self) -> Game:
        """The same game with the directions hidden."""
        return Game(self.solid, self.target, self.positions, tuple(None for _ in self.positions))

    def with_start_directions(self) -> Game:
        """The same game with every direction hidden but each lemming's first, the level's start marker
        (0 marks a direction not observed)."""
        starts = []
        for pos, dirs in zip(self.positions, self.directions):
            known = np.zeros(pos.shape[0], dtype=np.int64)
            if dirs is not None and known.size:
                known[0] = dirs[0]
            starts.append(known)
        return Game(self.solid, self.target, self.positions, tuple(starts))


def observe(level: Level, bricks: Iterable[Brick] = (), *, physics: Physics | None = None) -> Game:
    """Run ``level`` (under ``physics``, default its own) with ``bricks`` and record what an observer sees."""
    if physics is not None:
        level = level.with_physics(physics)
    run = simulate(level, bricks, enforce_budget=False)
    solid = level.obstacle_map(run.bricks)
    positions, directions = [], []
    for track in run.tracks:
        path = np.array([(r, c, d) for r, c, d in track.path], dtype=np.int64)
        positions.append(path[:, :2].copy())
        directions.append(path[:, 2].copy())
    return Game(solid, np.array(level.target_map), tuple(positions), tuple(directions))


def random_game(rng: np.random.Generator, physics: Physics, *, height: int = 16, width: int = 24,
                walls: float = 0.30, targets: float = 0.08, lemmings: int = 30, frames: int = 40) -> Game:
    """A random map (``walls`` and ``targets`` as fractions of the cells), ``lemmings`` released on free
    cells facing either way, run for ``frames`` frames under ``physics``."""
    cells = rng.random((height, width))
    grid = np.where(cells < walls, "X", np.where(cells < walls + targets, "T", " "))
    free = np.argwhere(grid == " ")
    if len(free) == 0:
        grid[0, 0], free = " ", np.array([[0, 0]])
    if not (grid == "T").any():
        spot = free[-1]
        grid[spot[0], spot[1]] = "T"
        free = free[:-1] if len(free) > 1 else free
    picks = free[rng.choice(len(free), size=min(lemmings, len(free)), replace=False)]
    for r, c in picks:
        grid[r, c] = "<" if rng.integers(0, 2) else ">"
    level = Level.from_rows(["".join(row) for row in grid], frames, 0, physics=physics)
    return observe(level)


def ordinary_games(rng: np.random.Generator, physics: Physics, games: int,
                   ctx: SolveContext | None = None) -> list[Game]:
    """The default ``learn --games G`` data, "ordinary random games": random 16x24 maps (walls ~30 %,
    targets ~8 %) with a few lemmings (2-4), 40 frames each; ``ctx`` is checked before each game."""
    out = []
    for _ in range(games):
        if ctx is not None:
            ctx.check()
        out.append(random_game(rng, physics, lemmings=int(rng.integers(2, 5))))
    return out


@dataclass(frozen=True)
class Steps:
    """Every observed step: absolute neighbourhood, on a target, move, directions before and after."""

    config: IntArray  #: absolute configuration (columns as on the map)
    on_target: BoolArray
    moves: IntArray  #: ``(S, 2)`` dr, dc
    direction: IntArray  #: direction at t (0: unobserved)
    next_direction: IntArray  #: direction at t+1 (0: unobserved)
    lemming: IntArray  #: a global lemming index (steps of one lemming are consecutive)

    @property
    def count(self) -> int:
        """How many steps."""
        return int(self.config.shape[0])


#: Most steps computed at once by :func:`steps_of` (the context is checked between such pieces).
STEPS_PIECE = 1 << 16


def steps_of(games: Sequence[Game], ctx: SolveContext | None = None) -> Steps:
    """The steps of ``games`` (see :class:`Steps`), computed game by game and, in a game, for pieces of
    lemmings of at most :data:`STEPS_PIECE` steps (``ctx`` is checked before each piece)."""
    parts: list[tuple[IntArray, BoolArray, IntArray, IntArray, IntArray, IntArray]] = []
    lemming_id = 0
    for game in games:
        count, frames = len(game.positions), game.frames
        per_piece = max(1, STEPS_PIECE // max(1, frames - 1))
        for first in range(0, count if frames > 1 else 0, per_piece):
            if ctx is not None:
                ctx.check()
            last = min(count, first + per_piece)
            parts.append(_game_steps(game, first, last, lemming_id + first))
        lemming_id += count
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return Steps(empty, np.zeros(0, dtype=bool), np.zeros((0, 2), dtype=np.int64), empty, empty, empty)
    config, on_t, moves, d0, d1, who = (np.concatenate(column) for column in zip(*parts))
    return Steps(config, on_t, moves, d0, d1, who)


def _game_steps(game: Game, first: int, last: int,
                lemming_id: int) -> tuple[IntArray, BoolArray, IntArray, IntArray, IntArray, IntArray]:
    """The steps of lemmings ``first..last-1`` of ``game`` (every lemming of a game has N frames)."""
    h, w = game.solid.shape
    padded = np.ones((h + 2, w + 2), dtype=bool)
    padded[1:-1, 1:-1] = game.solid
    pos = np.stack(game.positions[first:last]).astype(np.int64)  # (L, N, 2)
    r, c = pos[:, :-1, 0], pos[:, :-1, 1]
    cfg = np.zeros(r.shape, dtype=np.int64)
    for bit, (dr, dc) in enumerate(NEIGHBOURS):
        cfg |= padded[r + 1 + dr, c + 1 + dc].astype(np.int64) << bit
    zeros = np.zeros(game.frames, dtype=np.int64)
    dirs = np.stack([zeros if d is None else d for d in game.directions[first:last]]).astype(np.int64)
    who = np.repeat(np.arange(lemming_id, lemming_id + last - first, dtype=np.int64), r.shape[1])
    return (cfg.ravel(), game.target[r, c].ravel(), (pos[:, 1:] - pos[:, :-1]).reshape(-1, 2),
            dirs[:, :-1].ravel(), dirs[:, 1:].ravel(), who)
