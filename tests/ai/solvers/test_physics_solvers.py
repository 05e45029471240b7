"""Every exact solver follows the level's physics: differential tests against exhaustive enumeration.

Random small levels (at most 6x8, N <= 12, B <= 2) under every shipped physics and 24 random physics of
the class: the minimum and the optimal sets of cpsat (both encodings), milp (path/flow and product),
search, brute and auto equal
those of an enumeration of every brick set with the reference simulator; the decomposition agrees on
levels made of independent parts; the batched simulator and the reachability analysis agree with the
reference simulator.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from ai.facade import solve
from ai.kernel.base import SolveStatus
from ai.services.generation.random_levels import small_level
from ai.kernel.context import SolveContext
from ai.solvers.bounds import bound_and_witness
from ai.solvers.reach import analyse
from ai.solvers.decompose import DecomposeSolver, split
from ai.solvers.search import Board, SearchSolver, _Search
from game.core.batch import simulate_brick_sets, simulate_levels
from game.core.level import Level
from game.core.physics import Physics, random_physics
from game.core.physics_catalog import SHIPPED
from game.core.simulation import simulate
from tests.physics_helpers import optimal_sets

#: Every shipped physics and 24 random ones.
PHYSICS: tuple[Physics, ...] = (*SHIPPED.values(),
                                *(random_physics(np.random.default_rng(seed), name=f"random{seed}")
                                  for seed in range(24)))


def level_of(physics: Physics, seed: int) -> Level:
    """Random small level ``seed`` (at most 6x8, N <= 12, B <= 2) under ``physics``."""
    base = small_level(1000 * PHYSICS.index(physics) + seed, max_side=6)
    level = base.with_limits(frames=min(base.frames, 12), budget=min(base.budget, 2))
    return level.with_physics(physics)


@lru_cache(maxsize=None)
def enumerate_level(physics_index: int, seed: int) -> tuple[int | None, tuple[tuple[tuple[int, int], ...], ...]]:
    """The minimum and every optimal set of the level, by the reference simulator on every brick set."""
    sets = optimal_sets(level_of(PHYSICS[physics_index], seed))
    if not sets:
        return None, ()
    return len(sets[0]), tuple(sorted(tuple(sorted(s)) for s in sets))


@lru_cache(maxsize=None)
def seeds_of(physics_index: int) -> tuple[int, ...]:
    """The levels tested under a physics: the first ones winnable with bricks, a few winnable without,
    a few that cannot be won (most random levels under a random physics cannot)."""
    wanted = {"bricks": 3, "none": 1, "lost": 2}
    out = []
    for seed in range(150):
        best, _ = enumerate_level(physics_index, seed)
        kind = "lost" if best is None else "none" if best == 0 else "bricks"
        if wanted[kind]:
            wanted[kind] -= 1
            out.append(seed)
        if not any(wanted.values()):
            break
    return tuple(out)


def exhaustive(physics_index: int, seed: int) -> tuple[int | None, tuple[tuple[tuple[int, int], ...], ...]]:
    """:func:`enumerate_level` (the reference answer)."""
    return enumerate_level(physics_index, seed)


def answer(level: Level, solver: str, **options: object) -> tuple[int | None, tuple[tuple[tuple[int, int], ...], ...]]:
    result = solve(level, solver=solver, mode="all", **options)
    assert result.complete
    if result.status == SolveStatus.INFEASIBLE:
        return None, ()
    assert result.status == SolveStatus.OPTIMAL
    return result.min_bricks, tuple(sorted(tuple(sorted(s)) for s in result.solutions))


CASES = [(i, seed) for i in range(len(PHYSICS)) for seed in seeds_of(i)]


def test_the_cases_are_not_trivial() -> None:
    answers = [exhaustive(i, seed) for i, seed in CASES]
    assert sum(1 for m, _ in answers if m) >= 20
    assert sum(1 for _, sets in answers if len(sets) > 1) >= 10
    assert sum(1 for m, _ in answers if m is None) >= 10
    assert sum(1 for i, _ in CASES if not PHYSICS[i].targets_stop) >= 20


@pytest.mark.parametrize("name,options", [
    ("brute", {}),
    ("cpsat", {}),
    ("cpsat", {"primal_seconds": 0}),
    ("cpsat", {"encoding": "time"}),
    ("cpsat", {"primal_seconds": 0, "bounded": "frames"}),
    ("cpsat", {"primal_seconds": 0, "bounded": "states"}),
    ("cpsat", {"primal_seconds": 0, "encoding": "time", "bounded": "frames"}),
    ("search", {}),
    ("milp", {"backend": "highs"}),
    ("milp", {"bounded": "frames"}),
    ("milp", {"bounded": "states"}),
    ("milp", {"bounded": "frames", "formulation": "flow"}),
    ("milp", {"backend": "highs", "formulation": "product"}),
    ("auto", {}),
])
def test_solver_matches_the_enumeration_under_every_physics(name: str, options: dict) -> None:
    mismatches = []
    for i, seed in CASES:
        got = answer(level_of(PHYSICS[i], seed), name, **options)
        if got != exhaustive(i, seed):
            mismatches.append((PHYSICS[i].name, seed, got, exhaustive(i, seed)))
    assert not mismatches


def side_by_side(left: Level, right: Level) -> Level:
    """Two levels next to each other, a column of wall between (no brick couples them)."""
    height = max(left.height, right.height)
    rows = [(left.grid[r] if r < left.height else "X" * left.width) + "X"
            + (right.grid[r] if r < right.height else "X" * right.width) for r in range(height)]
    return Level.from_rows(rows, frames=min(left.frames, right.frames), budget=2, physics=left.physics)


def test_the_decomposition_matches_the_whole_under_every_physics() -> None:
    mismatches, split_parts = [], 0
    for i in range(0, len(PHYSICS)):
        seeds = seeds_of(i)
        left, right = level_of(PHYSICS[i], seeds[0]), level_of(PHYSICS[i], seeds[1 + i % (len(seeds) - 1)])
        level = side_by_side(left, left if i % 2 else right)
        whole = answer(level, "cpsat")
        if analyse(level).feasible and all(analyse(lv).read_cells for lv in (left, right)):
            split_parts += len(split(level, SolveContext.create())) > 1
        parts = solve(level, solver=DecomposeSolver(inner=SearchSolver), mode="all")
        got = (parts.min_bricks if parts.status == SolveStatus.OPTIMAL else None,
               tuple(sorted(tuple(sorted(s)) for s in parts.solutions)))
        if got != whole:
            mismatches.append((PHYSICS[i].name, got, whole))
    assert not mismatches
    assert split_parts >= 5


def test_the_batched_simulator_follows_the_physics() -> None:
    for i, seed in CASES[::3]:
        level = level_of(PHYSICS[i], seed)
        cells = [(int(r), int(c)) for r, c in np.argwhere(level.brickable_map)][:4]
        sets = [()] + [(cell,) for cell in cells]
        runs = simulate_brick_sets(level, sets, record_paths=True, check=False)
        for b, bricks in enumerate(sets):
            run = simulate(level, bricks, enforce_budget=False)
            assert bool(runs.won[b]) == run.won
            for k, track in enumerate(run.tracks):
                assert [tuple(s) for s in runs.paths[b, :, k].tolist()] == list(track.path)
                assert (runs.reached_at[b, k] if runs.reached_at[b, k] >= 0 else None) == track.reached_at


def test_simulating_levels_of_different_physics_at_once() -> None:
    levels = [level_of(PHYSICS[i], seed) for i, seed in CASES[:40:4]]
    runs = simulate_levels(levels)
    assert runs.won.tolist() == [simulate(level).won for level in levels]


def test_reachability_contains_every_run() -> None:
    for i, seed in CASES[::2]:
        level = level_of(PHYSICS[i], seed)
        info = analyse(level)
        _, sets = exhaustive(i, seed)
        for bricks in sets[:3]:
            for k, track in enumerate(simulate(level, bricks).tracks):
                for t, state in enumerate(track.path):
                    assert state in info.lemmings[k].states(t)
                assert set(bricks) <= set(info.read_cells)


def test_the_compiled_search_step_equals_the_tree_walk() -> None:
    for i, seed in CASES[::2]:
        level = level_of(PHYSICS[i], seed)
        info = analyse(level)
        if not info.feasible:
            continue
        board = Board.of(level, info)
        found = [sorted(_Search(board, SolveContext.create(), compiled=compiled).solve(level.budget, False))
                 for compiled in (True, False)]
        assert found[0] == found[1]


def test_the_lower_bound_never_passes_the_minimum_and_its_witness_wins() -> None:
    bounds = []
    for i, seed in CASES:
        best, sets = exhaustive(i, seed)
        level = level_of(PHYSICS[i], seed)
        bound, witness = bound_and_witness(level, SolveContext.create())
        if best is not None:
            assert bound <= best, (PHYSICS[i].name, seed)
        if witness is not None:  # a winning set of exactly the bound: one of the optimal sets
            assert len(witness) == bound == best and tuple(sorted(witness)) in sets
            assert simulate(level, witness).won
        else:  # a level won with one brick (or none) always comes with its witness
            assert best is None or best >= 2, (PHYSICS[i].name, seed)
        bounds.append((bound, best))
    assert sum(1 for bound, best in bounds if bound == best == 2) >= 3  # two bricks proved without a model
    assert sum(1 for bound, best in bounds if bound == 2 and best is None) >= 3  # and levels no brick pair wins
