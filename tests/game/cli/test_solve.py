"""The solve, hint and bench commands."""

from __future__ import annotations

import argparse
import ast
import json
from pathlib import Path

import pytest

import game.cli.solve
from ai import facade
from ai.facade import SolveContext, SolveMode
from ai.services import benchmark
from ai.services.benchmark import DEFAULT_SOLVERS
from game.cli.main import build_parser, main
from game.cli.solve import EXACT_SOLVERS
from game.app.assistant import tasks
from game.core.level import Level
from game.core.rules import parse_bricks
from tests.ai.solvers.exact_helpers import ORIGINAL, ORIGINAL_SOLUTIONS, UNREACHABLE, original
from tests.conftest import ORIGINAL_NUMBER, REPO


def test_solve_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(ORIGINAL), "--solver", "cpsat", "--all", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["status", "solver", "mode", "min_bricks", "bricks", "solutions", "complete",
                          "solution_count", "best_bound", "seconds", "message", "relaxed"]
    assert data["mode"] == "all" and data["best_bound"] == 3 and data["relaxed"] is None
    assert data["min_bricks"] == 3 and data["complete"] is True and data["solution_count"] == 6
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


def test_solve_lp_json_carries_objective_and_densities(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", ORIGINAL_NUMBER, "--solver", "milp", "--lp", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["bricks"] is None and data["solutions"] == []  # a relaxation is no brick set
    relaxed = data["relaxed"]
    assert 0 < relaxed["objective"] <= 3  # a lower bound on the optimum (3 bricks)
    densities = relaxed["densities"]
    assert densities and all(0 < d["density"] <= 1 + 1e-6 for d in densities)
    assert sum(d["density"] for d in densities) == pytest.approx(relaxed["objective"], abs=1e-3)
    level = original()
    assert all(tuple(d["cell"]) in level.brickable_cells for d in densities)


def test_no_answer_prints_null_bricks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``[]`` is the 0-brick solution; no answer is ``null``."""
    unreachable = tmp_path / "unreachable.txt"
    unreachable.write_text(UNREACHABLE.to_text())
    assert main(["solve", str(unreachable), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "infeasible" and data["bricks"] is None and data["best_bound"] is None
    assert main(["solve", str(REPO / "bench/suites/large/004_large.txt"), "--solver", "cpsat", "--time-limit", "0.001",
                 "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["status"] in ("timeout", "cancelled", "unknown") and data["bricks"] is None
    won = tmp_path / "won.txt"
    won.write_text("3\n0\n> T\nXXX\n")  # won with no brick
    assert main(["solve", str(won), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "optimal" and data["bricks"] == [] and data["min_bricks"] == 0


def test_hint(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hint", ORIGINAL_NUMBER, "--bricks", "2,1;6,4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["action"] == "place" and data["cell"] == [6, 6] and data["steps"] == [["place", [6, 6]]]


def test_hint_with_learned_rules_gives_the_whole_plan(capsys: pytest.CaptureFixture[str]) -> None:
    """Like the exact hint: the steps lead from the player's bricks to the solution shown, first step first."""
    rules = str(REPO / "ai" / "learning" / "default_rules.json")
    assert main(["hint", ORIGINAL_NUMBER, "--bricks", "3,1", "--rules", rules, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    steps = [(action, tuple(cell)) for action, cell in data["steps"]]
    assert steps[0] == (data["action"], tuple(data["cell"])) == ("remove", (3, 1))
    assert {cell for action, cell in steps if action == "place"} == {tuple(b) for b in data["solution"]}
    assert main(["hint", ORIGINAL_NUMBER, "--rules", rules]) == 0
    assert "(3 steps: place " in capsys.readouterr().out


def test_hint_keeps_a_brick_in_no_minimum_solution_and_says_the_fewest(capsys: pytest.CaptureFixture[str]) -> None:
    """(22,19) is in no minimum solution, but 5 bricks keeping it win within the budget: the hint (the game's
    plan) keeps it, never calls 5 bricks solved, and names the minimum."""
    assert main(["hint", str(REPO / "bench/suites/large/006_large.txt"), "--bricks", "22,19"]) == 0
    out = capsys.readouterr().out
    assert "place a brick at (3,27)" in out and "(the fewest possible is 4)" in out
    assert "the minimum is 4 bricks" in out and "already win" not in out


def test_hint_without_time_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    """Like solve: exit code 1 when no answer came in the time allowed, and the output says so."""
    assert main(["hint", str(REPO / "bench/suites/large/004_large.txt"), "--time-limit", "0.001", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["action"] == "unknown" and data["cell"] is None and data["solution"] is None
    assert data["proved"] is False  # (a 1 ms limit may stop even the reachability analysis)


def test_ai_never_imports_the_ui_or_pygame() -> None:
    """``ai`` is a library of the core; the UI is its client (``solve --gif`` is wired by game.cli.play)."""
    offenders = []
    for path in sorted((REPO / "ai").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                    "import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
                names = [str(node.args[0].value)]
            for name in names:
                if name in ("pygame", "game.app") or name.startswith(("pygame.", "game.app.")):
                    offenders.append(f"{path.relative_to(REPO)}:{node.lineno}: {name}")
    assert offenders == []


def test_solve_gif_comes_from_the_export_command() -> None:
    """``solve --gif`` is the export module's option, registered with ``solve``."""
    parser = argparse.ArgumentParser()
    game.cli.solve.register(parser.add_subparsers())
    assert parser.parse_args(["solve", "1", "--gif", "x.gif"]).gif == "x.gif"
    assert parser.parse_args(["solve", "1"]).gif is None
    args = build_parser().parse_args(["solve", "1", "--gif", "y.gif", "--json"])
    assert args.gif == "y.gif" and args.json


def test_solve_gif_writes_the_answer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With ``--json`` the report stays one JSON object on stdout; the GIF's line goes to stderr."""
    gif = tmp_path / "answer.gif"
    assert main(["solve", ORIGINAL_NUMBER, "--json", "--gif", str(gif)]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["min_bricks"] == 3
    assert gif.read_bytes()[:6] == b"GIF89a" and str(gif) in captured.err


def test_solve_gif_with_no_answer_keeps_the_solves_exit_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """No brick set to show (the limit came first, or no solution): no GIF, a note, the solve's own exit code."""
    real = facade.solve

    def expired(level: object, **kwargs: object) -> facade.SolveResult:
        return real(level, **{**kwargs, "ctx": SolveContext(start=0.0, deadline=0.0)})

    monkeypatch.setattr(facade, "solve", expired)
    assert main(["solve", ORIGINAL_NUMBER, "--solver", "search", "--json", "--gif", str(tmp_path / "a.gif")]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["status"] == "timeout"
    assert "no GIF written" in captured.err and "error" not in captured.err
    monkeypatch.setattr(facade, "solve", real)
    unreachable = tmp_path / "unreachable.txt"
    unreachable.write_text(UNREACHABLE.to_text())
    assert main(["solve", str(unreachable), "--gif", str(tmp_path / "b.gif")]) == 0
    assert "infeasible" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["unreachable.txt"]


def test_bench_writes_its_section(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "results.md"
    results.write_text("# Benchmark results\n\n## Other\n\nkeep me\n")
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "a.txt").write_text(ORIGINAL.read_text())
    assert main(["bench", "--suite", str(suite), "--solvers", "cpsat", "search", "--results", str(results)]) == 0
    text = results.read_text()
    assert "keep me" in text and "## Exact solvers" in text and "| cpsat | suite | 1/1 |" in text


def test_bench_reads_every_suite_before_any_solve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A broken level in the last suite is one message at once: no solve runs, the results file is untouched."""
    solved: list[object] = []
    monkeypatch.setattr(benchmark, "_solve_seconds", lambda level, *args: solved.append(level))
    good, bad = tmp_path / "good", tmp_path / "bad"
    good.mkdir()
    bad.mkdir()
    (good / "a.txt").write_text(ORIGINAL.read_text())
    (bad / "b.txt").write_text("not a level\n")
    results = tmp_path / "results.md"
    results.write_text("# Benchmark results\n")
    argv = ["bench", "--suite", str(good), "--suite", str(bad), "--solvers", "search", "--results", str(results)]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert solved == [] and captured.out == "" and str(bad / "b.txt") in captured.err
    assert results.read_text() == "# Benchmark results\n"


def test_bench_help_names_the_solvers_it_runs_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    left_out = [name for name in EXACT_SOLVERS if name not in DEFAULT_SOLVERS]
    assert f"(default: {', '.join(DEFAULT_SOLVERS)}: every exact solver but {' and '.join(left_out)})" in text


@pytest.mark.parametrize("suite", ["missing", "empty", "file"])
def test_bench_refuses_a_suite_with_no_levels_and_keeps_the_results(tmp_path: Path, suite: str,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "results.md"
    results.write_text("# Benchmark results\n\n## Exact solvers\n\nthe figures of an earlier run\n")
    (tmp_path / "empty").mkdir()
    (tmp_path / "file").write_text("not a folder")
    assert main(["bench", "--suite", str(tmp_path / suite), "--results", str(results)]) == 2
    assert "argument --suite" in capsys.readouterr().err
    assert "the figures of an earlier run" in results.read_text()


def test_solve_json_counts_the_optimal_sets_of_a_split_level(capsys: pytest.CaptureFixture[str]) -> None:
    """A level of independent parts: the product of the parts' counts, listed only up to the cap."""
    assert main(["solve", str(REPO / "bench/suites/compartments/008_compartments.txt"), "--all", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "optimal" and data["min_bricks"] == 18
    assert data["solution_count"] == 4480 and len(data["solutions"]) == 1000 and not data["complete"]
    assert main(["solve", ORIGINAL_NUMBER, "--all", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["complete"] and data["solution_count"] == len(data["solutions"]) == 6


def test_solve_all_lists_as_many_of_a_split_levels_solutions_as_asked(capsys: pytest.CaptureFixture[str]) -> None:
    level = str(REPO / "bench/suites/compartments/008_compartments.txt")
    assert main(["solve", level, "--all", "--list", "5000", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["solution_count"] == 4480 and len(data["solutions"]) == 4480 and data["complete"]
    assert len({tuple(map(tuple, s)) for s in data["solutions"]}) == 4480
    assert main(["solve", level, "--all", "--list", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["solution_count"] == 4480 and len(data["solutions"]) == 3 and not data["complete"]


@pytest.mark.parametrize("argv", [["--list", "5"], ["--all", "--list", "5", "--solver", "cpsat"],
                                  ["--all", "--list", "0"], ["--all", "--list", "x"]])
def test_solve_list_is_checked_before_work(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", ORIGINAL_NUMBER, *argv]) == 2
    assert "--list" in capsys.readouterr().err


RELAY = REPO / "levels/038_the_relay.txt"


@pytest.mark.parametrize("path, bricks", [
    (RELAY, "7,2"),  # two optimal sets keep none of it: the command line leads where the game does
    (RELAY, ""),
    (RELAY, "1,18;7,2"),
    (ORIGINAL, "1,3;2,1;5,4"),
    (REPO / "bench/suites/large/006_large.txt", "22,19"),
])
def test_hint_names_the_bricks_the_games_h_reveals(path: Path, bricks: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The command line's hint is the plan the game's H teaches from (its job, run as the game runs it:
    with the level's minimum solutions listed, and before they are)."""
    assert main(["hint", str(path), "--bricks", bricks, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    level = Level.load(path)
    placed = tuple(parse_bricks(bricks))
    listed = facade.solve(level, solver=tasks.PREFETCH_SOLVER, mode=SolveMode.ALL)
    for known in (listed, None):
        _, plan = tasks.hint_job(level, placed, known)(SolveContext.create())
        assert data["steps"] == [[action.value, list(cell)] for action, cell in plan.steps]
        assert data["solution"] == [list(cell) for cell in plan.solution or ()] and data["cell"] == list(plan.cell)
