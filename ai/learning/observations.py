"""Observed games: what a learner of physics is shown, and the steps it reads from them.

A game is a map (``X`` solid, ``T`` target, anything else free; bricks are just ``X``), a frame count N
and each lemming's positions at frames 0..N-1, with its directions when they were observed.  The
documented exchange format is JSON lines, one game a line::

    {"map": ["X  T", ...], "frames": N, "lemmings": [{"positions": [[r, c], ...], "directions": [1, -1, ...]}]}

:func:`steps_of` turns games into :class:`Steps`: for every lemming and frame ``t < N-1`` its
neighbourhood in absolute orientation (bit ``i`` set: the cell at ``NEIGHBOURS[i]`` with the column
offset taken as is, i.e. to the right, is solid), whether it stood on a target, its move ``(dr, dc)``
and its directions at ``t`` and ``t+1`` (0 when unobserved).

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

from game.core.errors import GameError
from game.core.json_bounds import loads_bounded
from game.core.level import Brick, Level
from game.core.physics import MIRRORED, NEIGHBOURS, Physics
from game.core.simulation import simulate
from game.core.storage import read_regular_bytes

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]

#: Limits of one observation file: games, map side, frames, lemmings per game, lemming-frames in all.
MAX_GAMES, MAX_SIDE, MAX_FRAMES, MAX_LEMMINGS, MAX_STEPS = 10_000, 256, 10_000, 20_000, 5_000_000

#: For each absolute configuration, the configuration seen by a lemming facing left (columns mirrored).
MIRROR: IntArray = np.array(MIRRORED, dtype=np.int64)


class ObservationError(GameError):
    """An observation that cannot be read (the message names the line and what is wrong)."""


@dataclass(frozen=True)
class Game:
    """One observed game: the solid and target maps, and each lemming's positions (and directions)."""

    solid: BoolArray
    target: BoolArray
    positions: tuple[IntArray, ...]  #: per lemming, ``(N, 2)`` rows and columns
    directions: tuple[IntArray | None, ...]  #: per lemming, ``(N,)`` of -1/+1, or None (positions only)

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
            if dirs is not None:
                item["directions"] = dirs.tolist()
            lemmings.append(item)
        return {"map": rows, "frames": self.frames, "lemmings": lemmings}

    def without_directions(self) -> Game:
        """The same game with the directions hidden."""
        return Game(self.solid, self.target, self.positions, tuple(None for _ in self.positions))


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


def ordinary_games(rng: np.random.Generator, physics: Physics, games: int) -> list[Game]:
    """The default ``learn --games G`` data, "ordinary random games": random 16x24 maps (walls ~30 %,
    targets ~8 %) with a few lemmings (2-4), 40 frames each."""
    return [random_game(rng, physics, lemmings=int(rng.integers(2, 5))) for _ in range(games)]


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


def steps_of(games: Sequence[Game]) -> Steps:
    """The steps of ``games`` (see :class:`Steps`)."""
    configs, on_t, moves, d0, d1, who = [], [], [], [], [], []
    lemming_id = 0
    for game in games:
        h, w = game.solid.shape
        padded = np.ones((h + 2, w + 2), dtype=bool)
        padded[1:-1, 1:-1] = game.solid
        for pos, dirs in zip(game.positions, game.directions):
            r, c = pos[:-1, 0] + 1, pos[:-1, 1] + 1
            cfg = np.zeros(r.shape[0], dtype=np.int64)
            for bit, (dr, dc) in enumerate(NEIGHBOURS):
                cfg |= padded[r + dr, c + dc].astype(np.int64) << bit
            configs.append(cfg)
            on_t.append(game.target[pos[:-1, 0], pos[:-1, 1]])
            moves.append(pos[1:] - pos[:-1])
            if dirs is None:
                zeros = np.zeros(r.shape[0], dtype=np.int64)
                d0.append(zeros)
                d1.append(zeros)
            else:
                d0.append(dirs[:-1])
                d1.append(dirs[1:])
            who.append(np.full(r.shape[0], lemming_id, dtype=np.int64))
            lemming_id += 1
    if not configs:
        empty = np.zeros(0, dtype=np.int64)
        return Steps(empty, np.zeros(0, dtype=bool), np.zeros((0, 2), dtype=np.int64), empty, empty, empty)
    return Steps(np.concatenate(configs), np.concatenate(on_t), np.concatenate(moves).astype(np.int64),
                 np.concatenate(d0).astype(np.int64), np.concatenate(d1).astype(np.int64), np.concatenate(who))


