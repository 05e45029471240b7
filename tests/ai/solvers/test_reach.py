"""Reachability: the sparse/periodic analysis agrees with a dense frame-by-frame reference, stops on cancel
and stays small on big levels."""

from __future__ import annotations

import threading
import time
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ai.solvers.reach as reach
import ai.solvers.reach_graph as reach_graph
from ai.kernel.context import SolveContext, SolveStopped
from ai.services.generation.random_levels import small_level
from ai.solvers.reach import analyse, losing_reads, reach_for
from game.core.level import Level
from game.core.physics import random_physics
from game.core.physics_catalog import SHIPPED
from game.core.physics_views import Branch, views
from game.core.simulation import simulate
from tests.level_builders import LARGE_FIRST, maze_256, tiled
from tests.stopping import STOP_GUARD, CancelOnPoll, expired


#: The physics the analysis is checked under: every shipped one and random ones of the class.
PHYSICS = (*SHIPPED.values(), *(random_physics(np.random.default_rng(seed)) for seed in range(12)))


def possible_moves(level: Level, state: tuple[int, int, int]) -> list[tuple[Branch | None, tuple[int, int, int]]]:
    """Reference: the moves of ``state`` when every brickable cell may or may not hold a brick
    (``None``: resting on a target that stops lemmings)."""
    r, c, d = state
    physics = level.physics
    if physics.targets_stop and level.target_map[r, c]:
        return [(None, state)]

    def wall(y: int, x: int) -> bool:
        return not level.in_bounds(y, x) or bool(level.wall_map[y, x])

    def block(y: int, x: int) -> bool:
        return wall(y, x) or bool(level.brickable_map[y, x])

    return [(branch, branch.apply(state)) for branch in views(physics).branches
            if all(block(*cell) if solid else not wall(*cell) for cell, solid in branch.cells(state))]


def dense_live(level: Level, k: int) -> np.ndarray:
    """Reference: live[t, r, c, ch] of lemming ``k`` by brute force over frames x cells (the physics' branches)."""
    n, h, w = level.frames, level.height, level.width

    def moves(r: int, c: int, d: int) -> list[tuple[int, int, int]]:
        return [after for _, after in possible_moves(level, (r, c, d))]

    lem = level.lemmings[k]
    fwd = [{(lem.row, lem.col, lem.direction)}]
    for _ in range(1, n):
        fwd.append({m for s in fwd[-1] for m in moves(*s)})
    live = np.zeros((n, h, w, 2), dtype=bool)
    good = {s for s in fwd[-1] if level.target_map[s[0], s[1]]}
    for t in range(n - 1, -1, -1):
        if t < n - 1:
            good = {s for s in fwd[t] if any(m in good for m in moves(*s))}
        for r, c, d in good:
            live[t, r, c, 1 if d > 0 else 0] = True
    if not live[0].any():
        live[:] = False
    return live


@pytest.mark.parametrize("share", [0.0, 2.0])  # 0: always the dense form, 2: always the sparse form
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), frames=st.integers(1, 40), which=st.integers(0, len(PHYSICS) - 1))
def test_live_states_match_the_dense_reference(share: float, seed: int, frames: int, which: int) -> None:
    level = small_level(seed, max_side=7, max_lemmings=3).with_limits(frames=frames).with_physics(PHYSICS[which])
    old, old_min = reach_graph.DENSE_SHARE, reach_graph.DENSE_MIN
    reach_graph.DENSE_SHARE, reach_graph.DENSE_MIN = share, 0
    reach._RECENT.clear()
    try:
        info = analyse(level)
    finally:
        reach_graph.DENSE_SHARE, reach_graph.DENSE_MIN = old, old_min
        reach._RECENT.clear()
    feasible = True
    for k, lem in enumerate(info.lemmings):
        expected = dense_live(level, k)
        assert np.array_equal(lem.live, expected)
        assert lem.live_count == int(expected.sum())
        assert lem.states(frames - 1) == [(int(r), int(c), 1 if ch else -1)
                                          for r, c, ch in np.argwhere(expected[frames - 1])]
        assert np.array_equal(lem.live_any(), expected.any(axis=0))
        feasible &= bool(expected[0].any())
        # the read map: brickable cells some live state reads before the last frame (the cells its
        # possible branches need)
        reads = np.zeros((level.height, level.width), dtype=bool)
        for t, r, c, ch in np.argwhere(expected[:-1]):
            for branch, _ in possible_moves(level, (int(r), int(c), 1 if ch else -1)):
                for cell, _ in branch.cells((int(r), int(c), 1 if ch else -1)) if branch else ():
                    if level.in_bounds(*cell) and level.brickable_map[cell]:
                        reads[cell] = True
        assert np.array_equal(lem.read_map, reads)
        r0, r1, c0, c1 = lem.extent  # every live state and read cell lies inside the extent
        rows, cols = np.nonzero(expected.any(axis=(0, 3)) | reads)
        assert rows.size == 0 or (r0 <= rows.min() and rows.max() <= r1 and c0 <= cols.min() and cols.max() <= c1)
    assert info.feasible == feasible


