"""The side puzzles' long commands on their largest inputs: the time limit holds (reading included) and
memory stays under 1 GB by design, with or without a limit; what a cap leaves out is said, never hidden."""

from __future__ import annotations

import itertools
import json
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from ai.kernel.context import ManualClock, SolveContext, SolveStopped
from ai.puzzles.life.backbone import backbone
from ai.puzzles.life.model import ModelTooLarge, build_model, max_model_clauses, model_clauses
from ai.puzzles.life.reverse import reverse
from ai.puzzles.life.sat import StepBack, chain, chain_fits
from ai.puzzles.mines.analysis import analyze
from ai.puzzles.mines.endgame import arrangements
from ai.puzzles.mines.policy import next_moves
from ai.puzzles.pegs import PegsStatus, solve
from ai.puzzles.pegs import search as pegs_search
from ai.puzzles.pegs.vacancies import problems as pegs_problems, table as pegs_table
from game.cli.main import main
from game.core.puzzles.life.board import MAX_SIDE, format_board
from game.core.puzzles.life.rules import LIFE
from game.core.puzzles.mines import parse_view
from game.core.puzzles.pegs_boards import parse_board
from tests.child_peak import run_main

#: Seconds of slack for a loaded machine (start-up is measured apart): generous, where the limits failed
#: by 10 s and more.
SLACK = 5.0


def _largest_board(seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).random((MAX_SIDE, MAX_SIDE)) < 0.5


def _run(*args: str) -> tuple[subprocess.CompletedProcess[str], float, float]:
    """``main.py ARGS`` in a child: the process, its wall time, and its own peak memory in MB."""
    return run_main(*args, timeout=300)


def test_reverse_of_the_largest_board_keeps_its_limit_and_says_what_the_cap_left_out(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"  # the same start-up, reading and parsing, then an instant answer
    empty.write_text(format_board(np.zeros((MAX_SIDE, MAX_SIDE), dtype=bool)) + "\n")
    path = tmp_path / "big.txt"
    path.write_text(format_board(_largest_board()) + "\n")
    baseline, start_up, _ = _run("life", "reverse", str(empty), "--steps", "3", "--time-limit", "0.5")
    assert baseline.returncode == 0 and baseline.stdout.startswith("exact"), baseline.stderr
    proc, wall, peak_mb = _run("life", "reverse", str(path), "--steps", "3", "--time-limit", "0.5", "--json")
    assert proc.returncode == 0, proc.stderr
    assert wall - start_up < 0.5 + SLACK
    assert peak_mb < 1024
    data = json.loads(proc.stdout)
    assert data["status"] == "approximate" and "memory cap" in data["note"] and "memory cap" in proc.stderr
    assert data["fallback"] == (data["method"] == "all dead")


def test_hint_on_the_largest_board_is_refused_at_once_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_text(format_board(_largest_board()) + "\n")
    proc, wall, _ = _run("life", "hint", str(path), "--steps", "1", "--time-limit", "30")
    assert proc.returncode == 1
    assert "memory budget" in proc.stderr and "no hints" in proc.stdout
    assert wall < 30  # refused before anything is built: no need to wait for the 30 s


def test_no_life_model_over_its_budget_is_built() -> None:
    board = _largest_board()
    assert model_clauses(board, LIFE, 1) > max_model_clauses(1)
    with pytest.raises(ModelTooLarge, match="memory budget"):
        build_model(board, LIFE, 1)
    assert not chain_fits(board, LIFE, 1)
    small = board[:25, :25]
    assert chain_fits(small, LIFE, 5) and model_clauses(small, LIFE, 2) <= max_model_clauses(1)
    assert max_model_clauses(16) < max_model_clauses(1)  # every worker copies the clauses


def test_a_bigger_model_stops_being_built_when_the_context_stops() -> None:
    board = _largest_board()[:60, :60]
    with pytest.raises(SolveStopped):
        build_model(board, LIFE, 1, ctx=SolveContext.create(time_limit=0.0))
    with pytest.raises(SolveStopped):
        StepBack(board, LIFE, ctx=SolveContext.create(time_limit=0.0))
    found = chain(board, LIFE, 2, SolveContext.create(time_limit=0.0))
    assert found.start is None and not found.garden_of_eden


def test_a_board_too_large_for_every_model_gets_the_local_search_or_an_honest_fallback() -> None:
    board = _largest_board()
    result = reverse(board, 3, SolveContext.create(time_limit=0.0), LIFE)
    assert result.fallback and result.method == "all dead"
    assert "SAT chain" in result.note and "CP-SAT" in result.note
    assert result.to_json()["fallback"] is True
    hints = backbone(board, 1, SolveContext.create(time_limit=60.0), LIFE)
    assert hints.note and hints.count == 0 and not hints.proved


def _nine_by_nine() -> tuple[object, int]:
    rows = ["ooooooooo"] * 9
    rows[4] = "oooo.oooo"
    return parse_board("\n".join(rows))


def test_the_peg_search_stops_at_its_memory_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pegs_search, "MAX_DEAD", 5_000)
    board, start = _nine_by_nine()
    result = solve(board, start, None)  # no time limit: only the cap ends it
    assert result.status == PegsStatus.STOPPED and result.table_full >= 5_000
    assert result.message.startswith("search stopped: ") and result.message.endswith(" positions (memory cap)")
    assert result.to_json()["stop_reason"] == "memory cap"


