"""The one guard of every file a command writes: an output never replaces an input, nor a file of another kind.

:func:`guard_output` is called by each command before its work starts (and again just before writing,
for long commands).  It resolves the path, runs the path checks of :func:`game.cli.args.check_output_file`
(a folder, a FIFO, a missing or read-only folder...), then refuses, with one message naming the path
and why (:class:`~game.core.errors.GameError`, exit code 2):

* the same file as any input of the command (the same path, a symbolic link to it, or a hard link:
  compared with :func:`os.path.samefile`), even with ``--force``;
* an existing file of another kind than the output, told by its content
  (:func:`game.core.file_kinds.identify`: a level, a physics, learned rules, observed games, progress,
  settings, a GIF...);
* an existing file of the same kind, unless ``--force`` is given (or the command merges into the file,
  as ``bench --results`` does).

The write itself goes through :mod:`game.core.writing`'s atomic writer: a temporary file renamed
over the target, removed on any failure, and any I/O error is one message (exit code 2).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> level = folder / "a.txt"
>>> _ = level.write_text("5\\n1\\nR.T\\nXXX\\n")
>>> try:
...     guard_output(str(level), FileKind.GIF, what="--gif")
... except GameError as exc:
...     print(str(exc)[str(exc).index("exists"):])
exists and is a level file, not a GIF image: refusing to replace it (choose another name)
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Collection, Iterable

from game.cli.args import check_output_file, terminal_safe
from game.core.errors import GameError
from game.core.file_kinds import FileKind, FileKindError, identify

#: An input of a command: the option that names it (``--observations``, ``level``...) and its path
#: (``None`` or ``""`` when not given).
Input = tuple[str, "str | Path | None"]


def _shown(text: str | Path) -> str:
    value = str(text)
    return terminal_safe(repr(value if len(value) <= 200 else value[:200] + "..."))


def same_file(a: str | Path, b: str | Path) -> bool:
    """``a`` and ``b`` are one file: the same path after resolving links, or the same inode (a hard link)."""
    try:
        if os.path.realpath(a) == os.path.realpath(b):
            return True
        return os.path.exists(a) and os.path.exists(b) and os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def guard_output(text: str, kinds: FileKind | Collection[FileKind], *, what: str = "--out",
                 inputs: Iterable[Input] = (), force: bool = False, merge: bool = False) -> Path:
    """``text`` as a path the command may write a file of ``kinds`` to, or :class:`GameError`.

    ``inputs``: every file the command reads, as ``(option, path)``; the output may be none of them.
    ``force``: replace an existing file of the same kind (the command's ``--force``).  ``merge``: the
    command updates the file it writes (it keeps what the file holds), so the same kind needs no
    ``--force``.  An existing empty file holds nothing to lose and may be replaced.
    """
    wanted = (kinds,) if isinstance(kinds, FileKind) else tuple(kinds)
    path = check_output_file(text, what=what)
    for option, given in inputs:
        if given and same_file(path, given):
            why = "is the same file as" if str(given) != text else "is also"
            raise GameError(f"{what} {_shown(text)} {why} the input {option} {_shown(given)}: an output never "
                            "replaces an input of the command; choose another name")
    try:
        found = identify(path)
    except FileKindError as exc:
        raise GameError(f"{what} {_shown(text)}: {exc}") from None
    if found is None or found is FileKind.EMPTY:
        return path
    label = " or ".join(kind.value for kind in wanted)
    if found not in wanted:
        raise GameError(f"{what} {_shown(text)} exists and is {found.value}, not {label}: refusing to replace it "
                        "(choose another name)")
    if not (force or merge):
        raise GameError(f"{what} {_shown(text)} already exists ({found.value}); add --force to replace it")
    return path


def force_needs_an_output(force: bool, outputs: Iterable[tuple[str, object]]) -> None:
    """``--force`` with none of the outputs it lets replace a file (``(option, value)`` pairs): one message.

    >>> force_needs_an_output(True, [("--out", "a.txt")])
    >>> try:
    ...     force_needs_an_output(True, [("--out", ""), ("--curve", None)])
    ... except GameError as exc:
    ...     print(exc)
    --force goes with --out or --curve (it lets that output replace an existing file)
    """
    given = list(outputs)
    if force and not any(value for _, value in given):
        names = " or ".join(option for option, _ in given)
        raise GameError(f"--force goes with {names} (it lets that output replace an existing file)")


__all__ = ["FileKind", "Input", "force_needs_an_output", "guard_output", "same_file"]
