"""The gradient solver's differentiable problem: densities on the brickable cells, the lemmings' occupancy
run forward, and the hand-written adjoint of one frame.

Bricks are relaxed to densities ``x`` in [0, 1]; walls are 1.  :class:`Relaxation` runs the lemmings as
occupancy maps with :func:`game.core.occupancy.step_padded` (the core's vectorised simulator), where fractional
obstacles split a lemming's mass between the moves of the level's physics, and returns the mass on targets at
the last frame with its gradient, by the reverse pass of :func:`step_padded_adjoint` (checked against finite
differences in the tests).  Long levels keep frames at checkpoints only (:data:`STATE_MEMORY`) and recompute
the others in the reverse pass.  :mod:`ai.solvers.gradient` optimises, rounds and repairs over it.

>>> from game.core.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> relax = Relaxation(level, ((1, 2),))   # one density: the cell of the gap
>>> relax.mass(np.array([[1.0], [0.5], [0.0]])).round(3).tolist()
[1.0, 0.5, 0.0]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
import numpy.typing as npt

from game.core.level import Brick, Level
from game.core.occupancy import initial_occupancy, pad_cells, pad_obstacles, shifted, step_padded, weight
from game.core.physics import CLASSIC, Physics
from game.core.physics_views import views

FloatArray = npt.NDArray[np.float64]

#: Memory the stored frames of one gradient evaluation may take (bytes); beyond it the reverse
#: pass recomputes frames from checkpoints, and fewer restarts run together.
STATE_MEMORY = 256 * 2**20


def step_padded_adjoint(
    occ: FloatArray, obst: FloatArray, targets: FloatArray, grad_next: FloatArray, physics: Physics = CLASSIC
) -> tuple[FloatArray, FloatArray]:
    """Reverse-mode derivative of :func:`game.core.occupancy.step_padded` under ``physics``.

    Given the inputs of one forward step (``occ`` ``(..., H+2, W+2, 2)``, ``obst``
    ``(..., H+2, W+2)``, ``targets`` broadcastable to ``obst``) and the gradient of a
    scalar with respect to the step's output, return its gradients with respect to
    ``occ`` and ``obst`` (same shapes as those inputs, ``obst`` broadcast to the batch).
    Each flow (a leaf of the physics for one channel, :attr:`game.core.physics_views.PhysicsViews.flows`) carries
    ``moving * prod_k f_k`` with ``f_k`` a cell's density or its complement, so its gradient
    reaches the moving mass through the product and each cell through the product of the others.
    """
    obst_b = np.broadcast_to(obst, occ.shape[:-1])
    occ_i = occ[..., 1:-1, 1:-1, :]
    g_occ = np.zeros_like(occ)
    g_obst = np.zeros(obst_b.shape)
    if physics.targets_stop:
        tgt_i = np.broadcast_to(targets, obst_b.shape)[..., 1:-1, 1:-1]
        free = (1.0 - tgt_i)[..., None]
        moving = occ_i * free
    else:
        moving = occ_i
    g_moving = np.zeros_like(moving)
    for flow in views(physics).flows:
        g_flow = shifted(grad_next[..., flow.dest], *flow.move)
        g_moving[..., flow.source] += g_flow * weight(flow, obst_b)
        for k, ((dr, dc), solid) in enumerate(flow.needs):
            g_cell = g_flow * moving[..., flow.source] * weight(flow, obst_b, skip=k)
            shifted(g_obst, dr, dc)[...] += g_cell if solid else -g_cell
    if physics.targets_stop:
        g_occ[..., 1:-1, 1:-1, :] = grad_next[..., 1:-1, 1:-1, :] * tgt_i[..., None] + g_moving * free
    else:
        g_occ[..., 1:-1, 1:-1, :] = g_moving
    return g_occ, g_obst


@dataclass
class Relaxation:
    """The differentiable problem of one level: ``x`` are densities on ``cells`` (brickable)."""

    level: Level
    cells: tuple[Brick, ...]

    def __post_init__(self) -> None:
        lv = self.level
        self.rows = np.array([r for r, _ in self.cells], dtype=np.int64) + 1
        self.cols = np.array([c for _, c in self.cells], dtype=np.int64) + 1
        self.walls = pad_obstacles(lv.wall_map.astype(np.float64))
        self.targets = pad_cells(lv.target_map.astype(np.float64))
        self.init = pad_cells(initial_occupancy(lv), trailing=1)
        self.n_lemmings = len(lv.lemmings)
        self.physics = lv.physics

    def obstacles(self, x: FloatArray) -> FloatArray:
        """Padded obstacle densities ``(R, H+2, W+2)`` for densities ``x`` ``(R, K)``."""
        obst = np.repeat(self.walls[None], len(x), axis=0)
        obst[:, self.rows, self.cols] = x
        return obst

    def state_bytes(self, rows: int) -> int:
        """Bytes of one padded occupancy frame for ``rows`` restarts."""
        return rows * int(self.walls.size) * 2 * 8

    def stride(self, rows: int) -> int:
        """Frames between stored checkpoints of the forward pass (1: every frame is kept)."""
        n = self.level.frames
        if n * self.state_bytes(rows) <= STATE_MEMORY:
            return 1
        return max(1, math.isqrt(n - 1) + 1)

    def fits(self, rows: int) -> bool:
        """True when the frames the forward pass keeps for ``rows`` restarts fit in :data:`STATE_MEMORY`."""
        stride = self.stride(rows)
        kept = self.level.frames if stride == 1 else self.level.frames // stride + stride
        return kept * self.state_bytes(rows) <= STATE_MEMORY

    def forward(self, x: FloatArray) -> tuple[FloatArray, list[FloatArray]]:
        """Run all frames; returns padded obstacles and the padded occupancy of every frame."""
        obst = self.obstacles(x)
        occ = np.repeat(self.init[None], len(x), axis=0)
        states = [occ]
        for _ in range(1, self.level.frames):
            occ = step_padded(occ, obst, self.targets, self.physics)
            states.append(occ)
        return obst, states

    def mass(self, x: FloatArray, check: Callable[[], None] | None = None) -> FloatArray:
        """Lemming mass on targets at the last frame, per row of ``x``: ``(R,)``."""
        obst = self.obstacles(x)
        occ = np.repeat(self.init[None], len(x), axis=0)
        for t in range(1, self.level.frames):
            if check is not None:
                check()
            occ = step_padded(occ, obst, self.targets, self.physics)
        mass: FloatArray = (occ.sum(axis=-1) * self.targets).sum(axis=(-1, -2))
        return mass

    def mass_and_grad(
        self, x: FloatArray, check: Callable[[], None] | None = None
    ) -> tuple[FloatArray, FloatArray]:
        """Target mass ``(R,)`` and its gradient with respect to ``x`` ``(R, K)`` (adjoint method).

        Frames are kept every :meth:`stride` frames and recomputed segment by segment in the
        reverse pass, so memory stays near :data:`STATE_MEMORY` on long levels.
        """
        n = self.level.frames
        stride = self.stride(len(x))
        obst = self.obstacles(x)
        occ = np.repeat(self.init[None], len(x), axis=0)
        checkpoints = {0: occ}
        for t in range(1, n):
            if check is not None:
                check()
            occ = step_padded(occ, obst, self.targets, self.physics)
            if t % stride == 0:
                checkpoints[t] = occ
        mass = (occ.sum(axis=-1) * self.targets).sum(axis=(-1, -2))
        grad = np.repeat(np.broadcast_to(self.targets[..., None], occ.shape[1:])[None], len(x), axis=0)
        g_obst = np.zeros_like(obst)
        for first in range((n - 2) // stride * stride, -1, -stride):  # segments of step inputs, last first
            end = min(first + stride, n - 1)
            states = [checkpoints[first]]
            for _ in range(first + 1, end):
                if check is not None:
                    check()
                states.append(step_padded(states[-1], obst, self.targets, self.physics))
            for i in range(end - 1, first - 1, -1):
                if check is not None:
                    check()
                grad, g_o = step_padded_adjoint(states[i - first], obst, self.targets, grad, self.physics)
                g_obst += g_o
        return mass, g_obst[:, self.rows, self.cols]