# ---------------------------------------------------------------------- the JSON lines format
def parse_game(data: object, where: str) -> Game:
    """One game from its JSON object; :class:`ObservationError` names what is wrong."""
    if not isinstance(data, dict):
        raise ObservationError(f"{where}: expected a JSON object with map, frames and lemmings")
    rows = data.get("map")
    if (not isinstance(rows, list) or not rows or len(rows) > MAX_SIDE
            or not all(isinstance(r, str) and len(r) <= MAX_SIDE for r in rows)):
        raise ObservationError(f"{where}: 'map' must be a list of 1-{MAX_SIDE} strings of at most {MAX_SIDE} cells")
    width = max(len(r) for r in rows)
    if width == 0:
        raise ObservationError(f"{where}: the map is empty")
    grid = [r.ljust(width) for r in rows]
    solid = np.array([[ch == "X" for ch in r] for r in grid], dtype=bool)
    target = np.array([[ch == "T" for ch in r] for r in grid], dtype=bool)
    frames = data.get("frames")
    if type(frames) is not int or not 1 <= frames <= MAX_FRAMES:
        raise ObservationError(f"{where}: 'frames' must be a whole number from 1 to {MAX_FRAMES}")
    lemmings = data.get("lemmings")
    if not isinstance(lemmings, list) or not 1 <= len(lemmings) <= MAX_LEMMINGS:
        raise ObservationError(f"{where}: 'lemmings' must be a list of 1-{MAX_LEMMINGS} lemmings")
    positions: list[IntArray] = []
    directions: list[IntArray | None] = []
    for k, lem in enumerate(lemmings):
        here = f"{where}: lemming {k + 1}"
        if not isinstance(lem, dict) or not isinstance(lem.get("positions"), list):
            raise ObservationError(f"{here}: expected an object with 'positions'")
        pos = lem["positions"]
        if len(pos) != frames:
            raise ObservationError(f"{here}: {len(pos)} positions, expected one per frame ({frames})")
        if not all(isinstance(p, list) and len(p) == 2 and all(type(v) is int for v in p) for p in pos):
            raise ObservationError(f"{here}: each position must be [row, col] in whole numbers")
        arr = np.array(pos, dtype=np.int64).reshape(frames, 2)
        if (arr < 0).any() or (arr[:, 0] >= solid.shape[0]).any() or (arr[:, 1] >= width).any():
            raise ObservationError(f"{here}: a position lies outside the {solid.shape[0]}x{width} map")
        if solid[arr[:, 0], arr[:, 1]].any():
            raise ObservationError(f"{here}: a position is on a solid cell")
        if (np.abs(np.diff(arr, axis=0)) > 1).any():
            raise ObservationError(f"{here}: a lemming moved more than one cell in one frame")
        positions.append(arr)
        dirs = lem.get("directions")
        if dirs is None:
            directions.append(None)
        elif (isinstance(dirs, list) and len(dirs) == frames
              and all(type(v) is int and v in (-1, 1) for v in dirs)):
            directions.append(np.array(dirs, dtype=np.int64))
        else:
            raise ObservationError(f"{here}: 'directions' must list -1 or 1 for each of the {frames} frames")
    return Game(solid, target, tuple(positions), tuple(directions))


def read_observations(text: str, path: str) -> list[Game]:
    """Every game of a JSON lines text (blank lines skipped); errors name ``path:line``."""
    games: list[Game] = []
    steps = 0
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        if len(games) >= MAX_GAMES:
            raise ObservationError(f"{where}: more than {MAX_GAMES:,} games")
        try:
            data = loads_bounded(line, max_depth=6)
        except (ValueError, RecursionError) as exc:
            raise ObservationError(f"{where}: not valid JSON ({str(exc)[:80]})") from None
        game = parse_game(data, where)
        steps += game.frames * len(game.positions)
        if steps > MAX_STEPS:
            raise ObservationError(f"{where}: more than {MAX_STEPS:,} lemming-frames in all")
        games.append(game)
    if not games:
        raise ObservationError(f"{path}: no game (expected one JSON object per line)")
    return games


def load_observations(path: str) -> list[Game]:
    """Read a JSON lines file of games through the bounded loader (regular files, size cap, UTF-8)."""
    try:
        data = read_regular_bytes(path, 256 * 1024 * 1024)
    except FileNotFoundError:
        raise ObservationError(f"{path}: no such file") from None
    except OSError as exc:
        raise ObservationError(f"{path}: {exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ObservationError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    return read_observations(text, path)
