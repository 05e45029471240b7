"""The auto solver: answers like the exact solvers and reports which one it used."""

from __future__ import annotations

import time

import pytest

import ai.solvers.reach as reach
from ai.facade import solve
from ai.kernel.base import SolveMode, SolveStatus
from ai.kernel.context import SolveContext
from ai.solvers.portfolio import PortfolioSolver
from game.core.level import Level
from game.core.simulation import simulate
from tests.ai.solvers.exact_helpers import ORIGINAL_SOLUTIONS, UNREACHABLE, busy_level, hard_level, original
from tests.level_builders import LARGE_FIRST, maze_256, tiled
from tests.stopping import STOP_GUARD, CancelOnPoll


def test_original() -> None:
    result = solve(original(), solver="auto", mode="all")
    assert result.solver == "auto" and result.solutions == ORIGINAL_SOLUTIONS and result.complete
    assert result.stats.extra["used"] in ("search", "cpsat")


def test_no_race_and_infeasible() -> None:
    assert solve(original(), solver=PortfolioSolver(race=False)).min_bricks == 3
    assert solve(UNREACHABLE, solver="auto").status == SolveStatus.INFEASIBLE


def test_cpsat_joins_after_the_probe() -> None:
    result = solve(original(), solver=PortfolioSolver(probe=0.0), mode="all")
    assert result.solutions == ORIGINAL_SOLUTIONS and result.stats.extra["used"] in ("search", "cpsat")


def test_no_race_picks_cpsat_for_many_lemmings() -> None:
    result = solve(busy_level(), solver=PortfolioSolver(race=False, decompose=False))
    assert result.stats.extra["used"] == "cpsat" and result.min_bricks == int(busy_level().meta_value("optimum"))
    assert solve(hard_level(), solver=PortfolioSolver(race=False)).min_bricks == 0  # the base's shortcut


def test_races_milp_and_shares_one_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    level = busy_level()
    assert [r.name for r in PortfolioSolver().racers(level)] == ["search", "cpsat", "milp"]
    calls: list[bool] = []
    real = reach._analyse

    def counting(lv: Level, ctx: object, brickable: object) -> reach.ReachInfo:
        calls.append(brickable is None)
        return real(lv, ctx, brickable)  # type: ignore[arg-type]

    monkeypatch.setattr(reach, "_analyse", counting)
    reach._RECENT.clear()
    result = solve(level, solver=PortfolioSolver(decompose=False, probe=0.0, milp_after=0.0),
                   ctx=SolveContext.create(time_limit=60))
    assert result.min_bricks == int(level.meta_value("optimum"))
    assert result.stats.extra["used"] in ("search", "cpsat", "milp")
    assert calls.count(True) == 1  # one reachability analysis of the level for every racer


def test_decomposes_a_tiled_level_and_proves_its_optimum() -> None:
    level = tiled(Level.load(LARGE_FIRST), rows=4, cols=4, frames=1000)  # 96x128, 48 lemmings
    result = solve(level, solver="auto", time_limit=60)
    assert result.min_bricks == 16 * int(Level.load(LARGE_FIRST).meta_value("optimum"))
    assert result.stats.extra["used"] == "decompose" and result.stats.extra["parts"] == 48


def test_stress_levels_return_on_time_and_cancel_quickly() -> None:
    maze = maze_256()
    start = time.perf_counter()
    result = PortfolioSolver().solve_in(maze, SolveMode.MIN, SolveContext.create(time_limit=1.0))
    assert time.perf_counter() - start < 1.0 + STOP_GUARD
    if result.bricks is None:
        assert result.status in (SolveStatus.TIMEOUT, SolveStatus.UNKNOWN)
    else:  # a faster machine may find a set in time: it must win
        assert simulate(maze, result.bricks).won
    big = tiled(Level.load(LARGE_FIRST), rows=10, cols=8, frames=10_000, size=(256, 256))
    cancel = CancelOnPoll(10)  # mid-work: on the 10th check of the context
    result = PortfolioSolver().solve_in(big, SolveMode.MIN, SolveContext.create(cancel=cancel))
    done = time.perf_counter()
    if cancel.fired_at is None:  # finished first: then it proved the optimum
        assert result.status == SolveStatus.OPTIMAL
        return
    assert done - cancel.fired_at < STOP_GUARD
    assert result.status in (SolveStatus.CANCELLED, SolveStatus.OPTIMAL)  # optimal: proved as the cancel came
    assert result.bricks is None or simulate(big, result.bricks).won
