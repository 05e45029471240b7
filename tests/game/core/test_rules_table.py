"""The classic physics is the game's rule as the README states it; the cell codes round-trip the map."""

from __future__ import annotations

import itertools

import pytest

from game.core.level import Level
from game.core.physics import CLASSIC
from game.core.physics_views import step, views
from game.core.reads import step_reads
from game.core.rules import Cell, cell_codes


@pytest.mark.parametrize("below,ahead_,direction", itertools.product([False, True], [False, True], [-1, 1]))
def test_classic_falls_else_walks_else_turns(below: bool, ahead_: bool, direction: int) -> None:
    """For every combination of solid cells, the classic step falls, else walks, else turns, and reads
    the cell below, then (grounded) the cell ahead."""
    state = (4, 4, direction)
    solid = set()
    if below:
        solid.add((5, 4))
    if ahead_:
        solid.add((4, 4 + direction))

    def blocked(r: int, c: int) -> bool:
        return (r, c) in solid

    if not below:
        want = (5, 4, direction)
    elif not ahead_:
        want = (4, 4 + direction, direction)
    else:
        want = (4, 4, -direction)
    assert step(CLASSIC, blocked, lambda r, c: False, state) == want
    reads = step_reads(CLASSIC, blocked, state)
    assert reads == (((5, 4),) if not below else ((5, 4), (4, 4 + direction)))


def test_the_classic_tree_has_one_leaf_per_reading() -> None:
    """Fall, walk, turn: three leaves, exclusive and exhaustive over the two cells read."""
    assert [(b.move, b.turn) for b in views(CLASSIC).branches] == [((1, 0), False), ((0, 1), False), ((0, 0), True)]
    for below, ahead_ in itertools.product([False, True], repeat=2):
        cells = {(1, 0): below, (0, 1): ahead_}
        matches = [b for b in views(CLASSIC).branches if all(cells[o] == s for o, s in b.needs)]
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
