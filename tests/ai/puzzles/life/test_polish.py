"""The local search of reverse Life: never worse than its start, and better on the notes' boards."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai.kernel.context import SolveContext, SolveStopped
from ai.puzzles.life.polish import BLOCK, block_errors, block_trial, fillings, polish, polish_until_stopped
from game.core.puzzles.life.packed import count_bits, pack, step_band, step_packed, step_sliced, unpack
from game.core.puzzles.life.random_boards import random_case
from game.core.puzzles.life.rules import LIFE, near_cells, parse_rule, step
from tests.stopping import cancelled


def wrong(start: np.ndarray, target: np.ndarray, k: int, rule=LIFE) -> int:
    return int(np.count_nonzero(step(start, rule, k) != target))


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 4), st.sampled_from(["B3/S23", "B36/S23", "B2/S"]))
def test_polish_returns_its_count_and_is_never_worse_than_the_start(seed: int, k: int, rule_text: str) -> None:
    rng = np.random.default_rng(seed)
    rule = parse_rule(rule_text)
    target = rng.random((12, 12)) < 0.3
    start = rng.random((12, 12)) < 0.3
    board, count = polish(start, target, rule, k, SolveContext.create(), rounds=20, seed=seed)
    assert count == wrong(board, target, k, rule)
    assert count <= wrong(start, target, k, rule)


def test_polish_takes_a_random_25x25_board_well_below_the_trivial_answer() -> None:
    case = random_case(np.random.default_rng(2022), 25, 3)
    trivial = wrong(case.target, case.target, 3)
    board, count = polish(np.zeros_like(case.target), case.target, LIFE, 3, SolveContext.create(), rounds=150)
    assert trivial > 40
    assert count < trivial / 2


def test_polish_stops_when_cancelled() -> None:
    target = np.random.default_rng(0).random((25, 25)) < 0.3
    with pytest.raises(SolveStopped):
        polish(np.zeros_like(target), target, LIFE, 2, SolveContext.create(cancel=cancelled()))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 64), st.integers(1, 4),
       st.sampled_from(["B3/S23", "B36/S23", "B2/S", "B3678/S34678", "B/S012345678", "B012345678/S"]))
def test_packed_rows_step_like_the_reference(seed: int, width: int, steps: int, rule_text: str) -> None:
    rng = np.random.default_rng(seed)
    rule = parse_rule(rule_text)
    boards = rng.random((3, int(rng.integers(2, 12)), width)) < rng.random()
    rows = pack(boards)
    assert (unpack(rows, width) == boards).all()
    assert (unpack(step_packed(rows, rule, width, steps), width) == step(boards, rule, steps)).all()
    assert count_bits(rows).tolist() == boards.sum(axis=(1, 2)).tolist()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 64), st.integers(1, 4),
       st.sampled_from(["B3/S23", "B36/S23", "B2/S", "B3678/S34678", "B/S012345678", "B012345678/S"]))
def test_a_band_steps_to_its_inner_rows_of_the_torus(seed: int, width: int, steps: int, rule_text: str) -> None:
    """A band of rows stepped without wrapping gives the rows that stay exact: those of the whole torus."""
    rng = np.random.default_rng(seed)
    rule = parse_rule(rule_text)
    height = 2 * steps + int(rng.integers(1, 8))
    boards = rng.random((3, height + int(rng.integers(0, 4)), width)) < rng.random()
    top = int(rng.integers(0, boards.shape[1]))
    band = boards[:, np.arange(top, top + height) % boards.shape[1]]
    inner = np.arange(top + steps, top + height - steps) % boards.shape[1]
    stepped = unpack(step_band(pack(band), rule, width, steps), width)
    assert (stepped == step(boards, rule, steps)[:, inner]).all()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 4), st.integers(1, 3),
       st.sampled_from(["B3/S23", "B36/S23", "B2/S", "B3678/S34678", "B/S012345678", "B012345678/S"]))
def test_a_sliced_window_steps_each_board_to_its_inner_cells(seed: int, steps: int, words: int,
                                                            rule_text: str) -> None:
    """Bit j of word w is board 64 w + j: each board's window steps to the inner cells of its torus."""
    rng = np.random.default_rng(seed)
    rule = parse_rule(rule_text)
    height, width = 2 * steps + int(rng.integers(1, 6)), 2 * steps + int(rng.integers(1, 6))
    boards = rng.random((64 * words, height + 3, width + 2)) < rng.random()
    window = boards[:, :height, :width]
    sliced = (window.reshape(words, 64, height, width).astype(np.uint64)
              << np.arange(64, dtype=np.uint64)[None, :, None, None]).sum(axis=1, dtype=np.uint64)
    after = step_sliced(sliced, rule, steps)
    bits = (after[:, None] >> np.arange(64, dtype=np.uint64)[None, :, None, None]) & np.uint64(1)
    expected = step(boards, rule, steps)[:, steps:height - steps, steps:width - steps]
    assert (bits.astype(bool).reshape(expected.shape) == expected).all()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 30), st.integers(2, 30), st.integers(0, 4),
       st.sampled_from(["B3/S23", "B36/S23", "B2/S", "B3678/S34678"]))
