"""The English central game's table of winnable positions: built right, shipped right, used right."""

from __future__ import annotations

import functools
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ai.puzzles.pegs import PegsStatus, Proof, hint, solve
from ai.puzzles.pegs.table import MIN_PEGS, WinTable, build_table, complement, decode, encode, least_images
from game.core.puzzles.pegs_boards import english, parse_board


def brute_winnable(board, start: int, goal: int) -> set[int]:
    """Least images of the positions reachable from ``start`` that can reach ``goal`` (plain recursion)."""
    seen: set[int] = set()
    stack = [start]
    while stack:
        p = stack.pop()
        if p in seen:
            continue
        seen.add(p)
        stack += [board.apply(p, j) for j in board.legal_jumps(p)]

    @functools.lru_cache(maxsize=None)
    def wins(p: int) -> bool:
        return p == goal or any(wins(board.apply(p, j)) for j in board.legal_jumps(p))

    return {p for p in seen if wins(p)}


def test_the_builder_equals_plain_recursion_on_a_small_board() -> None:
    board, start = parse_board("o.oo\noooo\noooo\noooo")  # no symmetry fixes the goal: images are positions
    goal = board.position_of([(0, 2)])
    built = build_table(board, start, goal)
    assert set(built.tolist()) == brute_winnable(board, start, goal)
    assert len(built) > 10 and list(built) == sorted(built)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 2**63 - 1), max_size=40))
def test_the_file_encoding_round_trips(values: list[int]) -> None:
    classes = np.unique(np.array(values, dtype=np.uint64))
    assert (decode(encode(classes)) == classes).all()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**33 - 1))
def test_a_jump_on_the_complements_leads_back(bits: int) -> None:
    board, _ = english()
    position = bits & board.full
    for jump in board.legal_jumps(position):
        after = board.apply(position, jump)
        assert board.apply(complement(board, after), jump) == complement(board, position)  # the same jump


def test_the_shipped_table_is_canonical_and_above_its_edge() -> None:
    board, start = english()
    table = WinTable.load()
    sample = table.classes[np.random.default_rng(0).choice(len(table.classes), 200, replace=False)]
    assert (least_images(board, sample) == sample).all()
    assert min(board.count(int(p)) for p in sample) >= MIN_PEGS
    assert table.winnable(board, start) and len(table.classes) == 241_995


def test_winnable_positions_at_the_edge_finish_and_the_table_agrees_with_the_search() -> None:
    board, start = english()
    table = WinTable.load()
    at_edge = [int(p) for p in table.classes if board.count(int(p)) == MIN_PEGS]
    for p in random.Random(1).sample(at_edge, 5):
        assert solve(board, p, table=False).status == PegsStatus.SOLVED
    rng = random.Random(2)
    for _ in range(6):  # random play from the start: at 20 pegs the search and the table agree
        p = start
        while board.count(p) > MIN_PEGS:
            p = board.apply(p, rng.choice(board.legal_jumps(p)))
        assert table.winnable(board, p) == (solve(board, p, ip="always", table=False).status == PegsStatus.SOLVED)


def test_early_positions_of_the_game_are_answered_by_the_table() -> None:
    board, start = english()
    solved = solve(board, start)
    assert (solved.status, solved.proof) == (PegsStatus.SOLVED, Proof.TABLE)
    assert board.replay(start, solved.moves) == board.goal_position()
    rng = random.Random(107)  # the bench's seed 107: 26 pegs, unanswered in 20 s by the search alone
    position = start
    for _ in range(rng.randint(3, 10)):
        position = board.apply(position, rng.choice(board.legal_jumps(position)))
    dead = solve(board, position)
    assert (dead.status, dead.proof) == (PegsStatus.IMPOSSIBLE, Proof.TABLE)
    assert hint(board, position).message.startswith("no jump can still finish")


def test_positions_that_cannot_arise_from_the_start_are_left_to_the_search() -> None:
    board, _ = english()
    position = board.full & ~board.position_of([(3, 3), (0, 2), (0, 3), (0, 4), (1, 3), (6, 3)])
    assert board.count(position) >= MIN_PEGS
    result = solve(board, position)
    assert result.proof != Proof.TABLE or result.status == PegsStatus.SOLVED
