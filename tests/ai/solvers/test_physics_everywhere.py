"""Hints, analysis, rating, the generator and the failure reasons agree with the reference simulator under
every shipped physics and random physics of the class (ground truth: a tiny exhaustive enumeration)."""

from __future__ import annotations

import functools
import itertools
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest

from ai import facade
from ai.services.analysis import analyse_level, frames_lower_bound
from ai.services.generation.candidates import plant_candidate
from ai.services.generation.generator import generate_levels
from ai.services.generation.layout import make_layout
from ai.services.hints import HintAction, compute_hint
from game.cli.physics_arg import physics_option
from ai.services.generation.random_levels import small_level
from ai.services.rating import rate_level
from game.cli.main import main
from game.core.level import Level
from game.core.outcome import FailureKind, explain, move_of
from game.core.physics import Physics, PhysicsError, move_words
from game.core.physics_views import step, stepper
from game.core.reads import branch_taken, free_reads, run_reads
from game.core.simulation import simulate
from tests.physics_helpers import PHYSICS, optimal_sets, tiny_solver


@pytest.fixture(autouse=True)
def tiny_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(facade.SOLVERS, "tiny", tiny_solver)
    yield


@functools.lru_cache(maxsize=None)
def cases(physics: Physics, wanted: int = 2) -> tuple[Level, ...]:
    """Small levels under ``physics`` that need 1 or 2 bricks within the budget (few brickable cells)."""
    out = []
    for seed in range(400):
        level = small_level(seed, max_side=5, physics=physics)
        if not 1 <= level.budget <= 2 or len(level.brickable_cells) > 12:
            continue
        best = optimal_sets(level)
        if best and len(best[0]) >= 1:
            out.append(level)
            if len(out) == wanted:
                break
    return tuple(out)


def fewest_frames(level: Level, budget: int) -> int:
    """The fewest frames with which some set of at most ``budget`` bricks wins (brute force)."""
    for frames in range(1, level.frames + 1):
        if optimal_sets(level.with_limits(frames=frames), budget):
            return frames
    raise AssertionError("the level itself is won")


def fewest_frames_needing(level: Level, bricks: int) -> int:
    """The fewest frames from which the level still needs ``bricks`` bricks: a set of that many wins and none
    smaller does (brute force; where targets stop lemmings, the same as :func:`fewest_frames`)."""
    for frames in range(1, level.frames + 1):
        best = optimal_sets(level.with_limits(frames=frames), bricks)
        if best and len(best[0]) == bricks:
            return frames
    raise AssertionError("the level itself is won")


def test_most_physics_have_small_puzzles() -> None:
    # random physics may leave nothing to solve (lemmings that never move); the shipped ones all do
    assert all(cases(p) for p in PHYSICS[:5])
    assert sum(1 for p in PHYSICS if cases(p)) >= 9


@pytest.mark.parametrize("physics", PHYSICS, ids=lambda p: p.name)
def test_every_brick_of_a_minimum_solution_is_read_by_its_run(physics: Physics) -> None:
    for level in cases(physics):
        for solution in optimal_sets(level):
            read = {cell for _, _, cells in run_reads(level, solution) for cell in cells}
            assert set(solution) <= read  # else dropping the unread brick would leave the same, winning run


@pytest.mark.parametrize("physics", PHYSICS, ids=lambda p: p.name)
def test_following_hints_ends_on_a_minimum_solution(physics: Physics) -> None:
    for level in cases(physics):
        best = optimal_sets(level)
        used = set().union(*map(set, best))
        first = compute_hint(level, [], solver="tiny")
        assert first.min_bricks == len(best[0])
        assert set(first.forced) == set.intersection(*map(set, best))
        assert set(first.never_useful) == set(level.brickable_cells) - used
        bricks: list[tuple[int, int]] = []
        for _ in range(2 * level.budget + 2):
            hint = compute_hint(level, bricks, solver="tiny")
            if hint.action == HintAction.SOLVED:
                break
            assert hint.cell is not None
            if hint.action == HintAction.PLACE:
                assert hint.cell in used  # a brick of a real minimum solution under this physics
                bricks.append(hint.cell)
            else:
                bricks.remove(hint.cell)
        assert tuple(sorted(bricks)) in best and simulate(level, bricks).won