def test_a_trial_gives_each_fillings_last_generation_where_the_block_reaches(seed: int, height: int, width: int,
                                                                             k: int, rule_text: str) -> None:
    """The window a trial hands back is that of the replay of each filling, and it holds every cell that
    changes; its wrong cells are the replay's (packed rows, or 64 fillings to a word on large boards)."""
    rng = np.random.default_rng(seed)
    rule = parse_rule(rule_text)
    board, target = rng.random((height, width)) < 0.4, rng.random((height, width)) < 0.4
    top, left = int(rng.integers(-3, height + 3)), int(rng.integers(-3, width + 3))
    trial = block_trial(board, top, left, target, rule, k)
    assert trial.rows_at is not None
    cols_at = np.arange(width) if trial.cols_at is None else trial.cols_at
    side_r, side_c = min(BLOCK, height), min(BLOCK, width)
    before = step(board, rule, k)
    outside = np.ones_like(board)
    outside[np.ix_(trial.rows_at, cols_at)] = False
    for index in rng.choice(2 ** (side_r * side_c), size=8, replace=False):
        b = board.copy()
        for m, alive in enumerate(fillings(side_r * side_c)[index]):
            b[(top + m // side_c) % height, (left + m % side_c) % width] = alive
        after = step(b, rule, k)
        assert (trial.last_generation(int(index)) == after[np.ix_(trial.rows_at, cols_at)]).all()
        assert (after[outside] == before[outside]).all()
        assert trial.errors[index] == wrong(b, target, k, rule)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 5))
def test_near_cells_is_the_square_around_every_live_cell(seed: int, radius: int) -> None:
    board = np.random.default_rng(seed).random((9, 11)) < 0.05
    expected = np.zeros_like(board)
    for r, c in np.argwhere(board):
        for dr in range(-radius, radius + 1):
            for dc in range(-radius, radius + 1):
                expected[(r + dr) % 9, (c + dc) % 11] = True
    assert (near_cells(board, radius) == expected).all()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 14), st.integers(2, 14), st.integers(1, 3),
       st.sampled_from(["B3/S23", "B36/S23", "B2/S", "T" + "3" * 128]))
def test_block_errors_are_the_replays_of_every_filling(seed: int, height: int, width: int, k: int,
                                                       rule_text: str) -> None:
    """Every filling of the block (a band of rows or the whole board, packed or the table) counts the
    wrong cells its replay has."""
    rng = np.random.default_rng(seed)
    rule = parse_rule(rule_text)
    board, target = rng.random((height, width)) < 0.4, rng.random((height, width)) < 0.4
    top, left = int(rng.integers(-3, height + 3)), int(rng.integers(-3, width + 3))
    side_r, side_c = min(BLOCK, height), min(BLOCK, width)
    errors = block_errors(board, top, left, target, rule, k)
    expected = []
    for fill in fillings(side_r * side_c):
        b = board.copy()
        for m, alive in enumerate(fill):
            b[(top + m // side_c) % height, (left + m % side_c) % width] = alive
        expected.append(wrong(b, target, k, rule))
    assert errors.tolist() == expected


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 3), st.sampled_from(["B3/S23", "T" + "3" * 128]),
       st.integers(0, 69), st.integers(0, 89))
def test_block_errors_on_a_wide_board_count_every_filling_as_a_replay_would(seed: int, k: int, rule_text: str,
                                                                           top: int, left: int) -> None:
    """Wider than packed rows allow: only the band of rows and columns a filling can reach is stepped."""
    rng = np.random.default_rng(seed)
    rule = parse_rule(rule_text)
    board, target = rng.random((70, 90)) < 0.4, rng.random((70, 90)) < 0.4
    errors = block_errors(board, top, left, target, rule, k)
    for index in rng.choice(512, size=12, replace=False):
        trial = board.copy()
        for m, alive in enumerate(fillings(9)[index]):
            trial[(top + m // 3) % 70, (left + m % 3) % 90] = alive
        assert errors[index] == wrong(trial, target, k, rule)


def test_polish_until_stopped_returns_its_replayed_count_never_worse_than_the_start() -> None:
    case = random_case(np.random.default_rng(5), 16, 3)
    start = case.target.copy()
    board, count = polish_until_stopped(start, case.target, LIFE, 3, SolveContext.create())
    assert count == wrong(board, case.target, 3) <= wrong(start, case.target, 3)


def test_polish_until_stopped_finds_a_blinker_from_nothing() -> None:
    target = np.zeros((10, 10), dtype=bool)
    target[4, 3:6] = True
    board, count = polish_until_stopped(np.zeros_like(target), target, LIFE, 3, SolveContext.create(time_limit=120))
    assert count == 0 and np.array_equal(step(board, LIFE, 3), target)
