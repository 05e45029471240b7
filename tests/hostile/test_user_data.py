"""User data under hostile content: every loader accepts anything without crashing, writers
lock and merge, atomic replace writes through links, keeps the mode, refuses non-regular files."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.cli.main import main
from game.core import storage, writing
from game.core.catalog import user_entries
from game.core.errors import GameError
from game.core.level import Level
from game.core.progress import ProgressStore
from game.core.progress_records import parse_progress

LEVEL = Level.from_rows(["> ..T", "XX.XX", "XXXXX"], frames=6, budget=2, title="Tiny")
REPO = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------- progress: hostile content
@pytest.mark.parametrize(("content", "why"), [
    ('{"version":1,"levels":{"a":{"best_bricks":1e999}}}', "overflow"),
    ('{"version":1,"levels":{"a":{"best_bricks":-3}}}', "negative best"),
    ('{"version":1,"levels":{"a":{"best_bricks":true}}}', "bool best"),
    ('{"version":1,"levels":{"a":{"attempts":NaN}}}', "nan"),
    ('{"version":1,"levels":{"a":{"replays":[{"hash":"h","bricks":[[1e400,2]]}]}}}', "huge brick"),
    ('{"version":1,"levels":{"a":{"replays":[{"hash":"h","bricks":[[1]]}]}}}', "short brick"),
    ('{"version":1,"levels":{"a":' + "[" * 100_000 + "]" * 100_000 + "}}", "deep nesting"),
    ('{"version":1,"levels":{"a":{"hash":' + "9" * 5000 + "}}}", "5000 digits"),
])
def test_bad_record_never_crashes_and_is_kept_aside(content: str, why: str, tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    path.write_text(content)
    store = ProgressStore.load(path)
    assert "a" not in store.records, why
    assert len(store.messages) == 1 and "corrupt" in store.messages[0]
    (aside,) = tmp_path.glob("progress.json.corrupt-*")
    assert aside.read_text() == content  # nothing destroyed


def test_one_bad_record_keeps_the_others(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    path.write_text(json.dumps({"version": 1, "levels": {
        "good": {"solved": True, "hash": "h", "best_bricks": 2, "ai_assisted": True},
        "bad": {"best_bricks": -1}}}))
    store = ProgressStore.load(path)
    assert set(store.records) == {"good"} and store.records["good"].best_bricks == 2
    assert store.records["good"].extra == {"ai_assisted": True}   # unknown fields survive
    on_disk = json.loads(path.read_text())
    assert set(on_disk["levels"]) == {"good"} and on_disk["levels"]["good"]["ai_assisted"] is True


@pytest.mark.parametrize("par", ["\u00b2", "\uff13", "9" * 5000, "-3", "3.0"],
                         ids=["superscript", "fullwidth", "5000-digits", "negative", "decimal"])
def test_a_level_with_an_unusable_par_line_still_plays(par: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A ``par:`` line that is not a small whole number in ASCII digits is ignored (the game never crashes)."""
    level = Level.from_rows(["> ..T", "XX.XX", "XXXXX"], frames=6, budget=2, title="Tiny", meta=[("par", par)])
    store = ProgressStore.load(tmp_path / "progress.json")
    assert store.par("tiny.txt", level) is None and not store.status("tiny.txt", level).solved
    path = tmp_path / "tiny.txt"
    path.write_text(level.to_text())
    assert main(["play", str(path), "--frames", "3"]) == 0
    assert "Traceback" not in capsys.readouterr().err


def test_bom_prefixed_progress_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"version": 1, "levels": {"a": {"solved": True}}}).encode())
    store = ProgressStore.load(path)
    assert store.messages == [] and store.records["a"].solved


def test_fifo_progress_does_not_hang_and_is_never_written(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    os.mkfifo(path)
    start = time.monotonic()
    store = ProgressStore.load(path)
    assert time.monotonic() - start < 5
    assert store.records == {} and "not a regular file" in store.messages[0]
    store.record_win("a.txt", LEVEL, [(1, 2)])
    assert stat.S_ISFIFO(os.lstat(path).st_mode)
    assert any("could not save" in m for m in store.messages)


def test_oversized_progress_is_set_aside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("game.core.progress.MAX_PROGRESS_BYTES", 1000)
    path = tmp_path / "progress.json"
    path.write_text(json.dumps({"levels": {}, "pad": "x" * 5000}))
    store = ProgressStore.load(path)
    assert "too large" in store.messages[0] and not path.exists()


def test_verify_load_is_read_only(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    path.write_text("{broken")
    store = ProgressStore.load(path, read_only=True)
    assert store.unusable and path.read_text() == "{broken"
    store.record_attempt("a")
    assert path.read_text() == "{broken" and sorted(p.name for p in tmp_path.iterdir()) == ["progress.json"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                         lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids,
                                                                                   max_size=4), max_leaves=30))
