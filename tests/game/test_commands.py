"""The headless command line: check, simulate, help."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli.main import main
from tests.conftest import ORIGINAL_NUMBER, ORIGINAL_PACK, REPO


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_ok(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(ORIGINAL_PACK))
    assert code == 0
    assert "10x10 map, N=20 frames, B=3 bricks, 1 lemming, 1 target" in out


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
