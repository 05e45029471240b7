"""What kind of file is at a path, told by its content (never by its name or its first character).

:func:`identify` reads a bounded part of a regular file (never blocks on a FIFO or a device) and
names its kind with the project's own loaders: a level parses as a level (:func:`parse_level`), a
physics as a physics (:meth:`Physics.from_json`), a learned-rules file carries the rules format tag,
observed games are JSON lines with a map, progress and settings files have their documents' shapes;
images are told by their magic bytes.  The commands' output guard (:mod:`game.cli.outputs`) uses it
to refuse replacing a file of another kind.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "a.json").write_text('{"rules": []}')
>>> identify(folder / "a.json")
<FileKind.PHYSICS: 'a physics file'>
>>> _ = (folder / "g.jsonl").write_text('{"map": ["#"], "frames": 1, "lemmings": []}\\n' * 2)
>>> identify(folder / "g.jsonl")
<FileKind.OBSERVATIONS: 'a file of observed games (JSON lines)'>
>>> identify(folder / "missing") is None
True
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import fields
from enum import Enum
from pathlib import Path
from typing import Any

from game.core.errors import GameError
from game.core.json_bounds import parse_json_bytes
from game.core.level_text import MAX_FILE_BYTES as MAX_LEVEL_BYTES
from game.core.level_text import parse_level
from game.core.physics import Physics
from game.core.settings import Settings

#: The ``format`` tag of a learned-rules file (``learn --out`` with the decision-tree learner).
RULES_FORMAT_TAG = "lemming-bricks-rules"
#: The ``format`` tag of the observed runs the game keeps for the learner.
RUNS_FORMAT_TAG = "lemming-bricks-observed-runs"
#: Most bytes read to tell a file's kind: a bigger file is told by its beginning only.
MAX_IDENTIFY_BYTES = 16 * 1024 * 1024
#: Bytes read from the beginning of a bigger file (its first JSON line must fit).
HEAD_BYTES = 1024 * 1024

_SETTINGS_KEYS = frozenset(f.name for f in fields(Settings))


class FileKind(Enum):
    """A kind of file the game reads or writes; the value reads well in a message."""

    EMPTY = "an empty file"
    GIF = "a GIF image"
    PNG = "a PNG image"
    JPEG = "a JPEG image"
    ZIP = "a zip archive"
    GZIP = "a gzip archive"
    PDF = "a PDF document"
    LEVEL = "a level file"
    PHYSICS = "a physics file"
    RULES = "a learned-rules file"
    OBSERVATIONS = "a file of observed games (JSON lines)"
    PROGRESS = "a progress file"
    SETTINGS = "a settings file"
    RESUME = "a saved-boards file"
    RUNS = "a file of observed runs"
    JSON = "a JSON file"
    JSON_LINES = "a JSON lines file"
    TEXT = "a text file"
    BINARY = "a binary file"


_MAGIC: tuple[tuple[bytes, FileKind], ...] = (
    (b"GIF87a", FileKind.GIF), (b"GIF89a", FileKind.GIF), (b"\x89PNG\r\n\x1a\n", FileKind.PNG),
    (b"\xff\xd8\xff", FileKind.JPEG), (b"PK\x03\x04", FileKind.ZIP), (b"PK\x05\x06", FileKind.ZIP),
    (b"\x1f\x8b", FileKind.GZIP), (b"%PDF-", FileKind.PDF),
)
#: The kinds told by their signature (no text at all): a reader of text files names them rather than their
#: first byte that is not UTF-8 (a text file in another encoding keeps that more useful message).
SIGNED_KINDS = frozenset(kind for _, kind in _MAGIC)


class FileKindError(GameError):
    """The kind of a file cannot be read (it is not a regular file, or reading it failed)."""


def _read_head(path: Path) -> tuple[bytes, bool]:
    """The file's bytes (all of them, or its first :data:`HEAD_BYTES` and ``True`` when it is bigger than
    :data:`MAX_IDENTIFY_BYTES`)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileKindError(f"{path} is not a regular file")
        partial = info.st_size > MAX_IDENTIFY_BYTES
        want = HEAD_BYTES if partial else MAX_IDENTIFY_BYTES
        chunks: list[bytes] = []
        total = 0
        while total < want:
            chunk = os.read(fd, min(1 << 20, want - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        return b"".join(chunks), partial
    finally:
        os.close(fd)


def identify(path: Path | str) -> FileKind | None:
    """The kind of the file at ``path`` (symbolic links followed), ``None`` when nothing is there.

    Raises :class:`FileKindError` when it is not a regular file or cannot be read.
    """
    p = Path(path)
    try:
        data, partial = _read_head(p)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ENOTDIR:
            return None
        raise FileKindError(f"cannot read {p}: {exc.strerror or exc}") from None
    return identify_bytes(data, partial=partial)


def identify_bytes(data: bytes, *, partial: bool = False) -> FileKind:
    """The kind of a file holding ``data`` (``partial``: only the beginning of a bigger file).

    >>> identify_bytes(b"GIF89a...")
    <FileKind.GIF: 'a GIF image'>
    >>> identify_bytes(b'{"format": "lemming-bricks-rules", "version": 1}')
    <FileKind.RULES: 'a learned-rules file'>
    >>> identify_bytes(b"5\\n1\\nR.T\\nXXX\\n")
    <FileKind.LEVEL: 'a level file'>
    >>> identify_bytes(b"{not json")
    <FileKind.TEXT: 'a text file'>
    """
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            return kind
    if not data.strip():
        return FileKind.BINARY if partial else FileKind.EMPTY
    if partial:
        return _json_lines_kind(data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return FileKind.BINARY
    if "\x00" in text:
        return FileKind.BINARY
    body = text.lstrip("\ufeff \t\r\n")
    if body.startswith(("{", "[")):
        parsed, problem = parse_json_bytes(data)
        if problem is None:
            return _json_kind(parsed)
        return _json_lines_kind(data)
    if len(data) <= MAX_LEVEL_BYTES and _is_level(text):
        return FileKind.LEVEL
    return FileKind.TEXT


def _is_level(text: str) -> bool:
    try:
        parse_level(text, "<file>")
    except GameError:
        return False
    return True


def _is_physics(data: Any) -> bool:
    try:
        Physics.from_json(data)
    except GameError:
        return False
    return True


def _json_kind(data: Any) -> FileKind:
    """The kind of one parsed JSON document."""
    if not isinstance(data, dict):
        return FileKind.JSON
    tag = data.get("format")
    if tag == RULES_FORMAT_TAG:
        return FileKind.RULES
    if tag == RUNS_FORMAT_TAG:
        return FileKind.RUNS
    if "map" in data and "lemmings" in data:
        return FileKind.OBSERVATIONS  # one observed game: a JSON lines file of one line
    if "rules" in data and _is_physics(data):
        return FileKind.PHYSICS
    if isinstance(data.get("levels"), dict) and "version" in data:
        return FileKind.PROGRESS
    if isinstance(data.get("boards"), dict) and "last" in data:
        return FileKind.RESUME
    if data and set(data) <= _SETTINGS_KEYS:
        return FileKind.SETTINGS
    return FileKind.JSON


def _json_lines_kind(data: bytes) -> FileKind:
    """JSON lines (observed games when the first object has a map), else text or a binary file."""
    first = next((line for line in data.splitlines() if line.strip()), b"")
    parsed, problem = parse_json_bytes(first) if first else (None, "empty")
    if problem is None and isinstance(parsed, dict):
        return FileKind.OBSERVATIONS if "map" in parsed else FileKind.JSON_LINES
    return FileKind.BINARY if b"\x00" in data else FileKind.TEXT
