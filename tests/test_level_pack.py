"""The shipped pack: 40 levels in worlds, tutorials first, ordered by measured difficulty, all solvable.

Every level is proved solvable within its B and N by the exact search (``facade.solve(...,
solver="search")``, which replays its answer in the reference simulator) and, independently,
its minimum is re-proved by CP-SAT on the small levels and by the small complete search of
``tests/pack_search.py`` on the first ones.  The curve and the variety the pack promises
(unique optima, 4+ bricks, timing, shared bricks, levels the preview does not give away)
are measured by :func:`ai.services.rating.rate_level`, as ``docs/levels.md`` lists them.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from ai import facade
from ai.kernel.context import SolveContext
from ai.services.rating import Rating, rate_level
from game.core.level import Level
from game.core.physics_catalog import SHIPPED
from game.core.pack import (
    ORIGINAL_TITLE, PACK_DIR, UNLOCK_FRACTION, World, open_worlds, pack_level_paths, pack_worlds,
)
from game.core.physics_views import views
from game.core.simulation import simulate
from tests.pack_search import min_bricks, solutions_with

PATHS = pack_level_paths()
#: The classic worlds (the first 40 levels) and the mystery worlds (each with a physics of its own).
CLASSIC_PATHS = [p for p in PATHS if views(Level.load(p).physics).is_classic]
MYSTERY_PATHS = [p for p in PATHS if not views(Level.load(p).physics).is_classic]
#: The tutorials, in teaching order: the pack opens with them.
TUTORIALS = ("Let Them Go", "Down the Stairs", "About Turn", "Mind the Gap", "Stop Right There", "Two at Once")


@lru_cache(maxsize=None)
def rating(path: Path) -> Rating:
    return rate_level(Level.load(path), SolveContext.create(time_limit=60))


def _has_cpsat() -> bool:
    try:
        import ortools  # noqa: F401  # late: probes an optional dependency

        import ai.solvers.cpsat  # noqa: F401  # late: probes an optional dependency
    except ImportError:
        return False
    return True


def test_pack_shape() -> None:
    names = [p.name for p in PATHS]
    assert len(names) >= 40
    assert names == sorted(names)
    for i, name in enumerate(names, 1):
        assert re.fullmatch(r"\d{3}_[a-z0-9_]+\.txt", name), name
        assert int(name[:3]) == i, f"{name}: levels are numbered 001, 002, ... without gaps"
    levels = [Level.load(p) for p in PATHS]
    assert all(lv.title for lv in levels)
    assert len({lv.title for lv in levels}) == len(levels), "titles are unique"
    assert len({lv.puzzle_hash for lv in levels}) == len(levels), "no duplicate puzzles"
    assert sum(len(lv.lemmings) >= 2 for lv in levels) >= 10
    assert sum(lv.height >= 20 and lv.width >= 30 for lv in levels) >= 2
    assert any((lv.height, lv.width) == (24, 32) for lv in levels), "bench/ui_frame_time.py uses a 24x32 level"


def test_tutorials_first_then_the_original() -> None:
    titles = [Level.load(p).title for p in PATHS]
    assert tuple(titles[: len(TUTORIALS)]) == TUTORIALS
    assert titles[len(TUTORIALS)] == ORIGINAL_TITLE
    budgets = [Level.load(p).budget for p in PATHS[: len(TUTORIALS)]]
    assert all(b <= 1 for b in budgets), budgets


def test_worlds_of_ten_that_open_in_turn() -> None:
    every = pack_worlds()
    assert [p for w in every for p in w.levels] == PATHS
    worlds = every[:4]
    assert all(len(w.levels) == 10 for w in worlds) and CLASSIC_PATHS == [p for w in worlds for p in w.levels]
    assert len({w.title for w in every}) == len(every)
    need = worlds[0].need()
    assert need == round(UNLOCK_FRACTION * 10) and need > 5  # "most of" the previous world
    first = {p.name for p in worlds[0].levels[: need - 1]}
    assert open_worlds(every, first)[:4] == [True, False, False, False]
    first.add(worlds[0].levels[-1].name)
    assert open_worlds(every, first)[:4] == [True, True, False, False]


def test_mystery_worlds_each_with_a_physics_of_its_own() -> None:
    """At least four worlds of at least 8 levels, each world one shipped physics that is not classic; the
    player is told only the world's name (no title or world name says the physics)."""
    mystery = pack_worlds()[4:]
    assert len(mystery) >= 4 and all(len(w.levels) >= 8 for w in mystery)
    seen = set()
    for world in mystery:
        lines = {Level.load(p).physics.name for p in world.levels}
        assert len(lines) == 1, world.title
        (line,) = lines
        assert line in SHIPPED and line != "classic" and line not in seen
        seen.add(line)
        for path in world.levels:
            level = Level.load(path)
            assert line not in level.title.lower() and line not in world.title.lower()