@pytest.mark.parametrize("physics", PHYSICS, ids=lambda p: p.name)
def test_analysis_minimum_and_fewest_frames(physics: Physics) -> None:
    for level in cases(physics):
        best = optimal_sets(level)
        analysis = analyse_level(level, solver="tiny")
        assert analysis.min_bricks == len(best[0])
        assert analysis.solution_count == len(best)
        assert analysis.frames_proved
        assert analysis.fewest_frames == fewest_frames_needing(level, len(best[0]))
        if level.physics.targets_stop:
            assert analysis.fewest_frames == fewest_frames(level, len(best[0]))
        assert frames_lower_bound(level) <= analysis.fewest_frames


@pytest.mark.parametrize("physics", PHYSICS, ids=lambda p: p.name)
def test_rating_counts_and_slack(physics: Physics) -> None:
    for level in cases(physics, 1):
        best = optimal_sets(level)
        rating = rate_level(level, solver="tiny")
        assert (rating.min_bricks, rating.solutions, rating.solutions_complete) == (len(best[0]), len(best), True)
        shortest = fewest_frames(level, level.budget) if level.physics.targets_stop else \
            fewest_frames_needing(level, len(best[0]))  # where lemmings walk off targets: still needing the minimum
        assert rating.frame_slack == level.frames - shortest


def test_frame_bound_follows_the_moves() -> None:
    rows = ["   T", ">   ", "XXXX"]
    assert frames_lower_bound(Level.from_rows(rows, frames=9, budget=0)) == 9  # classic never goes up
    climber = Level.from_rows(rows, frames=9, budget=0).with_physics(physics_option("climber"))
    assert frames_lower_bound(climber) == 4  # climbing is diagonal: 3 moves cover one row up and 3 columns
    drifter = Level.from_rows([">   ", "    ", "   T", "XXXX"], frames=9, budget=0).with_physics(
        physics_option("drifter"))
    assert frames_lower_bound(drifter) == 4  # diagonal moves: 3 moves cover 2 rows and 3 columns


@pytest.mark.parametrize("physics", PHYSICS, ids=lambda p: p.name)
def test_failure_reasons_hold_for_longer_runs(physics: Physics) -> None:
    checked = 0
    for seed in range(60):
        level = small_level(seed, physics=physics)
        for bricks in itertools.islice(itertools.combinations(level.brickable_cells, 1), 3):
            run = simulate(level, bricks, enforce_budget=False)
            longer = simulate(level.with_limits(frames=level.frames + 30), bricks, enforce_budget=False)
            for f in explain(run):
                track, more = run.tracks[f.lemming], longer.tracks[f.lemming]
                checked += 1
                loops = (FailureKind.STUCK_TURNING, FailureKind.PACING, FailureKind.FELL_INTO_PIT, FailureKind.STANDING)
                if f.kind in loops:
                    assert more.reached_at is None  # a loop that crosses no target never wins
                    assert not {p[:2] for p in more.path[level.frames:]} & set(level.targets)
                if f.kind == FailureKind.STUCK_TURNING:
                    assert {p[:2] for p in more.path[f.frame:]} == {f.cell}
                    assert len(set(more.path[f.frame:])) == 2  # it really turns, frame after frame
                if f.kind == FailureKind.STANDING or f.standing:
                    assert len(set(more.path[level.frames - 1:])) == 1
                if f.kind == FailureKind.OFF_TARGET:
                    assert not physics.targets_stop
                if f.kind in (FailureKind.STILL_FALLING, FailureKind.STILL_WALKING) and len(track.path) > 1:
                    move, turn = move_of(track.path[-2], track.path[-1])
                    assert f.move == move_words(move, turn)
                    assert (f.kind == FailureKind.STILL_FALLING) == (move[0] > 0)
                if f.walled and f.kind in (FailureKind.STUCK_TURNING, FailureKind.PACING):
                    text = f.sentence()
                    if "between two walls" in text:  # every turn in the loop faced a solid cell
                        loop = track.path[f.frame:]
                        for a, b in zip(loop, loop[1:]):
                            if move_of(a, b)[1]:
                                r, c, d = a
                                assert (r, c + d) in bricks or not level.in_bounds(r, c + d) \
                                    or level.char_at(r, c + d) == "X"
    assert checked > 0


