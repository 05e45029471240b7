"""The single-vacancy tables: every solution replayed by the board's checker, every proof checked again here
with its own arithmetic (position classes from the cells, pagoda functions jump by jump)."""

from __future__ import annotations

import re

import pytest

from ai.kernel.context import SolveContext
from ai.puzzles.pegs import PegsStatus
from ai.puzzles.pegs.vacancies import Answer, decide, problems, table
from game.core.puzzles.pegs import Board
from game.core.puzzles.pegs_boards import english, french, parse_board

PAGODA = re.compile(r"one peg on \((\d+), (\d+)\): weights ([^;]+); value of the start (-?\d+) < value of the goal "
                    r"(-?\d+)")


def own_class(board: Board, pegs: set[tuple[int, int]]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """(class, diagonal counts, anti-diagonal counts) counted cell by cell."""
    d = [sum(1 for r, c in pegs if (r + c) % 3 == k) for k in range(3)]
    a = [sum(1 for r, c in pegs if (r - c) % 3 == k) for k in range(3)]
    return ((d[0] + d[1]) % 2, (d[1] + d[2]) % 2, (a[0] + a[1]) % 2, (a[1] + a[2]) % 2), tuple(d), tuple(a)


def check(board: Board, answer: Answer) -> None:
    """The answer holds: its moves replay to the goal, or its proof checks out."""
    start = set(board.cells) - {answer.vacancy}
    if answer.status == PegsStatus.SOLVED:
        end = board.replay(board.position_of(start), answer.moves)
        assert board.count(end) == 1
        assert answer.goal == "any" or board.pegs(end) == [answer.vacancy]
        return
    assert answer.status == PegsStatus.IMPOSSIBLE, answer
    if answer.kind == "position class":
        mine, d, a = own_class(board, start)
        assert f"The start is in class {mine} (diagonals {d}, anti-diagonals {a})" in answer.proof
        if answer.goal == "vacancy":
            assert own_class(board, {answer.vacancy})[0] != mine
        else:
            assert all(own_class(board, {cell})[0] != mine for cell in board.cells)
    elif answer.kind == "pagoda":
        check_pagodas(board, start, answer)
    else:
        assert answer.kind == "search" and "positions searched" in answer.proof


def check_pagodas(board: Board, start: set[tuple[int, int]], answer: Answer) -> None:
    """Every pagoda function of the proof: no jump raises it, and it values the start below the goal; together
    they cover every goal cell the class allows."""
    covered = set()
    for r, c, grid, start_value, goal_value in PAGODA.findall(answer.proof):
        rows = [row.split() for row in grid.split(" / ")]
        w = {(i, j): int(x) for i, row in enumerate(rows) for j, x in enumerate(row) if x != "."}
        assert set(w) == set(board.cells)
        assert all(w[j.start] + w[j.over] >= w[j.end] for j in board.jumps)
        assert sum(w[cell] for cell in start) == int(start_value) < int(goal_value) == w[(int(r), int(c))]
        covered.add((int(r), int(c)))
    if answer.goal == "vacancy":
        assert covered == {answer.vacancy}
    else:
        mine = own_class(board, start)[0]
        assert covered == {cell for cell in board.cells if own_class(board, {cell})[0] == mine}


def test_a_small_board_has_every_kind_of_answer_and_each_checks_out() -> None:
    kinds = set()
    for text in ("ooo\nooo\nooo", "oooo\noooo", "oooo\noooo\noooo"):
        board, _ = parse_board(text)
        for answer in table(board, SolveContext.create()):
            check(board, answer)
            kinds.add(answer.kind)
    assert kinds == {"solution", "position class", "pagoda", "search"}


@pytest.mark.parametrize(("name", "vacancy", "goal"), [
    ("french", (2, 3), "any"), ("french", (0, 2), "any"), ("french", (1, 3), "any"),
    ("french", (3, 3), "any"), ("french", (1, 3), "vacancy"), ("english", (0, 2), "vacancy"),
    ("english", (2, 2), "any"),
])
def test_hard_problems_of_both_boards_are_decided(name: str, vacancy: tuple[int, int], goal: str) -> None:
    board, _ = english() if name == "english" else french()
    answer = decide(board, vacancy, goal, SolveContext.create())
    check(board, answer)
    solvable = name == "english" or (goal == "any" and vacancy != (3, 3))
    assert answer.status == (PegsStatus.SOLVED if solvable else PegsStatus.IMPOSSIBLE)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "solved"), [("english", 66), ("french", 16)])
def test_the_whole_table_of_each_board_checks_out(name: str, solved: int) -> None:
    board, _ = english() if name == "english" else french()
    answers = table(board, SolveContext.create(), per_problem=60.0)
    assert [(a.vacancy, a.goal) for a in answers] == list(problems(board))
    assert len(answers) == 2 * len(board.cells)
    for answer in answers:
        check(board, answer)
    assert sum(a.status == PegsStatus.SOLVED for a in answers) == solved
    assert {a.kind for a in answers if a.status == PegsStatus.IMPOSSIBLE} <= {"position class"}


def test_the_json_form_names_the_problem_and_its_moves() -> None:
    board, _ = parse_board("ooo\n")
    answer = decide(board, (0, 0), "vacancy", SolveContext.create())
    assert answer.to_json() | {"seconds": 0} == {
        "vacancy": [0, 0], "goal": "vacancy", "status": "solved", "moves": [[0, 2, 0, 0]],
        "proof": answer.proof, "proof_kind": "solution", "seconds": 0}


def test_a_stopped_context_gives_a_stopped_answer_not_a_wrong_one() -> None:
    board, _ = french()
    answer = decide(board, (2, 3), "any", SolveContext.create(time_limit=0))
    assert answer.status == PegsStatus.STOPPED and not answer.moves
