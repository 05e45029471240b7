"""A standard output that cannot be written is one message and exit 2, never a claimed success; a pipe whose
reader left stops the command quietly with exit 141, as Unix tools stopped by SIGPIPE report.

The child processes run without ``PYTHONUNBUFFERED``: with the default buffering a failed write surfaces only
at the interpreter's last flush, the case a command must still report."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import game.cli.main as main
from tests.conftest import ORIGINAL_NUMBER, REPO


class _Failing:
    """A standard output whose every write fails with ``error``."""

    def __init__(self, error: OSError) -> None:
        self.error = error
        self.writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        raise self.error

    def flush(self) -> None:
        pass


def _child(args: list[str], **streams: Any) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    return subprocess.run([sys.executable, "main.py", *args], cwd=REPO, env=env, text=True, timeout=120,
                          stderr=subprocess.PIPE, **streams)


def _one_error(err: str, reason: str) -> None:
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines == [f"error: cannot write to standard output: {reason}"], err


@pytest.mark.parametrize("argv", [["share", ORIGINAL_NUMBER], ["--help"], ["mines", "--help"]])
def test_a_closed_stdout_is_one_error(argv: list[str], monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Started with its standard output closed (``sys.stdout`` is ``None``), a command that prints fails."""
    monkeypatch.setattr(sys, "stdout", None)
    code = main.main(argv)
    assert code == 2
    _one_error(capsys.readouterr().err, os.strerror(errno.EBADF))


def test_a_full_stdout_is_one_error(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    failing = _Failing(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
    monkeypatch.setattr(sys, "stdout", failing)
    code = main.main(["share", ORIGINAL_NUMBER])
    assert code == 2 and failing.writes >= 1 and sys.stdout is failing
    _one_error(capsys.readouterr().err, os.strerror(errno.ENOSPC))


def test_a_reader_that_left_stops_the_command_quietly(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """``solve --all`` prints line after line: the first failed write stops it, with no message."""
    failing = _Failing(BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE)))
    monkeypatch.setattr(sys, "stdout", failing)
    code = main.main(["solve", ORIGINAL_NUMBER, "--all", "--time-limit", "120"])
    assert code == 141 and failing.writes == 1
    assert capsys.readouterr().err == ""


def test_the_game_starts_with_stdout_closed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The game writes nothing on standard output: a closed one does not stop it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    proc = _child(["play", ORIGINAL_NUMBER, "--frames", "2"], stdout=subprocess.DEVNULL,
                  preexec_fn=lambda: os.close(1))
    assert proc.returncode == 0, proc.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_device_is_one_error_at_the_last_flush() -> None:
    with open("/dev/full", "w", encoding="utf-8") as full:
        proc = _child(["share", ORIGINAL_NUMBER], stdout=full)
    assert proc.returncode == 2
    _one_error(proc.stderr, os.strerror(errno.ENOSPC))


def test_closed_and_read_only_stdout_in_a_child() -> None:
    closed = _child(["share", ORIGINAL_NUMBER], stdout=subprocess.DEVNULL, preexec_fn=lambda: os.close(1))
    assert closed.returncode == 2
    _one_error(closed.stderr, os.strerror(errno.EBADF))
    with open(os.devnull, "r", encoding="utf-8") as read_only:
        proc = _child(["share", ORIGINAL_NUMBER], stdout=read_only)
    assert proc.returncode == 2
    _one_error(proc.stderr, os.strerror(errno.EBADF))


def test_a_pipe_with_no_reader_ends_quietly_with_141() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = _child(["share", ORIGINAL_NUMBER], stdout=write_end)
    finally:
        os.close(write_end)
    assert proc.returncode == 141 and proc.stderr == "", proc.stderr


def test_a_closed_stderr_keeps_the_exit_code_and_stdout_clean() -> None:
    """With standard error closed, a bad input still exits 2 (not a crash's 1), and its message does not land on
    standard output."""
    proc = subprocess.run([sys.executable, "main.py", "check", "no-such-level.txt"], cwd=REPO, text=True,
                          timeout=120, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          preexec_fn=lambda: os.close(2))
    assert proc.returncode == 2 and proc.stdout == "", proc.stdout
