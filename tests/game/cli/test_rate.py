"""The rate command: "No solution" only with a proof, exit 1 when a level is not rated completely in time."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ai import facade
from game.cli.main import main
from game.core.level import Level
from tests.conftest import ORIGINAL_NUMBER, REPO
from tests.level_builders import stress_level

#: One lemming, one pit: one brick fills it, so with B = 0 the level is proved impossible.
GAP = Level.from_rows(["      ", ">   T ", "XX XXX"], frames=8, budget=1)


def test_a_rated_level_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rate", ORIGINAL_NUMBER]) == 0
    out = capsys.readouterr().out
    assert "Difficulty " in out and "fewest bricks: 3" in out


def test_a_proved_impossible_level_says_no_solution_and_exits_0(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "gap.txt"
    GAP.with_limits(budget=0).save(path)
    assert main(["rate", str(path)]) == 0
    assert "no solution within B=0, N=8 (proved impossible)" in capsys.readouterr().out
    assert main(["rate", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["label"], data["status"], data["proved"], data["complete"]) == ("No solution", "infeasible", True, True)


def test_a_level_stopped_by_the_limit_is_not_called_unsolvable_and_exits_1(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rate", ORIGINAL_NUMBER, "--time-limit", "0.001"]) == 1
    out = capsys.readouterr().out
    assert "no solution" not in out.lower()
    assert "not rated (timed out)" in out or "not fully rated (timed out)" in out
    assert main(["rate", ORIGINAL_NUMBER, "--time-limit", "0.001", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "timeout" and data["label"] != "No solution" and not data["complete"]


def test_one_unrated_level_among_rated_ones_makes_the_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rate", "1", ORIGINAL_NUMBER, "--time-limit", "0.001", "--markdown"]) == 1
    out = capsys.readouterr().out
    assert "Not rated (timed out)" in out or "Not fully rated (timed out)" in out


@pytest.mark.parametrize("form", ["--markdown", "--json", None])
def test_a_bad_level_among_several_is_found_before_any_rating(form: str | None, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    rated: list[Level] = []

    def rate_level(level: Level, ctx: object) -> None:
        rated.append(level)
        raise AssertionError("a level was rated before every file was read")

    monkeypatch.setattr(facade, "rate_level", rate_level)
    argv = ["rate", ORIGINAL_NUMBER, str(tmp_path / "missing.txt"), *([form] if form else [])]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert rated == [] and captured.out == ""
    assert captured.err.strip() == f"{tmp_path / 'missing.txt'}: no such file"


def test_the_stress_level_is_rated_with_its_proved_minimum_end_to_end(tmp_path: Path) -> None:
    # 96x128, N = 1,000, B = 80: the search declines it, auto proves 80 in well under a second; its full
    # rating (a thousand frames per brick removed) does not fit in 3 s, so: partial, exit 1, minimum shown
    path = tmp_path / "stress_4x4_N1000.txt"
    stress_level().save(path)
    start = time.perf_counter()
    run = subprocess.run([sys.executable, "main.py", "rate", str(path), "--time-limit", "3", "--json"], cwd=REPO,
                         capture_output=True, text=True, timeout=120)
    wall = time.perf_counter() - start
    assert run.returncode == 1, run.stderr
    data = json.loads(run.stdout)
    assert data["min_bricks"] == 80 and data["proved"] and data["label"] != "No solution"
    assert data["status"] == "timeout" and data["label"] == "Not fully rated (timed out)"
    assert wall < 3 + 60  # an upper bound (start-up included), never a speed test
