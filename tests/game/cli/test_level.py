"""The headless command line: check, simulate, help."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import game.cli.level
from game.app.export import DEFAULT_FPS, DEFAULT_SCALE
from game.app.export_draw import DEFAULT_MAX_SIDE, MAX_FRAME_PIXELS, TILE, default_scale, fit_scale
from game.cli.context import command_context
from game.cli.export import HELP_FPS, HELP_MAX_SIDE, HELP_SCALE
from game.cli.main import main
from game.core.level import Level
from game.core.level_text import MAX_SIDE
from tests.conftest import ORIGINAL_NUMBER, ORIGINAL_PACK, REPO


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_ok(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(ORIGINAL_PACK))
    assert code == 0
    assert "10x10 map, N=20 frames, B=3 bricks, 1 lemming, 1 target" in out


def test_check_solve_says_why_a_level_has_no_solution(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    level = tmp_path / "up.txt"
    level.write_text("20\n2\nXXXXXXXXXX\nX      T X\nX        X\nX>       X\nXXXXXXXXXX\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", str(level))
    assert code == 0 and ": ok:" in out  # the format alone
    code, out, _ = run(capsys, "check", "--solve", str(level))
    assert code == 1 and "UNSOLVABLE" in out
    assert "the lemming cannot reach any target" in out and "never climb" in out
    code, out, _ = run(capsys, "check", "--solve", "--time-limit", "30", str(ORIGINAL_PACK))
    assert code == 0 and "SOLVABLE" in out and "minimum bricks: 3" in out


def test_check_by_pack_number(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", ORIGINAL_NUMBER)
    assert code == 0 and "The Original" in out


def test_check_bad_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("20\n3\nX<?T\n")
    code, out, err = run(capsys, "check", str(bad))
    assert code == 2
    assert err.strip() == f"{bad}:3:3: unknown map character '?' (use X, space, ., <, >, L, R or T)"
    assert "Traceback" not in err


def test_simulate_json_won(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", str(ORIGINAL_PACK), "--bricks", "2,1;5,4;6,6", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["won"] is True
    assert data["bricks"] == [[2, 1], [5, 4], [6, 6]]
    assert data["lemmings"][0]["reached_at"] == 15


def test_simulate_text_lost(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", str(ORIGINAL_PACK))
    assert code == 0 and out.strip().endswith("LOST")


@pytest.mark.parametrize(
    ("bricks", "message"),
    [("0,0", "on a wall"), ("8,8", "on a target"), ("2,1;5,4;6,6;3,3", "exceed the budget"), ("x", "cannot read")],
)
def test_simulate_illegal_bricks_exit_2(capsys: pytest.CaptureFixture[str], bricks: str, message: str) -> None:
    code, _, err = run(capsys, "simulate", str(ORIGINAL_PACK), "--bricks", bricks)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_unknown_pack_number(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "check", "999")
    assert code == 2 and "there is no level 999" in err


def test_help_lists_subcommands() -> None:
    proc = subprocess.run(
        [sys.executable, "main.py", "--help"], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0
    for name in ("check", "simulate"):
        assert name in proc.stdout


def test_command_context_carries_the_limit() -> None:
    """A command's --time-limit becomes the deadline of its one context; no limit, no deadline."""
    with command_context(30.0, solver="hint") as ctx:
        remaining = ctx.remaining()
        assert remaining is not None and 0 < remaining <= 30.0 and ctx.solver == "hint"
        assert not ctx.should_stop()
    with command_context(None) as ctx:
        assert ctx.remaining() is None


def test_ctrl_c_cancels_the_context_then_interrupts() -> None:
    """Ctrl-C sets the context's cancel event (threads working under it stop), then raises
    KeyboardInterrupt as usual; Python's own handler is back afterwards."""
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("Ctrl-C is handled by someone else here")
    with pytest.raises(KeyboardInterrupt):
        with command_context(None) as ctx:
            signal.raise_signal(signal.SIGINT)
    assert ctx.cancelled() and ctx.stop_reason() is not None
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ctrl_c_is_interrupted_exit_130(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """main turns the KeyboardInterrupt into one line and exit code 130."""
    def interrupted(spec: str) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(game.cli.level, "load_level", interrupted)
    assert main(["check", ORIGINAL_NUMBER]) == 130
    assert capsys.readouterr().err == "interrupted\n"


def test_the_export_help_shows_the_gif_writers_defaults() -> None:
    assert (HELP_SCALE, HELP_FPS, HELP_MAX_SIDE) == (DEFAULT_SCALE, DEFAULT_FPS, DEFAULT_MAX_SIDE)


def test_the_cli_reference_gives_the_export_scales_the_gif_writer_uses() -> None:
    big = Level.from_rows([">" + " " * (MAX_SIDE - 2) + "T"] + ["X" * MAX_SIDE] * (MAX_SIDE - 1), frames=4, budget=0)
    small_sides = DEFAULT_MAX_SIDE // (TILE * DEFAULT_SCALE)
    row = next(line for line in (REPO / "docs" / "cli.md").read_text().splitlines() if line.startswith("| `--scale K`"))
    assert (f"(default {DEFAULT_SCALE}; a map over {small_sides} cells long gets smaller cells, so the board is at "
            f"most {DEFAULT_MAX_SIDE} pixels long)") in row
    assert default_scale(big) < 1 and fit_scale(big, DEFAULT_SCALE) == 1  # the default fits; K = 2 does not
    assert (f"at most {MAX_FRAME_PIXELS // 1_000_000} million pixels, so a {MAX_SIDE}x{MAX_SIDE} map takes `--scale 1`"
            in row)


def test_the_parser_loads_neither_the_ai_nor_pygame() -> None:
    code = ("import sys; from game.cli.main import build_parser; build_parser(); "
            "print(sorted(m for m in ('ai.facade', 'pygame', 'ortools') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


@pytest.mark.parametrize("kind", ["corrupt", "folder", "fifo"])
def test_verify_with_an_unusable_progress_file_is_one_message(kind: str, data_home: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = data_home / "lemming-bricks" / "progress.json"
    path.parent.mkdir(parents=True)
    if kind == "corrupt":
        path.write_text("{oops")
    elif kind == "folder":
        path.mkdir()
    else:
        os.mkfifo(path)
    code, out, err = run(capsys, "verify")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: cannot verify") and "progress.json" in err
    assert (path.read_text() == "{oops") if kind == "corrupt" else os.path.lexists(path)  # never moved
