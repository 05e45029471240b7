"""Every command that writes a file: an output never replaces an input (same path, hard link, symbolic link),
never a file of another kind (told by content), an existing file of its kind only with ``--force``; and a full
disk while writing is one message, exit code 2, the old file intact and no temporary file left.

Each case runs in-process through ``main.main(argv)``; the families are in :mod:`tests.hostile.output_families`.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

import game.cli.main as main
from game.core.file_kinds import identify
from tests.conftest import REPO
from tests.hostile.output_families import (FAMILIES, LEVEL, OTHER_LEVEL, PHYSICS, PNG, Family, make_inputs,
                                           stub_slow_learners)

FULL = "No space left on device"


@pytest.fixture(autouse=True)
def _quiet_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The user's folders in the test's folder; the repository as the current folder; quick learners."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.chdir(REPO)
    stub_slow_learners(monkeypatch)


def _bytes_of(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main.main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, err


def _refused(code: int, err: str, *fragments: str) -> None:
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: "), err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def _work(tmp_path: Path) -> tuple[Path, dict[str, Path]]:
    work = tmp_path / "work"
    work.mkdir()
    return work, make_inputs(work)


# ---------------------------------------------------------------- an output is never an input
WITH_SOURCE = [f for f in FAMILIES if f.source is not None]


@pytest.mark.parametrize("how", ["same path", "hard link", "symbolic link"])
@pytest.mark.parametrize("family", WITH_SOURCE, ids=[f.name for f in WITH_SOURCE])
def test_an_output_is_never_an_input_even_with_force(family: Family, how: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    work, files = _work(tmp_path)
    assert family.source is not None
    source = files[family.source]
    out = {"same path": source, "hard link": work / "link.out", "symbolic link": work / "sym.out"}[how]
    if how == "hard link":
        os.link(source, out)
    elif how == "symbolic link":
        out.symlink_to(source)
    before = _bytes_of(work)
    code, err = _run(family.argv(files, out) + ["--force"], capsys)
    _refused(code, err, "input", "an output never replaces an input")
    assert _bytes_of(work) == before


# ---------------------------------------------------------------- kinds, by content
@pytest.mark.parametrize("family", FAMILIES, ids=[f.name for f in FAMILIES])
def test_a_file_of_another_kind_is_never_replaced(family: Family, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    work, files = _work(tmp_path)
    out = work / "existing.json"  # the name says nothing: the content does
    out.write_bytes(family.other_kind)
    before = _bytes_of(work)
    code, err = _run(family.argv(files, out) + ["--force"], capsys)
    _refused(code, err, "exists and is", f"not {family.kind_label}")
    assert _bytes_of(work) == before


@pytest.mark.parametrize("family", FAMILIES, ids=[f.name for f in FAMILIES])
def test_a_file_of_the_same_kind_needs_force(family: Family, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    work, files = _work(tmp_path)
    out = work / family.output_name
    out.write_bytes(family.same_kind)
    before = _bytes_of(work)
    code, err = _run(family.argv(files, out), capsys)
    _refused(code, err, "already exists", "--force")
    assert _bytes_of(work) == before
    code, err = _run(family.argv(files, out) + ["--force"], capsys)
    assert code in (0, 1), err  # 1: learned, but not exact (the tree learner's stub)
    after = _bytes_of(work)
    kind = identify(out)
    assert after[out.name] != family.same_kind and kind is not None and kind.value == family.kind_label
    assert {k: v for k, v in after.items() if k != out.name} == {k: v for k, v in before.items() if k != out.name}
    assert not [p for p in work.iterdir() if p.name.endswith(".tmp")]


def test_an_empty_file_holds_nothing_to_lose(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    work, files = _work(tmp_path)
    out = work / "empty.txt"
    out.touch()
    code, err = _run(["share", str(files["level"]), "--out", str(out)], capsys)
    assert code == 0 and out.read_bytes() == LEVEL.read_bytes(), err


def test_the_reported_cases(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``learn --observations g.jsonl --out g.jsonl``, ``learn --physics F.json --out F.json``, and ``learn --out``
    over a progress file: each refused, nothing changed."""
    work, files = _work(tmp_path)
    progress = work / "progress.json"
    progress.write_bytes(b'{"version": 1, "levels": {"007": {"best": 3}}}')
    before = _bytes_of(work)
    for argv, fragment in (
        (["learn", "--observations", str(files["games"]), "--out", str(files["games"])], "is also the input"),
        (["learn", "--physics", str(files["physics"]), "--out", str(files["physics"])], "is also the input"),
        (["learn", "--observations", str(files["games"]), "--out", str(progress)], "a progress file"),
    ):
        code, err = _run(argv, capsys)
        _refused(code, err, fragment)
    assert _bytes_of(work) == before


