"""The shipped pack: at least 20 well-formed levels, each solvable within its budget and frames.

Solvability is proved by an exact solver (``ai.solve(level, solver="cpsat")``, which replays
its answer in the reference simulator) and, for the big maps (where building the CP-SAT model
costs seconds) or without ortools, by the small complete search in ``tests/pack_search.py``;
every answer is replayed here by the reference simulator too.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from game.level import Brick, Level
from game.pack import PACK_DIR, pack_level_paths
from game.simulation import simulate
from tests.pack_search import min_bricks, solutions_with

PATHS = pack_level_paths()


def _has_cpsat() -> bool:
    try:
        import ortools  # noqa: F401

        import ai.solvers.cpsat  # noqa: F401
    except ImportError:
        return False
    return True


@lru_cache(maxsize=None)
def solution(path: Path) -> tuple[Brick, ...] | None:
    """A winning brick set within the level's N and B (None if there is none)."""
    level = Level.load(path)
    if _has_cpsat() and level.height * level.width < 600:
        import ai

        result = ai.solve(level, solver="cpsat", mode="any", time_limit=60)
        assert result.status.value in ("optimal", "feasible", "infeasible"), result.describe()
        return result.bricks
    found = next(iter(solutions_with(level, level.budget)), None)
    return found


@lru_cache(maxsize=None)
def minimum(path: Path) -> int | None:
    """The proved minimum brick count within N and B."""
    level = Level.load(path)
    if _has_cpsat():
        import ai

        result = ai.solve(level, solver="cpsat", time_limit=60)
        if result.bricks is None:
            return None
        assert result.min_bricks is not None, result.describe()
        return result.min_bricks
    found = min_bricks(level)
    return found[0] if found else None


def test_pack_shape() -> None:
    names = [p.name for p in PATHS]
    assert len(names) >= 20
    assert names[0] == "001_original.txt"
    assert names == sorted(names)
    for i, name in enumerate(names, 1):
        assert re.fullmatch(r"\d{3}_[a-z0-9_]+\.txt", name), name
        assert int(name[:3]) == i, f"{name}: levels are numbered 001, 002, ... without gaps"
    levels = [Level.load(p) for p in PATHS]
    assert all(lv.title for lv in levels)
    assert len({lv.title for lv in levels}) == len(levels), "titles are unique"
    assert len({lv.puzzle_hash for lv in levels}) == len(levels), "no duplicate puzzles"
    assert sum(len(lv.lemmings) >= 2 for lv in levels) >= 3
    assert sum(lv.height >= 20 and lv.width >= 30 for lv in levels) >= 2
    assert any((lv.height, lv.width) == (24, 32) for lv in levels), "bench/ui_frame_time.py uses a 24x32 level"


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_level_solvable_within_budget_and_frames(path: Path) -> None:
    level = Level.load(path)
    bricks = solution(path)
    assert bricks is not None, f"{path.name} has no solution within B={level.budget}, N={level.frames}"
    assert len(bricks) <= level.budget
    run = simulate(level, bricks)
    assert run.won and len(run.tracks) == len(level.lemmings)
    if level.budget > 0:
        assert not simulate(level).won, f"{path.name}: with B > 0, the level must need a brick"


def test_at_least_six_levels_need_three_bricks() -> None:
    # only levels with a budget of 3 or more can need 3 bricks; small ones keep the proofs fast
    candidates = [p for p in PATHS if Level.load(p).budget >= 3]
    needy = [p.name for p in candidates if (minimum(p) or 0) >= 3]
    assert len(needy) >= 6, needy


def test_tutorials_come_first_and_are_gentle() -> None:
    budgets = [Level.load(p).budget for p in PATHS[1:7]]
    assert all(b <= 1 for b in budgets), budgets


def test_search_agrees_on_small_levels() -> None:
    """The fallback search gives the same minimum as the exact solver on the small levels."""
    for path in PATHS[:8]:
        level = Level.load(path)
        found = min_bricks(level)
        assert found is not None and found[0] == minimum(path), path.name
        assert all(simulate(level, s).won for s in solutions_with(level, found[0]))


def test_pack_dir_is_levels() -> None:
    assert PACK_DIR.name == "levels"
