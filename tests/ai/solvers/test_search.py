"""Search solver: the original level, modes, infeasibility, uniqueness of brick sets."""

from __future__ import annotations

from ai.facade import solve
from ai.kernel.base import SolveStatus
from ai.solvers.reach import analyse
from ai.solvers.search import Board, SearchSolver
from tests.ai.solvers.exact_helpers import ORIGINAL_SOLUTIONS, TINY, UNREACHABLE, original


def test_original_all_six() -> None:
    result = solve(original(), solver="search", mode="all")
    assert result.status == SolveStatus.OPTIMAL and result.min_bricks == 3
    assert result.solutions == ORIGINAL_SOLUTIONS and result.complete


def test_min_any_infeasible() -> None:
    assert solve(original(), solver="search").bricks in ORIGINAL_SOLUTIONS
    assert solve(original(), solver="search", mode="any").status == SolveStatus.FEASIBLE
    assert solve(original().with_limits(budget=2), solver="search").status == SolveStatus.INFEASIBLE
    assert solve(UNREACHABLE, solver="search").status == SolveStatus.INFEASIBLE
    assert solve(TINY.with_limits(budget=0), solver="search").status == SolveStatus.INFEASIBLE


def test_board_tables() -> None:
    level = original()
    board = Board.of(level, analyse(level))
    assert len(board.cells) == len(analyse(level).read_cells)
    assert board.row_from[0] == (1 << len(board.cells)) - 1
    assert board.col_prefix[-1] == (1 << len(board.cells)) - 1
    assert board.later == [0]


def test_table_is_used() -> None:
    result = solve(original(), solver=SearchSolver(), mode="all")
    assert result.stats.extra["table"] > 0 and result.stats.nodes > 0
