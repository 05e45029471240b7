"""Which cells a step reads: the cells of the physics' branch the lemming takes.

A physics' decision tree (:attr:`game.core.physics.Physics.branches`) has exclusive, exhaustive leaves, so
in any neighbourhood exactly one leaf's conditions hold: the step *takes* that branch, and the cells
it *reads* are that branch's cells (:meth:`~game.core.physics.Branch.cells`).  A brick on a read cell the
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

from functools import lru_cache
from typing import Callable, Iterable, Iterator

import numpy as np
import numpy.typing as npt

from game.core.level import Brick, Level
from game.core.physics import CONFIGS, NEIGHBOURS, Branch, Offset, Physics, State, config_solid
from game.core.simulation import simulate

Solid = Callable[[int, int], bool]
"""``solid(row, col)``: a wall, a brick or outside the map."""


_Plan = tuple[tuple[tuple[int, int, int], ...], tuple[int, ...], tuple[tuple[Offset, ...], ...],
              tuple[tuple[Offset, ...], ...], tuple[tuple[int, int, bool], ...]]
_PLANS: dict[int, tuple[Physics, _Plan]] = {}


def _plan(physics: Physics) -> _Plan:
    """What the scalar lookups need: the read offsets with their configuration bits, the branch of each
    configuration, each branch's cells and free cells as offsets, and the table's moves.  Kept per physics
    object (by identity: hashing a physics on every step would cost more than the step)."""
    kept = _PLANS.get(id(physics))
    if kept is not None and kept[0] is physics:
        return kept[1]
    reads = tuple((dr, da, 1 << NEIGHBOURS.index((dr, da))) for dr, da in physics.read_offsets)
    every = tuple(tuple(off for off, _ in b.needs) for b in physics.branches)
    free = tuple(tuple(off for off, want in b.needs if not want) for b in physics.branches)
    moves = tuple((int(a), int(b), bool(t)) for a, b, t in physics.table.tolist())
    plan = (reads, tuple(int(i) for i in _config_branch(physics).tolist()), every, free, moves)
    if len(_PLANS) > 64:
        _PLANS.clear()
    _PLANS[id(physics)] = (physics, plan)
    return plan


def _config(reads: tuple[tuple[int, int, int], ...], solid: Solid, state: State) -> int:
    r, c, d = state
    config = 0
    for dr, da, bit in reads:
        if solid(r + dr, c + da * d):
            config |= bit
    return config


def branch_index(physics: Physics, solid: Solid, state: State) -> int:
    """The index in ``physics.branches`` of the leaf whose conditions hold for a lemming in ``state``."""
    plan = _plan(physics)
    return plan[1][_config(plan[0], solid, state)]


def branch_taken(physics: Physics, solid: Solid, state: State) -> Branch:
    """The leaf of ``physics`` whose conditions hold for a lemming in ``state``."""
    return physics.branches[branch_index(physics, solid, state)]


def step_reads(physics: Physics, solid: Solid, state: State) -> tuple[Brick, ...]:
    """Every cell the step of a lemming in ``state`` (not stopped on a target) reads."""
    plan = _plan(physics)
    r, c, d = state
    return tuple((r + dr, c + da * d) for dr, da in plan[2][plan[1][_config(plan[0], solid, state)]])


def free_reads(physics: Physics, solid: Solid, state: State) -> tuple[Brick, ...]:
    """The read cells the step needs free: a brick on one of them changes the step."""
    plan = _plan(physics)
    r, c, d = state
    return tuple((r + dr, c + da * d) for dr, da in plan[3][plan[1][_config(plan[0], solid, state)]])


def stepper(physics: Physics, solid: Solid, on_target: Callable[[int, int], bool]) -> Callable[[State], State]:
    """:meth:`~game.core.physics.Physics.step` on one map with the physics' reads and table bound once (for
    hot loops such as the generator's planting; equal to ``physics.step(solid, on_target, state)``)."""
    reads, _, _, _, moves = _plan(physics)
    stops = physics.targets_stop

    def step(state: State) -> State:
        r, c, d = state
        if stops and on_target(r, c):
            return state
        config = 0
        for dr, da, bit in reads:
            if solid(r + dr, c + da * d):
                config |= bit
        mdr, mda, turn = moves[config]
        return (r + mdr, c + mda * d, -d if turn else d)

    return step


def neighbourhood(physics: Physics, state: State) -> tuple[Brick, ...]:
    """Every cell the physics may read from ``state`` (:attr:`~game.core.physics.Physics.read_offsets`,
    mirrored by the direction), whatever the map holds."""
    r, c, d = state
    return tuple((r + dr, c + da * d) for dr, da in physics.read_offsets)


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


@lru_cache(maxsize=64)
def _config_branch(physics: Physics) -> npt.NDArray[np.intp]:
    out = np.zeros(CONFIGS, dtype=np.intp)
    for config in range(CONFIGS):
        for i, branch in enumerate(physics.branches):
            if all(config_solid(config, off) == want for off, want in branch.needs):
                out[config] = i
                break
    out.setflags(write=False)
    return out


def branch_indices(physics: Physics, blocked: npt.NDArray[np.bool_], rows: npt.NDArray[np.integer],
                   cols: npt.NDArray[np.integer], dirs: npt.NDArray[np.integer],
                   index: tuple[npt.NDArray[np.integer], ...] = ()) -> npt.NDArray[np.intp]:
    """Vectorised :func:`branch_taken`: the index in ``physics.branches`` for lemmings at padded
    ``(rows, cols)`` facing ``dirs`` on the padded ``blocked`` map (``index``: leading batch indices)."""
    config = np.zeros(np.shape(rows), dtype=np.intp)
    for dr, da in physics.read_offsets:
        config |= blocked[index + (rows + dr, cols + da * dirs)].astype(np.intp) << NEIGHBOURS.index((dr, da))
    result: npt.NDArray[np.intp] = _config_branch(physics)[config]
    return result
