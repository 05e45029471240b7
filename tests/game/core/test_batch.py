"""The batched simulator equals the reference on many brick sets and many levels at once."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.batch import simulate_batch, simulate_brick_sets, simulate_levels
from game.core.level import Brick, Level
from game.core.simulation import simulate
from tests.conftest import ORIGINAL_SOLUTIONS
from tests.strategies import level_and_bricks, levels


@settings(max_examples=100, deadline=None)
@given(levels(), st.integers(0, 2**32 - 1))
def test_brick_sets_equal_reference(level: Level, seed: int) -> None:
    rng = np.random.default_rng(seed)
    cells = level.brickable_cells
    sets: list[tuple[Brick, ...]] = [()]
    for _ in range(12):
        k = int(rng.integers(0, min(level.budget, len(cells)) + 1))
        idx = rng.choice(len(cells), size=k, replace=False) if k else []
        sets.append(tuple(sorted(cells[i] for i in idx)))
    batch = simulate_brick_sets(level, sets, record_paths=True)
    assert batch.paths is not None
    for b, bricks in enumerate(sets):
        run = simulate(level, bricks)
        assert bool(batch.won[b]) == run.won
        for k, track in enumerate(run.tracks):
            assert batch.paths[b, :, k].tolist() == [list(s) for s in track.path]
            assert batch.reached_at[b, k] == (-1 if track.reached_at is None else track.reached_at)
            assert tuple(batch.final[b, k]) == track.final


@settings(max_examples=30, deadline=None)
@given(st.lists(level_and_bricks(), min_size=1, max_size=8))
def test_many_levels_at_once_equal_reference(cases: list[tuple[Level, tuple[Brick, ...]]]) -> None:
    lvls = [lv for lv, _ in cases]
    bricks = [b for _, b in cases]
    batch = simulate_levels(lvls, bricks)
    for b, (lv, br) in enumerate(cases):
        run = simulate(lv, br)
        assert bool(batch.won[b]) == run.won
        assert batch.arrived[b] == sum(t.reached_at is not None for t in run.tracks)
        for k, track in enumerate(run.tracks):
            assert tuple(batch.final[b, k]) == track.final


def test_original_has_exactly_six_solutions_all_with_three_bricks(original: Level) -> None:
    cells = original.brickable_cells
    assert len(cells) == 48
    sets = [s for k in range(4) for s in itertools.combinations(cells, k)]  # all 18,473 legal sets
    batch = simulate_brick_sets(original, sets)
    winners = {s for s, w in zip(sets, batch.won) if w}
    assert winners == ORIGINAL_SOLUTIONS


def test_mask_input_is_checked(original: Level) -> None:
    masks = np.zeros((1, original.height, original.width), dtype=bool)
    masks[0, 0, 0] = True
    with pytest.raises(ValueError, match="no brick may go"):
        simulate_brick_sets(original, masks)


def test_raw_batch_with_one_frame() -> None:
    obst = np.zeros((2, 1, 3), dtype=bool)
    tgt = np.array([[False, True, False]])
    batch = simulate_batch(obst, tgt, [(0, 1, 1)], [1, 1])
    assert batch.won.tolist() == [True, True]
    assert batch.final[:, 0].tolist() == [[0, 1, 1], [0, 1, 1]]
