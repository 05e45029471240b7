"""Reverse Life core: board files and rule strings round-trip, the torus step matches a naive one, undo."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.errors import LevelFormatError
from game.core.puzzles.life.board import format_board, parse_board_text
from game.core.puzzles.life.puzzle import LifeModel, LifePuzzle, load_pack
from game.core.puzzles.life.rules import LIFE, OFFSETS, Rule, RuleError, parse_rule, step

boards = st.integers(1, 9).flatmap(lambda r: st.integers(1, 9).flatmap(
    lambda c: st.lists(st.booleans(), min_size=r * c, max_size=r * c).map(
        lambda cells: np.array(cells, dtype=bool).reshape(r, c))))
tables = st.integers(0, 2**512 - 1).map(lambda v: Rule(tuple(bool(v >> i & 1) for i in range(512))))
boards_3x4 = st.lists(st.booleans(), min_size=12, max_size=12).map(lambda c: np.array(c, dtype=bool).reshape(3, 4))
counts = st.frozensets(st.integers(0, 8))


def naive_step(board: np.ndarray, rule: Rule) -> np.ndarray:
    rows, cols = board.shape
    out = np.zeros_like(board)
    for r in range(rows):
        for c in range(cols):
            index = sum(int(board[(r + dr) % rows, (c + dc) % cols]) << bit for bit, (dr, dc) in enumerate(OFFSETS))
            out[r, c] = rule.table[index]
    return out


@given(boards)
def test_board_text_round_trip(board: np.ndarray) -> None:
    doc = parse_board_text(format_board(board) + "\n")
    assert len(doc.boards) == 1 and np.array_equal(doc.boards[0], board)


@given(st.lists(boards_3x4, min_size=1, max_size=4),
       st.dictionaries(st.sampled_from(["title", "steps", "rule"]), st.text("abc 123", max_size=8)))
def test_trajectory_file_round_trip(frames: list[np.ndarray], header: dict[str, str]) -> None:
    text = "".join(f"{k}: {v}\n" for k, v in header.items()) + "\n\n".join(format_board(b) for b in frames)
    doc = parse_board_text(text)
    assert [b.tolist() for b in doc.boards] == [b.tolist() for b in frames]
    assert doc.header == {k: v.strip() for k, v in header.items()}


@given(st.text(max_size=40))
def test_parser_never_crashes(text: str) -> None:
    try:
        parse_board_text(text, "f.txt")
    except LevelFormatError as exc:
        assert str(exc).startswith("f.txt:")


@pytest.mark.parametrize("text,message", [
    ("##\n#x\n", "f.txt:2:2: unexpected character 'x'"),
    ("###\n##\n", "f.txt:2:3: row has 2 cells but the board's first row has 3"),
    ("##\n\n###\n", "f.txt:3:1: board is 3x1 but the first board is 2x1"),
    ("title: x\n", "f.txt:1:1: no board"),
])
def test_bad_boards_name_line_and_column(text: str, message: str) -> None:
    with pytest.raises(LevelFormatError) as info:
        parse_board_text(text, "f.txt")
    assert str(info.value).startswith(message)


@pytest.mark.parametrize("steps", ["9" * 5000, "\u00b2", "9"], ids=["5000-digits", "superscript", "nine"])
def test_a_puzzles_unusable_steps_line_is_a_format_error(steps: str) -> None:
    with pytest.raises(LevelFormatError, match="steps must be 1 to 5"):
        LifePuzzle.from_text(f"steps: {steps}\n.....\n..#..\n..#..\n..#..\n.....\n")


@given(counts, counts)
def test_bs_rule_round_trip(born: frozenset[int], survive: frozenset[int]) -> None:
    rule = Rule.from_bs(born, survive)
    assert rule.bs == (born, survive)
    assert parse_rule(rule.name) == rule


@given(tables)
def test_table_rule_round_trip(rule: Rule) -> None:
    assert parse_rule(rule.name) == rule
    assert rule.outer_totalistic == rule.name.startswith("B")


@pytest.mark.parametrize("text", ["", "B9/S", "B3/S23/x", "T" + "0" * 127, "life!", "/"])
def test_bad_rules(text: str) -> None:
    with pytest.raises(RuleError):
        parse_rule(text)


@settings(max_examples=60)
@given(boards, tables, st.integers(0, 3))
def test_step_matches_naive(board: np.ndarray, rule: Rule, steps: int) -> None:
    expected = board
    for _ in range(steps):
        expected = naive_step(expected, rule)
    assert np.array_equal(step(board, rule, steps), expected)


def test_life_classics() -> None:
    glider = np.zeros((6, 6), dtype=bool)
    for r, c in ((0, 1), (1, 2), (2, 0), (2, 1), (2, 2)):
        glider[r, c] = True
    assert np.array_equal(step(glider, LIFE, 4), np.roll(glider, (1, 1), axis=(0, 1)))  # it glides, wrapping
    block = np.zeros((4, 4), dtype=bool)
    block[1:3, 1:3] = True
    assert np.array_equal(step(block, LIFE, 5), block)


def test_model_undo_redo_and_solve() -> None:
    puzzle = LifePuzzle.from_text("steps: 2\n.....\n..#..\n..#..\n..#..\n.....\n")
    model = LifeModel(puzzle)
    for r in (1, 2, 3):
        model.set_cell(r, 2, True)
    model.set_cell(2, 2, True)  # no change, nothing recorded
    assert model.solved
    assert model.undo() and model.undo() and not model.solved
    assert model.redo() and model.redo() and model.solved and not model.redo()
    model.clear()
    assert model.wrong_cells == 3 and model.undo() and model.solved


def test_pack_loads_and_rises() -> None:
    pack = load_pack()
    assert len(pack) >= 10
    assert [p.steps for p in pack[:2]] == [1, 1] and max(p.steps for p in pack) == 5
    assert all(1 <= p.steps <= 5 and p.target.any() for p in pack)
    sizes = [p.target.size for p in pack]
    assert sizes[0] == min(sizes)
