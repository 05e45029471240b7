"""Errors the game reports to users: each carries a message fit to print as is."""

from __future__ import annotations


class GameError(Exception):
    """Base class of errors shown to users (never as a traceback)."""


class LevelFormatError(GameError):
    """A level file (or text) that cannot be read; names file, line and column.

    >>> str(LevelFormatError("a.txt", 3, 7, "unknown map character '?'"))
    "a.txt:3:7: unknown map character '?'"

    Line 0 stands for the whole file (it could not be read): no position is printed.

    >>> str(LevelFormatError("foo", 0, 0, "no such file"))
    'foo: no such file'
    """

    def __init__(self, path: str, line: int, col: int, message: str) -> None:
        super().__init__(f"{path}:{line}:{col}: {message}" if line > 0 else f"{path}: {message}")
        self.path = path
        self.line = line
        self.col = col
        self.message = message


class IllegalBricksError(GameError):
    """A brick set that breaks the placement rules or the budget."""
