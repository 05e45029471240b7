"""The auto solver: answers like the exact solvers and reports which one it used."""

from __future__ import annotations

from ai import solve
from ai.base import SolveStatus
from ai.solvers.portfolio import PortfolioSolver
from tests.ai.exact_helpers import ORIGINAL_SOLUTIONS, UNREACHABLE, busy_level, hard_level, original


def test_original() -> None:
    result = solve(original(), solver="auto", mode="all")
    assert result.solver == "auto" and result.solutions == ORIGINAL_SOLUTIONS and result.complete
    assert result.stats.extra["used"] in ("search", "cpsat")


def test_no_race_and_infeasible() -> None:
    assert PortfolioSolver(race=False).solve(original()).min_bricks == 3
    assert solve(UNREACHABLE, solver="auto").status == SolveStatus.INFEASIBLE


def test_cpsat_joins_after_the_probe() -> None:
    result = PortfolioSolver(probe=0.0).solve(original(), mode="all")
    assert result.solutions == ORIGINAL_SOLUTIONS and result.stats.extra["used"] in ("search", "cpsat")


def test_no_race_picks_cpsat_for_many_lemmings() -> None:
    result = PortfolioSolver(race=False, decompose=False).solve(busy_level(), time_limit=0.3)
    assert result.stats.extra["used"] == "cpsat"
    assert PortfolioSolver(race=False).solve(hard_level(), time_limit=0.3).min_bricks == 0  # the base's shortcut