def test_every_winning_run_stays_live_and_reads_only_read_cells() -> None:
    for seed in range(60):
        level = small_level(seed)
        info = analyse(level)
        for bricks in [(), *[(cell,) for cell in level.brickable_cells[:6]]]:
            run = simulate(level, bricks, enforce_budget=False)
            if not run.won:
                continue
            assert info.feasible
            for lem, track in zip(info.lemmings, run.tracks):
                for t, state in enumerate(track.path[:level.frames]):
                    assert state in lem.states(t)


def test_losing_reads_are_the_cells_the_run_reads() -> None:
    level = Level.from_rows(["> . T", "XX XX"], frames=6, budget=2)
    # the lemming walks to (0,2) and falls into the hole at (1,2): it read (0,1) ahead, (0,2) ahead, (1,2) below
    assert losing_reads(level, ()) == [[(0, 1), (0, 2), (1, 2)]]
    assert losing_reads(level, ((1, 2),)) == []  # a brick on the hole: it wins


def test_long_levels_stop_once_the_sets_repeat() -> None:
    level = Level.load(LARGE_FIRST).with_limits(frames=10_000)
    info = analyse(level)
    block = info.lemmings[0].block
    assert len(block.forward.stored) < 200 and len(block.backward.stored) < 200
    assert info.feasible and info.nbytes < 1_000_000
    # frames past the stored ones map onto the periodic tail
    assert info.lemmings[0].states(5_000) == info.lemmings[0].states(5_000 - 2 * 50) != []


def test_shared_per_solve_context() -> None:
    level = Level.load(LARGE_FIRST)
    ctx = SolveContext.create()
    first = reach_for(level, ctx)
    assert reach_for(level, ctx.child(cancel=threading.Event())) is first


def _cancel_latency(level: Level, polls: int) -> float:
    """Seconds from the cancel (set on the analysis's ``polls``-th check, i.e. mid-work) to its return."""
    event = CancelOnPoll(polls)
    with pytest.raises(SolveStopped):
        analyse(level, SolveContext.create(cancel=event))
    assert event.fired_at is not None
    return time.perf_counter() - event.fired_at


def test_cancel_and_memory_on_a_256x256_level_with_10000_frames() -> None:
    level = maze_256()
    reach._RECENT.clear()
    assert level.height == level.width == 256 and level.frames == 10_000
    for polls in (20, 400):  # the whole analysis checks its context about 900 times
        assert _cancel_latency(level, polls) < STOP_GUARD
    with pytest.raises(SolveStopped):
        analyse(level, expired())
    tracemalloc.start()
    info = analyse(level)
    assert info.feasible and len(info.read_cells) > 100
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 400e6  # a dense (N, H, W, 2) map per lemming would be 1.3 GB each
    with pytest.raises(MemoryError):
        info.lemmings[0].live  # noqa: B018 - the dense view refuses to exist at this size


def test_tiled_large_level_is_quick_and_small() -> None:
    level = tiled(Level.load(LARGE_FIRST), rows=4, cols=4, frames=1000)
    tracemalloc.start()
    info = analyse(level)
    cells = info.read_cells
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert info.feasible and len(cells) == 16 * len(analyse(Level.load(LARGE_FIRST)).read_cells)
    assert peak < 100e6  # its seconds are a figure of bench/stress.py


def test_wins_without_bricks_is_the_reference_simulators_answer() -> None:
    for seed in range(300):
        level = small_level(seed, max_side=7, max_lemmings=3)
        assert reach.wins_without_bricks(level) == simulate(level, ()).won, seed
    big = tiled(Level.load(LARGE_FIRST), rows=10, cols=8, frames=10_000, size=(256, 256))
    assert not reach.wins_without_bricks(big)  # where the reference simulator needs 2.4 million Python steps


def test_the_analysis_steps_once_per_distinct_move_however_many_branches() -> None:
    physics = random_physics(np.random.default_rng(8007), name="random8007")
    level = Level.from_rows([">     T", "X XX XX", "       ", "XXXXXXX"], frames=12, budget=2).with_physics(physics)
    grid = reach_graph.Grid(level)
    moves = {(branch.move, branch.turn) for branch in views(physics).branches} | {((0, 0), False)}
    assert len(views(physics).branches) == 37 and len(moves) <= 5
    assert grid.successors.shape[1] == len(moves)
    ids = np.arange(grid.states, dtype=np.int64)[grid.can_free[np.arange(grid.states) >> 1]]
    merged = {int(i) * 1000 + int(j) for ok, dst in grid.steps(ids) for i, j in zip(ids[ok], dst[ok])}
    every = {int(i) * 1000 + int(j) for ok, dst in grid.moves(ids) for i, j in zip(ids[ok], dst[ok])}
    assert merged == every  # the same places reached, fewer columns
