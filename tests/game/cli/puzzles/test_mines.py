"""``mines bench`` and ``mines solve``: JSON out, bad arguments exit 2 with one message."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from ai import facade
from ai.puzzles.mines import play
from ai.puzzles.mines.policy import first_click
from game.cli.context import Terminated
from game.cli.main import main
from game.core.puzzles.mines import FirstClick


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mines", "bench", "--size", "9x9", "--mines", "10", "--games", "4", "--seed", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 4 and 0 <= out["wins"] <= 4 and out["rules"] == "safe"
    assert out["ci95"][0] <= out["rate"] == out["wins"] / 4 <= out["ci95"][1]


@pytest.mark.parametrize("rules", ["safe", "opening"])
def test_bench_under_each_first_click_rule(rules: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mines", "bench", "--games", "6", "--seed", "4", "--rules", rules, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rules"] == rules and out["games"] == 6
    assert main(["mines", "bench", "--games", "6", "--seed", "4", "--rules", rules]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"{out['wins']} wins out of 6 games (9x9, 10 mines, {rules} first click)")
    assert "95% interval" in text


def test_bench_help_states_both_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mines", "bench", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "'safe' (never a mine" in text and "'opening' (no mine in or next to it, so it opens an area" in text
    # the cells it names are the assistant's own first clicks
    small, large = first_click(9, 9, FirstClick.AREA), first_click(30, 16, FirstClick.AREA)
    assert f"opens row {small[0] + 1}, column {small[1] + 1} on boards up to 9x9" in text
    assert f"row {large[0] + 1}, column {large[1] + 1} on larger ones" in text
    assert first_click(30, 16, FirstClick.CELL) == (0, 0) and "the assistant opens a corner" in text


@pytest.mark.parametrize("args", [
    ["--rules", "modern"], ["--size", "9"], ["--size", "0x9"], ["--size", "9x9", "--mines", "81"], ["--games", "0"],
    ["--games", "ten"], ["--seed", "-1"], ["--workers", "3"], ["--size", "101x2"],
])
def test_bench_bad_arguments(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mines", "bench", *args, "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert len([line for line in captured.err.splitlines() if "error" in line]) == 1


def test_bench_opening_refuses_more_mines_than_fit_beside_the_opened_area(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mines", "bench", "--size", "9x9", "--mines", "73", "--rules", "opening", "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.strip() == (
        "error: --rules opening keeps the first click (2, 2) and its 8 neighbours free of mines: a 9x9 board takes "
        "at most 72 mines, got 73 (or --rules safe)")
    assert main(["mines", "bench", "--size", "9x9", "--mines", "72", "--rules", "opening", "--games", "2",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)  # the opening shows every safe cell: won at once
    assert (out["games"], out["wins"], out["rules"]) == (2, 2, "opening")
    assert main(["mines", "bench", "--size", "9x9", "--mines", "73", "--games", "2", "--json"]) == 0  # safe: fits


def test_solve_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "b.txt"
    board.write_text("mines 1\n.1\n.1\n11\n")
    assert main(["mines", "solve", str(board), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["safe"] == [[0, 0]] and out["mined"] == [[1, 0]]
    assert out["next"] == {"kind": "safe", "cells": [[0, 0]], "risk": 0.0}


def test_solve_gives_the_chance_to_win_of_an_endgame_guess(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "b.txt"
    board.write_text("mines 1\n..\n11\n")  # a coin toss: either cell wins half the time
    assert main(["mines", "solve", str(board), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["next"] == {"kind": "guess", "cells": [[0, 0]], "risk": 0.5, "win": 0.5}
    assert main(["mines", "solve", str(board)]) == 0
    assert "best chance to win 0.500" in capsys.readouterr().out


def test_solve_reads_a_board_after_a_byte_order_mark(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "b.txt"
    board.write_bytes("mines 1\n.1\n.1\n11\n".encode("utf-8-sig"))
    assert main(["mines", "solve", str(board), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mined"] == [[1, 0]]


@pytest.mark.parametrize("content, words", [
    (None, "no such file"), ("mines 1\n1x\n", "column 2"), ("mines 0\n1.\n", "no arrangement"),
    (b"\xff\xfe", "UTF-8"),
])
def test_solve_bad_files(tmp_path: Path, content: str | bytes | None, words: str,
                         capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "b.txt"
    if isinstance(content, bytes):
        board.write_bytes(content)
    elif content is not None:
        board.write_text(content)
    assert main(["mines", "solve", str(board)]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_solve_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mines", "solve", str(tmp_path)]) == 2
    assert "folder" in capsys.readouterr().err


def test_solve_json_stopped_by_the_time_limit_is_still_one_object(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    def stopped(*_: object) -> None:
        raise facade.SolveStopped(facade.StopReason.TIMEOUT)

    monkeypatch.setattr(facade, "mines_advise", stopped)
    board = tmp_path / "b.txt"
    board.write_text("mines 1\n..\n11\n")
    assert main(["mines", "solve", str(board), "--json", "--time-limit", "5"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"status": "stopped", "stop_reason": "timeout"}
    assert "stopped after 5 s" in captured.err


def test_mines_bench_stops_at_its_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    for workers in ("1", "2"):
        started = time.perf_counter()
        assert main(["mines", "bench", "--games", "1000000", "--time-limit", "0.5", "--workers", workers,
                     "--json"]) == 0
        assert time.perf_counter() - started < 0.5 + 5.0
        captured = capsys.readouterr()
        out = json.loads(captured.out)
        assert out["stopped"] == "time limit" and 0 <= out["wins"] <= out["games"] < 1_000_000
        assert f"stopped early (time limit): {out['games']} of 1000000 games played" in captured.err


def _solve_json(board: Path, text: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    board.write_text(text, encoding="utf-8")
    assert main(["mines", "solve", str(board), "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def _chance(out: dict[str, Any], cell: list[int]) -> float:
    return float(next(p["value"] for p in out["probabilities"] if p["cell"] == cell))


def test_solve_never_guesses_a_flagged_cell_in_the_endgame(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Three cells, one mine: unflagged, the exact endgame guesses the first cell, (0, 1); flagged, another."""
    board = tmp_path / "board.txt"
    assert _solve_json(board, "mines 1\n1.\n..\n", capsys)["next"]["cells"] == [[0, 1]]
    out = _solve_json(board, "mines 1\n1F\n..\n", capsys)
    assert out["next"]["kind"] == "guess" and out["next"]["cells"] == [[1, 0]]
    assert out["next"]["risk"] == _chance(out, [1, 0])


