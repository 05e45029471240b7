"""Hostile data files and outputs (cases in tests/hostile/data_and_output_cases.py): 0 tracebacks, 0 hangs.

Argument and file cases run in-process through ``main.main(argv)`` (each in a thread with a time
limit, so a hang fails the test instead of stopping the suite); a sample runs as real processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pytest

import game.cli.main as main
from ai.learning import trust
from ai.learning.models import TreeModel
from ai.learning.player import record_run, runs_path
from ai.learning.rules import LearnedRules
from game.core import storage, writing
from game.core.level import Level
from game.core.settings import default_settings_path
from tests.conftest import ORIGINAL_PACK, REPO
from tests.hostile.data_and_output_cases import ARGV_CASES, DATA_FILE_VARIANTS, make_files

#: Seconds any one case may take before it counts as a hang.
HANG = 60


def _within(seconds: float, work: Callable[[], Any]) -> Any:
    """Run ``work`` in a thread; fail (a hang) if it has not finished after ``seconds``."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s: a hang"
    if "error" in box:
        raise box["error"]
    return box.get("value")


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("hostile-data")
    out = make_files(root / "files")
    scratch = root / "scratch"
    scratch.mkdir()
    out["tmp"] = str(scratch)
    out["root"] = str(root)
    return out


def _snapshot(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): (p.lstat().st_size if not p.is_fifo() else -1) for p in folder.rglob("*")}


def test_corpus_size() -> None:
    ids = [c[0] for c in ARGV_CASES]
    assert len(ids) == len(set(ids)) and len(ids) >= 120


@pytest.mark.parametrize(("argv", "fragment"), [c[1:] for c in ARGV_CASES], ids=[c[0] for c in ARGV_CASES])
def test_hostile_argv_exits_2_with_one_message(argv: list[str], fragment: str, files: dict[str, str],
                                              tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(REPO)
    trust._memory.clear()
    root = Path(files["root"])
    before = _snapshot(root)
    code = _within(HANG, lambda: main.main([a.format(**files) for a in argv]))
    out, err = capsys.readouterr()
    assert code == 2, out[-1000:] + err[-1000:]
    assert "Traceback" not in err and "Traceback" not in out
    messages = [line for line in err.splitlines() if "error" in line]
    assert len(messages) == 1 and fragment in messages[0], err[-2000:]
    assert _snapshot(root) == before  # nothing written, nothing replaced (the level copy is intact)


@pytest.mark.parametrize("case", ["solve-rules_deep", "hint-rules_fifo", "learn-curve-proc",
                                  "generate-solver-nosuch", "rate-time-limit-nan", "export-gif-is-the-level"])
def test_a_sample_as_real_processes(case: str, files: dict[str, str], tmp_path: Path) -> None:
    argv, fragment = next(c[1:] for c in ARGV_CASES if c[0] == case)
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "xdg"))
    proc = subprocess.run([sys.executable, "main.py", *[a.format(**files) for a in argv]], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=HANG)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and fragment in proc.stderr, proc.stderr


