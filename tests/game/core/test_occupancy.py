"""The occupancy-map simulator equals the reference on 0/1 maps and conserves mass when relaxed."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.level import Brick, Level
from game.core.occupancy import channel_of, mass_on_targets, obstacle_densities, simulate_level, simulate_occupancy
from game.core.physics import Physics, random_physics
from game.core.physics_catalog import SHIPPED
from game.core.simulation import simulate
from tests.strategies import level_and_bricks, levels


def one_hot_paths(level: Level, bricks: tuple[Brick, ...]) -> np.ndarray:
    run = simulate(level, bricks)
    occ = np.zeros((len(run.tracks), level.frames, level.height, level.width, 2))
    for k, track in enumerate(run.tracks):
        for t, (r, c, d) in enumerate(track.path):
            occ[k, t, r, c, channel_of(d)] = 1.0
    return occ


@settings(max_examples=300, deadline=None)
@given(level_and_bricks())
def test_equals_reference_per_lemming(case: tuple[Level, tuple[Brick, ...]]) -> None:
    level, bricks = case
    occ = simulate_level(level, bricks, per_lemming=True)
    np.testing.assert_array_equal(occ, one_hot_paths(level, bricks))


@settings(max_examples=100, deadline=None)
@given(level_and_bricks())
def test_summed_lemmings_and_win_mass(case: tuple[Level, tuple[Brick, ...]]) -> None:
    level, bricks = case
    occ = simulate_level(level, bricks)
    np.testing.assert_array_equal(occ, one_hot_paths(level, bricks).sum(axis=0))
    mass = mass_on_targets(occ, level.target_map)
    assert (mass == len(level.lemmings)) == simulate(level, bricks).won


@settings(max_examples=100, deadline=None)
@given(levels(), st.integers(0, 2**32 - 1))
def test_fractional_densities_conserve_mass_and_stay_in_range(level: Level, seed: int) -> None:
    rng = np.random.default_rng(seed)
    density = rng.random((level.height, level.width)) * level.brickable_map
    occ = simulate_level(level, density)
    totals = occ.sum(axis=(1, 2, 3))
    np.testing.assert_allclose(totals, len(level.lemmings), rtol=1e-12)
    assert occ.min() >= 0.0


def test_a_two_thirds_brick_splits_a_lemming() -> None:
    # A lemming walking right over a hole with a 2/3 brick: 1/3 falls in, 2/3 crosses.
    level = Level.from_rows(["> T", "X X", "XXX"], frames=3, budget=1)
    density = np.zeros((3, 3))
    density[1, 1] = 2 / 3
    occ = simulate_level(level, density)
    assert occ[1, 0, 1, 1] == 1.0  # walked onto (0,1)
    np.testing.assert_allclose(occ[2, 1, 1, 1], 1 / 3)  # fell into the hole
    np.testing.assert_allclose(occ[2, 0, 2, 1], 2 / 3)  # reached the target


def test_batch_axes_broadcast() -> None:
    level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
    obst = np.stack([obstacle_densities(level), obstacle_densities(level, [(1, 2)])])
    init = simulate_level(level)[0]
    occ = simulate_occupancy(obst, level.target_map, init, level.frames)
    assert occ.shape == (2, 5, 2, 4, 2)
    assert mass_on_targets(occ, level.target_map).tolist() == [0.0, 1.0]


PHYSICS = [*SHIPPED.values(), *(random_physics(np.random.default_rng(s), name=f"random{s}") for s in range(10))]


@settings(max_examples=60, deadline=None)
@given(level_and_bricks(), st.sampled_from(PHYSICS))
def test_equals_reference_under_every_physics(case: tuple[Level, tuple[Brick, ...]], physics: Physics) -> None:
    level, bricks = case
    level = level.with_physics(physics)
    occ = simulate_level(level, bricks, per_lemming=True)
    np.testing.assert_array_equal(occ, one_hot_paths(level, bricks))


@settings(max_examples=40, deadline=None)
@given(levels(), st.integers(0, 2**32 - 1), st.sampled_from(PHYSICS))
def test_fractional_densities_conserve_mass_under_every_physics(level: Level, seed: int, physics: Physics) -> None:
    rng = np.random.default_rng(seed)
    density = rng.random((level.height, level.width)) * level.brickable_map
    occ = simulate_level(level.with_physics(physics), density)
    np.testing.assert_allclose(occ.sum(axis=(1, 2, 3)), len(level.lemmings), rtol=1e-12)
    assert occ.min() >= 0.0
