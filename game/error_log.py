"""The error log: what went wrong behind a friendly line on screen, for a bug report.

The game never shows a raw Python error to the player: it shows one friendly line and appends the
details (what failed, the message, the traceback) to ``errors.log`` in the data folder
(:func:`game.storage.user_data_dir`).  Writing the log never raises; the log keeps its last
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

import time
from pathlib import Path

from game.storage import user_data_dir

#: The log's file name in the data folder.
LOG_NAME = "errors.log"
#: When the log grows past this, its older half is dropped.
MAX_BYTES = 512 * 1024


def error_log_path() -> Path:
    """Where the error log is (``$XDG_DATA_HOME/lemming-bricks/errors.log``)."""
    return user_data_dir() / LOG_NAME


def log_error(what: str, message: str, detail: str = "") -> Path | None:
    """Append one entry (time, ``what`` failed, ``message``, ``detail``); the log's path, None if unwritable."""
    path = error_log_path()
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    entry = f"--- {stamp}  {what}\n{message}\n" + (detail.rstrip() + "\n" if detail else "")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and path.stat().st_size > MAX_BYTES:
            keep = path.read_bytes()[-MAX_BYTES // 2:]
            path.write_bytes(keep[keep.find(b"\n--- ") + 1:] if b"\n--- " in keep else b"")
        with path.open("a", encoding="utf-8") as log:
            log.write(entry)
    except OSError:
        return None
    return path


__all__ = ["LOG_NAME", "error_log_path", "log_error"]
