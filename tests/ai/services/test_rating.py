"""Difficulty ratings: each figure on levels built to show it, the combined score, the ``rate`` command."""

from __future__ import annotations

import json

import pytest

from ai import facade
from ai.services.rating import Rating, difficulty_score, rate_level
from game.core.level import Level
from game.cli.main import main
from tests.conftest import ORIGINAL_NUMBER, ORIGINAL_PACK

#: One lemming, one pit, the target beyond: one brick fills the gap (the preview shows where).
GAP = Level.from_rows(["      ", ">   T ", "XX XXX"], frames=8, budget=1)
#: Two lemmings crossing the same pit: the one brick serves both.
SHARED = Level.from_rows([">>  T", "XXX X"], frames=8, budget=1)


def test_the_gap_level() -> None:
    r = rate_level(GAP)
    assert (r.min_bricks, r.solutions, r.unique, r.preview_solves) == (1, 1, True, True)
    assert r.sharing_lemmings == 0 and r.lemmings == 1
    # the lemming needs 4 moves to reach the target: frames 0..4, so 5 frames win and 8 leave 3 spare
    assert r.frame_slack == 3
    assert rate_level(GAP.with_limits(frames=5)).frame_slack == 0
    assert not facade.solve(GAP.with_limits(frames=4), solver="search").solved
    # decoys: free cells near the run that no optimal solution uses, weighted by closeness
    assert r.decoys > 0 and r.decoys / 3 <= r.decoy_weight <= r.decoys


def test_shared_bricks_and_tight_timing_raise_the_score() -> None:
    shared = rate_level(SHARED)
    assert shared.sharing_lemmings == 2 and shared.min_bricks == 1
    loose, tight = rate_level(GAP), rate_level(GAP.with_limits(frames=5))
    assert tight.score > loose.score


def test_the_original() -> None:
    level = Level.load(ORIGINAL_PACK)
    r = rate_level(level)
    assert (r.min_bricks, r.solutions, r.solutions_complete) == (3, 6, True)
    assert not r.preview_solves  # one brick turns the lemming around: the preview does not show it
    assert r.nodes > 0 and r.frame_slack is not None and r.frame_slack >= 0
    assert facade.solve(level.with_limits(frames=level.frames - r.frame_slack), solver="cpsat").min_bricks == 3
    assert not facade.solve(level.with_limits(frames=level.frames - r.frame_slack - 1), solver="cpsat").solved


def test_another_exact_solver_gives_the_same_figures() -> None:
    level = Level.load(ORIGINAL_PACK)
    a, b = rate_level(level, solver="search"), rate_level(level, solver="cpsat")
    assert (a.min_bricks, a.solutions, a.frame_slack, a.decoys, a.sharing_lemmings, a.preview_solves) == (
        b.min_bricks, b.solutions, b.frame_slack, b.decoys, b.sharing_lemmings, b.preview_solves)


def test_unsolvable_level() -> None:
    r = rate_level(GAP.with_limits(budget=0))
    assert r.min_bricks is None and not r.solvable and r.score == 0.0
    assert r.lines() == ["no solution within B=0, N=8 (infeasible)"]


def test_lines_and_json() -> None:
    r = rate_level(SHARED)
    lines = r.lines()
    assert lines[0] == f"{r.label} (score {r.score:.1f})" and r.label.startswith("Difficulty ")
    assert " / 10: " in r.label and lines[1] == "fewest bricks: 1, in exactly one way"
    assert not any("weight" in line for line in lines)  # words a player reads
    assert any("2 of 2 lemmings must share" in line for line in lines)
    data = r.to_json()
    assert data["unique"] is True and data["score"] == round(r.score, 2) and data["sharing_lemmings"] == 2
    assert data["label"] == r.label and 1 <= data["difficulty"] <= 10 and data["status"] == "optimal"
    assert "decoy_weight" in data  # the designer's fields stay


def test_the_player_scale_is_stated_and_ordered() -> None:
    from ai.services.rating import player_label, player_step

    steps = [player_step(x / 4) for x in range(0, 80)]
    assert steps == sorted(steps) and steps[0] == 1 and steps[-1] == 10
    assert player_label(3.8) == "Difficulty 1 / 10: very easy"  # a trivial one-gap level


def test_score_counts_each_figure() -> None:
    base = Rating(2, 4, True, 99, 0.01, 0, 0.0, 10, 0, True, 1, 2, 30)
    assert difficulty_score(base) == pytest.approx(2 + 2.0 + 0.75)
    harder = Rating(2, 1, True, 99, 0.01, 10, 10.0, 0, 2, False, 2, 2, 30)
    assert difficulty_score(harder) == pytest.approx(2 + 0.5 + 2.0 + 1.5 + 1.5 + 1.5 + 1.0 + 2.0)


def test_rate_command(capsys: pytest.CaptureFixture[str], tmp_path: pytest.TempPathFactory) -> None:
    assert main(["rate", ORIGINAL_NUMBER, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["title"] == "The Original" and data["min_bricks"] == 3 and data["solutions"] == 6
    assert main(["rate", "1", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("Difficulty ") == 2 and "Let Them Go" in out
    assert main(["rate", "1", "2", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 2


def test_rate_command_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rate", "no/such/level.txt"]) == 2
    assert "no/such/level.txt" in capsys.readouterr().err
    assert main(["rate", "1", "--time-limit", "0"]) == 2
    assert "--time-limit" in capsys.readouterr().err
    assert main(["rate", "999"]) == 2
