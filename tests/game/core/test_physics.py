"""The physics value: parse/print, the classic rule, the table and decision tree, simulators under any physics."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.errors import LevelFormatError
from game.core.level import Level
from game.core.physics import CLASSIC, CONFIGS, NEIGHBOURS, Physics, PhysicsError, config_solid, random_physics
from game.core.physics_catalog import SHIPPED, resolve
from game.core.physics_views import same_behaviour, views
from game.core.simulation import simulate_stepwise, simulate_vectorised

#: The classic physics written as its three rules (fall, walk, turn).
CLASSIC_TEXT = """{"name": "classic", "targets_stop": true, "rules": [
  {"when": {"1,0": "free"}, "move": [1, 0]},
  {"when": {"0,1": "free"}, "move": [0, 1]},
  {"when": {}, "move": [0, 0], "turn": true}]}"""


def classic_rule(config: int) -> tuple[int, int, int]:
    """The game's rule as the README states it: fall, else walk, else turn."""
    if not config_solid(config, (1, 0)):
        return (1, 0, 0)
    if not config_solid(config, (0, 1)):
        return (0, 1, 0)
    return (0, 0, 1)


def test_the_three_rule_text_is_the_classic_physics() -> None:
    physics = Physics.from_text(CLASSIC_TEXT)
    assert physics == CLASSIC
    assert [tuple(row) for row in views(CLASSIC).table.tolist()] == [classic_rule(c) for c in range(CONFIGS)]


@pytest.mark.parametrize("text, words", [
    ('{"rules": [{"when": {}, "move": [1, 0]}]}', 'does not require free'),
    ('{"rules": [{"when": {"2,0": "free"}, "move": [0, 0]}]}', 'outside the 3x3'),
    ('{"rules": [{"when": {"1,0": "wet"}, "move": [0, 0]}]}', 'must be "solid" or "free"'),
    ('{"rules": [{"when": {}, "move": [0, 2]}]}', "each in -1, 0, 1"),
    ('{"rules": [], "gravity": 1}', "unknown key 'gravity'"),
    ('{"rules": "fall"}', "'rules' must be a list"),
    ('{"rules": [], "targets_stop": 1}', "true or false"),
    ('[' * 100 + ']' * 100, "nested"),
    ('{"rules": [{"when": {}, "move": [0, 1e400]}]}', "not valid JSON"),
    ('{"rules": [{"when": {"0,0": "solid"}, "move": [0, 0]}]}', "own cell"),
])
def test_bad_physics_get_one_clear_message(text: str, words: str) -> None:
    with pytest.raises(PhysicsError, match=None) as info:
        Physics.from_text(text)
    assert words in str(info.value)


def test_a_level_line_names_a_shipped_physics_or_holds_json() -> None:
    level = Level.from_text("# physics: climber\n5\n1\n>  T\nXXXX\n")
    assert level.physics == SHIPPED["climber"]
    own = Level.from_text(f"# physics: {SHIPPED['drifter'].renamed('mine').to_text()}\n5\n1\n>  T\nXXXX\n")
    assert same_behaviour(own.physics, SHIPPED["drifter"])
    assert Level.from_text(own.to_text()) == own
    assert Level.from_text("5\n1\n>  T\nXXXX\n").physics == CLASSIC


def test_a_bad_physics_line_names_its_line() -> None:
    with pytest.raises(LevelFormatError) as info:
        Level.from_text("# title: x\n# physics: wobbly\n5\n1\n>  T\nXXXX\n", "w.txt")
    assert str(info.value).startswith("w.txt:2:1: unknown physics 'wobbly'")


def test_the_physics_is_part_of_the_puzzle_hash() -> None:
    level = Level.from_rows([">  T", "XXXX"], 5, 1)
    assert level.puzzle_hash != level.with_physics(SHIPPED["climber"]).puzzle_hash
    assert level.puzzle_hash == level.with_physics(CLASSIC.renamed("same")).puzzle_hash


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_physics_print_and_parse_back(seed: int) -> None:
    physics = random_physics(np.random.default_rng(seed))
    assert Physics.from_text(physics.to_text()) == physics
    assert Physics.from_json(json.loads(json.dumps(physics.to_json()))) == physics


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_table_and_the_decision_tree_say_what_the_rules_say(seed: int) -> None:
    physics = random_physics(np.random.default_rng(seed))
    for config in range(CONFIGS):
        rule = physics.decide(lambda off: config_solid(config, off))
        want = (0, 0, 0) if rule is None else (*rule.move, int(rule.turn))
        assert tuple(views(physics).table[config].tolist()) == want
        leaves = [b for b in views(physics).branches if all(config_solid(config, o) == s for o, s in b.needs)]
        assert len(leaves) == 1  # exclusive and exhaustive
        assert (*leaves[0].move, int(leaves[0].turn)) == want


def test_every_move_enters_a_cell_its_branch_requires_free() -> None:
    for physics in [*SHIPPED.values(), *(random_physics(np.random.default_rng(s)) for s in range(50))]:
        for branch in views(physics).branches:
            if not branch.stays:
                assert (branch.move, False) in branch.needs


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_stepwise_and_vectorised_simulators_agree_under_any_physics(seed: int) -> None:
    rng = np.random.default_rng(seed)
    h, w = int(rng.integers(3, 8)), int(rng.integers(3, 10))
    grid = rng.choice(np.array(list("X T")), size=(h, w), p=[0.3, 0.6, 0.1])
    for _ in range(int(rng.integers(1, 6))):
        grid[rng.integers(0, h), rng.integers(0, w)] = rng.choice(["<", ">"])
    grid[0, 0] = "T" if not (grid == "T").any() else grid[0, 0]
    physics = random_physics(rng) if seed % 3 else list(SHIPPED.values())[seed % len(SHIPPED)]
    try:
        level = Level.from_rows(["".join(r) for r in grid], int(rng.integers(1, 25)), 0, physics=physics)
    except ValueError:
        return
    a, b = simulate_stepwise(level), simulate_vectorised(level)
    assert a.tracks == b.tracks and a.won == b.won


def test_restless_lemmings_walk_over_targets_and_win_only_on_one_at_the_end() -> None:
    rows = [">T  T", "XXXXX"]
    stop = simulate_stepwise(Level.from_rows(rows, 5, 0))
    assert stop.tracks[0].final[:2] == (0, 1) and stop.won
    level = Level.from_rows(rows, 5, 0, physics=SHIPPED["restless"])
    run = simulate_stepwise(level)
    assert [s[1] for s in run.tracks[0].path] == [0, 1, 2, 3, 4]
    assert run.won and run.tracks[0].reached_at == 4
    short = simulate_stepwise(level.with_limits(frames=4))
    assert not short.won and short.tracks[0].reached_at is None


def test_every_shipped_physics_resolves_by_name() -> None:
    for name, physics in SHIPPED.items():
        assert resolve(name) is physics
        assert physics.name == name
    assert len(SHIPPED) - 1 >= 4  # at least four of our own beside classic
    assert all(NEIGHBOURS)
