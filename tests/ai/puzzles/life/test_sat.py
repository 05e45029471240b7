"""The SAT step back of reverse Life: clauses against the rule table, predecessors replayed, proofs of none."""

from __future__ import annotations

import numpy as np
import pysolvers
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai.kernel.context import SolveContext
from ai.puzzles.life.sat import StepBack, chain, forbidding_clauses, step_back_cnf
from game.core.puzzles.life.rules import LIFE, OFFSETS, Rule, parse_rule, step
from tests.stopping import cancelled

rules = st.one_of(
    st.sampled_from([LIFE, parse_rule("B36/S23"), parse_rule("B2/S"), parse_rule("B3678/S34678")]),
    st.lists(st.booleans(), min_size=512, max_size=512).map(lambda bits: Rule(tuple(bits))))


@settings(max_examples=30, deadline=None)
@given(rules, st.booleans())
def test_the_clauses_hold_exactly_where_the_rule_gives_the_value(rule: Rule, alive: bool) -> None:
    clauses = forbidding_clauses(rule, alive)
    for index in range(512):
        holds = all(any((lit > 0) == bool(index >> (abs(lit) - 1) & 1) for lit in clause) for clause in clauses)
        assert holds == (rule.table[index] == alive)


@settings(max_examples=20, deadline=None)
@given(rules, st.integers(0, 2**32 - 1))
def test_a_true_predecessor_satisfies_the_cnf_and_a_found_one_replays(rule: Rule, seed: int) -> None:
    rng = np.random.default_rng(seed)
    start = rng.random((6, 7)) < rng.uniform(0.1, 0.9)
    board = step(start, rule)
    model = {r * 7 + c + 1: bool(start[r, c]) for r in range(6) for c in range(7)}
    for clause in step_back_cnf(board, rule):
        assert any(model[abs(lit)] == (lit > 0) for lit in clause)
    found = StepBack(board, rule)
    try:
        pred = found.next(SolveContext.create())
    finally:
        found.close()
    assert pred is not None and (step(pred, rule) == board).all()


def _every_4x4_board_and_its_successor() -> tuple[np.ndarray, np.ndarray]:
    """All 65,536 4x4 torus boards and their successors under Life (the rule table applied to all at once)."""
    bits = (np.arange(2**16)[:, None] >> np.arange(16)) & 1
    boards = bits.reshape(-1, 4, 4).astype(bool)
    index = np.zeros(boards.shape, dtype=np.int32)
    for bit, (dr, dc) in enumerate(OFFSETS):
        index |= np.roll(boards, (-dr, -dc), axis=(1, 2)).astype(np.int32) << bit
    return boards, LIFE.array[index]


def _garden_of_eden_4x4() -> np.ndarray:
    """A 4x4 torus board of Life that no board becomes (found by enumerating all 65,536 boards)."""
    boards, images = _every_4x4_board_and_its_successor()
    reached = {image.tobytes() for image in images}
    for board in boards:
        if board.tobytes() not in reached:
            return board
    raise AssertionError("every 4x4 board has a predecessor")


def test_a_garden_of_eden_is_proved_to_have_no_predecessor() -> None:
    board = _garden_of_eden_4x4()
    result = chain(board, LIFE, 2, SolveContext.create())
    assert result.garden_of_eden and result.start is None


def test_every_predecessor_is_found_once_then_none_is_left() -> None:
    start = np.zeros((4, 4), dtype=bool)
    start[1, 0:3] = True
    board = step(start, LIFE)  # life within reach of every cell: every predecessor is enumerated
    assert board.any()
    boards, images = _every_4x4_board_and_its_successor()
    assert all((step(b, LIFE) == i).all() for b, i in zip(boards[::997], images[::997]))
    expected = {b.tobytes() for b, i in zip(boards, images) if (i == board).all()}
    found = StepBack(board, LIFE)
    seen = set()
    try:
        while (pred := found.next(SolveContext.create())) is not None:
            assert (step(pred, LIFE) == board).all()
            seen.add(pred.tobytes())
    finally:
        found.close()
    assert found.exhausted and seen == expected and len(expected) > 1


def test_with_no_life_one_predecessor_stands_for_all() -> None:
    found = StepBack(np.zeros((5, 5), dtype=bool), LIFE)
    try:
        first = found.next(SolveContext.create())
        assert first is not None and not step(first, LIFE).any()
        assert found.exhausted and found.next(SolveContext.create()) is None
    finally:
        found.close()


def test_the_chain_goes_back_k_generations() -> None:
    rng = np.random.default_rng(2)
    start = rng.random((7, 7)) < 0.3
    target = step(start, LIFE, 3)
    result = chain(target, LIFE, 3, SolveContext.create())
    assert result.start is not None and (step(result.start, LIFE, 3) == target).all()


def test_a_cancelled_chain_returns_at_once_without_a_claim() -> None:
    rng = np.random.default_rng(1)
    target = step(rng.random((25, 25)) < 0.4, LIFE, 3)
    result = chain(target, LIFE, 3, SolveContext.create(cancel=cancelled()))
    assert result.start is None and not result.garden_of_eden and result.ancestors == []


def test_small_boards_get_a_sparse_start() -> None:
    """The game's puzzles show the start the AI found: a blinker's is the other blinker, not a crowd."""
    board = np.zeros((7, 7), dtype=bool)
    board[2:5, 3] = True
    found = StepBack(board, LIFE)
    try:
        pred = found.next(SolveContext.create())
    finally:
        found.close()
    assert pred is not None and (step(pred, LIFE) == board).all() and int(pred.sum()) == 3


def test_ctrl_c_inside_a_sat_call_is_a_keyboard_interrupt() -> None:
    """python-sat catches Ctrl-C during a call and raises its own error: it reaches the caller as the
    interruption (``interrupted``, exit 130), not as a crash."""
    node = StepBack(np.zeros((4, 4), dtype=bool), LIFE)

    class Interrupted:
        def conf_budget(self, budget: int) -> None:
            pass

        def solve_limited(self, assumptions: list[int]) -> bool | None:
            raise pysolvers.error("Caught keyboard interrupt")

    real, node.solver = node.solver, Interrupted()
    try:
        with pytest.raises(KeyboardInterrupt):
            node.next(SolveContext.create())
    finally:
        node.solver = real
        node.close()


@pytest.mark.parametrize("steps", [1, 2, 3])
def test_the_chain_keeps_the_given_cells_alive_in_its_start(steps: int) -> None:
    rng = np.random.default_rng(4)
    target = step(rng.random((8, 8)) < 0.35, LIFE, steps)
    first = chain(target, LIFE, steps, SolveContext.create()).start
    assert first is not None
    keep = first & (rng.random((8, 8)) < 0.5)
    assert keep.any()
    result = chain(target, LIFE, steps, SolveContext.create(), keep=keep)
    assert result.start is not None and (step(result.start, LIFE, steps) == target).all()
    assert not (keep & ~result.start).any()


def test_cells_no_start_keeps_are_no_proof_that_no_start_exists() -> None:
    target = np.zeros((6, 6), dtype=bool)
    target[2, 1:4] = True  # a blinker; a full board dies at once, so no start keeps every cell
    keep = np.ones_like(target)
    result = chain(target, LIFE, 1, SolveContext.create(), keep=keep)
    assert result.start is None and not result.garden_of_eden
