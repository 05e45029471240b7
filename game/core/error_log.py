"""The error log: what went wrong behind a friendly line on screen, for a bug report.

The game never shows a raw Python error to the player: it shows one friendly line and appends the
details (what failed, the message, the traceback) to ``errors.log`` in the data folder
(:func:`game.core.storage.user_data_dir`).  Writing the log never raises; the log keeps its last
:data:`MAX_BYTES` or so.

>>> import os, tempfile
>>> saved = os.environ.get("XDG_DATA_HOME")
>>> os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp()
>>> path = log_error("solve with milp", "AssertionError: boom", "Traceback ...")
>>> text = path.read_text()
>>> "solve with milp" in text and "AssertionError: boom" in text and "Traceback ..." in text
True
>>> _ = os.environ.pop("XDG_DATA_HOME") if saved is None else os.environ.update(XDG_DATA_HOME=saved)
"""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

from game.core.storage import user_data_dir
from game.core.writing import atomic_write_bytes

#: The log's file name in the data folder.
LOG_NAME = "errors.log"
#: When the log grows past this, its older half is dropped.
MAX_BYTES = 512 * 1024


def error_log_path() -> Path:
    """Where the error log is (``$XDG_DATA_HOME/lemming-bricks/errors.log``)."""
    return user_data_dir() / LOG_NAME


def _tail(path: Path, start: int) -> bytes:
    """The bytes of the (regular) log from ``start`` on."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        return os.pread(fd, MAX_BYTES, start)
    finally:
        os.close(fd)


def log_error(what: str, message: str, detail: str = "") -> Path | None:
    """Append one entry (time, ``what`` failed, ``message``, ``detail``); the log's path, None if unwritable."""
    path = error_log_path()
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    entry = f"--- {stamp}  {what}\n{message}\n" + (detail.rstrip() + "\n" if detail else "")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # never blocks: a FIFO at the path without a reader fails at once (ENXIO), a device is refused
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY, 0o644)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            size = os.fstat(fd).st_size
            if size > MAX_BYTES:
                keep = _tail(path, size - MAX_BYTES // 2)
                atomic_write_bytes(path, keep[keep.find(b"\n--- ") + 1:] if b"\n--- " in keep else b"")
                os.close(fd)
                fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK | os.O_CLOEXEC)
            os.write(fd, entry.encode("utf-8", "replace"))
        finally:
            os.close(fd)
    except OSError:
        return None
    return path


__all__ = ["LOG_NAME", "error_log_path", "log_error"]
