"""Candidate levels with a planted solution: lemmings on ledges, bricks that matter, targets on the ground.

A candidate is built in three moves, each deterministic in the random generator:

1. **lemmings** start on cells with a floor right below, preferably in the upper
   part of the map;
2. **planted bricks**: run the lemmings and put a brick on a cell one of them
   *reads* and needs free (:func:`game.core.reads.free_reads`: under the classic physics the cell
   below a falling lemming, or the cell ahead of a walking one) before anyone stands on it,
   choosing among a few such cells the one that leads to the most new ground;
3. **targets** go where the lemmings go under the planted bricks (where targets do not stop
   lemmings, where they are at the last frame), on a cell with a wall below, and off every
   path the lemmings take with no bricks at all; then bricks the win does not need are
   pruned, and more are planted until exactly ``K`` needed ones remain.

The lemmings follow the given physics (default classic) and the candidate level carries it.
So every candidate is won by ``K`` bricks, none of them redundant; the filters then
throw out those solvable with fewer, and the exact solver certifies the rest.

>>> import numpy as np
>>> from ai.services.generation.layout import make_layout
>>> rng = np.random.default_rng(3)
>>> cand = plant_candidate(rng, make_layout(rng, 10, 12), bricks=2, lemmings=1, frames=66)
>>> cand is None or len(cand.planted) == 2
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import numpy.typing as npt

from game.core.level import Brick, Level
from game.core.physics import CLASSIC, Physics
from game.core.physics_views import stepper
from game.core.reads import free_reads
from game.core.rules import State

BoolArray = npt.NDArray[np.bool_]

#: Cells tried (each with a simulation) when planting one brick.
TRIES_PER_BRICK = 8
#: Planting rounds beyond K while redundant bricks keep being pruned away.
EXTRA_BRICKS = 6
#: Target placements tried per planting round.
TARGET_DRAWS = 3


@dataclass(frozen=True)
class Candidate:
    """A level and the brick set planted while building it (a known solution)."""

    level: Level
    planted: tuple[Brick, ...]


def trajectories(
    walls: BoolArray, bricks: set[Brick], starts: list[State], frames: int, targets: frozenset[Brick] = frozenset(),
    physics: Physics = CLASSIC,
) -> list[list[State]]:
    """Each lemming's states at frames 0..frames-1 (the reference rule, :func:`game.core.physics_views.step`).

    A lemming's next state depends on its state alone, so once a state repeats the
    run is periodic and the rest of the path is copied instead of stepped.
    """
    h, w = walls.shape
    wall_rows: list[list[bool]] = walls.tolist()

    def blocked(r: int, c: int) -> bool:
        return not (0 <= r < h and 0 <= c < w) or wall_rows[r][c] or (r, c) in bricks

    def on_target(r: int, c: int) -> bool:
        return (r, c) in targets

    step = stepper(physics, blocked, on_target)
    paths = []
    for state in starts:
        path = [state]
        seen = {state: 0}
        while len(path) < frames:
            state = step(state)
            if state in seen:
                cycle = path[seen[state]:]
                while len(path) < frames:
                    path.extend(cycle[: frames - len(path)])
                break
            seen[state] = len(path)
            path.append(state)
        paths.append(path)
    return paths


def read_cells(walls: BoolArray, bricks: set[Brick], path: list[State], physics: Physics = CLASSIC
               ) -> list[tuple[int, Brick]]:
    """``(frame, cell)`` for every in-map cell the lemming reads and needs free while moving along
    ``path`` (:func:`game.core.reads.free_reads`).

    A brick on such a cell changes the run from that frame on (when no lemming stood there before).
    """
    h, w = walls.shape

    def solid(r: int, c: int) -> bool:
        return not (0 <= r < h and 0 <= c < w) or bool(walls[r, c]) or (r, c) in bricks

    return [(t, cell) for t, state in enumerate(path[:-1]) for cell in free_reads(physics, solid, state)
            if 0 <= cell[0] < h and 0 <= cell[1] < w]


def place_lemmings(rng: np.random.Generator, walls: BoolArray, count: int) -> list[State] | None:
    """``count`` lemming starts on distinct cells with a wall right below, upper half preferred."""
    h, w = walls.shape
    standing = [
        (r, c) for r in range(1, h - 1) for c in range(1, w - 1) if not walls[r, c] and walls[r + 1, c]
    ]
    if len(standing) < count:
        return None
    # Weight higher cells more: lemmings start up on ledges and platforms.
    weights = np.array([(h - r) ** 3 for r, _ in standing], dtype=float)
    picks = rng.choice(len(standing), size=count, replace=False, p=weights / weights.sum())
    starts: list[State] = []
    for i in sorted(int(p) for p in picks):
        r, c = standing[i]
        starts.append((r, c, 1 if rng.random() < 0.5 else -1))
    return starts


def add_brick(
    rng: np.random.Generator,
    walls: BoolArray,
    starts: list[State],
    frames: int,
    bricks: set[Brick],
    paths: list[list[State]],
    owner: int,
    known: set[Brick],
    since: int = 0,
    avoid: set[Brick] = frozenset(),  # type: ignore[assignment]
    bridges_only: bool = False,
    physics: Physics = CLASSIC,
    stop: Callable[[], bool] = lambda: False,
) -> tuple[Brick, list[list[State]]] | None:
    """One more brick for lemming ``owner``, on a cell its run reads before anyone stands on it.

    Up to :data:`TRIES_PER_BRICK` such cells are tried; the one that takes the lemming
    over the most standing ground outside ``known`` (where earlier runs went) wins.
    Cells read from frame ``since`` on and outside ``avoid`` are preferred (so the
    brick matters only once the earlier ones have done their work), and among them
    cells not touching an earlier brick (clumps make dull puzzles).  Returns the cell
    and the new runs, or ``None`` when no cell qualifies.  With ``bridges_only`` only
    cells below the lemming count (a bridge has one right place; a wall to turn a
    walker around can stand anywhere ahead of it, so it makes solutions non-unique).
    """
    h = walls.shape[0]
    start_cells = {(r, c) for r, c, _ in starts}
    first_visit: dict[Brick, int] = {}
    for path in paths:
        for t, (r, c, _) in enumerate(path):
            if first_visit.get((r, c), t + 1) > t:
                first_visit[(r, c)] = t
    # A read cell nobody has stood on yet: a brick there changes the run from frame t on.
    reads = [
        (t, cell) for t, cell in read_cells(walls, bricks, paths[owner], physics)
        if first_visit.get(cell, t + 1) > t and cell not in start_cells
    ]
    if bridges_only:
        reads = [(t, cell) for t, cell in reads if cell[0] == paths[owner][t][0] + 1]
    near = {(r + dr, c + dc) for r, c in bricks for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    cells = (
        sorted({cell for t, cell in reads if t >= since and cell not in avoid and cell not in near})
        or sorted({cell for t, cell in reads if t >= since and cell not in avoid})
        or sorted({cell for _, cell in reads})
    )
    if not cells:
        return None
    if len(cells) > TRIES_PER_BRICK:
        cells = [cells[int(i)] for i in rng.choice(len(cells), TRIES_PER_BRICK, replace=False)]
    best_score, best = -1.0, None
    for cell in cells:
        if stop():
            return None
        trial = trajectories(walls, bricks | {cell}, starts, frames, physics=physics)
        novel = {(r, c) for r, c, _ in trial[owner] if (r, c) not in known and walls[min(r + 1, h - 1), c]}
        score = len(novel) + float(rng.random())  # the noise breaks ties
        if score > best_score:
            best_score, best = score, (cell, trial)
    return best


def wins(walls: BoolArray, bricks: set[Brick], starts: list[State], frames: int, targets: frozenset[Brick],
         physics: Physics = CLASSIC) -> bool:
    """True when every lemming ends on a target."""
    return all((p[-1][0], p[-1][1]) in targets for p in trajectories(walls, bricks, starts, frames, targets, physics))


def irreducible(
    rng: np.random.Generator,
    walls: BoolArray,
    bricks: set[Brick],
    starts: list[State],
    frames: int,
    targets: frozenset[Brick],
    physics: Physics = CLASSIC,
    stop: Callable[[], bool] = lambda: False,
) -> set[Brick]:
    """Drop bricks (in random order) while the level is still won: every brick left is needed (once
    ``stop()`` says so, the bricks left, needed or not)."""
    core = set(bricks)
    changed = True
    while changed:  # dropping one brick can make another one unneeded
        changed = False
        for cell in [sorted(core)[int(i)] for i in rng.permutation(len(core))]:
            if stop():
                return core
            if wins(walls, core - {cell}, starts, frames, targets, physics):
                core.discard(cell)
                changed = True
    return core


def place_targets(
    rng: np.random.Generator,
    walls: BoolArray,
    bricks: set[Brick],
    free_paths: list[list[State]],
    paths: list[list[State]],
    fresh_outside: set[Brick] = frozenset(),  # type: ignore[assignment]
    stops: bool = True,
) -> list[Brick] | None:
    """One target per lemming on its planted path: wall below, never visited without bricks.

    Cells outside ``fresh_outside`` (new ground) are preferred when there are any.  Where targets do
    not stop lemmings (``stops`` false) a target must be where its lemming is at the last frame.
    """
    h, _ = walls.shape
    unbricked = {(r, c) for path in free_paths for r, c, _ in path}
    starts = {(path[0][0], path[0][1]) for path in free_paths}
    targets: list[Brick] = []
    for free_path, path in zip(free_paths, paths):
        diverge = next((t for t, (a, b) in enumerate(zip(free_path, path)) if a != b), None)
        if diverge is None:
            # No brick changed this lemming's run: its target waits on its own way,
            # late enough that it must walk there.
            late = path[len(path) // 3 :]
            options = [(r, c) for r, c, _ in late if r + 1 < h and walls[r + 1, c]]
        else:
            options = [
                (r, c) for r, c, _ in path[diverge:]
                if r + 1 < h and walls[r + 1, c] and (r, c) not in unbricked
            ]
        if not stops:
            options = [cell for cell in options if cell == (path[-1][0], path[-1][1])]
        options = sorted(set(options) - {(r - 1, c) for r, c in bricks} - starts)
        if not options:
            return None
        options = [cell for cell in options if cell not in fresh_outside] or options
        # Distinct targets when possible: one per lemming reads better.
        options = [cell for cell in options if cell not in targets] or options
        # Prefer cells reached late: the lemming must really travel.
        first_visit: dict[Brick, int] = {}
        for t, (r, c, _) in enumerate(path):
            first_visit.setdefault((r, c), t)
        first_seen = {cell: first_visit[cell] for cell in options}
        ranked = sorted(options, key=lambda cell: (-first_seen[cell], cell))
        top = ranked[: max(1, (len(ranked) + 1) // 2)]
        targets.append(top[int(rng.integers(len(top)))])
    return targets


def plant_candidate(
    rng: np.random.Generator,
    walls: BoolArray,
    *,
    bricks: int,
    lemmings: int,
    frames: int,
    bridges_only: bool = False,
    physics: Physics = CLASSIC,
    stop: Callable[[], bool] = lambda: False,
) -> Candidate | None:
    """A level on ``walls`` won by its ``bricks`` planted bricks, or ``None`` if planting failed.

    ``bridges_only`` plants only bricks under the lemmings (for unique solutions); the lemmings follow
    ``physics``, which the level carries.  Once ``stop()`` says so (the run's context), it gives up (``None``).

    Bricks are dealt to the lemmings in turn; from the ``bricks``-th one on, targets
    are placed and the planted set is reduced to an irreducible core (every brick
    needed).  A core of exactly ``bricks`` is kept; a larger one fails; planting goes
    on from a smaller one, for up to :data:`EXTRA_BRICKS` more rounds.
    """
    starts = place_lemmings(rng, walls, lemmings)
    if starts is None:
        return None
    free_paths = trajectories(walls, set(), starts, frames, physics=physics)
    explored = {(r, c) for path in free_paths for r, c, _ in path}
    touched: list[set[Brick]] = [set() for _ in range(lemmings)]
    since = [0] * lemmings
    order = [int(i) for i in rng.permutation(lemmings)]
    placed: set[Brick] = set()
    paths = free_paths
    for j in range(bricks + EXTRA_BRICKS):
        owner = order[j % lemmings]
        added = add_brick(
            rng, walls, starts, frames, placed, paths, owner, explored, since[owner], touched[owner], bridges_only,
            physics, stop,
        )
        if added is None:
            return None
        for k, (old, new) in enumerate(zip(paths, added[1])):
            if old != new:  # remember where the lemming's superseded run went and looked
                touched[k] |= _touched(walls, placed, [old], physics)
                if k == owner:
                    since[k] = next(t for t, (a, b) in enumerate(zip(old, new)) if a != b)
        placed.add(added[0])
        paths = added[1]
        before = set(explored)
        explored |= {(r, c) for path in paths for r, c, _ in path}
        if len(placed) < bricks:
            continue
        found, stopped = _with_targets(rng, walls, placed, starts, frames, bricks, (free_paths, paths, before),
                                       physics, stop)
        if stopped:
            return None
        if found is not None:
            return found
        # Too few needed bricks (or no targets): go on planting.
    return None


def _with_targets(rng: np.random.Generator, walls: BoolArray, placed: set[Brick], starts: list[State], frames: int,
                  bricks: int, runs: tuple[list[list[State]], list[list[State]], set[Brick]], physics: Physics,
                  stop: Callable[[], bool]) -> tuple[Candidate | None, bool]:
    """Up to :data:`TARGET_DRAWS` draws of targets for the ``placed`` bricks (``runs``: the lemmings' paths
    without bricks, their paths now, the cells explored before the last brick): the level whose irreducible
    core is exactly ``bricks`` bricks, if a draw gives one; and whether ``stop()`` said to give up."""
    free_paths, paths, before = runs
    for _ in range(TARGET_DRAWS):
        if stop():
            return None, True
        targets = place_targets(rng, walls, placed, free_paths, paths, before, physics.targets_stop)
        if targets is None:
            break
        core = irreducible(rng, walls, placed, starts, frames, frozenset(targets), physics, stop)
        if stop():
            return None, True
        if len(core) == bricks:
            return Candidate(_level(walls, starts, targets, frames, bricks, physics), tuple(sorted(core))), False
    return None, False


def _touched(walls: BoolArray, bricks: set[Brick], paths: list[list[State]], physics: Physics) -> set[Brick]:
    """Cells the runs stand on or read."""
    out = {(r, c) for path in paths for r, c, _ in path}
    for path in paths:
        out |= {cell for _, cell in read_cells(walls, bricks, path, physics)}
    return out


def _level(walls: BoolArray, starts: list[State], targets: list[Brick], frames: int, budget: int,
           physics: Physics) -> Level:
    """The level text of a wall map with lemmings and targets."""
    rows = [["X" if v else " " for v in row] for row in walls]
    for r, c in targets:
        rows[r][c] = "T"
    for r, c, d in starts:
        rows[r][c] = ">" if d > 0 else "<"
    return Level.from_rows(["".join(row) for row in rows], frames=frames, budget=budget).with_physics(physics)
