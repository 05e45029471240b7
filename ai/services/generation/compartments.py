"""Large levels made of sealed compartments, each planted and certified on its own.

A big map (40x56, 7 bricks, 4 lemmings) is cut into a grid of rooms whose walls touch
(neighbouring rooms share one wall row or column).  A lemming never leaves its room and a
brick in one room never changes a run in another, so:

* the level's minimum brick count is the **sum** of the rooms' minima;
* its optimal solutions are the **products** of the rooms' optimal solutions (unique
  exactly when every room is unique).

Each room is an ordinary generated level (:func:`ai.services.generation.generator.generate_levels`),
certified by the exact solver at its own size, where certification is fast.  The
stitched level is replayed once by the reference simulator before it is returned.

>>> plan = plan_rooms(40, 56, bricks=7, lemmings=4)
>>> [(r.height, r.width, r.bricks, r.lemmings) for r in plan]
[(20, 28, 2, 1), (20, 29, 2, 1), (21, 28, 2, 1), (21, 29, 1, 1)]
>>> len(plan_rooms(16, 20, bricks=3, lemmings=2)), len(plan_rooms(24, 32, bricks=6, lemmings=2))
(1, 2)
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from ai.kernel.base import BrickSet
from ai.kernel.context import SolveContext
from ai.services.generation.generator import GeneratedLevel, GenerationProgress, GenerationStats, generate_levels
from game.core.level import Level
from game.core.physics import CLASSIC, Physics
from game.core.simulation import simulate

#: Bricks one room carries at most when a level is cut into rooms.
BRICKS_PER_ROOM = 3
#: Room counts a grid can hold, with its (rows, columns) for a landscape map.
GRIDS = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3)}
#: Optimal solutions of a stitched level listed at most (their count is still exact).
MAX_LISTED = 64
#: Levels this small (bricks, cells) stay in one piece.
SMALL_BRICKS, SMALL_AREA = 4, 24 * 32
#: Rooms smaller than this (either side) are not made: the level stays in one piece.
MIN_ROOM = 10


@dataclass(frozen=True)
class Room:
    """One compartment: its top-left cell in the level, its size, and what goes in it."""

    top: int
    left: int
    height: int
    width: int
    bricks: int
    lemmings: int


def _cuts(total: int, parts: int) -> list[tuple[int, int]]:
    """``parts`` (start, length) spans over ``total`` cells, neighbours sharing one cell.

    >>> _cuts(40, 2)
    [(0, 20), (19, 21)]
    """
    inner = total + parts - 1  # each shared line counted twice
    out, start = [], 0
    for i in range(parts):
        length = inner // parts + (1 if i >= parts - inner % parts else 0)
        out.append((start, length))
        start += length - 1
    return out


def room_count(height: int, width: int, bricks: int, lemmings: int) -> int:
    """How many rooms :func:`plan_rooms` cuts a level into (1: in one piece).

    Levels with at most :data:`SMALL_BRICKS` bricks and :data:`SMALL_AREA` cells stay whole
    (the exact solver certifies them fast, and their lemmings can share bricks); else one
    room per :data:`BRICKS_PER_ROOM` bricks, at most one per lemming, rounded to a
    grid of :data:`GRIDS`, and only while rooms stay at least :data:`MIN_ROOM` a side.
    """
    if bricks <= SMALL_BRICKS and height * width <= SMALL_AREA:
        return 1
    want = min(lemmings, max(1, math.ceil(bricks / BRICKS_PER_ROOM)))
    options = [n for n in sorted(GRIDS) if n <= lemmings and n <= bricks]
    n = next((n for n in options if n >= want), options[-1] if options else 1)
    while n > 1:
        rows, cols = _grid(n, height, width)
        if height // rows >= MIN_ROOM and width // cols >= MIN_ROOM:
            return n
        n = max(m for m in GRIDS if m < n)
    return 1


def _grid(n: int, height: int, width: int) -> tuple[int, int]:
    rows, cols = GRIDS[n]
    return (cols, rows) if height > width else (rows, cols)


def plan_rooms(height: int, width: int, bricks: int, lemmings: int, rooms: int | None = None) -> list[Room]:
    """The rooms of a level: sizes from the grid, bricks and lemmings dealt as evenly as possible."""
    n = room_count(height, width, bricks, lemmings) if rooms is None else rooms
    if n not in GRIDS or n > min(bricks, lemmings):
        raise ValueError(f"cannot cut a level with {bricks} bricks and {lemmings} lemmings into {n} rooms")
    rows, cols = _grid(n, height, width)
    spans = list(itertools.product(_cuts(height, rows), _cuts(width, cols)))
    out = []
    for i, ((top, h), (left, w)) in enumerate(spans):
        k = bricks // n + (1 if i < bricks % n else 0)
        lem = lemmings // n + (1 if i < lemmings % n else 0)
        out.append(Room(top, left, h, w, k, lem))
    return out


def room_seed(seed: int, index: int, room: int) -> int:
    """The generator seed of room ``room`` of the ``index``-th level of a run of ``seed``.

    >>> room_seed(11, 0, 3) != room_seed(11, 1, 3)
    True
    """
    return (seed * 1_000_003 + index * 1_009 + room) % (2**62)


def make_room(
    room: Room,
    frames: int,
    unique: bool,
    seed: int,
    context: SolveContext | None = None,
    progress: GenerationProgress | None = None,
    *,
    solver: str | None = None,
    time_limit: float | None = 60.0,
    max_attempts: int | None = None,
    stats: GenerationStats | None = None,
    physics: Physics = CLASSIC,
) -> GeneratedLevel | None:
    """One certified room under ``physics`` (``None`` when cancelled or out of attempts)."""
    for generated in generate_levels(
        room.height, room.width, room.bricks, frames, room.lemmings, 1, unique, seed, context, progress,
        solver=solver, time_limit=time_limit, max_attempts=max_attempts, stats=stats, physics=physics,
    ):
        return generated
    return None


def stitch(rooms: list[Room], made: list[GeneratedLevel], height: int, width: int, frames: int,
           meta: tuple[tuple[str, str], ...] = ()) -> GeneratedLevel:
    """The level of ``made`` rooms laid out as ``rooms``, with its solutions; replay-checked."""
    grid = [[" "] * width for _ in range(height)]
    for room, g in zip(rooms, made):
        for r, row in enumerate(g.level.grid):
            for c, ch in enumerate(row):
                cell = grid[room.top + r]
                if ch != "X" or cell[room.left + c] == " ":
                    cell[room.left + c] = ch
    total = sum(g.min_bricks for g in made)
    level = Level.from_rows(["".join(row) for row in grid], frames=frames, budget=total, meta=meta)
    level = level.with_physics(made[0].level.physics)  # every room follows the run's physics
    shifted = [
        [tuple(sorted((r + room.top, c + room.left) for r, c in sol)) for sol in g.solutions]
        for room, g in zip(rooms, made)
    ]
    solutions: list[BrickSet] = []
    for combo in itertools.islice(itertools.product(*shifted), MAX_LISTED):
        solutions.append(tuple(sorted(b for part in combo for b in part)))
    if not simulate(level, solutions[0]).won:  # a stitching bug must never ship a level
        raise AssertionError("a stitched level is not won by its rooms' solutions")
    unique = all(g.unique for g in made)
    solver = made[0].solver
    return GeneratedLevel(level, total, tuple(solutions), unique, made[0].seed, made[0].attempt, solver,
                          sum(g.seconds for g in made))


