"""Every exact solver agrees with brute force on 240 random small levels (mode ``all``)."""

from __future__ import annotations

from functools import lru_cache

import pytest

from ai.facade import solve
from ai.kernel.base import SolveResult, SolveStatus
from ai.services.generation.random_levels import small_level
from ai.solvers.reach import analyse

SEEDS = range(240)


@lru_cache(maxsize=None)
def reference(seed: int) -> SolveResult:
    """Brute-force answer of random level ``seed``."""
    return solve(small_level(seed), solver="brute", mode="all")


def _summary(result: SolveResult) -> tuple:
    return result.status, result.min_bricks, result.solutions, result.complete


def test_the_random_levels_cover_the_interesting_cases() -> None:
    levels = [small_level(s) for s in SEEDS]
    results = [reference(s) for s in SEEDS]
    feasible = [r.status == SolveStatus.OPTIMAL for r in results]
    multi = [len(lv.lemmings) > 1 for lv in levels]
    solver_proved = [r.status == SolveStatus.INFEASIBLE and analyse(lv).feasible for lv, r in zip(levels, results)]
    assert sum(feasible) >= 50
    assert sum(f and m for f, m in zip(feasible, multi)) >= 10
    assert sum(solver_proved) >= 10  # infeasible, but not by reachability alone
    assert sum(1 for r in results if r.min_bricks and r.min_bricks >= 2) >= 3
    assert sum(1 for r in results if len(r.solutions) > 1) >= 10


@pytest.mark.parametrize("name,options", [
    ("cpsat", {}),
    ("cpsat", {"encoding": "time"}),
    ("cpsat", {"primal_seconds": 0}),
    ("cpsat", {"primal_seconds": 0, "bounded": "frames"}),
    ("cpsat", {"primal_seconds": 0, "bounded": "states"}),
    ("cpsat", {"primal_seconds": 0, "bounded": "off"}),
    ("search", {}),
    ("milp", {"backend": "highs"}),
    ("milp", {"bounded": "frames"}),
    ("milp", {"bounded": "states"}),
    ("milp", {"bounded": "off"}),
    ("auto", {}),
])
def test_solver_matches_brute_force(name: str, options: dict) -> None:
    mismatches = []
    for seed in SEEDS:
        got = solve(small_level(seed), solver=name, mode="all", **options)
        if _summary(got) != _summary(reference(seed)):
            mismatches.append((seed, _summary(got), _summary(reference(seed))))
    assert not mismatches


@pytest.mark.parametrize("backend", ["cbc", "scip"])
def test_other_milp_backends_match_on_a_sample(backend: str) -> None:
    for seed in range(0, 240, 8):
        got = solve(small_level(seed), solver="milp", mode="all", backend=backend)
        assert _summary(got) == _summary(reference(seed)), seed


@pytest.mark.parametrize("name", ["cpsat", "search", "milp", "auto"])
def test_min_mode_matches_brute_force(name: str) -> None:
    for seed in range(0, 240, 3):
        got = solve(small_level(seed), solver=name, mode="min")
        ref = reference(seed)
        assert got.status == ref.status and got.min_bricks == ref.min_bricks, seed
        if got.bricks is not None:
            assert got.bricks in ref.solutions
