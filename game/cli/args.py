"""Command-line argument types shared by every subcommand, and safe printing of user text.

Each ``*_arg`` function returns an ``argparse`` ``type=`` callable: a bad value becomes
argparse's usual one-line error (exit 2, no traceback).  Numbers are ASCII digits only
(no fullwidth or Arabic-Indic digits), with a bounded number of digits, inside documented
ranges.

>>> int_arg(0, 10)("7")
7
>>> int_arg(0, 10)("\\uff17")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected a whole number from 0 to 10 in ASCII digits, got '７'
>>> time_limit_arg("2.5")
2.5
>>> terminal_safe("a\\x1b[31mred\\x07")
'a\\\\x1b[31mred\\\\x07'
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import re
import stat
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterator, Sequence, TypeAlias

from game.core.errors import GameError
from game.core.rules import parse_bricks
from game.core.text import terminal_safe as terminal_safe  # the commands print user text through it

#: What a command module's ``register`` receives: the top-level parser's subcommands.
Subparsers: TypeAlias = "argparse._SubParsersAction[CommandParser]"
#: A subcommand's handler: the parsed arguments in, the exit code out.
Handler: TypeAlias = Callable[[argparse.Namespace], int]

#: Longest time limit accepted, in seconds (one week).
MAX_TIME_LIMIT = 7 * 24 * 3600.0
#: Longest path accepted on the command line, in characters.
MAX_PATH_CHARS = 4096
#: The frame after which a window command's ``--screenshot`` is taken by default.
SCREENSHOT_FRAME = 30

_ASCII_INT = re.compile(r"[+-]?[0-9]{1,18}", re.ASCII)
_ASCII_FLOAT = re.compile(r"[+-]?([0-9]{1,12}(\.[0-9]{0,12})?|\.[0-9]{1,12})([eE][+-]?[0-9]{1,3})?", re.ASCII)


class CommandParser(argparse.ArgumentParser):
    """The parser of the command line and of every subcommand (``add_subparsers`` makes its subparsers of
    the same class): argparse's, except that an option given only ``--`` as its value (``--games=--``) is
    refused as a missing value, one message and exit 2.  argparse drops the ``--`` and hands the option an
    empty list, past its ``type=`` check.

    >>> parser = CommandParser(prog="demo")
    >>> _ = parser.add_argument("--games", type=int_arg(1, 10))
    >>> parser.parse_args(["--games=3"]).games
    3
    >>> parser.parse_args(["--games=--"])
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> object:
        if action.nargs is None and arg_strings == ["--"]:
            name = "/".join(action.option_strings) or action.metavar or action.dest
            self.error(f"argument {name}: expected one value, got '--'")
        return super()._get_values(action, arg_strings)


def _short(text: str, limit: int = 40) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _shown(text: str) -> str:
    return terminal_safe(repr(text if len(text) <= 200 else text[:200] + "..."))


def parse_ascii_int(text: str, minimum: int, maximum: int, what: str = "a whole number") -> int:
    """``text`` as an int in ``[minimum, maximum]``; ASCII digits only; raises :class:`ValueError`.

    >>> parse_ascii_int(" 12 ", 0, 20)
    12
    >>> parse_ascii_int("9" * 5000, 0, 20)
    Traceback (most recent call last):
    ...
    ValueError: expected a whole number from 0 to 20 in ASCII digits, got '9999999999999999999999999999999999999999...'
    """
    stripped = text.strip()
    if not _ASCII_INT.fullmatch(stripped):
        raise ValueError(f"expected {what} from {minimum} to {maximum} in ASCII digits, got {_short(text)}")
    value = int(stripped)
    if not minimum <= value <= maximum:
        raise ValueError(f"{what} must be from {minimum} to {maximum}, got {value}")
    return value


def int_arg(minimum: int, maximum: int) -> Callable[[str], int]:
    """An argparse type: a whole number in ``[minimum, maximum]`` written in ASCII digits."""

    def parse(text: str) -> int:
        try:
            return parse_ascii_int(text, minimum, maximum)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = "whole number"
    return parse


