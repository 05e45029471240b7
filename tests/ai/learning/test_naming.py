"""Naming left and right from positions alone: a lemming on open flat floor walks ahead."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai.learning.naming import FLAT_FLOOR, UNOBSTRUCTED, ahead_sign, mirrored, named_ahead
from ai.learning.observations import Game, random_game, steps_of
from ai.learning.physics_learner import learn_physics
from game.core.physics import MIRRORED, Physics, random_physics
from game.core.physics_catalog import SHIPPED
from game.core.physics_views import moves_alike

FALL = {"when": {"1,0": "free"}, "move": [1, 0]}
WALK = {"when": {"0,1": "free"}, "move": [0, 1]}
#: Walks ahead on open floor; at a wall it steps back and turns, so in a pocket two cells wide it goes
#: back at every step (most sideways steps of a random game are steps back).
BOUNCER = Physics.from_json({"name": "bouncer", "targets_stop": True, "rules": [
    FALL, WALK, {"when": {"0,-1": "free"}, "move": [0, -1], "turn": True}, {"when": {}, "move": [0, 0], "turn": True}]})


def _back_share(games: list[Game]) -> float:
    """The share of sideways steps that go against the lemming's (observed) direction."""
    steps = steps_of(games)
    sideways = steps.moves[:, 1] != 0
    return float((steps.moves[sideways, 1] * steps.direction[sideways] < 0).mean())


def test_open_flat_floor_comes_first_and_every_unobstructed_neighbourhood_looks_alike_both_ways() -> None:
    assert UNOBSTRUCTED[0] == FLAT_FLOOR
    assert all(MIRRORED[c] == c for c in UNOBSTRUCTED)
    assert len(set(UNOBSTRUCTED)) == len(UNOBSTRUCTED) == 32


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_every_shipped_physics_is_named_ahead_already(name: str) -> None:
    assert ahead_sign(SHIPPED[name]) == 1
    assert named_ahead(mirrored(SHIPPED[name])) == SHIPPED[name]


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1))
def test_a_physics_and_its_mirror_image_get_opposite_names(seed: int) -> None:
    physics = random_physics(np.random.default_rng(seed))
    sign = ahead_sign(physics)
    assert ahead_sign(mirrored(physics)) == -sign
    assert ahead_sign(named_ahead(physics)) == abs(sign)
    if sign == 0:  # the name does not matter: the mirror image moves every lemming alike
        assert moves_alike(physics, mirrored(physics), opposite=True) and moves_alike(physics, mirrored(physics))


def test_a_physics_walking_back_on_open_floor_is_named_the_other_way_round() -> None:
    back = Physics.from_json({"name": "back", "rules": [FALL, {"when": {"0,-1": "free"}, "move": [0, -1]}]})
    assert ahead_sign(back) == -1
    assert named_ahead(back).rules[1].move == (0, 1)


@pytest.mark.parametrize("seed", [2, 3])
def test_the_bouncer_is_learned_with_the_right_names_although_it_mostly_steps_back(seed: int) -> None:
    rng = np.random.default_rng(seed)
    games = [random_game(rng, BOUNCER) for _ in range(3)]
    assert _back_share(games) > 0.5  # "the way lemmings mostly go" would name it the other way round
    learned = learn_physics([g.without_directions() for g in games])
    assert moves_alike(learned.physics, BOUNCER)
    assert any("open flat floor" in note for note in learned.notes)


def test_start_markers_name_a_physics_that_walks_back_on_open_floor() -> None:
    truth = mirrored(BOUNCER)  # walks back on open floor: positions alone would name it the other way
    rng = np.random.default_rng(0)
    games = [random_game(rng, truth, lemmings=12, frames=24) for _ in range(2)]
    alone = learn_physics([g.without_directions() for g in games]).physics
    marked = learn_physics([g.with_start_directions() for g in games])
    assert moves_alike(alone, BOUNCER)
    assert moves_alike(marked.physics, truth)
    assert any("named after them" in note for note in marked.notes)


@pytest.mark.parametrize("seed", [1000, 1016])
def test_random_physics_decided_by_the_games_get_the_right_names(seed: int) -> None:
    truth = random_physics(np.random.default_rng(seed))
    rng = np.random.default_rng(7)
    learned = learn_physics([random_game(rng, truth).without_directions() for _ in range(3)]).physics
    assert moves_alike(learned, truth) or moves_alike(learned, truth, opposite=True)  # decided
    assert moves_alike(learned, named_ahead(truth))


@settings(max_examples=3, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_whenever_the_games_decide_a_random_physics_its_names_are_right(physics_seed: int, games_seed: int) -> None:
    truth = random_physics(np.random.default_rng(physics_seed))
    rng = np.random.default_rng(games_seed)
    learned = learn_physics([random_game(rng, truth).without_directions() for _ in range(3)]).physics
    assert ahead_sign(learned) >= 0
    if moves_alike(learned, truth, opposite=True) or moves_alike(learned, truth):
        assert moves_alike(learned, named_ahead(truth))
