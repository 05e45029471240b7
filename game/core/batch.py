"""The batched simulator: many brick sets (or many levels) run at once with numpy.

Lemmings are tracked as integer positions, one row of the batch per brick set or
level, and all rows advance together, one frame per numpy step.  This is the
workhorse of level generation, rule learning and brute-force checks.

>>> from game.core.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> runs = simulate_brick_sets(level, [[], [(1, 2)]])
>>> runs.won.tolist()
[False, True]
>>> runs.reached_at[:, 0].tolist()
[-1, 3]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import numpy as np
import numpy.typing as npt

from game.core.level import Brick, Level
from game.core.physics import CLASSIC, Physics
from game.core.physics_views import views
from game.core.rules import check_bricks

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class BatchRun:
    """Outcome of a batch.  ``B`` rows, ``L`` lemming slots, ``N`` frames.

    * ``reached_at``: ``(B, L)`` the frame from which the lemming is on a target through the row's last
      frame (where targets stop lemmings: the first frame on one), -1 if it is not on one then (or inactive);
    * ``final``: ``(B, L, 3)`` state ``(row, col, direction)`` at each row's last frame;
    * ``paths``: ``(B, N, L, 3)`` states at every frame, when recorded (rows with fewer
      frames than ``N`` keep moving past their end: only frames < ``frames[b]`` count);
    * ``active``: ``(B, L)`` which lemming slots exist;
    * ``frames``: ``(B,)`` each row's frame count.
    """

    reached_at: IntArray
    final: IntArray
    paths: IntArray | None
    active: BoolArray
    frames: IntArray

    @property
    def won(self) -> BoolArray:
        """``(B,)``: every active lemming on a target at the row's last frame."""
        ok = (self.reached_at >= 0) & (self.reached_at < self.frames[:, None])
        won: BoolArray = np.all(ok | ~self.active, axis=1)
        return won

    @property
    def arrived(self) -> IntArray:
        """``(B,)``: number of lemmings on a target at the row's last frame."""
        ok = (self.reached_at >= 0) & (self.reached_at < self.frames[:, None]) & self.active
        count: IntArray = ok.sum(axis=1)
        return count


def simulate_batch(
    obstacles: npt.ArrayLike,
    targets: npt.ArrayLike,
    starts: npt.ArrayLike,
    frames: int | npt.ArrayLike,
    *,
    active: npt.ArrayLike | None = None,
    record_paths: bool = False,
    physics: Physics = CLASSIC,
) -> BatchRun:
    """Run ``B`` worlds at once, every lemming following ``physics`` (its table looked up per lemming).

    ``obstacles``: ``(B, H, W)`` bool; ``targets``: ``(H, W)`` or ``(B, H, W)`` bool;
    ``starts``: ``(L, 3)`` or ``(B, L, 3)`` integer ``(row, col, direction)``;
    ``frames``: one N or ``(B,)``.  Outside the map counts as wall.
    """
    obst = np.asarray(obstacles, dtype=bool)
    n_rows = obst.shape[0]
    st = np.asarray(starts, dtype=np.int64)
    if st.ndim == 2:
        st = np.broadcast_to(st, (n_rows,) + st.shape)
    n_lem = st.shape[1]
    frame_counts = np.broadcast_to(np.asarray(frames, dtype=np.int64), (n_rows,)).copy()
    act = np.ones((n_rows, n_lem), dtype=bool) if active is None else np.asarray(active, dtype=bool)
    horizon = int(frame_counts.max()) if n_rows else 0
    blocked_flat, tgt_flat, pw, plane = _padded(obst, np.broadcast_to(np.asarray(targets, dtype=bool), obst.shape))
    base = (np.arange(n_rows, dtype=np.int64) * plane)[:, None]
    direction = st[..., 2].copy()
    cell = base + (st[..., 0] + 1) * pw + (st[..., 1] + 1)
    reached = np.where(tgt_flat[cell] & act, 0, -1)
    final_reached = reached.copy()
    stops, table = physics.targets_stop, views(physics).table.astype(np.int64)
    reads = views(physics).reads
    paths = np.empty((n_rows, max(horizon, 1), n_lem, 3), dtype=np.int64) if record_paths else None
    final = np.empty((n_rows, n_lem, 3), dtype=np.int64)
    if paths is not None and horizon:
        _snapshot(paths[:, 0], cell, direction, plane, pw)
    _keep_final(final, frame_counts == 1, cell, direction, plane, pw)
    for t in range(1, horizon):
        config = np.zeros(cell.shape, dtype=np.int64)
        for dr, da, bit in reads:  # the cells the physics reads, as table bits
            config |= blocked_flat[cell + dr * pw + da * direction] * bit
        move = table[config]
        if stops:
            move = np.where(tgt_flat[cell][..., None], 0, move)  # a lemming on a target rests
        cell = cell + move[..., 0] * pw + move[..., 1] * direction
        direction = np.where(move[..., 2] != 0, -direction, direction)
        on = tgt_flat[cell] & act
        if stops:
            reached = np.where((reached < 0) & on, t, reached)
        else:
            reached = np.where(on, np.where(reached < 0, t, reached), -1)
        if paths is not None:
            _snapshot(paths[:, t], cell, direction, plane, pw)
        ends_now = frame_counts == t + 1
        final_reached[ends_now] = reached[ends_now]
        _keep_final(final, ends_now, cell, direction, plane, pw)
    reached = np.where(act, reached if stops else final_reached, -1)
    return BatchRun(reached, final, paths, act, frame_counts)


