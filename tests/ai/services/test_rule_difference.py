"""The rule difference a mystery level turns on, in one sentence: for each mystery world's first level, the
sentence matches the world's physics, names a cell of the level, and is empty on classic levels."""

from __future__ import annotations

import re

import pytest

from ai import facade
from game.core.level import Level
from game.core.pack import pack_worlds
from game.core.physics_catalog import SHIPPED

#: What the sentence says for each shipped physics.
EXPECTED = {"careful": "never walk off an edge", "climber": "climb one-cell steps", "drifter": "glide as they fall",
            "restless": "an exit does not stop a lemming"}


@pytest.mark.parametrize("world", pack_worlds()[4:], ids=lambda w: w.title)
def test_first_level_sentence_names_the_world_rule(world: object) -> None:
    path = world.levels[0]  # type: ignore[attr-defined]
    level = Level.load(path)
    answer = facade.solve(level, solver="search")
    text = facade.rule_difference(level, answer.bricks or ())
    assert EXPECTED[level.physics.name] in text
    match = re.search(r"row (\d+), column (\d+)", text)
    assert match is not None and level.in_bounds(int(match.group(1)), int(match.group(2)))


def test_classic_levels_have_no_rule_difference() -> None:
    level = Level.load(pack_worlds()[0].levels[0])
    assert facade.rule_difference(level) == ""


@pytest.mark.parametrize("name", ["careful", "climber", "drifter", "restless"])
def test_a_level_that_never_shows_the_difference_still_says_the_rule(name: str) -> None:
    """A flat corridor: nothing on it behaves differently, so the sentence is the physics' usual one."""
    level = Level.from_rows(["    ", ">  T", "XXXX"], frames=6, budget=0, physics=SHIPPED[name])
    text = facade.rule_difference(level)
    assert EXPECTED[name] in text
