"""How far back a lost peg-solitaire game can still finish (:func:`ai.puzzles.pegs.back.undo_to_finish`)."""

from __future__ import annotations

from ai.kernel.context import SolveContext
from ai.puzzles.pegs.back import undo_to_finish
from game.core.puzzles.pegs import Jump
from game.core.puzzles.pegs_boards import english, french

#: Jumps on the English board: the first eight leave a finish, the ninth does not.
WALK = [((1, 3), (3, 3)), ((2, 1), (2, 3)), ((2, 4), (2, 2)), ((2, 6), (2, 4)), ((4, 3), (2, 3)),
        ((2, 3), (2, 5)), ((3, 1), (3, 3)), ((4, 1), (4, 3)), ((3, 4), (3, 2)), ((4, 4), (4, 2)),
        ((0, 4), (2, 4))]


def test_the_latest_position_that_can_finish_is_found_with_few_solves_and_its_solution_replays() -> None:
    board, start = english()
    game = [board.replay(start, [Jump.between(a, b) for a, b in WALK[:n]]) for n in range(len(WALK) + 1)]
    found = undo_to_finish(board, game, board.goal_position())
    assert found.index == 8 and board.replay(game[8], found.moves) == board.goal_position()
    lost = [position for position, _ in found.lost]
    assert set(lost) <= set(game[9:]) and 0 < len(lost) <= 3  # bisection: about log2(12) solves in all


def test_a_game_lost_from_its_start_and_an_empty_game_have_no_answer() -> None:
    board, start = french()  # the centre game: the three colours rule it out
    jump = board.legal_jumps(start)[0]
    found = undo_to_finish(board, [start, board.apply(start, jump)], board.goal_position())
    assert found.index is None and found.moves == [] and len(found.lost) == 2
    assert undo_to_finish(board, [], board.goal_position()).index is None


def test_solves_stopped_by_the_deadline_are_not_counted_as_lost() -> None:
    board, start = english()
    found = undo_to_finish(board, [start], board.goal_position(), ctx=SolveContext.create(time_limit=0.0))
    assert found.index is None or board.replay(start, found.moves) == board.goal_position()
    assert found.lost == []