def test_any_json_progress_loads_without_crashing(data: object, tmp_path: Path) -> None:
    doc = {"version": 1, "levels": {"k": data}} if isinstance(data, dict) else data
    path = tmp_path / "p" / "progress.json"
    path.parent.mkdir(exist_ok=True)
    for p in path.parent.iterdir():
        p.unlink()
    path.write_text(json.dumps(doc))
    store = ProgressStore.load(path)
    store.record_win("z.txt", LEVEL, [(1, 2)])            # and it saves afterwards
    assert ProgressStore.load(path).status("z.txt", LEVEL).solved


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=300))
def test_any_bytes_load_without_crashing(raw: bytes, tmp_path: Path) -> None:
    path = tmp_path / "b" / "progress.json"
    path.parent.mkdir(exist_ok=True)
    for p in path.parent.iterdir():
        p.unlink()
    path.write_bytes(raw)
    data, problem = storage.read_user_object(path)
    assert problem is None or data is None
    store = ProgressStore.load(path)
    assert isinstance(store.records, dict)
    assert path.exists() == (problem is None and isinstance(data, dict) and isinstance(data.get("levels", {}), dict))
    try:
        Level.from_bytes(raw)
    except GameError:
        pass
    try:
        parse_progress(data)
    except ValueError:
        pass


def test_user_levels_folder_with_bad_files_loads_the_good_ones(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = storage.user_levels_dir()
    folder.mkdir(parents=True)
    (folder / "a_huge_n.txt").write_text("1" * 5000 + "\n1\n> T\nXXX\n")
    (folder / "b_fullwidth.txt").write_text("\uff15\n1\n> T\nXXX\n")
    (folder / "c_binary.txt").write_bytes(b"\xff\x00" * 100)
    os.mkfifo(folder / "d_fifo.txt")
    LEVEL.save(folder / "e_good.txt")
    assert [e.path.name for e in user_entries() if e.path] == ["e_good.txt"]


# ---------------------------------------------------------------- atomic writes
def test_write_through_symlink_keeps_link_and_mode(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old")
    os.chmod(real, 0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    writing.atomic_write_text(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640


def test_new_file_gets_umask_mode_not_0600(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        writing.atomic_write_text(tmp_path / "f.txt", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "f.txt").stat().st_mode) == 0o644


@pytest.mark.parametrize("kind", ["fifo", "link-to-fifo", "folder"])
def test_non_regular_targets_are_refused(kind: str, tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    target = {"fifo": fifo, "folder": tmp_path}[kind] if kind != "link-to-fifo" else tmp_path / "l"
    if kind == "link-to-fifo":
        target.symlink_to(fifo)
    with pytest.raises(storage.UserFileError):
        writing.atomic_write_bytes(target, b"data")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_stale_temp_files_are_cleaned(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    stale = tmp_path / f".progress.json.{dead}.abc123.tmp"
    stale.write_text("half")
    mine = tmp_path / f".progress.json.{os.getpid()}.zzz.tmp"
    mine.write_text("in progress")
    other = tmp_path / ".other.json.1.x.tmp"
    other.write_text("not ours")
    writing.atomic_write_text(tmp_path / "progress.json", "{}")
    names = sorted(p.name for p in tmp_path.iterdir())
    assert stale.name not in names and mine.name in names and other.name in names


def test_folder_is_fsynced_after_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[bool] = []
    real_fsync = os.fsync

    def spy(fd: int) -> None:
        synced.append(stat.S_ISDIR(os.fstat(fd).st_mode))
        real_fsync(fd)

    monkeypatch.setattr(storage.os, "fsync", spy)
    writing.atomic_write_text(tmp_path / "f.txt", "x")
    assert synced == [False, True]  # the file, then its folder


# ---------------------------------------------------------------- two real processes
WRITER = textwrap.dedent("""
    import sys  # late: the script a child process runs
    from game.core.level import Level  # late: the script a child process runs
    from game.core.progress import ProgressStore  # late: the script a child process runs
    path, me, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    level = Level.from_rows(["> ..T", "XX.XX", "XXXXX"], frames=6, budget=2)
    store = ProgressStore.load(path)
    for k in range(n):
        if k % 2:
            store.record_attempt("shared.txt")
        else:
            store.record_attempt(f"{me}-{k}.txt")
    store.record_win(f"{me}.txt", level, [(1, 2)])
    assert not store.messages, store.messages
""")


def test_two_processes_saving_at_once_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    saves = 200
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), name, str(saves)], cwd=REPO,
                              stderr=subprocess.PIPE, text=True) for name in ("a", "b")]
    for proc in procs:
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
    store = ProgressStore.load(path)
    assert store.messages == []
    assert store.records["shared.txt"].attempts == saves  # 100 increments from each side
    for name in ("a", "b"):
        assert store.status(f"{name}.txt", LEVEL).solved
        assert all(store.records[f"{name}-{k}.txt"].attempts == 1 for k in range(0, saves, 2))
    lost = 2 * saves + 2 - (store.records["shared.txt"].attempts + sum(
        r.attempts for k, r in store.records.items() if k[:2] in ("a-", "b-")) + sum(
        1 for k in ("a.txt", "b.txt") if store.records[k].solved))
    assert lost == 0
