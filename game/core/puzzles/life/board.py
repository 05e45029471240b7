"""Board files: rows of ``#`` (alive) and ``.`` (dead), after optional ``key: value`` header lines.

A file holds one board, or several separated by blank lines (a trajectory, for rule learning).
Each header key appears once (a second ``steps:`` line is refused, naming both lines).
Header keys used by the puzzle pack: ``title``, ``steps`` (1-5) and ``rule`` (default ``B3/S23``).

>>> doc = parse_board_text("title: Blinker\\nsteps: 1\\n.....\\n..#..\\n..#..\\n..#..\\n.....\\n")
>>> doc.header["title"], doc.boards[0].shape, int(doc.boards[0].sum())
('Blinker', (5, 5), 3)
>>> board_rows(doc.boards[0])[1:3]
['..#..', '..#..']
>>> parse_board_text("##\\n#x\\n", "b.txt")
Traceback (most recent call last):
...
game.core.errors.LevelFormatError: b.txt:2:2: unexpected character 'x' (a board has only '#' alive and '.' dead)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from game.core.errors import GameError, LevelFormatError
from game.core.puzzles.life.rules import Board
from game.core.storage import read_regular_bytes

#: Largest board side accepted.
MAX_SIDE = 256
#: Most boards in one file.
MAX_BOARDS = 200
#: Largest board file, in bytes.
MAX_FILE_BYTES = 4 * 1024 * 1024

_HEADER = re.compile(r"([A-Za-z_][A-Za-z0-9_-]{0,30})\s*:\s*(.*)")
_NOT_A_CELL = re.compile(r"[^#.]")


@dataclass(frozen=True)
class BoardFile:
    """What a board file holds: its header (lower-case keys) and its boards (all the same shape)."""

    header: dict[str, str] = field(default_factory=dict)
    boards: tuple[Board, ...] = ()


def format_board(board: Board) -> str:
    """The rows of ``board`` as ``#``/``.`` text, without a final newline."""
    return "\n".join(board_rows(board))


def board_rows(board: Board) -> list[str]:
    """The rows of ``board`` as ``#``/``.`` strings."""
    cells = np.where(np.asarray(board, dtype=bool), np.uint8(ord("#")), np.uint8(ord(".")))
    return [row.tobytes().decode("ascii") for row in cells]


def parse_rows(rows: list[str]) -> Board:
    """A board from ``#``/``.`` rows (no checks beyond the characters; see :func:`parse_board_text`)."""
    if not rows:
        return np.zeros((0, 0), dtype=bool)
    data = np.frombuffer("".join(rows).encode("utf-8", "replace"), dtype=np.uint8)
    if data.size != sum(len(row) for row in rows):  # a character of more than one byte: cell by cell
        return np.array([[ch == "#" for ch in row] for row in rows], dtype=bool).reshape(len(rows), -1)
    board: Board = (data == ord("#")).reshape(len(rows), -1)
    return board


def parse_board_text(text: str, path: str = "<text>") -> BoardFile:
    """Parse a board file's text; errors are :class:`LevelFormatError` naming file, line, column."""
    header: dict[str, str] = {}
    header_lines: dict[str, int] = {}  # the line of each header key
    boards: list[Board] = []
    rows: list[str] = []
    first_line = 0
    width = 0
    lines = text.splitlines()

    def close(line_no: int) -> None:
        nonlocal rows
        if rows:
            if len(boards) >= MAX_BOARDS:
                raise LevelFormatError(path, line_no, 1, f"more than {MAX_BOARDS} boards in one file")
            if boards and boards[0].shape != (len(rows), width):
                raise LevelFormatError(path, first_line, 1, f"board is {width}x{len(rows)} but the first board is "
                                       f"{boards[0].shape[1]}x{boards[0].shape[0]}")
            boards.append(parse_rows(rows))
            rows = []

    for n, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        if not line:
            close(n)
            continue
        if not boards and not rows:
            m = _HEADER.fullmatch(line)
            if m:
                key = m.group(1).lower()
                if key in header_lines:
                    raise LevelFormatError(path, n, 1, f"a second '{key}:' line (the first is line "
                                           f"{header_lines[key]}): give each header line once")
                header[key], header_lines[key] = m.group(2).strip(), n
                continue
        if not rows:
            first_line, width = n, len(line)
        bad = _NOT_A_CELL.search(line)
        if bad:
            ch = bad.group()
            shown = repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}"
            raise LevelFormatError(path, n, bad.start() + 1, f"unexpected character {shown} (a board has only '#' "
                                   "alive and '.' dead)")
        if len(line) != width:
            raise LevelFormatError(path, n, min(len(line), width) + 1,
                                   f"row has {len(line)} cells but the board's first row has {width}")
        if width > MAX_SIDE or len(rows) >= MAX_SIDE:
            raise LevelFormatError(path, n, 1, f"board larger than {MAX_SIDE}x{MAX_SIDE}")
        rows.append(line)
    close(len(lines) + 1)
    if not boards:
        raise LevelFormatError(path, max(1, len(lines)), 1, "no board (rows of '#' and '.') in the file")
    return BoardFile(header, tuple(boards))


def read_board_file(path: Path | str) -> BoardFile:
    """Read and parse a board file (UTF-8, with or without a byte order mark) through the bounded loader
    (:func:`game.core.storage.read_regular_bytes`)."""
    try:
        data = read_regular_bytes(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise GameError(f"{path}: no such file") from None
    try:
        text = data.decode("utf-8-sig")  # a byte order mark, as some editors write, is no cell
    except UnicodeDecodeError as exc:
        raise LevelFormatError(str(path), data[: exc.start].count(b"\n") + 1, 1, "not UTF-8 text") from None
    return parse_board_text(text, str(path))


__all__ = ["BoardFile", "MAX_BOARDS", "MAX_FILE_BYTES", "MAX_SIDE", "board_rows", "format_board", "parse_board_text",
           "parse_rows", "read_board_file"]
