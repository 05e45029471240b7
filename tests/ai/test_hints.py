"""Hints: next brick, removal, deductions."""

from __future__ import annotations

from ai.assistant.hints import IMPOSSIBLE, PLACE, REMOVE, SOLVED, compute_hint
from game.simulation import simulate
from tests.ai.exact_helpers import ORIGINAL_SOLUTIONS, UNREACHABLE, original


def test_from_scratch() -> None:
    hint = compute_hint(original(), [])
    assert hint.action == PLACE and hint.solution in ORIGINAL_SOLUTIONS
    assert hint.cell in hint.solution
    assert hint.forced == ((6, 6),) and hint.proved and hint.min_bricks == 3
    used = {cell for sol in ORIGINAL_SOLUTIONS for cell in sol}
    assert not used & set(hint.never_useful)
    assert len(hint.never_useful) == len(original().brickable_cells) - len(used)


def test_extends_the_players_bricks() -> None:
    hint = compute_hint(original(), [(2, 1), (6, 4)])
    assert hint.action == PLACE and hint.cell == (6, 6)
    assert hint.solution == ((2, 1), (6, 4), (6, 6))


def test_remove_a_wrong_brick() -> None:
    hint = compute_hint(original(), [(2, 1), (3, 3), (6, 4)])
    assert hint.action == REMOVE and hint.cell == (3, 3)


def test_solved_and_impossible() -> None:
    sol = ORIGINAL_SOLUTIONS[0]
    assert simulate(original(), sol).won
    assert compute_hint(original(), sol).action == SOLVED
    assert compute_hint(UNREACHABLE, []).action == IMPOSSIBLE


def test_json_shape() -> None:
    data = compute_hint(original(), []).to_json()
    assert set(data) == {"action", "cell", "solution", "min_bricks", "forced", "never_useful", "proved"}
