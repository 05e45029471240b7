"""Inputs of the wrong kind named: an image, an archive or a PDF given where a level, a board or a file of
observed games is expected gets one message saying what the file is ("x.gif is a GIF image, not a level
file"), never a decoding error about its bytes (a text file in another encoding keeps the message naming
its first byte that is not UTF-8, line and column).

The kind is told by :func:`game.core.file_kinds.identify` (the file's content, never its name), and only
once a reader has refused the file, so a good input is never read twice.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from game.core.errors import GameError
from game.core.file_kinds import SIGNED_KINDS, FileKindError, identify


@contextmanager
def named_kind(path: str | Path | None, wanted: str) -> Iterator[None]:
    """Run a reader of ``path``: when it refuses a file told by its signature (an image, an archive, a PDF),
    raise one :class:`GameError` naming what the file is instead (``wanted``: "a level file")."""
    try:
        yield
    except GameError:
        if path is None:
            raise
        try:
            kind = identify(path)
        except (FileKindError, OSError, ValueError):
            kind = None
        if kind is not None and kind in SIGNED_KINDS:
            raise GameError(f"{path} is {kind.value}, not {wanted}") from None
        raise


__all__ = ["named_kind"]
