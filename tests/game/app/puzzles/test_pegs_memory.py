"""The peg-solitaire screen's memory of the AI's answers: solved lines and positions proved lost."""

from __future__ import annotations

from ai.puzzles.pegs import PegsStatus, solve
from game.core.puzzles.pegs_boards import english, parse_board
from game.app.puzzles.pegs_memory import PegsMemory


def test_a_solved_line_gives_the_rest_of_itself_from_every_position_on_it() -> None:
    board, start = english()
    goal = board.goal_position()
    moves = solve(board, start).moves
    memory = PegsMemory(board, goal)
    memory.learn_line(start, moves)
    position = start
    for played, jump in enumerate(moves):
        assert memory.line_from(position) == moves[played:]
        position = board.apply(position, jump)
    assert memory.line_from(position) == [] and board.is_goal(position, goal)
    off_line = board.apply(start, next(j for j in board.legal_jumps(start) if j != moves[0]))
    assert memory.line_from(off_line) == []


def test_a_line_that_does_not_reach_the_goal_is_not_kept() -> None:
    board, start = english()
    moves = solve(board, start).moves
    memory = PegsMemory(board, board.goal_position())
    memory.learn_line(start, moves[:-1])  # one peg short of the goal
    memory.learn_line(start, moves[1:])  # does not replay: its first jump is not legal at the start
    memory.learn_line(start, [])
    assert memory.next_jump == {}


def test_a_lost_position_makes_every_later_one_lost_until_it_is_undone() -> None:
    board, start = parse_board("ooo.o.")
    assert solve(board, start, None).status == PegsStatus.IMPOSSIBLE
    memory = PegsMemory(board, None)
    assert memory.lost_since(start, []) is None
    memory.learn_lost(start, "every sequence of jumps was tried")
    history = []
    position = start
    while board.legal_jumps(position):
        jump = board.legal_jumps(position)[0]
        position = board.apply(position, jump)
        history.append(jump)
        assert memory.lost_since(position, history) == ("every sequence of jumps was tried", len(history))
    assert history  # the row had jumps to play
    other_board, other_start = parse_board("oo.")  # a position never proved lost
    assert PegsMemory(other_board, None).lost_since(other_start, []) is None


def test_the_jumps_to_take_back_reach_the_nearest_position_known_to_finish() -> None:
    board, start = english()
    goal = board.goal_position()
    moves = solve(board, start).moves
    memory = PegsMemory(board, goal)
    assert memory.finish_back(start, []) is None  # nothing known yet
    memory.learn_line(start, moves)
    position, history = board.apply(start, moves[0]), [moves[0]]
    assert memory.finish_back(position, history) == 0  # on the solved line
    for _ in range(3):  # off the line: each jump is one more to take back
        jump = next(j for j in board.legal_jumps(position) if j != memory.next_jump.get(position))
        position = board.apply(position, jump)
        history.append(jump)
    assert memory.finish_back(position, history) == 3
    assert memory.finish_back(position, history[-2:]) is None  # the history does not go back far enough


def test_the_open_positions_of_a_game_stop_before_the_first_one_proved_lost() -> None:
    board, start = english()
    moves = solve(board, start).moves[:5]
    game = [board.replay(start, moves[:n]) for n in range(len(moves) + 1)]
    memory = PegsMemory(board, board.goal_position())
    assert memory.open_positions(game[-1], moves) == game  # nothing proved lost: every one, oldest first
    memory.learn_lost(game[3], "every sequence of jumps was tried")
    assert memory.open_positions(game[-1], moves) == game[:3]
    assert memory.open_positions(game[3], moves[:3]) == game[:3]
    memory.learn_lost(start, "every sequence of jumps was tried")
    assert memory.open_positions(game[-1], moves) == []
