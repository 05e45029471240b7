"""Reading a big text file line by line, within caps: never a whole file, never a whole overlong line.

:func:`read_lines` opens only regular files (a FIFO or a device is refused, never waited on), reads
in chunks of at most a mebibyte, and yields one line at a time.  A line longer than ``max_line``
bytes is refused once that many bytes of it were read (:class:`LineTooLong`), a file larger than
``max_bytes`` once that many were read; ``check`` runs before every chunk, so a deadline or a cancel
request stops the reading however large the file is.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
>>> _ = path.write_bytes(b"one\\ntwo\\r\\n\\nthree")
>>> list(read_lines(path, max_line=10, max_bytes=100))
[(1, b'one'), (2, b'two\\r'), (3, b''), (4, b'three')]
>>> list(read_lines(path, max_line=4, max_bytes=100))
Traceback (most recent call last):
...
game.core.lines.LineTooLong: ...games.jsonl:4: a line longer than 4 bytes
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Iterator

from game.core.storage import UserFileError, describe_os_error, open_regular

#: Most bytes read at once.
CHUNK = 1 << 20


class LineTooLong(UserFileError):
    """A line longer than the reader's cap (``lineno`` names it, ``limit`` the cap in bytes)."""

    def __init__(self, path: Path | str, lineno: int, limit: int) -> None:
        super().__init__(f"{path}:{lineno}: a line longer than {limit:,} bytes")
        self.lineno = lineno
        self.limit = limit


def read_lines(path: Path | str, *, max_line: int, max_bytes: int,
               check: Callable[[], None] | None = None) -> Iterator[tuple[int, bytes]]:
    """Each line of the file at ``path`` as ``(line number, bytes without the newline)``.

    Raises :class:`FileNotFoundError` when nothing is at ``path``, :class:`LineTooLong` when a line
    exceeds ``max_line`` bytes (after reading at most ``max_line + 1`` bytes of it) and
    :class:`UserFileError` when the file is not a regular file, is larger than ``max_bytes`` or
    cannot be read.  ``check`` (e.g. a context's ``check``) runs before every chunk read.
    """
    p = Path(path)
    fd = open_regular(p, max_bytes)
    try:
        lineno, total, pending = 0, 0, bytearray()
        while True:
            if check is not None:
                check()
            chunk = os.read(fd, max(1, min(CHUNK, max_line + 1 - len(pending), max_bytes + 1 - total)))
            if not chunk:
                break
            total += len(chunk)
            if total > max_bytes:
                raise UserFileError(f"{p} is too large (over {max_bytes:,} bytes)")
            start = 0
            while (end := chunk.find(b"\n", start)) >= 0:
                lineno += 1
                if len(pending) + end - start > max_line:
                    raise LineTooLong(p, lineno, max_line)
                line = bytes(pending) + chunk[start:end] if pending else chunk[start:end]
                pending.clear()
                yield lineno, line
                start = end + 1
                if check is not None:
                    check()
            pending += chunk[start:]
            if len(pending) > max_line:
                raise LineTooLong(p, lineno + 1, max_line)
        if pending:
            yield lineno + 1, bytes(pending)
    except OSError as exc:
        if isinstance(exc, UserFileError):
            raise
        raise UserFileError(f"cannot read {p}: {describe_os_error(exc)}") from None
    finally:
        os.close(fd)


__all__ = ["CHUNK", "LineTooLong", "read_lines"]
