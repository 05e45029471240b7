"""The exhaustive search by levels and the beam search: against plain recursion, and every answer replayed."""

from __future__ import annotations

import functools
import random

import numpy as np
import pytest

from ai.kernel.context import SolveContext, SolveStopped
from ai.puzzles.pegs import PegsStatus, Proof, hint, solve
from ai.puzzles.pegs.beam import beam_search
from ai.puzzles.pegs.sweep import Canon, sweep
from ai.puzzles.pegs.table import least_images
from game.core.puzzles.pegs import Board
from game.core.puzzles.pegs_boards import english, french, parse_board


def brute(board: Board, goal: int | None) -> functools._lru_cache_wrapper[bool]:
    """Plain recursion: can a position reach ``goal`` (``None``: one peg anywhere)?"""

    @functools.lru_cache(maxsize=None)
    def wins(p: int) -> bool:
        if board.is_goal(p, goal):
            return True
        return any(wins(board.apply(p, j)) for j in board.legal_jumps(p))

    return wins


@pytest.mark.parametrize("text", ["oooo\noooo\noooo", " ooo\nooooo\nooooo\n ooo", "ooooo\nooooo\nooo"])
def test_sweep_agrees_with_plain_recursion_and_its_moves_replay(text: str) -> None:
    board, _ = parse_board(text)
    rng = random.Random(0)
    outcomes = set()
    for _ in range(40):
        position = rng.getrandbits(board.height * board.width) & board.full
        goal = None if rng.random() < 0.5 else board.bit(rng.choice(sorted(board.cells)))
        found = sweep(board, position, goal, SolveContext.create())
        assert found is not None
        assert found.winnable == brute(board, goal)(position)
        if found.winnable:
            assert board.is_goal(board.replay(position, found.moves), goal)
        outcomes.add(found.winnable)
    assert outcomes == {True, False}


def test_sweep_gives_up_when_a_level_is_too_big_and_stops_when_told() -> None:
    board, start = french()
    assert sweep(board, start, None, SolveContext.create(), max_level=50) is None
    with pytest.raises(SolveStopped):
        sweep(board, start, None, SolveContext.create(time_limit=0))


def test_beam_solutions_replay_and_a_narrow_beam_may_find_nothing() -> None:
    board, start = english()
    moves = beam_search(board, start, board.goal_position(), 500, SolveContext.create())
    assert moves is not None and board.replay(start, moves) == board.goal_position()
    assert beam_search(board, start, board.goal_position(), 1, SolveContext.create()) is None


def test_a_lost_position_with_many_pegs_is_proved_lost_by_the_sweep() -> None:
    board, _ = english()
    rng = random.Random(3)
    for _ in range(200):  # random play until a lost position with at least 16 pegs turns up
        position = board.full ^ board.bit(rng.choice(sorted(board.cells)))
        for _ in range(rng.randint(8, 16)):
            position = board.apply(position, rng.choice(board.legal_jumps(position)))
        if board.class_allows(position, None) and solve(board, position, None).proof == Proof.SEARCH:
            break
    result = solve(board, position, None)
    assert (result.status, result.proof) == (PegsStatus.IMPOSSIBLE, Proof.SEARCH) and result.nodes > 1
    assert board.count(position) >= 16
    answer = hint(board, position, None)
    assert answer.jump is None and "positions it can reach tried" in answer.message


def test_a_hint_on_the_french_board_keeps_a_finish_possible() -> None:
    board, _ = french()
    start = board.full ^ board.bit((2, 3))
    answer = hint(board, start, None)
    assert answer.jump is not None
    after = board.apply(start, answer.jump)
    assert solve(board, after, None).status == PegsStatus.SOLVED


@pytest.mark.parametrize("text", ["ooooooooo\nooooooooo\nooooooooo", " ooo\nooooo\nooooo\n ooo"])
def test_the_two_row_least_images_equal_the_tables_one_row_images(text: str) -> None:
    for board in (english()[0], french()[0], parse_board(text)[0]):
        rng = np.random.default_rng(0)
        positions = rng.integers(0, 2**63 - 1, 2000, dtype=np.uint64) & np.uint64(board.full)
        assert (Canon(board, None).least(positions) == least_images(board, positions)).all()
        goal = board.bit(sorted(board.cells)[0])
        perms = tuple(p for p in board.symmetries if board.transform(goal, p) == goal)
        own = np.array(board.row_images(perms), dtype=np.uint64)
        assert (Canon(board, goal).least(positions) == least_images(board, positions, own)).all()


def test_boards_too_big_for_the_level_searches_are_left_to_the_depth_first_search() -> None:
    board, start = parse_board("\n".join(["ooooooooo"] * 4 + ["oooo.oooo"] + ["ooooooooo"] * 4))
    assert beam_search(board, start, None, 100, SolveContext.create()) is None
    assert sweep(board, board.position_of([(0, 0), (0, 1)]), None, SolveContext.create()) is None
    small = board.position_of([(8, 6), (8, 7)])  # bits above 64: the depth-first search still answers
    moves = solve(board, small, None).moves
    assert len(moves) == 1 and board.count(board.replay(small, moves)) == 1


def test_a_lost_position_that_a_pagoda_function_rules_out_is_answered_without_the_sweep() -> None:
    board, _ = french()
    rng = random.Random(5)
    found = []
    while not found:  # random play from random vacancies until pagoda functions refute a position
        p = board.full ^ board.bit(rng.choice(sorted(board.cells)))
        for _ in range(rng.randint(8, 14)):
            legal = board.legal_jumps(p)
            if not legal:
                break
            p = board.apply(p, rng.choice(legal))
        if board.class_allows(p, None) and solve(board, p, None, sweep_pegs=0).proof == Proof.PAGODA:
            found.append(p)
    result = solve(board, found[0], None)
    assert (result.status, result.proof) == (PegsStatus.IMPOSSIBLE, Proof.PAGODA)
    assert sweep(board, found[0], None, SolveContext.create()).winnable is False  # the sweep agrees
    assert hint(board, found[0], None).message == "no jump can still finish (pagoda function)"
