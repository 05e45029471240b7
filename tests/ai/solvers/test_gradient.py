"""The gradient solver: adjoint against finite differences, solving, the solver contract."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from ai.facade import get_solver, solve
from ai.kernel.base import SolveMode, SolveStatus
from ai.kernel.context import ManualClock, SolveContext
from ai.solvers.gradient import GradientSolver
from ai.solvers.gradient_relaxation import FloatArray, Relaxation, step_padded_adjoint
from game.core.level import Level
from game.core.occupancy import step_padded
from game.core.physics import Physics, random_physics
from game.core.physics_catalog import SHIPPED
from game.core.simulation import simulate
from tests.ai.solvers.learned_helpers import brute_force, interesting_small_levels
from tests.conftest import ORIGINAL_PACK
from tests.stopping import STOP_GUARD, CancelOnPoll


PHYSICS = [*SHIPPED.values(), *(random_physics(np.random.default_rng(s)) for s in range(6))]


def finite_difference_grad(relax: Relaxation, x: FloatArray, eps: float = 1e-6) -> FloatArray:
    """Central finite differences of :meth:`Relaxation.mass`: ``(R, K)``."""
    out = np.zeros_like(x)
    for k in range(x.shape[1]):
        xp, xm = x.copy(), x.copy()
        xp[:, k] += eps
        xm[:, k] -= eps
        out[:, k] = (relax.mass(xp) - relax.mass(xm)) / (2 * eps)
    return out


@pytest.mark.parametrize("physics", PHYSICS, ids=lambda p: p.name)
def test_step_adjoint_matches_finite_differences(physics: Physics) -> None:
    rng = np.random.default_rng(1)
    h, w = 4, 5
    occ = np.zeros((2, h + 2, w + 2, 2))
    occ[:, 1:-1, 1:-1, :] = rng.random((2, h, w, 2))
    obst = np.ones((2, h + 2, w + 2))
    obst[:, 1:-1, 1:-1] = rng.random((2, h, w))
    tgt = np.zeros((h + 2, w + 2))
    tgt[2, 3] = tgt[4, 1] = 1.0
    weights = rng.random(occ.shape)

    def f(o: np.ndarray, b: np.ndarray) -> float:
        return float((step_padded(o, b, tgt, physics) * weights).sum())

    g_occ, g_obst = step_padded_adjoint(occ, obst, tgt, weights, physics)
    eps = 1e-6
    for _ in range(20):
        i = tuple(int(rng.integers(0, n)) for n in (2, h, w)) 
        idx = (i[0], i[1] + 1, i[2] + 1)
        d = np.zeros_like(obst)
        d[idx] = eps
        assert g_obst[idx] == pytest.approx((f(occ, obst + d) - f(occ, obst - d)) / (2 * eps), abs=1e-7)
        ch = int(rng.integers(0, 2))
        d = np.zeros_like(occ)
        d[idx + (ch,)] = eps
        assert g_occ[idx + (ch,)] == pytest.approx((f(occ + d, obst) - f(occ - d, obst)) / (2 * eps), abs=1e-7)


def test_score_gradient_matches_finite_differences() -> None:
    level = Level.load(ORIGINAL_PACK)
    relax = Relaxation(level, level.brickable_cells)
    x = np.random.default_rng(0).uniform(0.1, 0.6, size=(2, len(relax.cells)))
    mass, grad = relax.mass_and_grad(x)
    assert mass.shape == (2,)
    fd = finite_difference_grad(relax, x)
    assert np.abs(grad).max() > 1e-4
    np.testing.assert_allclose(grad, fd, atol=1e-8)


def test_relaxation_matches_reference_on_binary_maps() -> None:
    level = Level.load(ORIGINAL_PACK)
    relax = Relaxation(level, level.brickable_cells)
    sol = {(2, 1), (5, 4), (6, 6)}
    x = np.array([[1.0 if c in sol else 0.0 for c in relax.cells], [0.0] * len(relax.cells)])
    assert relax.mass(x).tolist() == [1.0, 0.0]


@pytest.mark.parametrize("physics", PHYSICS, ids=lambda p: p.name)
def test_relaxation_follows_the_level_physics_on_binary_maps(physics: Physics) -> None:
    level = Level.from_rows(["    T", "    X", ">   X", "XXXXX"], frames=8, budget=1).with_physics(physics)
    relax = Relaxation(level, level.brickable_cells)
    x = np.eye(len(relax.cells))
    homes = [sum(t.reached_at is not None for t in simulate(level, [cell]).tracks) for cell in relax.cells]
    np.testing.assert_allclose(relax.mass(x), homes)
    assert relax.mass(x).tolist() != [0.0] * len(relax.cells) or physics.name != "climber"


def test_solves_the_original_level() -> None:
    level = Level.load(ORIGINAL_PACK)
    result = solve(level, solver="gradient")
    assert result.status == SolveStatus.FEASIBLE
    assert result.bricks is not None and len(result.bricks) == 3
    assert simulate(level, result.bricks).won
    assert result.relaxed is not None
    assert result.relaxed.obstacles.shape == (level.height, level.width)
    assert result.relaxed.occupancy.shape == (level.frames, level.height, level.width, 2)
    assert not result.complete


def test_solves_small_levels_and_never_claims_proofs() -> None:
    solved = tried = 0
    for level in interesting_small_levels(7, 8, others=0):
        best, _ = brute_force(level)
        assert best is not None and best >= 1
        tried += 1
        result = solve(level, solver=GradientSolver(seed=1, rounds=2, iterations=80), time_limit=10)
        assert result.status in (SolveStatus.FEASIBLE, SolveStatus.UNKNOWN, SolveStatus.TIMEOUT)
        if result.status == SolveStatus.FEASIBLE:
            solved += 1
            assert result.bricks is not None and len(result.bricks) <= level.budget
    assert tried == 8 and solved >= 7


def test_unsolvable_level_reports_unknown() -> None:
    level = Level.from_rows(["> X T", "XXXXX"], frames=6, budget=1)
    result = solve(level, solver=GradientSolver(rounds=1, iterations=40))
    assert result.status == SolveStatus.UNKNOWN
    assert result.bricks is None


def test_lbfgs_optimizer_solves_a_small_level() -> None:
    level = Level.from_rows(["> . T", "XX.XX", "XX XX"], frames=8, budget=1)
    result = solve(level, solver=GradientSolver(optimizer="lbfgs", iterations=30))
    assert result.status == SolveStatus.FEASIBLE


def test_cancel_and_time_limit() -> None:
    big = Level.from_rows(["X" * 30] + ["X>" + " " * 26 + "TX"] + [" " * 30] * 14 + ["X" * 30],
                          frames=200, budget=4)
    cancel = threading.Event()
    cancel.set()
    start = time.perf_counter()
    assert get_solver("gradient").solve_in(big, SolveMode.MIN, SolveContext.create(cancel=cancel)).status == SolveStatus.CANCELLED
    assert time.perf_counter() - start < STOP_GUARD
    cancel = CancelOnPoll(20)  # mid-work: on the solver's 20th check of its context
    result = get_solver("gradient").solve_in(big, SolveMode.MIN, SolveContext.create(cancel=cancel))
    done = time.perf_counter()
    assert result.status in (SolveStatus.CANCELLED, SolveStatus.FEASIBLE)
    if cancel.fired_at is not None:
        assert done - cancel.fired_at < STOP_GUARD
    ctx = SolveContext.create(time_limit=1.0, clock=ManualClock(step=0.01), solver="gradient")
    result = get_solver("gradient").solve_in(big, SolveMode.MIN, ctx)
    assert result.status in (SolveStatus.TIMEOUT, SolveStatus.FEASIBLE) and ctx.should_stop()
