"""The state-space simulator: lemmings as occupancy maps, written with numpy array operations.

The state at frame t is an array ``occ[t, row, col, channel]`` where channel 0 holds
lemmings facing left and channel 1 lemmings facing right (:func:`game.core.rules.channel`).  With an
obstacle map ``O`` (1 = wall or brick) and a target map ``T``, the mass that is free to move
(``occ * (1 - T)`` when the physics' targets stop lemmings, else all of it) flows along every
leaf of the physics' decision tree (:attr:`game.core.physics_views.PhysicsViews.branches`): a leaf whose
needs are cells ``k`` solid or free carries the fraction ``prod_k (O_k if solid else 1 - O_k)`` of a
state's mass to the state its move gives (:attr:`game.core.physics_views.PhysicsViews.flows`).  On 0/1
maps exactly one leaf has weight 1, so this equals the reference simulator.  The leaves are exclusive and
exhaustive, so their weights sum to 1 for any densities in [0, 1] (the relaxation the gradient solver
differentiates): mass is conserved and a lemming is split, as in the design notes.

The map is padded with a ring of wall (density 1), which makes "outside counts as
wall" exact; :func:`step_padded` works on padded arrays so that the gradient
solver can mirror it in its adjoint.

>>> from game.core.level import Level
>>> level = Level.from_rows([">  T", "XXXX"], frames=4, budget=0)
>>> occ = simulate_level(level)
>>> occ.shape
(4, 2, 4, 2)
>>> float(occ[-1, 0, 3].sum())
1.0
"""

from __future__ import annotations

from typing import Any, Iterable, Union

import numpy as np
import numpy.typing as npt

from game.core.level import Brick, Level
from game.core.physics import CLASSIC, Physics
from game.core.physics_views import Flow, views
from game.core.rules import channel

FloatArray = npt.NDArray[np.float64]

#: Channel index of a direction (-1 → 0, +1 → 1): :func:`game.core.rules.channel`.
channel_of = channel


def shifted(array: npt.NDArray[Any], dr: int, dc: int) -> npt.NDArray[Any]:
    """The view of a padded ``(..., H+2, W+2)`` array at offset ``(dr, dc)`` from every interior cell."""
    return array[..., 1 + dr: array.shape[-2] - 1 + dr, 1 + dc: array.shape[-1] - 1 + dc]


def weight(flow: Flow, obst: FloatArray, skip: int = -1) -> FloatArray | float:
    """The fraction of each interior cell's mass that ``flow`` carries (need ``skip`` left out)."""
    out: FloatArray | float = 1.0
    for k, ((dr, dc), solid) in enumerate(flow.needs):
        if k != skip:
            view = shifted(obst, dr, dc)
            out = out * (view if solid else 1.0 - view)
    return out


def pad_obstacles(obstacles: npt.ArrayLike) -> FloatArray:
    """Pad ``(..., H, W)`` obstacle densities with a ring of wall (1.0)."""
    arr = np.asarray(obstacles, dtype=np.float64)
    pad = [(0, 0)] * (arr.ndim - 2) + [(1, 1), (1, 1)]
    return np.pad(arr, pad, constant_values=1.0)


def pad_cells(values: npt.ArrayLike, trailing: int = 0) -> FloatArray:
    """Pad the two map axes (before ``trailing`` axes) of an array with zeros."""
    arr = np.asarray(values, dtype=np.float64)
    lead = arr.ndim - 2 - trailing
    pad = [(0, 0)] * lead + [(1, 1), (1, 1)] + [(0, 0)] * trailing
    return np.pad(arr, pad, constant_values=0.0)


def step_padded(occ: FloatArray, obst: FloatArray, targets: FloatArray, physics: Physics = CLASSIC) -> FloatArray:
    """One frame on padded arrays under ``physics``.

    ``occ`` is ``(..., H+2, W+2, 2)``, ``obst`` ``(..., H+2, W+2)`` with a ring of 1,
    ``targets`` ``(..., H+2, W+2)`` (broadcastable).  Returns the next padded occupancy.
    """
    occ_i = occ[..., 1:-1, 1:-1, :]
    nxt = np.zeros_like(occ)
    if physics.targets_stop:
        tgt_i = np.broadcast_to(targets, obst.shape)[..., 1:-1, 1:-1]
        moving = occ_i * (1.0 - tgt_i)[..., None]
        nxt[..., 1:-1, 1:-1, :] += occ_i * tgt_i[..., None]
    else:
        moving = occ_i
    for flow in views(physics).flows:
        mass = moving[..., flow.source]
        for (dr, dc), solid in flow.needs:
            view = shifted(obst, dr, dc)
            mass = mass * (view if solid else 1.0 - view)
        shifted(nxt[..., flow.dest], *flow.move)[...] += mass
    return nxt