# ---------------------------------------------------------------- generate and bench
def _generate(folder: Path, *extra: str) -> list[str]:
    return ["generate", "--size", "8x8", "--bricks", "1", "--jobs", "1", "--quiet", "--out", str(folder), *extra]


GENERATED = "gen_8x8_k1_s0_001.txt"


@pytest.mark.parametrize("how", ["hard link", "symbolic link"])
def test_generate_never_writes_over_its_physics(how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    work, files = _work(tmp_path)
    out = work / "gen"
    out.mkdir()
    target = out / GENERATED
    if how == "hard link":
        os.link(files["physics"], target)
    else:
        target.symlink_to(files["physics"])
    code, err = _run(_generate(out, "--physics", str(files["physics"]), "--force"), capsys)
    _refused(code, err, "is the same file as the input --physics")
    assert files["physics"].read_bytes() == PHYSICS


def test_generate_refuses_other_kinds_and_replaces_levels_only_with_force(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "gen"
    out.mkdir()
    (out / GENERATED).write_bytes(PNG)
    code, err = _run(_generate(out, "--force"), capsys)
    _refused(code, err, "is a PNG image, not a level file")
    (out / GENERATED).write_bytes(OTHER_LEVEL.read_bytes())
    code, err = _run(_generate(out), capsys)
    _refused(code, err, "already exists", "--force")
    assert (out / GENERATED).read_bytes() == OTHER_LEVEL.read_bytes()
    code, err = _run(_generate(out, "--force"), capsys)
    assert code == 0 and (out / GENERATED).read_bytes() != OTHER_LEVEL.read_bytes(), err


def _bench(suite: Path, results: Path) -> list[str]:
    return ["bench", "--suite", str(suite), "--solvers", "search", "--time-limit", "5", "--results", str(results)]


@pytest.mark.parametrize("how", ["a level", "a hard link to a suite level", "a symbolic link to a suite level",
                                 "a physics"])
def test_bench_results_is_never_another_kind(how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "a.txt").write_bytes(LEVEL.read_bytes())
    results = tmp_path / "results.md"
    if how == "a level":
        results.write_bytes(OTHER_LEVEL.read_bytes())
    elif how == "a physics":
        results.write_bytes(PHYSICS)
    elif how.startswith("a hard"):
        os.link(suite / "a.txt", results)
    else:
        results.symlink_to(suite / "a.txt")
    before = {p: p.read_bytes() for p in (results, suite / "a.txt")}
    code, err = _run(_bench(suite, results), capsys)
    _refused(code, err, "--results", "not a text file")
    assert {p: p.read_bytes() for p in before} == before


def test_bench_results_merges_into_a_markdown_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "a.txt").write_bytes(LEVEL.read_bytes())
    results = tmp_path / "results.md"
    results.write_text("# Notes\n\nkeep me\n")
    code, err = _run(_bench(suite, results), capsys)
    assert code == 0, err
    text = results.read_text()
    assert "keep me" in text and "## Exact solvers" in text


# ---------------------------------------------------------------- a full disk
def _full_disk(monkeypatch: pytest.MonkeyPatch, folder: Path, where: str) -> None:
    """Make writes of files in ``folder`` fail with ENOSPC: at a write, at the fsync or at the rename."""
    inside = str(folder.resolve())

    def ours(fd: int) -> bool:
        try:
            return os.readlink(f"/proc/self/fd/{fd}").startswith(inside)
        except OSError:
            return False

    def fail(*args: Any) -> Any:
        raise OSError(errno.ENOSPC, FULL)

    if where == "write":
        real_fdopen = os.fdopen

        class FullHandle:
            def __init__(self, handle: Any) -> None:
                self._handle = handle

            def __getattr__(self, name: str) -> Any:
                return getattr(self._handle, name)

            def write(self, data: bytes) -> int:
                raise OSError(errno.ENOSPC, FULL)

            def __enter__(self) -> FullHandle:
                return self

            def __exit__(self, *exc: object) -> None:
                self._handle.close()

        def fdopen(fd: int, *args: Any, **kwargs: Any) -> Any:
            handle = real_fdopen(fd, *args, **kwargs)
            return FullHandle(handle) if ours(fd) else handle

        monkeypatch.setattr(os, "fdopen", fdopen)
    elif where == "fsync":
        real_fsync = os.fsync
        monkeypatch.setattr(os, "fsync", lambda fd: fail() if ours(fd) else real_fsync(fd))
    else:
        real_replace = os.replace

        def replace(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
            if str(Path(dst).resolve()).startswith(inside):
                fail()
            real_replace(src, dst, *args, **kwargs)

        monkeypatch.setattr(os, "replace", replace)


def _no_temp_left(folder: Path) -> None:
    assert not [p.name for p in folder.rglob("*") if p.name.endswith(".tmp") or "probe" in p.name]


@pytest.mark.parametrize("where", ["write", "fsync", "rename"])
@pytest.mark.parametrize("family", FAMILIES, ids=[f.name for f in FAMILIES])
def test_a_full_disk_is_one_message_and_the_old_file_stays(family: Family, where: str, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    work, files = _work(tmp_path)
    out = work / family.output_name
    out.write_bytes(family.same_kind)
    before = _bytes_of(work)
    _full_disk(monkeypatch, work, where)
    code, err = _run(family.argv(files, out) + ["--force"], capsys)
    _refused(code, err, FULL, out.name)
    assert _bytes_of(work) == before
    _no_temp_left(work)


@pytest.mark.parametrize("where", ["write", "rename"])
def test_a_full_disk_during_generate_and_bench(where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "gen"
    out.mkdir()
    (out / GENERATED).write_bytes(OTHER_LEVEL.read_bytes())
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "a.txt").write_bytes(LEVEL.read_bytes())
    results = tmp_path / "results.md"
    results.write_text("# Notes\n")
    _full_disk(monkeypatch, tmp_path, where)
    runs: list[tuple[list[str], str, Callable[[], bytes], bytes]] = [
        (_generate(out, "--force"), GENERATED, (out / GENERATED).read_bytes, OTHER_LEVEL.read_bytes()),
        (_bench(suite, results), "results.md", results.read_bytes, b"# Notes\n"),
    ]
    for argv, name, now, old in runs:
        code, err = _run(argv, capsys)
        lines = [line for line in err.splitlines() if "error" in line]
        assert code == 2 and len(lines) == 1 and FULL in lines[0] and name in lines[0], err
        assert now() == old
    _no_temp_left(tmp_path)
    assert (suite / "a.txt").read_bytes() == LEVEL.read_bytes()


def test_a_full_disk_as_a_real_process(tmp_path: Path) -> None:
    """``share --out`` on a full disk, in a real process: one line on stderr, exit code 2."""
    work, files = _work(tmp_path)
    out = work / "copy.txt"
    script = ("import errno, os, runpy, sys\n"
              "def full(*a, **k):\n    raise OSError(errno.ENOSPC, 'No space left on device')\n"
              "os.replace = full\nsys.argv = ['main.py'] + sys.argv[1:]\n"
              "runpy.run_path('main.py', run_name='__main__')\n")
    proc = subprocess.run([sys.executable, "-c", script, "share", str(files["level"]), "--out", str(out)], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and FULL in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr and not out.exists()
    _no_temp_left(work)