def test_solve_never_guesses_a_flagged_cell_on_a_large_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Expert size, far too many arrangements for the endgame: the look-ahead's guess, flagged, is replaced
    by an unflagged cell, and the printed risk is that cell's own chance, flag after flag."""
    rows = ["." * 30 for _ in range(16)]
    rows[0] = "1" + "." * 29
    board, flagged = tmp_path / "expert.txt", set()
    for _ in range(3):
        out = _solve_json(board, "mines 99\n" + "\n".join(rows) + "\n", capsys)
        assert out["next"]["kind"] == "guess"
        (r, c), = out["next"]["cells"]
        assert (r, c) not in flagged and rows[r][c] == "."
        assert out["next"]["risk"] == _chance(out, [r, c])
        flagged.add((r, c))
        rows[r] = rows[r][:c] + "F" + rows[r][c + 1:]


def test_solve_says_when_every_cell_to_guess_is_flagged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "board.txt"
    board.write_text("mines 1\n1F\nFF\n", encoding="utf-8")
    assert main(["mines", "solve", str(board)]) == 0
    out = capsys.readouterr().out
    assert "next: none []" in out and "every cell left to guess is flagged (3)" in out


def _stop_after(monkeypatch: pytest.MonkeyPatch, games: int, stop: BaseException) -> None:
    """The assistant plays ``games`` games, then the next one is stopped by ``stop`` (as by Ctrl-C or SIGTERM)."""
    real = play.play_game
    played: list[int] = []

    def play_then_stop(*args: Any, **kwargs: Any) -> play.GameRecord:
        if len(played) == games:
            raise stop
        played.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(play, "play_game", play_then_stop)


@pytest.mark.parametrize(("stop", "code", "word"), [(KeyboardInterrupt(), 130, "interrupted"),
                                                    (Terminated(), 143, "terminated")])
def test_a_stopped_bench_reports_the_games_finished(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str],
                                                    stop: BaseException, code: int, word: str) -> None:
    """Ctrl-C (or SIGTERM) after three games: the JSON of those three games, marked stopped, then exit 130."""
    assert main(["mines", "bench", "--games", "3", "--seed", "7", "--json"]) == 0
    three = json.loads(capsys.readouterr().out)
    _stop_after(monkeypatch, 3, stop)
    assert main(["mines", "bench", "--games", "10", "--seed", "7", "--json"]) == code
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {**three, "stopped": word}
    assert captured.err.splitlines() == [f"stopped early ({word}): 3 of 10 games played", word]


def test_an_interrupted_bench_prints_its_line_of_the_games_finished(monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    _stop_after(monkeypatch, 2, KeyboardInterrupt())
    assert main(["mines", "bench", "--games", "10", "--seed", "7"]) == 130
    captured = capsys.readouterr()
    assert " out of 2 games (9x9, 10 mines, safe first click)" in captured.out
    assert captured.err.splitlines() == ["stopped early (interrupted): 2 of 10 games played", "interrupted"]
