"""MILP solver: backends, the LP relaxation, model assembly."""

from __future__ import annotations

import numpy as np
import pytest

from ai.facade import solve
from ai.kernel.base import BrickSet, SolveStatus
from ai.kernel.context import SolveContext, SolveStopped, StopReason
from ai.services.generation.random_levels import small_level
from ai.solvers.base import Outcome
from ai.solvers.milp.backends import BackendStatus
from ai.solvers.milp.solver import MilpSolver, MipRun, build_milp, load_backend
from tests.ai.solvers.exact_helpers import ORIGINAL_SOLUTIONS, TINY, UNREACHABLE, original


@pytest.mark.parametrize("backend", ["cbc", "scip", "highs"])
def test_original_min(backend: str) -> None:
    result = solve(original(), solver="milp", backend=backend)
    assert result.min_bricks == 3 and result.bricks in ORIGINAL_SOLUTIONS


@pytest.mark.parametrize("formulation", ["path", "flow", "product"])
def test_original_all_highs(formulation: str) -> None:
    result = solve(original(), solver="milp", mode="all", backend="highs", formulation=formulation)
    assert result.solutions == ORIGINAL_SOLUTIONS and result.complete


def test_an_enumeration_stopped_by_the_limit_says_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    # the limit comes right after the optimum is proved: the minimum stands, the list has one set
    real = MipRun.enumerate

    def stopped(self: MipRun, best: BrickSet) -> Outcome:
        def limit(*, feasibility: bool = False) -> BackendStatus:
            raise SolveStopped(StopReason.TIMEOUT)
        monkeypatch.setattr(self, "solve_once", limit)
        return real(self, best)

    monkeypatch.setattr(MipRun, "enumerate", stopped)
    result = solve(original(), solver="milp", mode="all", backend="highs")
    assert result.status == SolveStatus.OPTIMAL and result.min_bricks == 3 and not result.complete
    assert result.solutions[0] in ORIGINAL_SOLUTIONS and len(result.solutions) == 1
    assert result.message == "stopped at the time limit after 1 optimal solution; the count is incomplete"
    assert result.describe().endswith("1 optimal solution (maybe more)")


@pytest.mark.parametrize("formulation", ["path", "flow"])
def test_formulations_agree_with_brute_force(formulation: str) -> None:
    for seed in range(0, 240, 8):
        level = small_level(seed)
        reference = solve(level, solver="brute", mode="all")
        result = solve(level, solver="milp", mode="all", formulation=formulation)
        assert (result.status, result.min_bricks, result.solutions, result.complete) == (
            reference.status, reference.min_bricks, reference.solutions, reference.complete), seed


def test_flow_lp_bound_is_the_optimum_on_the_original() -> None:
    result = solve(original(), solver="milp", lp=True, formulation="flow")
    relaxed = result.relaxed
    assert relaxed is not None and relaxed.objective == pytest.approx(3.0, abs=1e-6)
    assert np.allclose(relaxed.occupancy.sum(axis=(1, 2, 3)), 1.0)


@pytest.mark.parametrize("formulation", ["path", "flow"])
def test_small_models(formulation: str) -> None:
    assert len(build_milp(original(), formulation=formulation).objective) < len(
        build_milp(original(), formulation="product").objective)


@pytest.mark.parametrize("mode", ["min", "all"])
def test_search_primal_and_cap(mode: str) -> None:
    result = solve(original(), solver="milp", mode=mode, primal_seconds=0.5)
    assert result.min_bricks == 3 and result.bricks in ORIGINAL_SOLUTIONS
    if mode == "all":
        assert result.solutions == ORIGINAL_SOLUTIONS and result.complete


def test_run_cuts_keep_the_optimum() -> None:
    model = build_milp(original(), cut_depth=2)
    outcome = load_backend(model, "highs", integer=True).solve(SolveContext.create(time_limit=30))
    assert outcome.values is not None and round(outcome.values[: model.n_bricks].sum()) == 3


def test_infeasible() -> None:
    assert solve(UNREACHABLE, solver="milp").status == SolveStatus.INFEASIBLE
    assert solve(TINY.with_limits(budget=0), solver="milp").status == SolveStatus.INFEASIBLE


@pytest.mark.parametrize("lp_backend", ["glop", "clp"])
def test_lp_relaxation_is_fractional(lp_backend: str) -> None:
    result = solve(original(), solver="milp", lp=True, lp_backend=lp_backend)
    relaxed = result.relaxed
    assert relaxed is not None and result.bricks is None
    assert relaxed.objective == pytest.approx(5 / 3, abs=1e-6)
    assert relaxed.obstacles.shape == (10, 10)
    assert relaxed.occupancy.shape == (20, 10, 10, 2)
    assert np.allclose(relaxed.occupancy.sum(axis=(1, 2, 3)), 1.0)
    fractional = relaxed.obstacles[(relaxed.obstacles > 1e-6) & (relaxed.obstacles < 1 - 1e-6)]
    assert len(fractional) > 0


def test_model_is_sparse_and_sized() -> None:
    model = build_milp(original())
    assert model.matrix.shape == (len(model.row_lower), len(model.objective))
    assert model.objective[: model.n_bricks].sum() == model.n_bricks


def test_unknown_backend() -> None:
    with pytest.raises(ValueError):
        MilpSolver(backend="gurobi")
    with pytest.raises(ValueError):
        MilpSolver(formulation="bogus")
    with pytest.raises(ValueError):
        MilpSolver(lp=True, formulation="path")
