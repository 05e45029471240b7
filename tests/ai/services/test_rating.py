"""Difficulty ratings: each figure on levels built to show it, the combined score, the ``rate`` command."""

from __future__ import annotations

import json
import threading
from typing import Callable
from unittest import mock

import pytest

from ai import facade
from ai.kernel.base import SolveMode, SolveStatus
from ai.kernel.context import SolveContext
from ai.services.analysis import analyse_level
from ai.services.rating import Rating, difficulty_score, player_label, player_step, rate_level
from ai.solvers.base import Outcome, Partial, SolverBase
from ai.solvers.search import search_fits
from game.core.level import Level
from game.cli.main import main
from tests.conftest import ORIGINAL_NUMBER, ORIGINAL_PACK
from tests.level_builders import stress_level

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
    assert r.lines() == ["no solution within B=0, N=8 (proved impossible)"]
    assert r.label == "No solution" and r.proved and r.complete and r.to_json()["status"] == "infeasible"


def test_a_level_the_search_declines_is_rated_by_the_machinery_of_solve() -> None:
    # 96x128, N = 1,000, 48 lemmings, B = 80: too large for the search, which gives up ("unknown");
    # auto splits it into independent parts and proves the minimum, so the rating must not say "No solution"
    level = stress_level()
    assert not search_fits(level)
    assert facade.solve(level, solver="search", time_limit=60).status == SolveStatus.UNKNOWN
    cancel = threading.Event()
    ctx = SolveContext.create(cancel=cancel)
    # the later figures (a thousand frames for each of 80 bricks) are not this test's subject: stop before them
    with mock.patch("ai.services.rating_figures.frame_slack", side_effect=stop_with(cancel, ctx)):
        r = rate_level(level, ctx)
    assert r.min_bricks == 80 and r.proved and r.label == "Not fully rated (cancelled)"
    assert r.solutions_complete and r.solutions == 6 ** 16  # counted, not listed: 16 tiles of 6 optimal sets each


def test_a_rating_stopped_before_any_proof_says_timed_out_not_no_solution() -> None:
    r = rate_level(Level.load(ORIGINAL_PACK), SolveContext.create(time_limit=0.0))
    assert r.min_bricks is None and r.status == SolveStatus.TIMEOUT and not r.proved and not r.complete
    assert r.label == "Not rated (timed out)"
    assert r.lines()[0].startswith("not rated (timed out): neither a minimum nor the impossibility was proved")
    data = r.to_json()
    assert (data["status"], data["proved"], data["complete"], data["difficulty"]) == ("timeout", False, False, None)


def test_a_solver_that_gives_up_leaves_the_level_unknown() -> None:
    r = rate_level(Level.load(ORIGINAL_PACK), solver=GivesUp())
    assert r.status == SolveStatus.UNKNOWN and r.label == "Not rated (unknown)" and not r.proved
    assert "gave up" in r.lines()[0] and "no solution" not in r.lines()[0]


def test_a_rating_stopped_after_the_minimum_keeps_it_and_says_so() -> None:
    cancel = threading.Event()
    ctx = SolveContext.create(cancel=cancel)
    with mock.patch("ai.services.rating_figures.decoys", side_effect=stop_with(cancel, ctx)):
        r = rate_level(Level.load(ORIGINAL_PACK), ctx)
    assert (r.min_bricks, r.status, r.proved, r.complete) == (3, SolveStatus.CANCELLED, True, False)
    assert r.label == "Not fully rated (cancelled)" and r.to_json()["difficulty"] is None
    assert r.lines()[0].startswith("not fully rated (cancelled): the minimum is proved")
    assert r.lines()[1] == "fewest bricks: 3, in 6 different ways"


def stop_with(cancel: threading.Event, ctx: SolveContext) -> Callable[..., None]:
    """A stand-in for a figure's measure: the user cancels the rating while it runs."""
    def stop(*_: object, **__: object) -> None:
        cancel.set()
        ctx.check()
    return stop


class GivesUp(SolverBase):
    """An exact solver that never decides (a stand-in for one declining a level)."""

    name, exact = "gives-up", True
    shortcuts = False

    def core(self, level: Level, mode: SolveMode, ctx: SolveContext, partial: Partial) -> Outcome:
        return Outcome(SolveStatus.UNKNOWN, message="gave up")


def test_lines_and_json() -> None:
    r = rate_level(SHARED)
    lines = r.lines()
    assert lines[0] == r.label and r.label.startswith("Difficulty ")  # one difficulty number
    assert " / 10: " in r.label and lines[1] == "fewest bricks: 1, in exactly one way"
    assert not any("weight" in line for line in lines)  # words a player reads
    assert any("2 of 2 lemmings must share" in line for line in lines)
    data = r.to_json()
    assert data["unique"] is True and data["score"] == round(r.score, 2) and data["sharing_lemmings"] == 2
    assert data["label"] == r.label and 1 <= data["difficulty"] <= 10 and data["status"] == "optimal"
    assert "decoy_weight" in data  # the designer's fields stay


def test_rating_lines_show_only_figures_that_mean_something() -> None:
    one_brick = Rating(1, 1, True, 3, 0.0, 88, 40.0, 0, 0, True, 1, 1, 20)
    lines = one_brick.lines()
    assert lines[0] == one_brick.label and not any("score" in line or "88" in line for line in lines)
    assert "many cells near the path look useful but are in no best solution" in lines
    assert any(line.startswith("the preview alone leads there: each brick") for line in lines)
    hidden = Rating(3, 2, True, 50, 0.0, 4, 1.5, 1, 0, False, 1, 3, 20).lines()
    assert "the preview alone does not lead there: some brick helps only together with another" in hidden
    assert "a few cells near the path look useful but are in no best solution" in hidden
    nothing_to_place = Rating(0, 1, True, 1, 0.0, 5, 2.0, 3, 0, True, 1, 0, 12).lines()
    assert not any("preview" in line or "near the path" in line for line in nothing_to_place)
    assert "no bricks needed" in nothing_to_place


def test_the_player_scale_is_stated_and_ordered() -> None:
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


def test_spare_frames_where_lemmings_walk_off_targets_agree_with_the_fewest_frames() -> None:
    """Clockwork's lemming stands on a target after 3 frames with no brick: its 2-brick puzzle needs 6, and
    the rating's spare frames say so, as the analysis beside it in the editor does."""
    level = Level.load("levels/072_clockwork.txt")
    fewest = analyse_level(level).fewest_frames
    assert fewest == 6
    assert rate_level(level).frame_slack == level.frames - fewest