@pytest.mark.parametrize("path", MYSTERY_PATHS, ids=[p.stem for p in MYSTERY_PATHS])
def test_mystery_levels_need_their_physics(path: Path) -> None:
    """The budget is the proved minimum under the level's physics (brute force), and the level does not play
    the same under the classic rule (its winning sets differ)."""
    level = Level.load(path)
    result = facade.solve(level, solver="brute", mode="all", time_limit=120)
    assert result.min_bricks == level.budget and result.complete
    classic = facade.solve(level.with_physics(SHIPPED["classic"]), solver="brute", mode="all", time_limit=120)
    assert classic.min_bricks != level.budget or set(classic.solutions) != set(result.solutions)


def _classic_answer_loses(path: Path) -> bool:
    """True when solving the level under the classic rules gives brick sets (every minimum one, proved by the
    exact search) and none of them wins under the level's own physics."""
    level = Level.load(path)
    classic = facade.solve(level.with_physics(SHIPPED["classic"]), solver="search", mode="all", time_limit=60)
    if classic.min_bricks is None or not classic.complete or not classic.solutions:
        return False
    return not any(simulate(level, bricks).won for bricks in classic.solutions)


@pytest.mark.parametrize("world", pack_worlds()[4:], ids=lambda w: w.title)
def test_mystery_world_opens_where_the_classic_answer_loses(world: World) -> None:
    """The first level of each mystery world is one where the classic expectation visibly fails (every
    classic answer loses under the world's physics), and a later level of the world needs the new rule the
    same way; each such level is solvable under its own physics."""
    assert _classic_answer_loses(world.levels[0]), f"{world.levels[0].name}: a classic answer wins"
    later = [p for p in world.levels[1:] if _classic_answer_loses(p)]
    assert later, f"{world.title}: no later level where the classic answer loses"
    for path in (world.levels[0], later[0]):
        assert facade.solve(Level.load(path), solver="search", time_limit=60).solved


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_level_solvable_within_budget_and_frames(path: Path) -> None:
    level = Level.load(path)
    result = facade.solve(level, solver="search", mode="min", time_limit=60)
    assert result.bricks is not None, f"{path.name} has no solution within B={level.budget}, N={level.frames}"
    assert len(result.bricks) <= level.budget
    run = simulate(level, result.bricks)
    assert run.won and len(run.tracks) == len(level.lemmings)
    if level.budget > 0:
        assert not simulate(level).won, f"{path.name}: with B > 0, the level must need a brick"
        assert result.min_bricks == level.budget, f"{path.name}: the budget is the proved minimum"


def test_ordered_by_measured_difficulty() -> None:
    """After the tutorials and The Original, the measured score never falls."""
    scores = [rating(p).score for p in CLASSIC_PATHS[len(TUTORIALS) + 1:]]
    assert scores == sorted(scores), scores
    worlds = pack_worlds()[:4]
    means = [sum(rating(p).score for p in w.levels) / len(w.levels) for w in worlds]
    assert means == sorted(means), means


def test_the_curve_has_variety() -> None:
    ratings = [rating(p) for p in CLASSIC_PATHS]
    assert sum(r.unique and (r.min_bricks or 0) > 0 for r in ratings) >= 12, "unique optimal solutions"
    assert sum((r.min_bricks or 0) >= 4 for r in ratings) >= 10, "levels needing 4 or more bricks"
    assert sum(r.frame_slack == 0 and (r.min_bricks or 0) > 0 for r in ratings) >= 6, "levels that need timing"
    assert sum(r.sharing_lemmings >= 2 for r in ratings) >= 8, "levels where lemmings share bricks"
    assert sum(not r.preview_solves for r in ratings) >= 10, "levels the preview does not give away"
    assert sum(r.decoy_weight >= 20 and (r.min_bricks or 0) >= 3 for r in ratings) >= 10, "decoys"


def test_cpsat_agrees_on_the_minimum() -> None:
    """A second exact solver re-proves the minimum (and the optimal-solution count) of the small levels."""
    if not _has_cpsat():
        pytest.skip("ortools is not installed")
    small = [p for p in PATHS if Level.load(p).height * Level.load(p).width <= 200][:12]
    assert len(small) >= 8
    for path in small:
        level = Level.load(path)
        res = facade.solve(level, solver="cpsat", mode="all", time_limit=60)
        assert res.min_bricks == rating(path).min_bricks, path.name
        assert res.complete and len(res.solutions) == rating(path).solutions, path.name


def test_search_agrees_on_small_levels() -> None:
    """The test's own complete search gives the same minimum as the rating on the first levels."""
    for path in PATHS[:8]:
        level = Level.load(path)
        found = min_bricks(level)
        assert found is not None and found[0] == rating(path).min_bricks, path.name
        assert all(simulate(level, s).won for s in solutions_with(level, found[0]))


def test_pack_dir_is_levels() -> None:
    assert PACK_DIR.name == "levels"
