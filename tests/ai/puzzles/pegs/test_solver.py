"""Peg-solitaire solving, proofs of impossibility and hints."""

from __future__ import annotations

import threading

import pytest

from ai.kernel.context import SolveContext, StopReason
from ai.puzzles.pegs import IpUse, PegsStatus, Proof, hint, solve
from ai.puzzles.pegs.bounds import jump_bounds
from game.core.puzzles.pegs_boards import english, french, parse_board
from game.core.puzzles.pegs_openings import OPENINGS


def test_english_central_game_is_solved_and_replays() -> None:
    board, start = english()
    result = solve(board, start)
    assert result.status == PegsStatus.SOLVED and len(result.moves) == 31
    assert board.replay(start, result.moves) == board.goal_position()
    data = result.to_json()
    moves = data["moves"]
    assert data["status"] == "solved" and isinstance(moves, list) and all(len(m) == 4 for m in moves)


def test_french_central_game_is_impossible_by_position_class() -> None:
    board, start = french()
    result = solve(board, start)
    assert (result.status, result.proof, result.nodes, result.moves) == (PegsStatus.IMPOSSIBLE,
                                                                          Proof.POSITION_CLASS, 0, [])


@pytest.mark.slow
def test_the_french_game_the_screen_opens_is_won_by_the_ai() -> None:
    game = OPENINGS["french"]()
    result = solve(game.board, game.start, game.goal)
    assert result.status == PegsStatus.SOLVED and len(result.moves) == 35
    assert game.board.replay(game.start, result.moves) == game.goal


def test_integer_program_proves_what_the_classes_allow() -> None:
    board, _ = english()
    position = board.position_of([(0, 2), (0, 3), (3, 2)])
    goal = board.goal_position()
    assert goal is not None and board.class_allows(position, goal)
    assert jump_bounds(board, position, goal, SolveContext.create()) is None
    result = solve(board, position, ip=IpUse.ALWAYS)
    assert (result.status, result.proof) == (PegsStatus.IMPOSSIBLE, Proof.INTEGER_PROGRAM)
    assert solve(board, position, ip=IpUse.NEVER).status == PegsStatus.IMPOSSIBLE  # the search agrees


def test_jump_bounds_keep_the_solution() -> None:
    board, start = english()
    moves = solve(board, start).moves
    bounds = jump_bounds(board, start, board.goal_position() or 0, SolveContext.create())
    assert bounds is not None
    for k, jump in enumerate(board.jumps):
        assert moves.count(jump) <= bounds[k]
    bounded = solve(board, start, ip=IpUse.ALWAYS, table=False)  # the search under the bounds, not the table
    assert bounded.status == PegsStatus.SOLVED and bounded.bounds == bounds


def test_exhausted_search_proves_impossible() -> None:
    board, start = parse_board("ooo.o")  # one peg anywhere: the classes allow it, the search refutes it
    result = solve(board, start, None)
    assert (result.status, result.proof) == (PegsStatus.IMPOSSIBLE, Proof.SEARCH)


def test_hint_is_legal_and_keeps_the_game_solvable() -> None:
    board, start = english()
    moves = solve(board, start).moves
    for played in (0, 16, 30):
        position = board.replay(start, moves[:played])
        answer = hint(board, position)
        assert answer.jump is not None and answer.status == PegsStatus.SOLVED
        assert answer.jump in board.legal_jumps(position)
        after = board.apply(position, answer.jump)
        assert solve(board, after).status == PegsStatus.SOLVED
        assert answer.moves[0] == answer.jump and board.is_goal(board.replay(position, answer.moves), board.goal_position())
    assert hint(board, board.goal_position() or 0).message == "already solved"


def test_hint_says_when_no_jump_can_finish() -> None:
    board, start = english()
    position = board.position_of([(0, 2), (0, 3), (3, 2)])
    answer = hint(board, position)
    assert answer.jump is None and answer.status == PegsStatus.IMPOSSIBLE and answer.moves == []
    assert answer.message.startswith("no jump can still finish")


def test_cancel_stops_the_search() -> None:
    board, start = english()
    cancel = threading.Event()
    cancel.set()  # already cancelled: the first check (after 2048 nodes) stops the search
    result = solve(board, start, ctx=SolveContext.create(cancel=cancel), ip=IpUse.NEVER, table=False)
    assert (result.status, result.stop_reason) == (PegsStatus.STOPPED, StopReason.CANCELLED)
    assert result.moves == []
