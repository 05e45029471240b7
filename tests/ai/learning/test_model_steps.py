"""The steps the learner's models see are bounded by design (:mod:`ai.learning.model_steps`)."""

from __future__ import annotations

import numpy as np
import pytest

from ai.learning import model_steps
from ai.learning.exact_list import shortest_list
from ai.learning.hidden_directions import Layout, explains
from ai.learning.model_steps import MODEL_STEPS, distinct_steps, sample_steps
from ai.learning.observations import Game, random_game, steps_of
from ai.learning.physics_learner import learn_physics
from game.core.physics import random_physics
from game.core.physics_catalog import SHIPPED


@pytest.mark.parametrize("seed", range(4))
def test_distinct_steps_accept_exactly_what_all_the_steps_accept(seed: int) -> None:
    rng = np.random.default_rng(seed)
    truth = random_physics(rng)
    steps = steps_of([random_game(rng, truth, lemmings=80, frames=60) for _ in range(2)])
    few = distinct_steps(steps)
    assert few.count < steps.count and len(set(few.lemming.tolist())) == few.count
    for other in [truth, *(random_physics(rng) for _ in range(20)), *SHIPPED.values()]:
        assert explains(other, few) == explains(other, steps)
    found = shortest_list(few, targets_stop=truth.targets_stop)
    assert found is not None and explains(found, steps)


def _hidden(lemmings: int, frames: int) -> Game:
    """A positions-only game of ``lemmings`` lemmings (on a map with room for them all) and ``frames`` frames."""
    game = random_game(np.random.default_rng(5), SHIPPED["climber"], height=64, width=64, lemmings=lemmings,
                       frames=frames)
    assert len(game.positions) == lemmings
    return game.without_directions()


def test_a_grid_beyond_the_cap_is_sampled_by_the_stated_rule() -> None:
    short = _hidden(300, 3)
    long = random_game(np.random.default_rng(6), SHIPPED["climber"], lemmings=1, frames=5_000).without_directions()
    steps = steps_of([short, long])
    assert Layout.of(steps).index.size > 1_000  # 301 lemmings x 4,999 frames
    sample, note = sample_steps(steps, most=1_000)
    layout = Layout.of(sample)
    assert layout.index.size <= 1_000 and sample.count == 300 * 2 + 3
    assert note is not None and "the first 3 steps of each lemming (603 of 5,599 steps" in note
    few, note = sample_steps(steps_of([_hidden(2_000, 3)]), most=1_000)
    assert few.count == 1_000 and note is not None and "each of the first 1,000 lemmings" in note
    assert sample_steps(steps_of([short]), most=1_000)[1] is None  # 300 x 2 steps: whole


def test_the_positions_only_learner_takes_a_bounded_sample_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model_steps, "MODEL_STEPS", 2_000)
    game = _hidden(60, 200)  # 11,940 steps
    result = learn_physics([game])
    assert result.examples <= 2_000
    assert any("the first 33 steps of each lemming" in note for note in result.notes)
    assert result.positions_only and result.examples == 60 * 33


def test_the_default_cap_keeps_the_usual_games_whole() -> None:
    steps = steps_of([random_game(np.random.default_rng(s), SHIPPED["classic"]).without_directions()
                      for s in range(3)])
    assert steps.count < MODEL_STEPS and sample_steps(steps)[1] is None
