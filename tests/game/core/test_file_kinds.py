"""Telling a file's kind by its content: the files the game and the commands really write are recognised."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ai.learning.player import RUNS_FORMAT
from ai.learning.rules import RULES_FORMAT
from game.core.file_kinds import (HEAD_BYTES, MAX_IDENTIFY_BYTES, RULES_FORMAT_TAG, RUNS_FORMAT_TAG, FileKind,
                                  FileKindError, identify, identify_bytes)
from game.core.physics_catalog import SHIPPED
from game.core.progress import ProgressStore
from game.core.resume import ResumeStore
from game.core.settings import SettingsStore
from tests.conftest import ORIGINAL_PACK, REPO

GAME = {"map": ["XXXXX", "X> TX", "XXXXX"], "frames": 3,
        "lemmings": [{"positions": [[1, 1], [1, 2], [1, 3]], "directions": [1, 1, 1]}]}


def test_the_format_tags_are_the_learners() -> None:
    assert RULES_FORMAT_TAG == RULES_FORMAT and RUNS_FORMAT_TAG == RUNS_FORMAT


@pytest.mark.parametrize("path", [ORIGINAL_PACK, *sorted((REPO / "levels").glob("*.txt"))[:40]], ids=lambda p: p.name)
def test_every_pack_level_is_a_level(path: Path) -> None:
    assert identify(path) is FileKind.LEVEL


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_every_shipped_physics_is_a_physics(name: str) -> None:
    text = json.dumps(SHIPPED[name].to_json(), indent=1)
    assert identify_bytes(text.encode()) is FileKind.PHYSICS


def test_the_shipped_rules_are_learned_rules() -> None:
    assert identify(REPO / "ai" / "learning" / "default_rules.json") is FileKind.RULES


def test_the_stores_the_game_saves_are_told_apart(tmp_path: Path) -> None:
    progress = ProgressStore.load(tmp_path / "progress.json")
    progress.record_attempt("007")
    settings = SettingsStore.load(tmp_path / "settings.json")
    settings.update(music_volume=0.25)
    resume = ResumeStore.load(tmp_path / "resume.json")
    resume.remember("007", "abc", [(2, 1)])
    assert identify(tmp_path / "progress.json") is FileKind.PROGRESS
    assert identify(tmp_path / "settings.json") is FileKind.SETTINGS
    assert identify(tmp_path / "resume.json") is FileKind.RESUME


@pytest.mark.parametrize(("data", "kind"), [
    (b"", FileKind.EMPTY), (b" \n\t", FileKind.EMPTY),
    (b"GIF87a\x00", FileKind.GIF), (b"GIF89a", FileKind.GIF), (b"\x89PNG\r\n\x1a\n", FileKind.PNG),
    (b"\xff\xd8\xff\xe0", FileKind.JPEG), (b"PK\x03\x04\x14\x00", FileKind.ZIP), (b"\x1f\x8b\x08", FileKind.GZIP),
    (b"%PDF-1.7\n", FileKind.PDF),
    ((json.dumps(GAME) + "\n") * 3, FileKind.OBSERVATIONS), (json.dumps(GAME), FileKind.OBSERVATIONS),
    ('{"a": 1}\n{"b": 2}\n', FileKind.JSON_LINES), ("[1, 2]", FileKind.JSON), ('{"name": "x"}', FileKind.JSON),
    ('\ufeff{"rules": []}', FileKind.PHYSICS), ('{"rules": [], "extra": 1}', FileKind.JSON),
    (json.dumps({"format": RUNS_FORMAT, "runs": []}), FileKind.RUNS),
    ("{this is not json", FileKind.TEXT), ("# Benchmark results\n\n| a |\n", FileKind.TEXT),
    (b"\xff\xfe\x00binary", FileKind.BINARY), (b"text\x00with a NUL", FileKind.BINARY),
])
def test_kinds_by_content(data: bytes | str, kind: FileKind) -> None:
    assert identify_bytes(data.encode() if isinstance(data, str) else data) is kind


def test_a_big_file_is_told_by_its_beginning(tmp_path: Path) -> None:
    line = (json.dumps(GAME) + "\n").encode()
    big = tmp_path / "big.jsonl"
    with big.open("wb") as handle:
        for _ in range(MAX_IDENTIFY_BYTES // len(line) + 2):
            handle.write(line)
    assert big.stat().st_size > MAX_IDENTIFY_BYTES and identify(big) is FileKind.OBSERVATIONS
    text = tmp_path / "big.txt"
    text.write_bytes(b"words " * (MAX_IDENTIFY_BYTES // 6 + 2))
    assert identify(text) is FileKind.TEXT
    assert identify_bytes(b"x" * HEAD_BYTES + b"\x00", partial=True) is FileKind.BINARY


def test_missing_files_fifos_and_folders(tmp_path: Path) -> None:
    assert identify(tmp_path / "missing") is None
    (tmp_path / "file").write_text("x")
    assert identify(tmp_path / "file" / "below") is None
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(FileKindError, match="not a regular file"):
        identify(tmp_path / "fifo")  # never blocks on the FIFO
    with pytest.raises(FileKindError, match="not a regular file"):
        identify(tmp_path)
