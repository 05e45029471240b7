"""The level file format: its map characters, its limits, and the parser of its text into a level's
fields (:class:`game.core.level.Level` is built from them).

>>> parse_level("# title: Walk\\n5\\n1\\nR.T\\nXXX\\n", "<string>").grid
('> T', 'XXX')
"""

from __future__ import annotations

import re
from typing import NamedTuple

from game.core.errors import LevelFormatError
from game.core.physics import CLASSIC, Physics, PhysicsError
from game.core.physics_catalog import resolve

WALL = "X"
EMPTY = " "
TARGET = "T"
LEMMING_LEFT = "<"
LEMMING_RIGHT = ">"

#: Every character a map row may hold, mapped to its canonical form.
CANONICAL_CHAR: dict[str, str] = {
    "X": WALL,
    " ": EMPTY,
    ".": EMPTY,
    "T": TARGET,
    "<": LEMMING_LEFT,
    "L": LEMMING_LEFT,
    ">": LEMMING_RIGHT,
    "R": LEMMING_RIGHT,
}

#: Largest level file accepted, in bytes.
MAX_FILE_BYTES = 1_000_000
#: Largest map side accepted, in cells.
MAX_SIDE = 256
#: Largest number of frames accepted.
MAX_FRAMES = 10_000

_META_LINE = re.compile(r"#\s*([A-Za-z][A-Za-z0-9_-]*)\s*:\s?(.*)$")


class LevelFields(NamedTuple):
    """What a level file holds, in the order of :class:`game.core.level.Level`'s fields."""

    frames: int
    budget: int
    grid: tuple[str, ...]
    meta: tuple[tuple[str, str], ...]
    physics: Physics
    physics_at: int | None


def decode_level(data: bytes, path: str) -> str:
    """The text of a level file's bytes: UTF-8 (errors name line and column), without a byte order mark."""
    if len(data) > MAX_FILE_BYTES:
        raise LevelFormatError(
            path, 1, 1,
            f"file is too large ({len(data):,} bytes; the limit is {MAX_FILE_BYTES:,})",
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _line_col_of_byte(data, exc.start)
        raise LevelFormatError(
            path, line, col, f"not UTF-8 text (byte 0x{data[exc.start]:02x})"
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


def parse_level(text: str, path: str) -> LevelFields:
    """The fields of the level ``text`` holds; raises :class:`LevelFormatError` naming line and column."""
    if len(text) > MAX_FILE_BYTES:
        raise LevelFormatError(path, 1, 1, f"file is too large (over {MAX_FILE_BYTES:,} characters)")
    lines = text.split("\n")
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
    while lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise LevelFormatError(path, 1, 1, "empty file: expected the number of frames N on line 1")
    meta, physics, physics_at, i = _parse_meta(lines, path)
    if i >= len(lines):
        raise LevelFormatError(path, i + 1, 1, "missing header: expected the number of frames N")
    frames = _parse_int(path, i + 1, lines[i], "the number of frames N", 1, MAX_FRAMES)
    i += 1
    if i >= len(lines):
        raise LevelFormatError(path, i + 1, 1, "missing header: expected the brick budget B")
    budget = _parse_int(path, i + 1, lines[i], "the brick budget B", 0, MAX_SIDE * MAX_SIDE)
    i += 1
    return LevelFields(frames, budget, _parse_map(lines[i:], i + 1, path), tuple(meta), physics, physics_at)


def _parse_meta(lines: list[str], path: str) -> tuple[list[tuple[str, str]], Physics, int | None, int]:
    """The metadata lines at the top: the pairs, the physics and where its line stands, and the next line."""
    meta: list[tuple[str, str]] = []
    physics, physics_at = CLASSIC, None
    i = 0
    while i < len(lines) and lines[i].startswith("#"):
        match = _META_LINE.fullmatch(lines[i])
        if not match:
            raise LevelFormatError(path, i + 1, 1, "a metadata line must read '# key: value'")
        if match.group(1) != "physics":
            meta.append((match.group(1), match.group(2).rstrip()))
        elif physics_at is not None:
            raise LevelFormatError(path, i + 1, 1, "a second '# physics:' line (a level has one physics)")
        else:
            try:
                physics, physics_at = resolve(match.group(2)), len(meta)
            except PhysicsError as exc:
                raise LevelFormatError(path, i + 1, 1, str(exc)) from None
        i += 1
    return meta, physics, physics_at, i


def _parse_map(raw_rows: list[str], first_map_line: int, path: str) -> tuple[str, ...]:
    """The map rows in canonical characters, padded to one width."""
    if not raw_rows:
        raise LevelFormatError(path, first_map_line, 1, "the map is empty: expected map rows after N and B")
    if len(raw_rows) > MAX_SIDE:
        raise LevelFormatError(path, first_map_line + MAX_SIDE, 1, f"the map has more than {MAX_SIDE} rows")
    rows: list[str] = []
    for k, raw in enumerate(raw_rows):
        lineno = first_map_line + k
        if len(raw) > MAX_SIDE:
            raise LevelFormatError(path, lineno, MAX_SIDE + 1, f"the row is longer than {MAX_SIDE} cells")
        out = []
        for col, ch in enumerate(raw):
            canon = CANONICAL_CHAR.get(ch)
            if canon is None:
                shown = repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}"
                raise LevelFormatError(
                    path, lineno, col + 1,
                    f"unknown map character {shown} (use X, space, ., <, >, L, R or T)",
                )
            out.append(canon)
        rows.append("".join(out))
    width = max(len(r) for r in rows)
    if width == 0:
        raise LevelFormatError(path, first_map_line, 1, "the map is empty: every map row is blank")
    grid = tuple(r.ljust(width, EMPTY) for r in rows)
    if not any(ch in (LEMMING_LEFT, LEMMING_RIGHT) for r in grid for ch in r):
        raise LevelFormatError(path, first_map_line, 1, "the map has no lemming (<, >, L or R)")
    if not any(TARGET in r for r in grid):
        raise LevelFormatError(path, first_map_line, 1, "the map has no target (T)")
    return grid


def _line_col_of_byte(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of a byte offset."""
    head = data[:offset]
    line = head.count(b"\n") + 1
    start = head.rfind(b"\n") + 1
    col = len(head[start:].decode("utf-8", errors="replace")) + 1
    return line, col


def _parse_int(path: str, lineno: int, raw: str, what: str, minimum: int, maximum: int) -> int:
    """A header number: ASCII digits only (no fullwidth or other scripts), at most 12 of them."""
    stripped = raw.strip()
    col = len(raw) - len(raw.lstrip()) + 1
    if not stripped:
        raise LevelFormatError(path, lineno, 1, f"expected {what}, found an empty line")
    shown = stripped if len(stripped) <= 40 else stripped[:40] + "..."
    if not _ASCII_INT.fullmatch(stripped):
        raise LevelFormatError(path, lineno, col,
                               f"expected {what} (a whole number in ASCII digits), found {shown!r}")
    digits = stripped.lstrip("+-").lstrip("0")
    if len(digits) > 12:
        raise LevelFormatError(path, lineno, col, f"{what} must be at most {maximum}, got a {len(digits)}-digit number")
    value = int(stripped)
    if value < minimum:
        raise LevelFormatError(path, lineno, col, f"{what} must be at least {minimum}, got {value}")
    if value > maximum:
        raise LevelFormatError(path, lineno, col, f"{what} must be at most {maximum}, got {value}")
    return value


_ASCII_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)
