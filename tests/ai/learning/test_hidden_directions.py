"""Learning from positions only: the replay check, the rule-list simplifier and the hidden-direction learner."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai.kernel.context import SolveContext, SolveStopped
from ai.learning.exact_list import shortest_list
from ai.learning.hidden_directions import (
    explains,
    implied_directions,
    rules_table,
    simplify,
)
from ai.learning.observations import random_game, steps_of
from ai.learning.physics_agreement import agreement
from ai.learning.physics_learner import _size, learn_physics
from game.core.physics import Physics, Rule, random_physics
from game.core.physics_catalog import SHIPPED
from game.core.physics_views import moves_alike, same_behaviour, views
from tests.stopping import cancelled


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_rules_table_is_the_physics_table(seed: int) -> None:
    physics = random_physics(np.random.default_rng(seed))
    assert (rules_table(physics.rules) == views(physics).table).all()


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_the_true_physics_explains_its_own_positions_and_implies_its_directions(seed: int) -> None:
    rng = np.random.default_rng(seed)
    truth = random_physics(rng)
    game = random_game(rng, truth, height=10, width=12, lemmings=6, frames=15)
    full, hidden = steps_of([game]), steps_of([game.without_directions()])
    assert explains(truth, hidden) and explains(truth, full)
    implied = implied_directions(truth, full)
    assert implied is not None
    assert (implied[0] == full.direction).all() and (implied[1] == full.next_direction).all()


def test_a_physics_that_moves_differently_does_not_explain() -> None:
    game = random_game(np.random.default_rng(3), SHIPPED["classic"]).without_directions()
    steps = steps_of([game])
    assert not explains(SHIPPED["climber"], steps)
    assert implied_directions(SHIPPED["climber"], steps) is None


def test_simplify_drops_what_the_positions_do_not_need() -> None:
    classic = SHIPPED["classic"]
    padded = Physics("padded", True, (Rule(((( -1, 0), True), ((1, 0), False)), (1, 0), False),) + classic.rules)
    steps = steps_of([random_game(np.random.default_rng(s), classic).without_directions() for s in range(2)])
    assert explains(padded, steps)
    simpler = simplify(padded, steps)
    assert explains(simpler, steps)
    assert _size(simpler) < _size(padded)
    assert moves_alike(simpler, classic)


def test_simplify_stops_when_cancelled() -> None:
    steps = steps_of([random_game(np.random.default_rng(1), SHIPPED["climber"]).without_directions()])
    with pytest.raises(SolveStopped):
        simplify(SHIPPED["climber"], steps, ctx=SolveContext.create(cancel=cancelled()))


def test_moves_alike_with_directions_named_the_other_way() -> None:
    classic = SHIPPED["classic"]
    mirrored = Physics("mirrored", True, tuple(
        Rule(tuple(sorted(((dr, -da), solid) for (dr, da), solid in rule.when)), (rule.move[0], -rule.move[1]),
             rule.turn) for rule in classic.rules))
    assert not moves_alike(mirrored, classic)
    assert moves_alike(mirrored, classic, opposite=True)


@pytest.mark.parametrize("k", [0, 3, 11])
def test_random_physics_from_three_games_positions_only(k: int) -> None:
    # random physics where lemmings turn often or walk backwards (the hardest case for naming the hidden directions)
    truth = random_physics(np.random.default_rng(1000 + k))
    rng = np.random.default_rng(7)
    result = learn_physics([random_game(rng, truth).without_directions() for _ in range(3)],
                           ctx=SolveContext.create())
    assert result.positions_only
    assert agreement(result.physics, truth, maps=1, lemmings=200).proved
    assert any("left from right" in note for note in result.notes)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_the_shortest_list_explains_every_step_and_is_never_longer_than_the_truth(seed: int, hidden: bool) -> None:
    rng = np.random.default_rng(seed)
    truth = random_physics(rng)
    game = random_game(rng, truth, height=10, width=14, lemmings=8, frames=20)
    steps = steps_of([game.without_directions() if hidden else game])
    found = shortest_list(steps, targets_stop=truth.targets_stop)
    assert found is not None
    assert explains(found, steps)
    assert _size(found)[:2] <= _size(truth)[:2]  # rules, then conditions (the truth is one answer)


@pytest.mark.parametrize("k", [15, 17])
def test_three_games_where_the_beam_found_a_longer_list_than_the_truth(k: int) -> None:
    # positions only: the beam over inferred directions returned 7 rules (k=15) and 6 (k=17) for 3 and 5 true ones
    truth = random_physics(np.random.default_rng(1000 + k))
    rng = np.random.default_rng(7)
    result = learn_physics([random_game(rng, truth).without_directions() for _ in range(3)])
    assert _size(result.physics) <= _size(truth)
    assert agreement(result.physics, truth, maps=1, lemmings=200).proved


def test_the_shortest_list_gives_up_on_games_no_physics_explains() -> None:
    rng = np.random.default_rng(3)
    games = [random_game(rng, SHIPPED["classic"]), random_game(rng, SHIPPED["climber"])]
    assert shortest_list(steps_of(games), most_rules=3) is None


def test_the_learner_says_when_another_list_as_short_explains_the_games() -> None:
    # held-out random physics 2000+0, three games, positions only: two lists of 2 rules and 4 conditions
    # explain every position; the learner keeps one and reports the other (here: the truth)
    truth = random_physics(np.random.default_rng(2000))
    rng = np.random.default_rng(7)
    games = [random_game(rng, truth).without_directions() for _ in range(3)]
    result = learn_physics(games)
    assert result.unique is False and result.rival is not None
    assert _size(result.rival)[:2] == _size(result.physics)[:2]
    assert explains(result.rival, steps_of(games))
    assert not moves_alike(result.physics, result.rival)
    assert not moves_alike(result.physics, result.rival, opposite=True)
    assert any("cannot decide" in note for note in result.notes)
    assert result.to_json()["rival"] == result.rival.to_json()


def test_the_learner_says_when_no_other_list_as_short_explains_the_games() -> None:
    rng = np.random.default_rng(7)
    result = learn_physics([random_game(rng, SHIPPED["climber"]) for _ in range(3)])
    assert same_behaviour(result.physics, SHIPPED["climber"])
    assert result.unique is True and result.rival is None
    assert result.to_json()["unique"] is True
