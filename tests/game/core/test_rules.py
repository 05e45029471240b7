"""Brick legality and the parsing/printing of brick lists."""

from __future__ import annotations

import pytest

from game.core.errors import IllegalBricksError
from game.core.level import Level
from game.core.rules import check_bricks, format_bricks, parse_bricks

LEVEL = Level.from_rows(["> .T", "X..X"], frames=6, budget=2)


def test_legal_set_is_sorted() -> None:
    assert check_bricks(LEVEL, [(1, 2), (0, 2)]) == ((0, 2), (1, 2))


@pytest.mark.parametrize(
    ("bricks", "message"),
    [
        ([(1, 0)], "brick (1,0) is on a wall"),
        ([(0, 3)], "brick (0,3) is on a target"),
        ([(0, 0)], "brick (0,0) is on a lemming's start"),
        ([(2, 0)], "brick (2,0) is outside the 2x4 map"),
        ([(0, -1)], "brick (0,-1) is outside the 2x4 map"),
        ([(0, 1), (0, 1)], "brick (0,1) is listed twice"),
        ([(0, 1), (0, 2), (1, 1)], "3 bricks exceed the budget of 2"),
    ],
)
def test_illegal_sets_are_rejected_with_a_clear_message(bricks: list[tuple[int, int]], message: str) -> None:
    with pytest.raises(IllegalBricksError) as info:
        check_bricks(LEVEL, bricks)
    assert str(info.value) == message


def test_budget_can_be_waived_for_analysis() -> None:
    assert len(check_bricks(LEVEL, [(0, 1), (0, 2), (1, 1)], enforce_budget=False)) == 3


def test_parse_and_format_bricks() -> None:
    assert parse_bricks(" 2,1 ; 5,4;6,6;") == ((2, 1), (5, 4), (6, 6))
    assert parse_bricks("(2,1) (5, 4)") == ((2, 1), (5, 4))
    assert format_bricks(parse_bricks("2,1;5,4")) == "2,1;5,4"
    with pytest.raises(IllegalBricksError, match="cannot read bricks"):
        parse_bricks("2;1")
    with pytest.raises(IllegalBricksError, match="cannot read bricks"):
        parse_bricks("a,b")
