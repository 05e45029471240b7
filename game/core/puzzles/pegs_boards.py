"""Peg-solitaire boards as text: reading a board file, and the built-in English and French boards.

The text form has one line per row: ``o`` a peg, ``.`` a hole, space off the board (at most :data:`MAX_SIDE`
rows and columns).  :func:`parse_board` reads it into a :class:`game.core.puzzles.pegs.Board` and a position,
naming the line and column of what it cannot read; :func:`load_board` reads a built-in board by name or a
board file through the bounded loader.

>>> board, pos = english()
>>> board.count(pos), board.format(pos) == ENGLISH_TEXT
(32, True)
"""

from __future__ import annotations

from game.core.errors import GameError, LevelFormatError
from game.core.puzzles.pegs import Board, Cell
from game.core.storage import UserFileError, read_regular_bytes

#: Largest frame side a board file may use.
MAX_SIDE = 9
#: Largest board file read, in bytes.
MAX_FILE_BYTES = 4096

ENGLISH_TEXT = "\n".join([
    "  ooo",
    "  ooo",
    "ooooooo",
    "ooo.ooo",
    "ooooooo",
    "  ooo",
    "  ooo",
])
"""The English board (33 holes), centre empty."""

FRENCH_TEXT = "\n".join([
    "  ooo",
    " ooooo",
    "ooooooo",
    "ooo.ooo",
    "ooooooo",
    " ooooo",
    "  ooo",
])
"""The French board (37 holes), centre empty."""


class BoardFormatError(LevelFormatError):
    """A board text that cannot be read (``file:line:col: message``)."""


def parse_board(text: str, *, path: str = "<board>", name: str = "board") -> tuple[Board, int]:
    """Read a board text: ``(board, position)``.  Raises :class:`BoardFormatError` naming line and column.

    >>> board, pos = parse_board("ooo\\n.o")
    >>> board.height, board.width, board.count(pos), len(board.jumps)
    (2, 3, 4, 2)
    >>> try:
    ...     parse_board("o?o")
    ... except BoardFormatError as exc:
    ...     print(exc)
    <board>:1:2: unknown character '?' (use o for a peg, . for a hole, space off the board)
    """
    lines = text.replace("\r\n", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise BoardFormatError(path, 1, 1, "the board is empty (use o for a peg, . for a hole)")
    if len(lines) > MAX_SIDE:
        raise BoardFormatError(path, MAX_SIDE + 1, 1, f"the board has {len(lines)} rows (at most {MAX_SIDE})")
    cells: set[Cell] = set()
    pegs: set[Cell] = set()
    width = 0
    for r, line in enumerate(lines):
        line = line.rstrip()
        if len(line) > MAX_SIDE:
            raise BoardFormatError(path, r + 1, MAX_SIDE + 1, f"the row is {len(line)} wide (at most {MAX_SIDE})")
        for c, ch in enumerate(line):
            if ch == " ":
                continue
            if ch not in "o.":
                shown = repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}"
                raise BoardFormatError(path, r + 1, c + 1, f"unknown character {shown} "
                                       "(use o for a peg, . for a hole, space off the board)")
            cells.add((r, c))
            if ch == "o":
                pegs.add((r, c))
        width = max(width, len(line))
    if not pegs:
        raise BoardFormatError(path, 1, 1, "the board has no peg")
    board = Board(len(lines), width, frozenset(cells), name)
    return board, board.position_of(pegs)


def english() -> tuple[Board, int]:
    """The English board (33 holes) with the centre empty."""
    return parse_board(ENGLISH_TEXT, name="english")


def french() -> tuple[Board, int]:
    """The French board (37 holes) with the centre empty."""
    return parse_board(FRENCH_TEXT, name="french")


#: The built-in boards by name.
BOARDS = {"english": english, "french": french}


def load_board(spec: str) -> tuple[Board, int]:
    """A built-in board by name (``english``, ``french``) or a board file, read through the bounded loader.

    Raises :class:`game.core.errors.GameError` (a missing, unreadable or bad file) with one message.
    """
    if spec in BOARDS:
        return BOARDS[spec]()
    try:
        raw = read_regular_bytes(spec, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise GameError(f"no board named {spec!r} and no such file (boards: {', '.join(BOARDS)})") from None
    except UserFileError:
        raise
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise GameError(f"{spec} is not UTF-8 text (byte {exc.start})") from None
    return parse_board(text, path=spec, name=spec)


__all__ = ["BOARDS", "BoardFormatError", "ENGLISH_TEXT", "FRENCH_TEXT", "MAX_FILE_BYTES", "MAX_SIDE", "english",
           "french", "load_board", "parse_board"]
