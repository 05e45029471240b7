"""Atomic writes and the user data folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.core import storage, writing


def test_user_data_dir_respects_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert storage.user_data_dir() == tmp_path / "lemming-bricks"
    assert storage.user_levels_dir() == tmp_path / "lemming-bricks" / "levels"


def test_atomic_write_replaces_content(tmp_path: Path) -> None:
    path = tmp_path / "a" / "f.txt"
    writing.atomic_write_text(path, "one")
    writing.atomic_write_text(path, "two")
    assert path.read_text() == "two"
    assert sorted(p.name for p in path.parent.iterdir()) == ["f.txt"]


def test_failed_write_keeps_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.txt"
    writing.atomic_write_text(path, "old")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(storage.os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        writing.atomic_write_text(path, "new")
    assert path.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt"]


def test_a_file_created_just_after_a_missing_read_is_not_taken_for_null(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "resume.json"
    real_read = storage.read_regular_bytes

    def read_then_another_process_creates(p: Path | str, max_bytes: int) -> bytes:
        try:
            return real_read(p, max_bytes)
        finally:
            path.write_text('{"last": "x", "boards": {}}')  # another process saves in between

    monkeypatch.setattr(storage, "read_regular_bytes", read_then_another_process_creates)
    assert storage.read_user_object(path) == (None, None)  # missing when read: a fresh start, not a bad file
    path.write_text("null")
    data, problem = storage.read_user_object(path)
    assert data is None and problem is not None and "not a JSON object" in problem
