"""Which cells a step reads: the cells of the physics' branch the lemming takes.

A physics' decision tree (:attr:`game.core.physics_views.PhysicsViews.branches`) has exclusive, exhaustive
leaves, so in any neighbourhood exactly one leaf's conditions hold: the step *takes* that branch, and the
cells it *reads* are that branch's cells (:meth:`~game.core.physics_views.Branch.cells`).  A brick on a read cell the
branch needs free changes the step; nothing else can.  This is the one meaning of "which cells a step
reads" (hints, rating, the generator, the read-set search); a lemming that a target stops reads nothing.

>>> from game.core.physics import CLASSIC
>>> solid = lambda r, c: r >= 1                      # a floor under row 0
>>> step_reads(CLASSIC, solid, (0, 3, -1))           # grounded: below (solid), ahead (free)
((1, 3), (0, 2))
>>> free_reads(CLASSIC, solid, (0, 3, -1))           # a brick ahead would turn it
((0, 2),)
>>> step_reads(CLASSIC, lambda r, c: False, (0, 3, 1))   # nothing below: the fall reads only below
((1, 3),)
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator

import numpy as np
import numpy.typing as npt

from game.core.level import Brick, Level
from game.core.physics import Physics, State
from game.core.physics_views import Branch, views
from game.core.simulation import simulate

Solid = Callable[[int, int], bool]
"""``solid(row, col)``: a wall, a brick or outside the map."""


def _config(reads: tuple[tuple[int, int, int], ...], solid: Solid, state: State) -> int:
    r, c, d = state
    config = 0
    for dr, da, bit in reads:
        if solid(r + dr, c + da * d):
            config |= bit
    return config


def branch_index(physics: Physics, solid: Solid, state: State) -> int:
    """The index in the branches of ``physics`` of the leaf whose conditions hold for a lemming in ``state``."""
    v = views(physics)
    return v.branch_of[_config(v.reads, solid, state)]


def branch_taken(physics: Physics, solid: Solid, state: State) -> Branch:
    """The leaf of ``physics`` whose conditions hold for a lemming in ``state``."""
    return views(physics).branches[branch_index(physics, solid, state)]


def step_reads(physics: Physics, solid: Solid, state: State) -> tuple[Brick, ...]:
    """Every cell the step of a lemming in ``state`` (not stopped on a target) reads."""
    v = views(physics)
    r, c, d = state
    return tuple((r + dr, c + da * d) for dr, da in v.branch_reads[v.branch_of[_config(v.reads, solid, state)]])


def free_reads(physics: Physics, solid: Solid, state: State) -> tuple[Brick, ...]:
    """The read cells the step needs free: a brick on one of them changes the step."""
    v = views(physics)
    r, c, d = state
    return tuple((r + dr, c + da * d)
                 for dr, da in v.branch_free_reads[v.branch_of[_config(v.reads, solid, state)]])


def neighbourhood(physics: Physics, state: State) -> tuple[Brick, ...]:
    """Every cell the physics may read from ``state`` (:attr:`~game.core.physics_views.PhysicsViews.read_offsets`,
    mirrored by the direction), whatever the map holds."""
    r, c, d = state
    return tuple((r + dr, c + da * d) for dr, da in views(physics).read_offsets)


def stopped(level: Level, state: State) -> bool:
    """True when a target stops the lemming in ``state`` (it reads nothing)."""
    return level.physics.targets_stop and level.char_at(state[0], state[1]) == "T"


def solid_of(level: Level, bricks: Iterable[Brick]) -> Solid:
    """``solid(r, c)`` for ``level`` with ``bricks`` placed (outside the map counts as solid)."""
    placed = set(bricks)

    def solid(r: int, c: int) -> bool:
        return not level.in_bounds(r, c) or level.char_at(r, c) == "X" or (r, c) in placed

    return solid


def run_reads(level: Level, bricks: Iterable[Brick], *, free_only: bool = False
              ) -> Iterator[tuple[int, int, tuple[Brick, ...]]]:
    """``(lemming, frame, cells)`` for every step of the run of ``level`` with ``bricks``: the cells
    step ``frame -> frame + 1`` reads (only those it needs free with ``free_only``)."""
    placed = tuple(sorted(set(bricks)))
    solid = solid_of(level, placed)
    reads = free_reads if free_only else step_reads
    for k, track in enumerate(simulate(level, placed, enforce_budget=False).tracks):
        for t, state in enumerate(track.path[:-1]):
            if stopped(level, state):
                break  # on a target that stops it: stays, reads nothing
            yield k, t, reads(level.physics, solid, state)


def branch_indices(physics: Physics, blocked: npt.NDArray[np.bool_], rows: npt.NDArray[np.integer],
                   cols: npt.NDArray[np.integer], dirs: npt.NDArray[np.integer],
                   index: tuple[npt.NDArray[np.integer], ...] = ()) -> npt.NDArray[np.intp]:
    """Vectorised :func:`branch_taken`: the index in the branches of ``physics`` for lemmings at padded
    ``(rows, cols)`` facing ``dirs`` on the padded ``blocked`` map (``index``: leading batch indices)."""
    v = views(physics)
    config = np.zeros(np.shape(rows), dtype=np.intp)
    for dr, da, bit in v.reads:
        config |= blocked[index + (rows + dr, cols + da * dirs)].astype(np.intp) * bit
    result: npt.NDArray[np.intp] = v.config_branch[config]
    return result
