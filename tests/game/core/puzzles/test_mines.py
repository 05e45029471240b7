"""The Minesweeper model: first click safe (the cell, or the area around it), flood fill, flags, win/loss, the text form of a view."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.puzzles.mines import (FLAG, HIDDEN, Difficulty, FirstClick, MinesBoard, MinesFormatError, MinesStatus, format_view,
                        neighbours, parse_view)


@pytest.mark.parametrize("first", [(0, 0), (4, 4), (8, 0)])
def test_first_click_is_never_a_mine(first: tuple[int, int]) -> None:
    for seed in range(200):
        board = MinesBoard(9, 9, 80, seed=seed)  # only the first cell is safe
        opened = board.reveal(*first)
        assert opened == [first]
        assert first not in board.mine_set and len(board.mine_set) == 80
        assert board.status == MinesStatus.WON


def test_same_seed_same_mines() -> None:
    a, b = MinesBoard(16, 16, 40, seed=3), MinesBoard(16, 16, 40, seed=3)
    a.reveal(0, 0)
    b.reveal(0, 0)
    assert a.mine_set == b.mine_set


def test_flood_fill_opens_the_zero_region_and_its_border() -> None:
    board = MinesBoard.with_mines(5, 4, {(3, 4)})
    opened = board.reveal(0, 0)
    assert len(opened) == 19 and (3, 4) not in board.revealed
    assert board.status == MinesStatus.WON
    assert board.view().at(2, 3) == 1 and board.view().at(0, 0) == 0


def test_flood_fill_stops_at_numbers() -> None:
    board = MinesBoard.with_mines(4, 1, {(0, 3)})
    assert sorted(board.reveal(0, 0)) == [(0, 0), (0, 1), (0, 2)]
    board2 = MinesBoard.with_mines(5, 1, {(0, 1)})
    assert board2.reveal(0, 0) == [(0, 0)]
    assert sorted(board2.reveal(0, 4)) == [(0, 2), (0, 3), (0, 4)]


def test_flags_block_reveal_and_loss() -> None:
    board = MinesBoard.with_mines(3, 1, {(0, 2)})
    assert board.toggle_flag(0, 2) is True
    assert board.reveal(0, 2) == []
    assert board.view().at(0, 2) == FLAG
    assert board.toggle_flag(0, 2) is False
    board.reveal(0, 2)
    assert board.status == MinesStatus.LOST and board.exploded == (0, 2)
    assert board.reveal(0, 0) == []


def test_difficulties() -> None:
    assert [d.size for d in Difficulty] == [(9, 9, 10), (16, 16, 40), (30, 16, 99)]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_view_text_round_trip(width: int, height: int, data: st.DataObject) -> None:
    mines = data.draw(st.integers(0, width * height - 1))
    board = MinesBoard(width, height, mines, seed=data.draw(st.integers(0, 1000)))
    board.reveal(data.draw(st.integers(0, height - 1)), data.draw(st.integers(0, width - 1)))
    for _ in range(data.draw(st.integers(0, 3))):
        board.toggle_flag(data.draw(st.integers(0, height - 1)), data.draw(st.integers(0, width - 1)))
    view = board.view()
    assert parse_view(format_view(view)) == view


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="mines 0123456789.Fx\n", max_size=60))
def test_parse_view_never_crashes(text: str) -> None:
    try:
        view = parse_view(text)
    except MinesFormatError as exc:
        assert str(exc)
    else:
        assert all(v in (HIDDEN, FLAG) or 0 <= v <= 8 for row in view.cells for v in row)


@pytest.mark.parametrize("text, words", [
    ("", "line 1"), ("mines x\n..", "line 1"), ("mines 1\n..\n.", "line 3"), ("mines 5\n..", "got 5"),
    ("mines 3\n1.\n1.", "3 mines but only 2"),
    ("mines 0\n3.", "fewer hidden"),
])
def test_parse_view_errors_name_the_problem(text: str, words: str) -> None:
    with pytest.raises(MinesFormatError, match=words):
        parse_view(text)


def test_neighbours_of_a_corner() -> None:
    assert sorted(neighbours(30, 16, 15, 29)) == [(14, 28), (14, 29), (15, 28)]


@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_first_click_area_rule_keeps_the_clicked_cell_and_its_neighbours_free(difficulty: Difficulty) -> None:
    width, height, mines = difficulty.size
    for seed in range(60):
        first = (seed * 7 % height, seed * 11 % width)
        board = MinesBoard(width, height, mines, seed=seed, first_click=FirstClick.AREA)
        opened = set(board.reveal(*first))
        area = {first, *neighbours(width, height, *first)}
        assert area <= opened, "the first click opens the cell and every neighbour"
        assert area.isdisjoint(board.mine_set) and len(board.mine_set) == mines
        assert board.view().at(*first) == 0


def test_area_rule_falls_back_to_the_cell_when_the_board_has_no_room() -> None:
    board = MinesBoard(3, 3, 7, seed=1, first_click=FirstClick.AREA)
    board.reveal(1, 1)
    assert (1, 1) not in board.mine_set and len(board.mine_set) == 7


def test_the_cell_rule_is_the_default_and_places_mines_as_it_always_did() -> None:
    for seed in range(30):
        board = MinesBoard(16, 16, 40, seed=seed)
        assert board.first_click == FirstClick.CELL
        board.reveal(5, 5)
        cells = [(r, c) for r in range(16) for c in range(16) if (r, c) != (5, 5)]
        assert board.mine_set == frozenset(random.Random(seed).sample(cells, 40))
