"""Reading a big text file line by line within caps (:mod:`game.core.lines`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from game.core.lines import CHUNK, LineTooLong, read_lines
from game.core.storage import UserFileError
from tests.counted_read import CountedRead


def test_lines_come_one_at_a_time_with_their_numbers(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes(b"a\n\nbb\r\n" + b"c" * (3 * CHUNK) + b"\nend")
    got = list(read_lines(path, max_line=4 * CHUNK, max_bytes=10 * CHUNK))
    assert [n for n, _ in got] == [1, 2, 3, 4, 5]
    assert got[0][1] == b"a" and got[2][1] == b"bb\r" and len(got[3][1]) == 3 * CHUNK and got[4][1] == b"end"


def test_an_overlong_line_is_refused_after_reading_at_most_the_cap(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "long.txt"
    with path.open("wb") as f:
        f.write(b"short\n")
        for _ in range(40):
            f.write(b"x" * CHUNK)  # one line of 40 MiB
    counted = CountedRead()
    monkeypatch.setattr(os, "read", counted)  # what the line reader reads with
    with pytest.raises(LineTooLong) as info:
        list(read_lines(path, max_line=3 * CHUNK, max_bytes=1 << 30))
    assert info.value.lineno == 2 and "long.txt:2: a line longer than 3,145,728 bytes" in str(info.value)
    assert counted.total <= 3 * CHUNK + 1 + len(b"short\n")


def test_the_check_runs_before_every_chunk(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes((b"y" * 1000 + b"\n") * 5000)  # about 5 chunks

    class Stop(Exception):
        pass

    calls = []

    def check() -> None:
        calls.append(1)
        if len(calls) == 3:
            raise Stop

    seen = []
    with pytest.raises(Stop):
        for lineno, _ in read_lines(path, max_line=CHUNK, max_bytes=1 << 30, check=check):
            seen.append(lineno)
    assert len(seen) < 5000


def test_files_that_are_not_regular_or_too_large_are_refused(tmp_path: Path) -> None:
    with pytest.raises(UserFileError, match="is a folder"):
        list(read_lines(tmp_path, max_line=10, max_bytes=10))
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(UserFileError, match="not a regular file"):
        list(read_lines(fifo, max_line=10, max_bytes=10))  # refused, never waited on
    big = tmp_path / "big.txt"
    big.write_bytes(b"z\n" * 100)
    with pytest.raises(UserFileError, match="too large"):
        list(read_lines(big, max_line=10, max_bytes=50))
    with pytest.raises(FileNotFoundError):
        list(read_lines(tmp_path / "missing.txt", max_line=10, max_bytes=50))