def test_pegs_solve_without_a_limit_exits_1_at_the_cap(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(pegs_search, "MAX_DEAD", 5_000)
    path = tmp_path / "nine.txt"
    path.write_text("\n".join(["ooooooooo"] * 4 + ["oooo.oooo"] + ["ooooooooo"] * 4) + "\n")
    assert main(["pegs", "solve", str(path), "--goal", "any"]) == 1
    captured = capsys.readouterr()
    assert "positions (memory cap)" in captured.err and captured.out.startswith("stopped")


def test_pegs_learn_keeps_its_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pegs", "learn", "--games", "10000", "--time-limit", "0.001"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("stopped: the time limit")


def test_the_pegs_table_leaves_the_problems_after_its_deadline_untried() -> None:
    ticks = itertools.count(step=10.0)  # every reading of the clock is 10 s after the last
    ctx = SolveContext.create(time_limit=15.0, clock=lambda: float(next(ticks)))
    board, _ = parse_board("\n".join(["ooooooooo"] * 9))
    answers = pegs_table(board, ctx)
    assert [(a.vacancy, a.goal) for a in answers] == list(pegs_problems(board))
    assert {a.status for a in answers} <= {PegsStatus.STOPPED, PegsStatus.IMPOSSIBLE}
    assert sum(a.proof == "not tried: the time limit had passed" for a in answers) >= len(answers) - 2


def test_pegs_table_keeps_its_time_limit_in_all(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "nine.txt"
    path.write_text("\n".join(["ooooooooo"] * 9) + "\n")
    started = time.monotonic()
    assert main(["pegs", "table", str(path), "--time-limit", "1", "--json"]) == 1
    wall = time.monotonic() - started
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert len(problems) == 162 and any(p["status"] == "stopped" for p in problems)
    assert wall < 1 + SLACK  # the whole table, where 1 s for each of its 162 problems took minutes


#: A Minesweeper view (game 484 of a 9x9, 10-mine bench under the opening rule) whose endgame lists 261
#: arrangements over 61 unresolved cells: 13,148 steps of the listing, so about 50 checks of its context.
SLOW_ENDGAME = """mines 10
.........
..1......
..113....
..101.2..
..21212..
..2.2.2..
.1.3.....
.........
.........
"""


def test_the_minesweeper_endgame_listing_keeps_the_time_limit() -> None:
    view = parse_view(SLOW_ENDGAME)
    analysis = analyze(view)
    cells = sorted(p for p, v in analysis.probability.items() if 0 < v < 1 and view.at(*p) < 0)
    assert len(arrangements(view, analysis, cells)) == analysis.weight == 261
    # the deadline passes after 20 readings of the clock: a fixed amount of work, whatever the machine,
    # well inside the listing's own checks
    with pytest.raises(SolveStopped):
        arrangements(view, analysis, cells, SolveContext.create(time_limit=0.02, clock=ManualClock(step=0.001)))
    with pytest.raises(SolveStopped):  # and so does the move it is part of
        next_moves(view, analysis, SolveContext.create(time_limit=0.02, clock=ManualClock(step=0.001)))