def float_arg(minimum: float, maximum: float, *, allow_min: bool = True) -> Callable[[str], float]:
    """An argparse type: a finite decimal number in ``[minimum, maximum]`` (``(minimum, ...]`` if
    not ``allow_min``), ASCII digits only."""

    def parse(text: str) -> float:
        stripped = text.strip()
        low = "at least" if allow_min else "more than"
        if not _ASCII_FLOAT.fullmatch(stripped):
            raise argparse.ArgumentTypeError(f"expected a number {low} {minimum:g}, got {_short(text)}")
        value = float(stripped)
        if not math.isfinite(value) or value > maximum or value < minimum or (value == minimum and not allow_min):
            raise argparse.ArgumentTypeError(f"must be a number {low} {minimum:g} and at most {maximum:g}, "
                                             f"got {_short(text)}")
        return value

    parse.__name__ = "number"
    return parse


def time_limit_arg(text: str) -> float:
    """An argparse type: a time limit in seconds, finite and > 0 (at most a week).

    >>> time_limit_arg("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a number more than 0 and at most 604800, got '0'
    """
    return float_arg(0.0, MAX_TIME_LIMIT, allow_min=False)(text)


time_limit_arg.__name__ = "time limit"


def bricks_arg(text: str) -> str:
    """An argparse type: a brick list ``"r,c;r,c"`` or ``"(r,c) (r,c)"`` that parses (ASCII digits,
    balanced parentheses); returned unchanged for :func:`game.core.rules.parse_bricks`.

    >>> bricks_arg("(2,1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: cannot read bricks '(2,1' at character 1: an opening parenthesis is never closed
    """
    try:
        parse_bricks(text)
    except GameError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


bricks_arg.__name__ = "bricks"


def _probe_folder(parent: Path, text: str, what: str) -> None:
    """Create and remove a temporary file in ``parent``: the one sure test that a new file can be made
    there (``os.access`` says yes to root in ``/proc`` or on a read-only mount)."""
    try:
        fd, name = tempfile.mkstemp(prefix=".lemming-bricks-probe-", dir=parent)
    except OSError as exc:
        raise GameError(f"{what} {_shown(text)}: the folder {_shown(str(parent))} does not accept new files "
                        f"({exc.strerror or exc})") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(name)