# ---------------------------------------------------------------- the data folder's JSON stores
def _plant(path: Path, content: bytes | str | None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if content is None:
        os.mkfifo(path)
    elif content == "folder":
        path.mkdir()
    else:
        assert isinstance(content, bytes)
        path.write_bytes(content)


@pytest.mark.parametrize("variant", sorted(DATA_FILE_VARIANTS))
def test_observed_runs_variants(variant: str, tmp_path: Path) -> None:
    path = runs_path(tmp_path)
    _plant(path, DATA_FILE_VARIANTS[variant])
    problems: list[str] = []
    level = Level.load(ORIGINAL_PACK)
    if variant in ("fifo", "folder"):  # cannot be replaced: one OSError naming it, the thing left alone
        with pytest.raises(OSError, match="observed_runs.json"):
            _within(HANG, lambda: record_run(tmp_path, level, [], problems))
        assert path.is_fifo() or path.is_dir()
        return
    assert _within(HANG, lambda: record_run(tmp_path, level, [(2, 1)], problems)) == 1
    assert len(problems) == 1 and "observed_runs.json could not be used" in problems[0]
    (aside,) = tmp_path.glob("observed_runs.json.corrupt-*")  # kept, never lost
    assert aside.read_bytes() == DATA_FILE_VARIANTS[variant]
    assert json.loads(path.read_text())["runs"][0]["bricks"] == [[2, 1]]


LAZY = LearnedRules(TreeModel([[{"value": 0}], [{"value": 0}]]), {"games": 0})


@pytest.mark.parametrize("variant", sorted(DATA_FILE_VARIANTS))
@pytest.mark.parametrize("store", [trust.CACHE_NAME, storage.SECRET_NAME])
def test_verdict_cache_and_key_variants(store: str, variant: str, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    trust._memory.clear()
    folder = tmp_path / storage.APP_DIR_NAME
    _plant(folder / store, DATA_FILE_VARIANTS[variant])
    ver = _within(HANG, lambda: trust.verdict(LAZY))
    trust._memory.clear()
    assert not ver.exact and ver.total_errors == 26_244  # re-verified, never believed from a bad file


# ---------------------------------------------------------------- the game keeps going
def _play_release(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = dict(env, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    return subprocess.run([sys.executable, "main.py", "play", "7", "--bricks", "2,1;5,4;6,6", "--release",
                           "--frames", "4", "--width", "640", "--height", "480"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=HANG)


@pytest.mark.parametrize("variant", ["deep-100k", "fifo", "utf16"])
def test_the_game_releases_whatever_observed_runs_holds(variant: str, tmp_path: Path) -> None:
    folder = tmp_path / storage.APP_DIR_NAME
    _plant(folder / "observed_runs.json", DATA_FILE_VARIANTS[variant])
    _plant(folder / trust.CACHE_NAME, DATA_FILE_VARIANTS["deep-100k"])
    _plant(folder / storage.SECRET_NAME, None)
    proc = _play_release(dict(os.environ, XDG_DATA_HOME=str(tmp_path)))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-3000:]
    log = (folder / "errors.log").read_text()
    assert "observed_runs.json" in log  # the toast's message, kept for a bug report
    if variant == "fifo":
        assert (folder / "observed_runs.json").is_fifo()
    else:
        assert list(folder.glob("observed_runs.json.corrupt-*"))


def test_no_home_means_a_private_temp_folder_never_slash(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "XDG_DATA_HOME"}
    env.update(HOME="", TMPDIR=str(tmp_path))
    proc = _play_release(env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    folder = tmp_path / f"lemming-bricks-{os.geteuid()}"
    assert "warning: HOME is not a usable folder" in proc.stderr and str(folder) in proc.stderr
    assert (folder / "observed_runs.json").is_file()
    assert (os.stat(folder).st_mode & 0o777) == 0o700


@pytest.mark.parametrize(("xdg", "home", "expected"), [
    ("relative/xdg", "/home/u", "/home/u/.local/share/lemming-bricks"),
    ("", "/home/u", "/home/u/.local/share/lemming-bricks"),
    ("/data", "", "/data/lemming-bricks"),
])
def test_data_folder_choice(xdg: str, home: str, expected: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", xdg)
    monkeypatch.setenv("HOME", home)
    assert str(storage.user_data_dir()) == expected


def test_a_foreign_fallback_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", "/")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    (tmp_path / f"lemming-bricks-{os.geteuid()}").mkdir(mode=0o755)
    os.chmod(tmp_path / f"lemming-bricks-{os.geteuid()}", 0o755)
    with pytest.raises(storage.UserFileError, match="not a private folder"):
        storage.user_data_dir()


# ---------------------------------------------------------------- killed writers' temporary files
def test_killed_writers_temporary_files_are_cleaned_whatever_their_name(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = int(done.stdout)
    stale = tmp_path / f".old-export.gif.{dead}.ab12_xyz.tmp"  # a killed export of another name
    stale.write_bytes(b"x" * 1000)
    old = tmp_path / f".other.gif.{os.getpid()}.cd34_xyz.tmp"  # a live pid, but a day and more old
    old.write_bytes(b"x")
    os.utime(old, (time.time() - 2 * writing.STALE_TEMP_SECONDS,) * 2)
    live = tmp_path / f".busy.gif.{os.getpid()}.ef56_xyz.tmp"  # being written now: kept
    live.write_bytes(b"x")
    mine = tmp_path / ".notes.txt.tmp"  # not our pattern: never touched
    mine.write_bytes(b"x")
    writing.atomic_write_bytes(tmp_path / "new.gif", b"GIF89a")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, mine.name, "new.gif"])


def test_no_home_settings_go_to_the_same_private_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", "")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    folder = tmp_path / f"lemming-bricks-{os.geteuid()}"
    assert default_settings_path() == folder / "settings.json" and storage.user_data_dir() == folder
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative")
    assert default_settings_path() == folder / "settings.json"
