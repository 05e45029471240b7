"""The search's primal (:func:`ai.solvers.bounds.search_primal`) and how the exact solvers use it.

The search runs in mode ``min``: when it finishes, its minimum settles the level and no model is built;
when it is stopped, the budgets it exhausted are a proved lower bound the models start from.  The tests
stop the search with a double (it raises at a given budget), never with a clock.
"""

from __future__ import annotations

from typing import Any

import pytest

import ai.solvers.cpsat as cpsat
import ai.solvers.milp.solver as milp
import ai.solvers.search as search
from ai.facade import solve
from ai.kernel.base import SolveStatus
from ai.kernel.context import SolveContext, SolveStopped, StopReason
from ai.solvers.bounds import PROVED_BY_SEARCH, Primal, search_primal
from ai.solvers.cpsat import CpSatSolver
from ai.solvers.cpsat_model import CpSatModel
from ai.solvers.milp.solver import MilpSolver
from game.core.level import Level
from tests.ai.solvers.exact_helpers import ORIGINAL_SOLUTIONS, original

#: One lemming that needs two bricks (the two gaps), with a budget of one: no set within the budget wins.
TWO_GAPS = Level.from_rows(["> . .T", "XX.X.XX"], frames=9, budget=1)


def _stop_at_budget(monkeypatch: pytest.MonkeyPatch, stop: int, once: bool = False) -> None:
    """The search stops (as at its deadline) when it starts a budget of ``stop`` or more (with ``once``, only
    the first time: mode ``min`` stops there, the mode ``any`` that follows runs)."""
    real = search._Search.solve
    stops: list[int] = []

    def solve_until(self: Any, budget: int, first_only: bool) -> list[int]:
        if budget >= stop and not (once and stops):
            stops.append(budget)
            raise SolveStopped(StopReason.TIMEOUT)
        return real(self, budget, first_only)

    monkeypatch.setattr(search._Search, "solve", solve_until)


def _no_model(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a model was built")


def test_the_primal_is_the_search_minimum() -> None:
    found = search_primal(original(), SolveContext.create(), 60.0)
    assert found.bricks in ORIGINAL_SOLUTIONS and found.bound == 3.0 and not found.infeasible


def test_the_primal_proves_that_no_set_within_the_budget_wins() -> None:
    found = search_primal(TWO_GAPS, SolveContext.create(), 60.0)
    assert found.bricks is None and found.infeasible
    assert search_primal(TWO_GAPS.with_limits(budget=2), SolveContext.create(), 60.0).bound == 2.0


def test_a_stopped_primal_keeps_the_budgets_it_exhausted(monkeypatch: pytest.MonkeyPatch) -> None:
    _stop_at_budget(monkeypatch, 3)
    assert search_primal(original(), SolveContext.create(), 60.0) == Primal(None, 3.0, searched=True)


def test_a_stopped_primal_takes_a_set_from_mode_any(monkeypatch: pytest.MonkeyPatch) -> None:
    _stop_at_budget(monkeypatch, 3, once=True)
    found = search_primal(original(), SolveContext.create(), 60.0)
    assert found.bound == 3.0 and found.bricks in ORIGINAL_SOLUTIONS


def test_no_time_no_primal() -> None:
    assert search_primal(original(), SolveContext.create(), 0.0) == Primal(None, 0.0)


def test_cpsat_answers_with_the_search_minimum_without_a_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cpsat, "build_model", _no_model)
    result = solve(original(), solver=CpSatSolver(primal_seconds=60.0))
    assert result.status == SolveStatus.OPTIMAL and result.min_bricks == 3 and result.stats.variables == 0
    assert result.message == PROVED_BY_SEARCH  # (the CLI says who proved it)
    stopped = solve(TWO_GAPS, solver=CpSatSolver(primal_seconds=60.0))
    assert stopped.status == SolveStatus.INFEASIBLE and stopped.complete


def test_cpsat_starts_its_caps_at_the_bound_of_a_stopped_search(monkeypatch: pytest.MonkeyPatch) -> None:
    caps: list[int] = []
    real = CpSatModel.set_cap

    def record(self: CpSatModel, limit: int) -> None:
        caps.append(limit)
        real(self, limit)

    monkeypatch.setattr(CpSatModel, "set_cap", record)
    _stop_at_budget(monkeypatch, 3)
    result = solve(original(), solver=CpSatSolver(primal_seconds=60.0, bounded="off"), mode="all")
    assert caps[0] == 3  # (the one-brick trials alone bound it at 2)
    assert result.solutions == ORIGINAL_SOLUTIONS and result.complete and result.message == ""


def test_milp_with_the_primal_answers_without_a_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(milp, "build_milp", _no_model)
    result = solve(original(), solver=MilpSolver(primal_seconds=60.0))
    assert result.status == SolveStatus.OPTIMAL and result.min_bricks == 3 and result.message == PROVED_BY_SEARCH
    assert solve(TWO_GAPS, solver=MilpSolver(primal_seconds=60.0)).status == SolveStatus.INFEASIBLE


def test_milp_without_the_primal_solves_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    _stop_at_budget(monkeypatch, 0)  # (a search that never finishes a budget: the MILP alone)
    result = solve(original(), solver="milp", mode="all", primal_seconds=60.0)
    assert result.solutions == ORIGINAL_SOLUTIONS and result.complete
