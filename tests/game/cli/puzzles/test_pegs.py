"""The ``pegs`` subcommands: JSON answers, and one message with exit code 2 for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ai.puzzles.pegs
from ai.kernel.context import StopReason
from game.core.puzzles.pegs_boards import english
from game.cli.main import main
from game.core.puzzles.pegs import Jump


def test_solve_english_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pegs", "solve", "english", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "solved"
    board, start = english()
    jumps = [Jump.between((a, b), (c, d)) for a, b, c, d in data["moves"]]
    assert board.replay(start, [j for j in jumps if j is not None]) == board.goal_position()


def test_solve_french_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pegs", "solve", "french", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "impossible"


def test_solve_board_file_and_hint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "line.txt"
    path.write_text("oo.\n", encoding="utf-8")
    assert main(["pegs", "solve", str(path), "--goal", "any", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"status": "solved", "moves": [[0, 0, 0, 2]],
                                                   "proof": "beam search", "nodes": 0}
    assert main(["pegs", "hint", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["jump"] is None  # the centre cannot be reached


def test_table_of_a_board_file_in_json_and_as_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "square.txt"
    path.write_text("ooo\no.o\nooo\n", encoding="utf-8")  # its own pegs do not matter: every vacancy is tried
    assert main(["pegs", "table", str(path), "--json"]) == 0
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert [(p["vacancy"], p["goal"]) for p in problems[:3]] == [([0, 0], "any"), ([0, 0], "vacancy"), ([0, 1], "any")]
    assert len(problems) == 18 and {p["status"] for p in problems} == {"impossible"}
    assert {p["proof_kind"] for p in problems} == {"pagoda"} and all("weights" in p["proof"] for p in problems)
    assert main(["pegs", "table", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "18 problems: 0 solved, 18 not"


def test_learn_random_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pegs", "learn", "--games", "10", "--seed", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verification"]["agrees"] and len(data["rule"]["patterns"]) == 4


@pytest.mark.parametrize("argv, needle", [
    (["pegs", "solve", "nosuch"], "no board named 'nosuch'"),
    (["pegs", "solve", "BAD"], "unknown character"),
    (["pegs", "solve", "DIR"], "is a folder"),
    (["pegs", "solve", "english", "--time-limit", "0"], "time-limit"),
    (["pegs", "solve", "english", "--ip", "sometimes"], "invalid choice"),
    (["pegs", "learn", "--games", "0"], "--games"),
    (["pegs", "learn", "BAD"], "no example move"),
    (["pegs", "learn", "--board", "STUCK"], "no jump is possible from the start"),
    (["pegs", "learn", "BAD", "--board", "french"], "brings its own board and games"),
    (["pegs", "learn", "BAD", "--seed", "3"], "brings its own board and games"),
    (["pegs", "solve", "CENTRELESS"], "no centre"),
    (["pegs"], "PEGS_COMMAND"),
    (["pegs", "solve", "EMPTY"], "the board is empty"),
    (["pegs", "table", "EMPTY"], "the board is empty"),
    (["pegs", "table", "english", "--time-limit", "-1"], "time-limit"),
    (["pegs", "hint", "BINARY"], "is not UTF-8 text"),
])
def test_bad_input_gets_exit_2_and_a_message(argv: list[str], needle: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("ooo\no#o\n", encoding="utf-8")
    centreless = tmp_path / "two.txt"
    centreless.write_text("oo.o\n", encoding="utf-8")
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n", encoding="utf-8")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"oo\xff.\n")
    stuck = tmp_path / "stuck.txt"
    stuck.write_text("ooo\n", encoding="utf-8")
    names = {"BAD": str(bad), "DIR": str(tmp_path), "CENTRELESS": str(centreless), "EMPTY": str(empty),
             "BINARY": str(binary), "STUCK": str(stuck)}
    argv = [names.get(a, a) for a in argv]
    if argv[-1] == str(bad) and argv[1] == "learn":
        bad.write_text("ooo\n", encoding="utf-8")
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert needle in captured.err and captured.out == "" and "Traceback" not in captured.err


def test_a_games_file_move_that_changes_nothing_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "games.txt"
    games.write_text("ooo\n.oo\n\n..o\no.o\n---\nooo\n.oo\n\n..o\no.o\n\n..o\no.o\n")
    assert main(["pegs", "learn", str(games)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"error: {games}: game 2, move 2: an example move changes nothing"


def test_hint_without_an_answer_in_time_exits_1(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    def stopped(*args: object, **kwargs: object) -> ai.puzzles.pegs.PegsResult:
        return ai.puzzles.pegs.PegsResult(ai.puzzles.pegs.PegsStatus.STOPPED, ai.puzzles.pegs.Proof.NONE,
                                          stop_reason=StopReason.TIMEOUT)

    monkeypatch.setattr(ai.puzzles.pegs, "solve", stopped)
    assert main(["pegs", "hint", "english", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data == {"status": "stopped", "jump": None, "message": "no answer in time (this position may be lost)"}