def _padded(obst: BoolArray, tgt: BoolArray) -> tuple[BoolArray, BoolArray, int, int]:
    """The worlds with a wall border, flattened: walls, targets, the padded width, the cells per world."""
    n_rows, height, width = obst.shape
    pw = width + 2
    blocked = np.ones((n_rows, height + 2, pw), dtype=bool)
    blocked[:, 1:-1, 1:-1] = obst
    on_tgt = np.zeros((n_rows, height + 2, pw), dtype=bool)
    on_tgt[:, 1:-1, 1:-1] = tgt
    return blocked.reshape(-1), on_tgt.reshape(-1), pw, (height + 2) * pw


def _snapshot(out: IntArray, cell: IntArray, direction: IntArray, plane: int, pw: int) -> None:
    """Write the lemmings' ``(row, col, direction)`` (``cell``: flat padded index) into ``out``."""
    out[..., 0] = cell % plane // pw - 1
    out[..., 1] = cell % pw - 1
    out[..., 2] = direction


def _keep_final(final: IntArray, ends_now: BoolArray, cell: IntArray, direction: IntArray, plane: int,
                pw: int) -> None:
    """The worlds whose run ends now keep the lemmings' positions in ``final``."""
    if ends_now.any():
        tmp = np.empty(final.shape, dtype=np.int64)
        _snapshot(tmp, cell, direction, plane, pw)
        final[ends_now] = tmp[ends_now]


def simulate_brick_sets(
    level: Level,
    brick_sets: Sequence[Iterable[Brick]] | npt.NDArray[Any],
    *,
    record_paths: bool = False,
    check: bool = True,
) -> BatchRun:
    """Run one level with each brick set (a list of cells, or a ``(B, H, W)`` bool array).

    With ``check`` (the default) every set is validated like the reference simulator
    does, budget included.
    """
    if isinstance(brick_sets, np.ndarray):
        masks = brick_sets.astype(bool)
        if check:
            if np.any(masks & ~level.brickable_map):
                raise ValueError("a brick mask covers a cell where no brick may go")
            if np.any(masks.sum(axis=(1, 2)) > level.budget):
                raise ValueError(f"a brick mask exceeds the budget of {level.budget}")
        obst = masks | level.wall_map
    else:
        sets = list(brick_sets)
        obst = np.broadcast_to(level.wall_map, (len(sets), level.height, level.width)).copy()
        for b, bricks in enumerate(sets):
            placed = check_bricks(level, bricks) if check else tuple(bricks)
            for r, c in placed:
                obst[b, r, c] = True
    starts = [(lem.row, lem.col, lem.direction) for lem in level.lemmings]
    return simulate_batch(obst, level.target_map, starts, level.frames, record_paths=record_paths,
                          physics=level.physics)


def simulate_levels(
    levels: Sequence[Level],
    brick_sets: Sequence[Iterable[Brick]] | None = None,
    *,
    record_paths: bool = False,
) -> BatchRun:
    """Run many levels at once (each with its own bricks, default none).

    Maps are padded to a common size with wall, which is exact because outside the
    map counts as wall; lemming slots beyond a level's count are inactive.
    """
    if brick_sets is None:
        brick_sets = [()] * len(levels)
    sets = list(brick_sets)
    groups: dict[str, list[int]] = {}
    for b, lv in enumerate(levels):
        groups.setdefault(views(lv.physics).behaviour_key, []).append(b)
    if len(groups) > 1:  # one batch per physics, merged back in the levels' order
        runs = [(rows, simulate_levels([levels[b] for b in rows], [sets[b] for b in rows],
                                       record_paths=record_paths)) for rows in groups.values()]
        return _merge(runs, len(levels), record_paths)
    height = max(lv.height for lv in levels)
    width = max(lv.width for lv in levels)
    n_lem = max(len(lv.lemmings) for lv in levels)
    obst = np.ones((len(levels), height, width), dtype=bool)
    tgt = np.zeros((len(levels), height, width), dtype=bool)
    starts = np.zeros((len(levels), n_lem, 3), dtype=np.int64)
    active = np.zeros((len(levels), n_lem), dtype=bool)
    for b, (lv, bricks) in enumerate(zip(levels, sets)):
        obst[b, : lv.height, : lv.width] = lv.obstacle_map(check_bricks(lv, bricks))
        tgt[b, : lv.height, : lv.width] = lv.target_map
        for k, lem in enumerate(lv.lemmings):
            starts[b, k] = (lem.row, lem.col, lem.direction)
            active[b, k] = True
        # Inactive slots sit on the level's first lemming start, harmlessly.
        starts[b, len(lv.lemmings):] = starts[b, 0]
    frames = np.array([lv.frames for lv in levels], dtype=np.int64)
    return simulate_batch(obst, tgt, starts, frames, active=active, record_paths=record_paths,
                          physics=levels[0].physics if levels else CLASSIC)


def _merge(runs: list[tuple[list[int], BatchRun]], count: int, record_paths: bool) -> BatchRun:
    """One :class:`BatchRun` of ``count`` rows from runs of some of them (``rows``: their places)."""
    n_lem = max(run.active.shape[1] for _, run in runs)
    horizon = max((run.paths.shape[1] for _, run in runs if run.paths is not None), default=0)
    reached = np.full((count, n_lem), -1, dtype=np.int64)
    final = np.zeros((count, n_lem, 3), dtype=np.int64)
    active = np.zeros((count, n_lem), dtype=bool)
    frames = np.zeros(count, dtype=np.int64)
    paths = np.zeros((count, horizon, n_lem, 3), dtype=np.int64) if record_paths else None
    for rows, run in runs:
        width = run.active.shape[1]
        reached[rows, :width] = run.reached_at
        final[rows, :width] = run.final
        active[rows, :width] = run.active
        frames[rows] = run.frames
        if paths is not None and run.paths is not None:
            paths[rows, :run.paths.shape[1], :width] = run.paths
    return BatchRun(reached, final, paths, active, frames)
