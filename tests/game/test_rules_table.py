"""The move table, the read cells and the cell codes agree with the reference step."""

from __future__ import annotations

import itertools

import pytest

from game.level import Level
from game.rules import MOVE_TABLE, Cell, Move, cell_codes, move_rule, step, step_reads


@pytest.mark.parametrize("below,ahead_,direction", itertools.product([False, True], [False, True], [-1, 1]))
def test_step_is_the_move_table(below: bool, ahead_: bool, direction: int) -> None:
    """For every combination of solid cells, ``step`` does what the table's row says and reads what it says."""
    state = (4, 4, direction)
    solid = set()
    if below:
        solid.add((5, 4))
    if ahead_:
        solid.add((4, 4 + direction))
    read: list[tuple[int, int]] = []

    def blocked(r: int, c: int) -> bool:
        read.append((r, c))
        return (r, c) in solid

    rule = move_rule(below, ahead_)
    assert step(blocked, lambda r, c: False, state) == rule.apply(state)
    assert tuple(read) == step_reads(state, below)
    assert rule.ahead_solid in (None, ahead_)


def test_table_covers_each_reading_once() -> None:
    """The three rows are disjoint and cover all readings of a lemming not on a target."""
    assert [r.move for r in MOVE_TABLE] == [Move.FALL, Move.WALK, Move.TURN]
    for below, ahead_ in itertools.product([False, True], repeat=2):
        matches = [r for r in MOVE_TABLE
                   if r.below_solid == below and (r.ahead_solid is None or r.ahead_solid == ahead_)]
        assert len(matches) == 1


def test_cell_codes_round_trip_the_map() -> None:
    """Every map character has its code; the padding ring is wall; bricks are solid."""
    level = Level.from_rows(["> TX", "X  X"], 3, 1)
    codes = cell_codes(level, [(1, 1)], padded=True)
    assert codes.shape == (4, 6)
    assert (codes[0] == Cell.WALL).all() and (codes[:, -1] == Cell.WALL).all()
    inner = codes[1:-1, 1:-1]
    assert [Cell(v).name for v in inner[0]] == ["START", "EMPTY", "TARGET", "WALL"]
    assert [Cell(v).name for v in inner[1]] == ["WALL", "BRICK", "EMPTY", "WALL"]
    assert [Cell(v).solid for v in inner[1]] == [True, True, False, True]