def simulate_occupancy(
    obstacles: npt.ArrayLike,
    targets: npt.ArrayLike,
    initial: npt.ArrayLike,
    frames: int,
    physics: Physics = CLASSIC,
) -> FloatArray:
    """Run the occupancy dynamics for frames 0..frames-1.

    ``obstacles``: ``(..., H, W)`` densities in [0, 1]; ``targets``: ``(H, W)`` 0/1
    (or broadcastable to the obstacles); ``initial``: ``(..., H, W, 2)``.  Leading
    batch axes broadcast.  Lemmings follow ``physics``.  Returns ``(..., frames, H, W, 2)``.
    """
    obst = pad_obstacles(obstacles)
    tgt = pad_cells(targets)
    occ = pad_cells(initial, trailing=1)
    batch = np.broadcast_shapes(obst.shape[:-2], occ.shape[:-3])
    obst = np.broadcast_to(obst, batch + obst.shape[-2:])
    occ = np.broadcast_to(occ, batch + occ.shape[-3:]).copy()
    out = np.empty(batch + (frames,) + occ.shape[-3:], dtype=np.float64)
    out[..., 0, :, :, :] = occ
    for t in range(1, frames):
        occ = step_padded(occ, obst, tgt, physics)
        out[..., t, :, :, :] = occ
    return out[..., 1:-1, 1:-1, :]


def initial_occupancy(level: Level, *, per_lemming: bool = False) -> FloatArray:
    """The frame-0 occupancy of a level: ``(H, W, 2)``, or ``(L, H, W, 2)`` per lemming.

    (The sum is built directly: a per-lemming array of 16,128 lemmings on 256x256 would be 17 GB.)
    """
    if not per_lemming:
        total = np.zeros((level.height, level.width, 2))
        for lem in level.lemmings:
            total[lem.row, lem.col, channel_of(lem.direction)] += 1.0
        return total
    occ = np.zeros((len(level.lemmings), level.height, level.width, 2))
    for k, lem in enumerate(level.lemmings):
        occ[k, lem.row, lem.col, channel_of(lem.direction)] = 1.0
    return occ


BrickInput = Union[Iterable[Brick], npt.NDArray[Any]]
"""Bricks as a list of cells, or an ``(H, W)`` array of densities."""


def obstacle_densities(level: Level, bricks: BrickInput = ()) -> FloatArray:
    """Walls as 1.0 plus bricks: a list of cells (1.0 each) or an ``(H, W)`` density array."""
    obst: FloatArray = level.wall_map.astype(np.float64)
    if isinstance(bricks, np.ndarray):
        return np.maximum(obst, bricks.astype(np.float64))
    for r, c in bricks:
        obst[r, c] = 1.0
    return obst


def simulate_level(
    level: Level,
    bricks: BrickInput = (),
    *,
    per_lemming: bool = False,
) -> FloatArray:
    """Occupancy of a level over all frames under its physics: ``(N, H, W, 2)`` (or ``(L, N, H, W, 2)``)."""
    obst = obstacle_densities(level, bricks)
    init = initial_occupancy(level, per_lemming=per_lemming)
    return simulate_occupancy(obst, level.target_map.astype(np.float64), init, level.frames, level.physics)


def mass_on_targets(occ: FloatArray, targets: npt.ArrayLike) -> FloatArray:
    """Lemming mass on targets at the last frame of an ``(..., N, H, W, 2)`` occupancy."""
    tgt = np.asarray(targets, dtype=np.float64)
    mass: FloatArray = (occ[..., -1, :, :, :].sum(axis=-1) * tgt).sum(axis=(-1, -2))
    return mass