def check_output_file(text: str, *, what: str = "output file") -> Path:
    """``text`` as a path a new file can be written to, or :class:`GameError` naming the problem.

    Refused: an empty or over-long path, ``-`` (it would be a file named ``-``, not the standard
    output), a folder, anything that is not a regular file (FIFO, device, socket), a missing parent
    folder, a parent that is a file, and a folder where no file can be created (checked by creating
    one).  A symbolic link to a regular file is fine (it is written through).  What the file may
    replace (never an input, never a file of another kind) is :func:`game.cli.outputs.guard_output`'s.

    >>> check_output_file("-")
    Traceback (most recent call last):
    ...
    game.core.errors.GameError: output file: '-' would be a file named '-', not the standard output; write ./- for that file
    """
    if text == "-":
        raise GameError(f"{what}: '-' would be a file named '-', not the standard output; write ./- for that file")
    if not text or "\x00" in text:
        raise GameError(f"{what}: the path is empty or holds a NUL character")
    if len(text) > MAX_PATH_CHARS:
        raise GameError(f"{what}: the path is too long ({len(text):,} characters)")
    path = Path(text)
    target = Path(os.path.realpath(path)) if os.path.islink(path) else path
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except NotADirectoryError:
        raise GameError(f"{what} {_shown(text)}: a part of the path is not a folder") from None
    except OSError as exc:
        raise GameError(f"{what} {_shown(text)}: {exc.strerror or exc}") from None
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            raise GameError(f"{what} {_shown(text)} is a folder; give a file name")
        if not stat.S_ISREG(info.st_mode):
            raise GameError(f"{what} {_shown(text)} is not a regular file")
    parent = target.parent
    try:
        pinfo = os.stat(parent)
    except FileNotFoundError:
        raise GameError(f"{what} {_shown(text)}: the folder {_shown(str(parent))} does not exist") from None
    except NotADirectoryError:
        raise GameError(f"{what} {_shown(text)}: a part of the path is not a folder") from None
    except OSError as exc:
        raise GameError(f"{what} {_shown(text)}: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(pinfo.st_mode):
        raise GameError(f"{what} {_shown(text)}: {_shown(str(parent))} is not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise GameError(f"{what} {_shown(text)}: the folder {_shown(str(parent))} is not writable")
    _probe_folder(parent, text, what)
    return path


@contextlib.contextmanager
def output_errors(out: str | Path) -> Iterator[None]:
    """Turn an I/O error while writing ``out`` (disk full, read-only folder...) into a one-line
    :class:`GameError` (exit 2); the atomic writers have already removed their temporary files."""
    try:
        yield
    except GameError:
        raise
    except OSError as exc:
        reason = os.strerror(exc.errno) if exc.errno is not None else str(exc) or type(exc).__name__
        raise GameError(f"cannot write {out}: {reason}") from None


def check_output_dir(text: str, *, what: str = "output folder") -> Path:
    """``text`` as a folder files can be written into (created if its parent exists), or
    :class:`GameError`."""
    if not text or "\x00" in text:
        raise GameError(f"{what}: the path is empty or holds a NUL character")
    if len(text) > MAX_PATH_CHARS:
        raise GameError(f"{what}: the path is too long ({len(text):,} characters)")
    path = Path(text)
    if path.exists():
        if not path.is_dir():
            raise GameError(f"{what} {_shown(text)} is not a folder")
        if not os.access(path, os.W_OK | os.X_OK):
            raise GameError(f"{what} {_shown(text)} is not writable")
        _probe_folder(path, text, what)
        return path
    check_output_file(text, what=what)  # a new folder: the same checks as a new file
    return path


def output_file_arg(text: str) -> str:
    """An argparse type running :func:`check_output_file` (the path is returned as given; ``""``,
    an option's "not given" default, is passed through)."""
    if text == "":
        return text
    try:
        check_output_file(text)
    except GameError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


output_file_arg.__name__ = "output file"


def names_arg(allowed: Sequence[str], what: str = "solver") -> Callable[[str], list[str]]:
    """An argparse type: names separated by commas, each one of ``allowed``.

    >>> names_arg(("cpsat", "search"))("cpsat,search")
    ['cpsat', 'search']
    >>> names_arg(("cpsat", "search"))("nosuch")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: unknown solver 'nosuch'; choose from cpsat, search
    """

    def parse(text: str) -> list[str]:
        names = [n.strip() for n in text.split(",") if n.strip()]
        if not names:
            raise argparse.ArgumentTypeError(f"no {what} named in {_short(text)}")
        for name in names:
            if name not in allowed:
                raise argparse.ArgumentTypeError(f"unknown {what} {_short(name)}; choose from {', '.join(allowed)}")
        return names

    parse.__name__ = f"{what} names"
    return parse


def output_dir_arg(text: str) -> str:
    """An argparse type running :func:`check_output_dir` (the path is returned as given)."""
    try:
        check_output_dir(text)
    except GameError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


output_dir_arg.__name__ = "output folder"


def path_arg(text: str) -> str:
    """An argparse type for an input path: not empty, no NUL, not absurdly long."""
    if not text or "\x00" in text or len(text) > MAX_PATH_CHARS:
        raise argparse.ArgumentTypeError(f"not a usable path ({len(text):,} characters)")
    return text


path_arg.__name__ = "path"


def level_folder_arg(text: str) -> str:
    """An argparse type for a folder of level files (``*.txt``): it exists, is a folder and holds one at least.

    >>> import tempfile
    >>> try:
    ...     level_folder_arg(tempfile.mkdtemp())
    ... except argparse.ArgumentTypeError as exc:
    ...     print(str(exc).split(": ", 1)[1])
    it holds no level files (*.txt)
    """
    path = Path(path_arg(text))
    try:
        if not path.is_dir():
            raise argparse.ArgumentTypeError(f"{_shown(text)}: not a folder" if path.exists()
                                             else f"{_shown(text)}: no such folder")
        if not any(path.glob("*.txt")):
            raise argparse.ArgumentTypeError(f"{_shown(text)}: it holds no level files (*.txt)")
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"{_shown(text)}: {exc.strerror or exc}") from None
    return text


level_folder_arg.__name__ = "level folder"


def usage_handler(parser: argparse.ArgumentParser) -> Handler:
    """The handler of a command group run without its subcommand: its help on stderr, exit code 2."""

    def usage(args: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return 2

    return usage
