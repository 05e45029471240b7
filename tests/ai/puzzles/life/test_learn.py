"""Rule learning from one trajectory, checked on all 512 neighbourhoods."""

from __future__ import annotations

import numpy as np
import pytest

from ai.puzzles.life.learn import InconsistentTrajectory, LearnStatus, disagreements, learn_rule
from game.core.errors import GameError
from game.core.puzzles.life.rules import LIFE, Rule, parse_rule, step, trajectory


def soup(seed: int, density: float = 0.5, size: int = 25) -> np.ndarray:
    return np.random.default_rng(seed).random((size, size)) < density


@pytest.mark.parametrize("name", ["B3/S23", "B36/S23", "B3678/S34678"])
def test_outer_totalistic_rules_are_learned_exactly(name: str) -> None:
    rule = parse_rule(name)
    for seed in range(5):
        learned = learn_rule(trajectory(soup(seed), rule, 10))
        assert disagreements(learned.rule, rule) == []
        assert learned.rule.outer_totalistic
        if learned.status == LearnStatus.OUTER_TOTALISTIC:
            assert learned.rule.name == name and learned.unseen == ()
        else:  # a (centre, count) pair never occurred: the learner says which
            assert learned.status == LearnStatus.PARTIAL and learned.unseen


def test_life_from_seed_1_is_certain() -> None:
    learned = learn_rule(trajectory(soup(1), LIFE, 10))
    assert learned.status == LearnStatus.OUTER_TOTALISTIC and learned.rule == LIFE


def test_a_random_non_totalistic_rule() -> None:
    rule = Rule(tuple(bool(v) for v in np.random.default_rng(11).random(512) < 0.5))
    assert not rule.outer_totalistic
    learned = learn_rule(trajectory(soup(2), rule, 10))
    seen = [i for i in range(512) if learned.seen[i]]
    assert all(learned.rule.table[i] == rule.table[i] for i in seen)
    assert set(learned.unseen) == set(range(512)) - set(seen)
    if not learned.unseen:
        assert learned.status == LearnStatus.TABLE and learned.rule == rule


def test_random_non_totalistic_rules_exact_when_all_seen() -> None:
    exact = 0
    for seed in range(6):
        rule = Rule(tuple(bool(v) for v in np.random.default_rng(100 + seed).random(512) < 0.5))
        learned = learn_rule(trajectory(soup(seed), rule, 10))
        assert set(disagreements(learned.rule, rule)) <= set(learned.unseen)
        exact += learned.status == LearnStatus.TABLE
    assert exact >= 1


def test_unseen_pairs_are_named() -> None:
    board = np.zeros((8, 8), dtype=bool)
    board[2, 1:4] = True  # a blinker: few neighbourhoods
    learned = learn_rule(trajectory(board, LIFE, 2))
    assert learned.status == LearnStatus.PARTIAL
    assert "S8" in learned.unseen_pairs and "B3" not in learned.unseen_pairs


def test_inconsistent_trajectory() -> None:
    a = np.zeros((6, 6), dtype=bool)
    a[2, 1:4] = True
    with pytest.raises(InconsistentTrajectory, match="followed by both states"):
        learn_rule([a, step(a, LIFE), a, a])  # the blinker then stays: no rule does that
    with pytest.raises(GameError):
        learn_rule([a])
