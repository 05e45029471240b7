"""``main.py life ...``: JSON answers, and one message with exit 2 for bad files and arguments."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from game.core.puzzles.life.board import format_board, parse_rows
from game.core.puzzles.life.rules import LIFE, step, trajectory
from game.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def glider_file(tmp_path: Path) -> Path:
    path = tmp_path / "glider.txt"
    path.write_text("steps: 1\n........\n..#.....\n...#....\n.###....\n........\n........\n")
    return path


def test_reverse_json(capsys: pytest.CaptureFixture[str], glider_file: Path) -> None:
    code, out, err = run(capsys, "life", "reverse", str(glider_file), "--steps", "2", "--time-limit", "600",
                         "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["status"] == "exact" and data["error"] == 0.0
    start = parse_rows(data["start"])
    target = parse_rows(glider_file.read_text().splitlines()[1:])
    assert np.array_equal(step(start, LIFE, 2), target)


def test_hint_and_step(capsys: pytest.CaptureFixture[str], glider_file: Path) -> None:
    code, out, _ = run(capsys, "life", "hint", str(glider_file), "--time-limit", "600", "--json")
    data = json.loads(out)
    assert code == 0 and data["exists"] and len(data["cells"]) == 6
    code, out, _ = run(capsys, "life", "step", str(glider_file), "--steps", "4", "--json")
    assert code == 0 and json.loads(out)["board"][3] == "....#..."


def test_learn(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    boards = trajectory(np.random.default_rng(1).random((25, 25)) < 0.5, LIFE, 10)
    path = tmp_path / "run.txt"
    path.write_text("\n\n".join(format_board(b) for b in boards) + "\n")
    code, out, _ = run(capsys, "life", "learn", str(path), "--check", "life", "--json")
    data = json.loads(out)
    assert code == 0 and data["rule"] == "B3/S23" and data["check"]["wrong_entries"] == []


@pytest.mark.parametrize("content,args,message", [
    ("##\n#x\n", [], ":2:2: unexpected character 'x'"),
    ("", [], ":1:1: no board"),
    ("##\n##\n", [], "give --steps 1-5 (the file has no 'steps:' header)"),
    ("##\n##\n\n##\n##\n", ["--steps", "1"], "expected one board, found 2"),
    ("steps: 9\n##\n##\n", [], "its 'steps:' header must be 1 to 5, got '9'"),
    ("steps: " + "9" * 5000 + "\n##\n##\n", [], "its 'steps:' header must be 1 to 5"),
    ("steps: \u00b2\n##\n##\n", [], "its 'steps:' header must be 1 to 5"),
    ("rule: B9\n##\n##\n", ["--steps", "1"], "not a rule"),
    ("##\n##\n", ["--steps", "6"], "argument --steps"),
    ("##\n##\n", ["--steps", "1", "--rules", "B3/S2x"], "argument --rules"),
    ("##\n##\n", ["--steps", "1", "--time-limit", "-1"], "argument --time-limit"),
    (b"\xff\xfe##\n", ["--steps", "1"], "not UTF-8"),
])
def test_bad_input_exits_2_with_one_message(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                            content: str | bytes, args: list[str], message: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    code, out, err = run(capsys, "life", "reverse", str(path), *args)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err
    lines = err.strip().splitlines()
    if lines[0].startswith("usage:"):  # argparse: its usage, then one error line
        assert sum("error:" in line for line in lines) == 1 and "error:" in lines[-1]
    else:
        assert len(lines) == 1


def test_a_byte_order_mark_is_no_cell(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes("steps: 1\n.....\n..#..\n..#..\n..#..\n.....\n".encode("utf-8-sig"))
    code, out, err = run(capsys, "life", "step", str(path), "--json")
    assert code == 0, err
    assert json.loads(out)["board"] == [".....", ".....", ".###.", ".....", "....."]


def test_missing_file_and_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "life", "reverse", str(tmp_path / "nope.txt"), "--steps", "1")
    assert code == 2 and "no such file" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "life", "learn", str(tmp_path))
    assert code == 2 and "is a folder" in err
    code, _, err = run(capsys, "life")
    assert code == 2


@pytest.mark.parametrize("action", ["reverse", "hint", "step", "learn"])
def test_a_second_steps_line_is_refused_naming_both_lines(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                          action: str) -> None:
    board = tmp_path / "two_steps.txt"
    board.write_text("title: Blinker\nsteps: 1\nsteps: 3\n.....\n..#..\n..#..\n..#..\n.....\n")
    code, out, err = run(capsys, "life", action, str(board))
    assert code == 2 and out == ""
    assert err.strip() == (f"{board}:3:1: a second 'steps:' line (the first is line 2): "
                           "give each header line once")
