"""The solve, hint and bench commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from main import main
from tests.ai.exact_helpers import ORIGINAL, ORIGINAL_SOLUTIONS
from tests.conftest import ORIGINAL_NUMBER


def test_solve_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(ORIGINAL), "--solver", "cpsat", "--all", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["status", "solver", "min_bricks", "bricks", "solutions", "complete", "seconds"]
    assert data["min_bricks"] == 3 and data["complete"] is True
    assert sorted(tuple(map(tuple, s)) for s in data["solutions"]) == list(ORIGINAL_SOLUTIONS)


@pytest.mark.parametrize("solver", ["auto", "search", "brute", "milp"])
def test_solve_report(solver: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", ORIGINAL_NUMBER, "--solver", solver]) == 0
    assert "optimal: 3 bricks" in capsys.readouterr().out


def test_solve_with_the_research_solvers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", ORIGINAL_NUMBER, "--solver", "gradient", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["solver"] == "gradient" and data["status"] == "feasible"  # never claims a proof
    assert tuple(map(tuple, data["bricks"])) in ORIGINAL_SOLUTIONS
    assert main(["solve", ORIGINAL_NUMBER, "--solver", "learned", "--all", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["solver"] == "learned" and data["min_bricks"] == 3 and data["complete"] is True
    assert sorted(tuple(map(tuple, s)) for s in data["solutions"]) == list(ORIGINAL_SOLUTIONS)


def test_solve_lp(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", ORIGINAL_NUMBER, "--solver", "milp", "--lp"]) == 0
    assert "LP relaxation" in capsys.readouterr().out


def test_hint(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", ORIGINAL_NUMBER, "--bricks", "2,1;6,4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["action"] == "place" and data["cell"] == [6, 6]


def test_bench_writes_its_section(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "results.md"
    results.write_text("# Benchmark results\n\n## Other\n\nkeep me\n")
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "a.txt").write_text(ORIGINAL.read_text())
    assert main(["bench", "--suite", str(suite), "--solvers", "cpsat", "search", "--results", str(results)]) == 0
    text = results.read_text()
    assert "keep me" in text and "## Exact solvers" in text and "| cpsat | suite | 1/1 |" in text
