"""The state-space simulator: lemmings as occupancy maps, written with numpy array operations.

The state at frame t is an array ``occ[t, row, col, channel]`` where channel 0 holds
lemmings facing left and channel 1 lemmings facing right.  With an obstacle map
``O`` (1 = wall or brick) and a target map ``T``, the mass ``a = occ * (1 - T)``
that is free to move splits into

* falls:  ``a * (1 - O_below)``,
* walks:  ``a * O_below * (1 - O_ahead)``,
* turns:  ``a * O_below * O_ahead``,

while ``occ * T`` stays put.  On 0/1 maps exactly one term is 1, so this equals the
reference simulator.  The three weights always sum to 1, so with fractional
obstacle densities in [0, 1] (the relaxation the gradient solver differentiates)
mass is conserved and a lemming is split, as in the design notes.

The map is padded with a ring of wall (density 1), which makes "outside counts as
wall" exact; :func:`step_padded` works on padded arrays so that the gradient
solver can mirror it in its adjoint.

>>> from game.level import Level
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

from game.level import Brick, Level

FloatArray = npt.NDArray[np.float64]

#: Channel index of left-facing lemmings.
CHANNEL_LEFT = 0
#: Channel index of right-facing lemmings.
CHANNEL_RIGHT = 1


def channel_of(direction: int) -> int:
    """Channel index of a direction (-1 → 0, +1 → 1)."""
    return CHANNEL_RIGHT if direction > 0 else CHANNEL_LEFT


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


def step_padded(occ: FloatArray, obst: FloatArray, targets: FloatArray) -> FloatArray:
    """One frame on padded arrays.

    ``occ`` is ``(..., H+2, W+2, 2)``, ``obst`` ``(..., H+2, W+2)`` with a ring of 1,
    ``targets`` ``(..., H+2, W+2)`` (broadcastable).  Returns the next padded occupancy.
    """
    occ_i = occ[..., 1:-1, 1:-1, :]
    tgt_i = np.broadcast_to(targets, obst.shape)[..., 1:-1, 1:-1]
    moving = occ_i * (1.0 - tgt_i)[..., None]
    below = obst[..., 2:, 1:-1]
    ahead_left = obst[..., 1:-1, :-2]
    ahead_right = obst[..., 1:-1, 2:]

    fall = moving * (1.0 - below)[..., None]
    grounded = moving * below[..., None]
    walk_left = grounded[..., CHANNEL_LEFT] * (1.0 - ahead_left)
    walk_right = grounded[..., CHANNEL_RIGHT] * (1.0 - ahead_right)
    turn_left_to_right = grounded[..., CHANNEL_LEFT] * ahead_left
    turn_right_to_left = grounded[..., CHANNEL_RIGHT] * ahead_right

    nxt = np.zeros_like(occ)
    nxt[..., 1:-1, 1:-1, :] += occ_i * tgt_i[..., None]
    nxt[..., 2:, 1:-1, :] += fall
    nxt[..., 1:-1, :-2, CHANNEL_LEFT] += walk_left
    nxt[..., 1:-1, 2:, CHANNEL_RIGHT] += walk_right
    nxt[..., 1:-1, 1:-1, CHANNEL_RIGHT] += turn_left_to_right
    nxt[..., 1:-1, 1:-1, CHANNEL_LEFT] += turn_right_to_left
    return nxt


def simulate_occupancy(
    obstacles: npt.ArrayLike,
    targets: npt.ArrayLike,
    initial: npt.ArrayLike,
    frames: int,
) -> FloatArray:
    """Run the occupancy dynamics for frames 0..frames-1.

    ``obstacles``: ``(..., H, W)`` densities in [0, 1]; ``targets``: ``(H, W)`` 0/1
    (or broadcastable to the obstacles); ``initial``: ``(..., H, W, 2)``.  Leading
    batch axes broadcast.  Returns ``(..., frames, H, W, 2)``.
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
        occ = step_padded(occ, obst, tgt)
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
    """Occupancy of a level over all frames: ``(N, H, W, 2)`` (or ``(L, N, H, W, 2)``)."""
    obst = obstacle_densities(level, bricks)
    init = initial_occupancy(level, per_lemming=per_lemming)
    return simulate_occupancy(obst, level.target_map.astype(np.float64), init, level.frames)


def mass_on_targets(occ: FloatArray, targets: npt.ArrayLike) -> FloatArray:
    """Lemming mass on targets at the last frame of an ``(..., N, H, W, 2)`` occupancy."""
    tgt = np.asarray(targets, dtype=np.float64)
    mass: FloatArray = (occ[..., -1, :, :, :].sum(axis=-1) * tgt).sum(axis=(-1, -2))
    return mass
