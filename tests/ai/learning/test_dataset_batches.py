"""The tree learner's games are simulated a batch at a time: memory bounded whatever ``--games`` asks."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ai.kernel.context import SolveStopped
from ai.learning import dataset
from ai.learning.dataset import BATCH, Dataset, random_games_dataset, regime_dataset, regime_datasets
from game.core.occupancy import simulate_occupancy
from tests.stopping import expired


@pytest.mark.parametrize("regime, games", [("random", 2 * BATCH["random"] + 5), ("many", 3)])
def test_batches_give_the_same_examples_as_all_games_at_once(regime: str, games: int,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    whole = Dataset.empty()
    for d in regime_datasets(np.random.default_rng(4), games, regime):
        whole = whole.merge(d)
    sizes: list[int] = []
    real = simulate_occupancy

    def spy(walls: Any, *args: Any) -> Any:
        sizes.append(len(walls))
        return real(walls, *args)

    monkeypatch.setattr(dataset, "simulate_occupancy", spy)
    batched = regime_dataset(np.random.default_rng(4), games, regime)
    assert max(sizes) <= BATCH[regime] and sum(sizes) == games
    assert np.array_equal(whole.keys, batched.keys) and np.array_equal(whole.counts, batched.counts)
    assert np.array_equal(whole.labels, batched.labels) and batched.games == games
    if regime == "random":
        again = random_games_dataset(np.random.default_rng(4), games)
        assert np.array_equal(again.keys, whole.keys) and again.games == games


def test_a_passed_deadline_stops_the_games() -> None:
    with pytest.raises(SolveStopped):
        regime_dataset(np.random.default_rng(0), 10_000, "many", expired())
