"""Where the user's files live, and how they are written (atomically)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

APP_DIR_NAME = "lemming-bricks"


def user_data_dir() -> Path:
    """The user's data folder: ``$XDG_DATA_HOME/lemming-bricks`` (or ``~/.local/share/...``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP_DIR_NAME


def user_levels_dir() -> Path:
    """Folder of the user's own levels."""
    return user_data_dir() / "levels"


def user_exports_dir() -> Path:
    """Folder for exported GIFs."""
    return user_data_dir() / "exports"


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never half.

    The data goes to a temporary file in the same folder, is flushed to disk, then
    renamed over ``path``.  If anything fails the temporary file is removed and the
    old file is untouched.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except OSError:
            pass
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """Write UTF-8 text atomically (see :func:`atomic_write_bytes`)."""
    atomic_write_bytes(path, text.encode("utf-8"))
