"""A stand-in for ``os.read`` that counts the bytes it returns (how much of a file a reader really read)."""

from __future__ import annotations

import os


class CountedRead:
    """``os.read`` that counts the bytes it returns (install with ``monkeypatch.setattr(os, "read", ...)``)."""

    def __init__(self) -> None:
        self.total = 0
        self.real = os.read

    def __call__(self, fd: int, size: int) -> bytes:
        data = self.real(fd, size)
        self.total += len(data)
        return data