def test_careful_pacing_between_edges_does_not_claim_walls() -> None:
    level = Level.from_rows(["X      ", "X>     ", "XXXX   ", "X     T"], frames=20, budget=0).with_physics(
        physics_option("careful"))
    (failure,) = explain(simulate(level))
    assert failure.kind == FailureKind.PACING
    assert failure.sentence() == "walking back and forth from frame 0"
    classic = Level.from_rows(["X    X", "X>   X", "XXXXXX", "T     "], frames=20, budget=0)
    assert explain(simulate(classic))[0].sentence() == "walking back and forth between two walls from frame 0"


def test_generate_physics_option() -> None:
    assert physics_option("restless").targets_stop is False
    assert physics_option('{"name": "still", "rules": []}').name == "still"
    with pytest.raises(PhysicsError, match="neither a shipped physics"):
        physics_option("no-such-physics")


@pytest.mark.parametrize("name", ["careful", "climber", "drifter", "restless"])
def test_generated_level_under_a_physics_is_won_by_its_certified_solution(name: str) -> None:
    physics = physics_option(name)
    (made,) = list(generate_levels(7, 8, bricks=1, count=1, seed=3, solver="tiny", physics=physics,
                                   max_attempts=400))
    assert made.level.physics == physics and ("physics", name) in made.level.meta_lines
    for solution in made.solutions:
        assert simulate(made.level, solution).won
    assert len(optimal_sets(made.level)[0]) == 1
    assert not simulate(made.level).won


def test_candidates_plant_a_winning_set_under_each_physics() -> None:
    for physics in PHYSICS[:5]:
        found = 0
        for attempt in range(60):
            rng = np.random.default_rng([7, attempt])
            cand = plant_candidate(rng, make_layout(rng, 8, 10), bricks=1, lemmings=1, frames=40, physics=physics)
            if cand is None:
                continue
            found += 1
            assert cand.level.physics == physics
            assert simulate(cand.level, cand.planted).won  # the planted set wins under the level's physics
            assert not simulate(cand.level).won or physics.name != "classic"
        assert found, physics.name


def test_generate_cli_with_a_physics(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["generate", "--size", "7x8", "--bricks", "1", "--seed", "3", "--physics", "climber",
                 "--solver", "brute", "--jobs", "1", "--quiet", "--out", str(tmp_path / "gen")])
    assert code == 0, capsys.readouterr()
    (path,) = sorted((tmp_path / "gen").glob("*.txt"))
    level = Level.load(path)
    assert ("physics", "climber") in level.meta_lines and level.physics.name == "climber"
    assert len(optimal_sets(level)[0]) == 1
    rules = tmp_path / "rules.json"
    rules.write_text('{"name": "mine", "rules": [{"when": {"1,0": "free"}, "move": [1, 0]}]}', encoding="utf-8")
    assert main(["generate", "--size", "7x8", "--bricks", "1", "--physics", str(rules), "--solver", "brute",
                 "--jobs", "1", "--quiet", "--max-attempts", "1", "--out", str(tmp_path / "gen2")]) in (0, 1)
    assert main(["generate", "--size", "7x8", "--bricks", "1", "--physics", "nosuch", "--out", str(tmp_path)]) == 2
    assert "neither a shipped physics" in capsys.readouterr().err
    rules.write_text('{"rules": [{"move": [0, 1]}]}', encoding="utf-8")
    assert main(["generate", "--size", "7x8", "--bricks", "1", "--physics", str(rules), "--out", str(tmp_path)]) == 2
    assert "does not require free" in capsys.readouterr().err


@pytest.mark.parametrize("physics", PHYSICS, ids=lambda p: p.name)
def test_fast_lookups_equal_the_physics(physics: Physics) -> None:

    rng = np.random.default_rng(0)
    for _ in range(20):
        walls = rng.random((6, 7)) < 0.35
        targets = {(int(r), int(c)) for r, c in np.argwhere(rng.random((6, 7)) < 0.1)}

        def solid(r: int, c: int) -> bool:
            return not (0 <= r < 6 and 0 <= c < 7) or bool(walls[r, c])

        def on_target(r: int, c: int) -> bool:
            return (r, c) in targets

        fast = stepper(physics, solid, on_target)
        for r, c in np.argwhere(~walls):
            for d in (-1, 1):
                state = (int(r), int(c), d)
                assert fast(state) == step(physics, solid, on_target, state)
                branch = branch_taken(physics, solid, state)
                assert all(solid(*cell) == want for cell, want in branch.cells(state))  # its needs hold
                assert free_reads(physics, solid, state) == tuple(cell for cell, want in branch.cells(state)
                                                                  if not want)
