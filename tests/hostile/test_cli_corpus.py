"""Every case of the hostile corpus (tests/hostile/cases.py) exits 2 with one clear message,
no traceback, and no new file; the game starts whatever the user data folder holds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.hostile.cases import EXIT_2_CASES

TIMEOUT = 120


def _env(data_home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(XDG_DATA_HOME=str(data_home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    return env


def _run(argv: list[str], data_home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "main.py", *argv], cwd=REPO, env=_env(data_home),
                          capture_output=True, text=True, timeout=TIMEOUT)


def _snapshot(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@pytest.fixture
def sandbox(tmp_path: Path) -> dict[str, str]:
    """The placeholders of the corpus, made in a fresh temporary folder."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "file.txt").write_text("a regular file\n")
    os.mkfifo(work / "fifo")
    (work / "link_fifo").symlink_to(work / "fifo")
    (work / "bad_n.txt").write_text("1" * 5000 + "\n1\n> T\nXXX\n")
    (work / "wide_n.txt").write_text("\uff15\n1\n> T\nXXX\n", encoding="utf-8")
    scratch = work / "scratch"
    scratch.mkdir()
    return {
        "tmp": str(scratch), "file": str(work / "file.txt"), "fifo": str(work / "fifo"),
        "missing": str(work / "no" / "such"), "link_fifo": str(work / "link_fifo"),
        "bad_n": str(work / "bad_n.txt"), "wide_n": str(work / "wide_n.txt"),
        "long": str(work / ("x" * 5000)), "root": str(tmp_path),
    }


def test_corpus_is_large_and_ids_are_unique() -> None:
    ids = [case[0] for case in EXIT_2_CASES]
    assert len(ids) == len(set(ids)) and len(ids) >= 50


@pytest.mark.parametrize(("argv", "fragment"), [c[1:] for c in EXIT_2_CASES], ids=[c[0] for c in EXIT_2_CASES])
def test_hostile_command_exits_2_with_one_message(argv: list[str], fragment: str, sandbox: dict[str, str]) -> None:
    root = Path(sandbox["root"])
    before = _snapshot(root)
    proc = _run([a.format(**sandbox) for a in argv], root / "xdg")
    assert proc.returncode == 2, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout
    assert fragment in proc.stderr, proc.stderr[-2000:]
    after = {p for p in _snapshot(root) - before if not p.startswith("xdg")}
    assert after == set(), f"files left behind: {sorted(after)}"
    if (root / "xdg").exists():  # nothing but (possibly) an empty data folder
        assert [p for p in (root / "xdg").rglob("*") if p.is_file()] == []


# ---------------------------------------------------------------- the game always starts
def _hostile_data(data_home: Path, kind: str) -> Path:
    folder = data_home / "lemming-bricks"
    (folder / "levels").mkdir(parents=True)
    progress = folder / "progress.json"
    if kind == "overflow":
        progress.write_text('{"version":1,"levels":{"a":{"best_bricks":1e999}}}')
    elif kind == "deep":
        progress.write_text('{"levels":' + "[" * 100_000 + "]" * 100_000 + "}")
    elif kind == "fifo":
        os.mkfifo(progress)
    elif kind == "folder":
        progress.mkdir()
    elif kind == "bom":
        progress.write_bytes(b"\xef\xbb\xbf" + json.dumps({"version": 1, "levels": {}}).encode())
    elif kind == "big-n-user-level":
        (folder / "levels" / "huge.txt").write_text("1" * 5000 + "\n1\n> T\nXXX\n")
        os.mkfifo(folder / "levels" / "fifo.txt")
    return progress


@pytest.mark.parametrize("kind", ["overflow", "deep", "fifo", "folder", "bom", "big-n-user-level"])
def test_game_starts_whatever_the_user_data_holds(kind: str, tmp_path: Path) -> None:
    _hostile_data(tmp_path / "xdg", kind)
    proc = _run(["play", "1", "--frames", "3", "--width", "640", "--height", "480"], tmp_path / "xdg")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr


def test_terminal_injection_is_escaped(tmp_path: Path) -> None:
    level = tmp_path / "evil.txt"
    level.write_text("# title: a\x1b]0;pwned\x07b\rc\n5\n1\n> T\nXXX\n")
    for argv in (["check", str(level)], ["solve", str(level)]):
        proc = _run(argv, tmp_path / "xdg")
        assert proc.returncode == 0, proc.stderr
        assert "\x1b" not in proc.stdout and "\x07" not in proc.stdout and "\r" not in proc.stdout
        assert "a\\x1b]0;pwned\\x07b\\rc" in proc.stdout
    for argv in (["rate", str(level)], ["rate", str(level), "--markdown"]):
        proc = _run(argv, tmp_path / "xdg")
        assert proc.returncode == 0, proc.stderr
        assert "\x1b" not in proc.stdout and "a\\x1b]0;pwned\\x07b\\rc" in proc.stdout
    code = _run(["share", str(level)], tmp_path / "xdg").stdout.strip()
    proc = _run(["share", code, "--out", str(tmp_path / "copy.txt")], tmp_path / "xdg")
    assert proc.returncode == 0 and "\x1b" not in proc.stderr and "a\\x1b]0;pwned\\x07b" in proc.stderr


@pytest.mark.parametrize("argv", [["check", "{bad}"], ["mines", "solve", "{missing}"], ["life", "step", "{missing}"],
                                  ["check", "{missing}"], ["pegs", "learn", "{missing}"]])
def test_a_path_in_an_error_is_escaped(argv: list[str], tmp_path: Path) -> None:
    folder = tmp_path / "e\x1b]0;pwned\x07"
    folder.mkdir()
    (folder / "bad.txt").write_text("5\n1\n> T\nXXQ\n")
    names = {"{bad}": str(folder / "bad.txt"), "{missing}": str(folder / "missing.txt")}
    proc = _run([names.get(a, a) for a in argv], tmp_path / "xdg")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "\x1b" not in proc.stderr and "\x07" not in proc.stderr and "\\x1b]0;pwned\\x07" in proc.stderr


def test_verify_never_rewrites_progress(tmp_path: Path) -> None:
    progress = _hostile_data(tmp_path / "xdg", "overflow")
    before = progress.read_bytes()
    proc = _run(["verify"], tmp_path / "xdg")
    assert proc.returncode in (0, 1, 2) and "Traceback" not in proc.stderr
    assert progress.read_bytes() == before
    assert sorted(p.name for p in progress.parent.iterdir()) == ["levels", "progress.json"]
