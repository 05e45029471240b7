"""MILP solver: backends, the LP relaxation, model assembly."""

from __future__ import annotations

import numpy as np
import pytest

from ai import solve
from ai.base import SolveStatus
from ai.milp import MilpSolver, build_milp
from tests.ai.exact_helpers import ORIGINAL_SOLUTIONS, TINY, UNREACHABLE, original


@pytest.mark.parametrize("backend", ["cbc", "scip", "highs"])
def test_original_min(backend: str) -> None:
    result = solve(original(), solver="milp", backend=backend)
    assert result.min_bricks == 3 and result.bricks in ORIGINAL_SOLUTIONS


def test_original_all_highs() -> None:
    result = solve(original(), solver="milp", mode="all", backend="highs")
    assert result.solutions == ORIGINAL_SOLUTIONS and result.complete


@pytest.mark.parametrize("mode", ["min", "all"])
def test_search_primal_and_cap(mode: str) -> None:
    result = solve(original(), solver="milp", mode=mode, primal_seconds=0.5)
    assert result.min_bricks == 3 and result.bricks in ORIGINAL_SOLUTIONS
    if mode == "all":
        assert result.solutions == ORIGINAL_SOLUTIONS and result.complete


def test_run_cuts_keep_the_optimum() -> None:
    from ai.milp import load_pywraplp, solve_interruptibly
    from ai.solver_util import Deadline

    model = build_milp(original(), cut_depth=2)
    solver = load_pywraplp(model, "HIGHS", integer=True)
    outcome = solve_interruptibly(solver, "HIGHS", Deadline(30), None)
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
