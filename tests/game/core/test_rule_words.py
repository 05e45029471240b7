"""A physics's rules in sentences: relative words (ahead, behind), order ("Otherwise"), every shipped physics."""

from __future__ import annotations

import pytest

from game.core.physics import CLASSIC, NEIGHBOURS, Physics, Rule
from game.core.physics_catalog import SHIPPED, resolve
from game.core.rule_words import action_words, condition_words, physics_sentences, rule_sentence


def test_the_classic_rules_read_as_a_player_would_say_them() -> None:
    assert physics_sentences(CLASSIC) == [
        "When nothing is below it, a lemming falls.",
        "Otherwise, when the cell ahead is empty, it walks ahead.",
        "Otherwise it turns around.",
        "A lemming stops at the first exit it reaches.",
    ]


def test_a_step_of_one_cell_is_climbed() -> None:
    climb = Rule(when=(((-1, 1), False), ((0, 1), True)), move=(-1, 1))
    assert rule_sentence(climb) == "When it faces a step one cell high, a lemming climbs it."
    assert rule_sentence(climb, first=False) == "Otherwise, when it faces a step one cell high, it climbs it."


@pytest.mark.parametrize("move, turn, words", [
    ((0, 1), False, "walks ahead"), ((0, -1), False, "steps back"), ((-1, -1), False, "climbs back"),
    ((1, 1), False, "falls ahead"), ((1, 0), True, "falls and turns around"), ((0, 0), False, "stays where it is"),
])
def test_moves_are_relative_to_the_way_the_lemming_faces(move: tuple[int, int], turn: bool, words: str) -> None:
    assert action_words(move, turn) == words
    assert "right" not in words and "left" not in words


def test_conditions_name_solid_and_empty_cells() -> None:
    assert condition_words(((((0, -1), True),))) == "the cell behind is a wall or brick"
    assert condition_words((((0, 1), True), ((1, 0), True))) == "the cell ahead and the cell below are walls or bricks"
    assert condition_words((((-1, 0), False), ((1, 1), False))) == "the cell above and the cell below ahead are empty"
    assert condition_words(()) == ""


def test_a_rule_with_no_condition() -> None:
    assert rule_sentence(Rule(when=(), move=(0, 1))) == "A lemming always walks ahead."
    assert rule_sentence(Rule(when=(), move=(1, 0)), first=False) == "Otherwise it falls."


def test_exits_that_do_not_stop() -> None:
    walk_on = Physics("walk on", False, CLASSIC.rules)
    assert physics_sentences(walk_on)[-1] == "Exits do not stop a lemming: it walks on."


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_every_shipped_physics_reads_in_plain_words(name: str) -> None:
    physics = resolve(name)
    lines = physics_sentences(physics)
    assert len(lines) == len(physics.rules) + 1
    for line in lines:
        assert line[0].isupper() and line.endswith(".")
        assert not any(ch in line for ch in "{}[]\":_") or line.count(":") == 1 and "Exits" in line
        assert " right" not in line and " left" not in line


def test_every_single_condition_has_words() -> None:
    for offset in NEIGHBOURS:
        for solid in (False, True):
            words = condition_words(((offset, solid),))
            assert words and "it stands in" not in words
