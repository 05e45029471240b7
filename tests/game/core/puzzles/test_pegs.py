"""The peg-solitaire core model: text round trip, jumps and undo, why a jump is refused, symmetry, position
classes, the games of the screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.puzzles.pegs import Board, Jump, Refusal
from game.core.puzzles.pegs_boards import (ENGLISH_TEXT, MAX_SIDE, BoardFormatError, english, french, load_board,
                                           parse_board)
from game.core.puzzles.pegs_openings import FRENCH_GOAL, FRENCH_HOLE, OPENINGS, alike, colour, colour_counts

CELL_CHARS = st.sampled_from(" o.")


@st.composite
def board_texts(draw: st.DrawFn) -> str:
    """Canonical board texts: right-stripped rows, no trailing empty row, at least one peg."""
    h = draw(st.integers(1, MAX_SIDE))
    w = draw(st.integers(1, MAX_SIDE))
    rows = ["".join(draw(st.lists(CELL_CHARS, min_size=w, max_size=w))).rstrip() for _ in range(h)]
    r = draw(st.integers(0, h - 1))
    c = draw(st.integers(0, w - 1))
    row = rows[r].ljust(c + 1)
    rows[r] = row[:c] + "o" + row[c + 1:]
    while rows and not rows[-1]:
        rows.pop()
    return "\n".join(rows)


@given(board_texts())
def test_print_parse_round_trip(text: str) -> None:
    board, position = parse_board(text)
    assert board.format(position) == text
    again, same = parse_board(board.format(position))
    assert (again.cells, same) == (board.cells, position)


@given(st.text(alphabet=" o.x\t\n\r", max_size=120))
def test_parser_answers_or_names_line_and_column(text: str) -> None:
    try:
        board, position = parse_board(text)
    except BoardFormatError as exc:
        assert exc.line >= 1 and exc.col >= 1 and exc.message
    else:
        assert board.count(position) >= 1 and board.format(position).count("o") == board.count(position)


def test_built_in_boards() -> None:
    eb, es = english()
    fb, fs = french()
    assert (len(eb.cells), eb.count(es), len(eb.jumps)) == (33, 32, 76)
    assert (len(fb.cells), fb.count(fs), len(fb.jumps)) == (37, 36, 92)
    assert len(eb.symmetries) == len(fb.symmetries) == 8
    assert eb.format(es) == ENGLISH_TEXT and eb.centre == fb.centre == (3, 3)


@settings(max_examples=60)
@given(st.lists(st.integers(0, 10_000), max_size=31))
def test_jump_undo_round_trip_and_invariants(choices: list[int]) -> None:
    board, position = english()
    history = [position]
    played: list[Jump] = []
    for choice in choices:
        legal = board.legal_jumps(position)
        if not legal:
            break
        jump = legal[choice % len(legal)]
        after = board.apply(position, jump)
        assert board.count(after) == board.count(position) - 1
        assert board.position_class(after) == board.position_class(position)
        position = after
        history.append(position)
        played.append(jump)
    for jump in reversed(played):
        position = board.undo(position, jump)
        history.pop()
        assert position == history[-1]


def test_illegal_jumps_are_refused() -> None:
    board, start = english()
    with pytest.raises(ValueError):
        board.apply(start, Jump((0, 0), (0, 1), (0, 2)))  # off the board
    with pytest.raises(ValueError):
        board.apply(start, Jump((3, 3), (3, 4), (3, 5)))  # starts on the hole
    assert Jump.between((3, 1), (3, 3)) in board.legal_jumps(start)
    assert len(board.legal_jumps(start)) == 4


def test_symmetry_images_and_canonical_form() -> None:
    board, start = english()
    one = board.apply(start, Jump((1, 3), (2, 3), (3, 3)))
    images = board.images(one)
    assert len(images) == 4  # the four first jumps are one under symmetry
    assert {board.canonical(x) for x in images} == {board.canonical(one)}
    assert {board.apply(start, j) for j in board.legal_jumps(start)} == images


def test_rule_of_three_classes() -> None:
    board, start = english()
    assert board.class_allows(start, board.goal_position())
    fb, fs = french()
    assert not fb.class_allows(fs, fb.goal_position())
    assert not fb.class_allows(fs, None)  # no cell of the French board is in the right class


@pytest.mark.parametrize("text, where", [
    ("", "1:1"), ("...", "1:1"), ("o\tO", "1:2"), ("oo\no?", "2:2"), ("o" * (MAX_SIDE + 1), f"1:{MAX_SIDE + 1}"),
    ("\n".join(["o"] * (MAX_SIDE + 1)), f"{MAX_SIDE + 1}:1"),
])
def test_bad_board_texts(text: str, where: str) -> None:
    with pytest.raises(BoardFormatError) as info:
        parse_board(text, path="b.txt")
    assert str(info.value).startswith(f"b.txt:{where}: ")


def test_load_board_by_name_and_file(tmp_path: object) -> None:
    assert isinstance(tmp_path, Path)
    path = tmp_path / "cross.txt"
    path.write_text(" o\nooo\n o\n", encoding="utf-8")
    board, position = load_board(str(path))
    assert isinstance(board, Board) and board.count(position) == 5 and board.centre == (1, 1)
    assert load_board("french")[0].name == "french"


# ---- why a jump cannot be played ------------------------------------------------------------------
@pytest.mark.parametrize(("pegs_done", "start", "end", "refusal"), [
    ([], (3, 3), (3, 5), Refusal.NO_PEG),
    ([], (0, 0), (0, 2), Refusal.OFF_BOARD),
    ([], (0, 2), (0, 0), Refusal.OFF_BOARD),
    ([], (0, 2), (3, 3), Refusal.NOT_IN_LINE),
    ([], (3, 1), (3, 4), Refusal.NOT_IN_LINE),
    ([], (0, 2), (2, 2), Refusal.LANDING_FULL),
    ([Jump((5, 3), (4, 3), (3, 3))], (6, 3), (4, 3), Refusal.NOTHING_OVER),
    ([], (3, 1), (3, 3), None),
])
def test_refusal_names_each_reason(pegs_done: list[Jump], start: tuple[int, int], end: tuple[int, int],
                                   refusal: Refusal | None) -> None:
    board, pos = english()
    pos = board.replay(pos, pegs_done)
    assert board.refusal(pos, start, end) == refusal


def test_refusal_when_the_jumped_cell_is_off_the_board() -> None:
    board, pos = parse_board("o .")
    assert board.refusal(pos, (0, 0), (0, 2)) == Refusal.OVER_OFF_BOARD


@given(board_texts(), st.data())
@settings(max_examples=60)
def test_refusal_is_none_exactly_for_the_legal_jumps(text: str, data: st.DataObject) -> None:
    board, pos = parse_board(text)
    legal = {(j.start, j.end) for j in board.legal_jumps(pos)}
    frame = st.tuples(st.integers(-1, board.height), st.integers(-1, board.width))
    start, end = data.draw(frame), data.draw(frame)
    assert (board.refusal(pos, start, end) is None) == ((start, end) in legal)
    for j in board.legal_jumps(pos):
        assert board.refusal(pos, j.start, j.end) is None and board.is_legal(pos, j)


# ---- the games of the screen ----------------------------------------------------------------------
def test_french_opening_is_allowed_by_the_classes_and_the_centre_one_is_not() -> None:
    french_game, classic = OPENINGS["french"](), OPENINGS["french-centre"]()
    assert french_game.board.count(french_game.start) == 36 and french_game.winnable_by_class
    assert french_game.board.pegs(french_game.board.full ^ french_game.start) == [FRENCH_HOLE]
    assert french_game.goal_cell == FRENCH_GOAL
    assert not classic.winnable_by_class and classic.start == french()[1]
    assert OPENINGS["english"]().winnable_by_class


def test_colour_counts_show_why_the_centre_french_game_is_lost() -> None:
    classic = OPENINGS["french-centre"]()
    board, d = classic.board, classic.conflict
    now, goal = colour_counts(board, classic.start, d), colour_counts(board, classic.goal, d)
    assert sum(now) == 36 and sum(goal) == 1
    assert alike(now) == "all even" and alike(goal) != alike(now)
    for j in board.jumps:  # three holes in a row: one of each colour
        assert {colour(c, 0) for c in (j.start, j.over, j.end)} == {0, 1, 2}
        assert {colour(c, 1) for c in (j.start, j.over, j.end)} == {0, 1, 2}
