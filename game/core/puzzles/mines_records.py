"""The player's Minesweeper records: games won and lost and the best time, per board size.

Kept in ``minesweeper.json`` in the user's data folder (:func:`game.core.storage.user_data_dir`).  Loading
never fails and never blocks (regular files only, at most :data:`MAX_RECORDS_BYTES`,
:func:`game.core.storage.read_user_object`): a missing file is a fresh start, an unusable one is set aside
as ``minesweeper.json.corrupt-<time>`` with one message for the player, and a damaged board entry is
dropped (the others are kept, and a copy of the file as it was is kept aside).  Each finished game is saved
at once under a lock (:func:`game.core.writing.locked_update`, an atomic write) as a change to what is on
disk: one more win or loss, and the smaller best time, so two running games lose nothing; what a save cannot
read (:func:`unread_records`) is dropped only once a copy of the file is kept aside, and the player told once.

A board size is its width, height and mines (:func:`board_key`: ``"9x9/10"``).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "minesweeper.json"
>>> store = MinesRecords.load(path)
>>> store.record(9, 9, 10, won=True, seconds=42.5)
BoardRecord(wins=1, losses=0, best_seconds=42.5)
>>> _ = store.record(9, 9, 10, won=False, seconds=3.0)
>>> MinesRecords.load(path).get(9, 9, 10)
BoardRecord(wins=1, losses=1, best_seconds=42.5)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from game.core.storage import read_user_object, set_aside_reason, user_data_dir
from game.core.store_aside import UnreadEntry, UnreadKeeper, describe_unread, newer_version, unread_entry
from game.core.writing import keep_copy, locked_update

FILE_NAME = "minesweeper.json"
#: Largest records file read, in bytes (a real one is well under 10 KiB).
MAX_RECORDS_BYTES = 256 * 1024
#: File format version written in the JSON.
FORMAT_VERSION = 1
#: Longest time kept, in seconds (a longer one is not a record anyone beats).
MAX_SECONDS = 10 * 24 * 3600.0

_KEY = re.compile(r"[0-9]{1,3}x[0-9]{1,3}/[0-9]{1,5}", re.ASCII)


def default_records_path() -> Path:
    """``minesweeper.json`` in the user's data folder."""
    return user_data_dir() / FILE_NAME


def board_key(width: int, height: int, mines: int) -> str:
    """The key of a board size in the file.

    >>> board_key(30, 16, 99)
    '30x16/99'
    """
    return f"{width}x{height}/{mines}"


def format_time(seconds: float) -> str:
    """A time for the player: tenths of a second, minutes from one minute on.

    >>> format_time(7.25), format_time(62.0), format_time(3725.4)
    ('7.2 s', '1:02.0', '62:05.4')
    """
    tenths = int(max(0.0, seconds) * 10 + 1e-6)  # tenths started, not rounded up
    minutes, rest = divmod(tenths, 600)
    if minutes == 0:
        return f"{rest // 10}.{rest % 10} s"
    return f"{minutes}:{rest // 10:02d}.{rest % 10}"


@dataclass(frozen=True)
class BoardRecord:
    """Games finished on one board size, and the best winning time (``None``: no timed win yet)."""

    wins: int = 0
    losses: int = 0
    best_seconds: float | None = None

    def after(self, *, won: bool, seconds: float | None) -> BoardRecord:
        """The record after one more game; ``seconds`` counts for the best time only in a win (``None``: it
        does not count, e.g. the assistant helped).

        >>> BoardRecord(1, 0, 30.0).after(won=True, seconds=25.0)
        BoardRecord(wins=2, losses=0, best_seconds=25.0)
        >>> BoardRecord(1, 0, 30.0).after(won=True, seconds=None)
        BoardRecord(wins=2, losses=0, best_seconds=30.0)
        """
        if not won:
            return replace(self, losses=self.losses + 1)
        best = self.best_seconds
        if seconds is not None and (best is None or seconds < best):
            best = round(min(seconds, MAX_SECONDS), 2)
        return replace(self, wins=self.wins + 1, best_seconds=best)

    def to_json(self) -> dict[str, Any]:
        """The JSON object saved."""
        return {"wins": self.wins, "losses": self.losses, "best_seconds": self.best_seconds}

    @classmethod
    def from_json(cls, data: Any) -> BoardRecord:
        """Parse a saved entry; raise ``ValueError`` when it is not one."""
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        counts = [data.get("wins", 0), data.get("losses", 0)]
        if any(not isinstance(n, int) or isinstance(n, bool) or not 0 <= n < 10**12 for n in counts):
            raise ValueError("wins and losses must be whole numbers from 0")
        best = data.get("best_seconds")
        if best is not None and (isinstance(best, bool) or not isinstance(best, (int, float))
                                 or not math.isfinite(best) or not 0 <= best <= MAX_SECONDS):
            raise ValueError("best_seconds must be a number of seconds or null")
        return cls(counts[0], counts[1], float(best) if best is not None else None)


def parse_boards(data: Any) -> tuple[dict[str, BoardRecord], list[str]]:
    """The board records of a parsed file, and the keys of the entries that were dropped."""
    boards: dict[str, BoardRecord] = {}
    dropped: list[str] = []
    raw = data.get("boards") if isinstance(data, dict) else None
    if not isinstance(raw, dict):
        return boards, ["boards"] if isinstance(data, dict) and "boards" in data else []
    for key, value in raw.items():
        try:
            if not isinstance(key, str) or not _KEY.fullmatch(key):
                raise ValueError("not a board size")
            boards[key] = BoardRecord.from_json(value)
        except ValueError:
            dropped.append(str(key)[:20])
    return boards, dropped


def unread_records(data: dict[str, Any]) -> list[UnreadEntry]:
    """The parts of a parsed records file a save drops: ``boards`` when it is not an object, each damaged board
    entry, the fields other than ``version`` and ``boards``, and the ``version`` of a newer game
    (:func:`game.core.store_aside.newer_version`).

    >>> [e.name for e in unread_records({"version": 1, "boards": {"9x9/10": {"wins": -1}}, "mine": 3})]
    ['boards/9x9/10', 'mine']
    >>> [e.name for e in unread_records({"version": 2, "boards": {}})]
    ["version 2, newer than this game's 1"]
    """
    out = newer_version(data, FORMAT_VERSION)
    out += [unread_entry(str(key), value) for key, value in data.items() if key not in ("version", "boards")]
    raw = data.get("boards", {})
    if not isinstance(raw, dict):
        return [unread_entry("boards", raw), *out]
    kept = parse_boards(data)[0]
    dropped = [key for key in raw if key not in kept]
    return [*(unread_entry(f"boards/{key}", raw[key]) for key in dropped), *out]


class MinesRecords:
    """The records file in memory; each finished game is saved at once (see the module docstring)."""

    def __init__(self, path: Path | None, boards: dict[str, BoardRecord] | None = None) -> None:
        self.path = path
        self.boards: dict[str, BoardRecord] = dict(boards or {})
        #: Problems met while loading or saving, for the player.
        self.messages: list[str] = []
        #: The parts of the file it cannot read that a copy aside already holds (a save drops them after a copy).
        self._unread = UnreadKeeper()

    @classmethod
    def load(cls, path: Path | None = None) -> MinesRecords:
        """Read ``path`` (default: :func:`default_records_path`); never raises, never blocks."""
        p = path if path is not None else default_records_path()
        store = cls(p)
        data, problem = read_user_object(p, MAX_RECORDS_BYTES)
        if problem is not None:
            store.messages.append(f"Minesweeper records {p.name} unusable {set_aside_reason(p, problem)}; "
                                  "starting afresh")
            return store
        store.boards, dropped = parse_boards(data)
        if dropped:
            aside = keep_copy(p)  # the next save drops them: the file as it was stays aside
            if aside is not None and data is not None:
                store._unread.remember(unread_records(data))
            kept = f"; the file as it was is kept as {aside.name}" if aside is not None else ""
            store.messages.append(f"Minesweeper records: damaged entries dropped ({', '.join(dropped[:3])})"
                                  + kept)
        return store

    @classmethod
    def in_memory(cls) -> MinesRecords:
        """Records that are never written (tests, screenshots)."""
        return cls(None)

    def get(self, width: int, height: int, mines: int) -> BoardRecord:
        """The record of a board size (an empty one when never played)."""
        return self.boards.get(board_key(width, height, mines), BoardRecord())

    def record(self, width: int, height: int, mines: int, *, won: bool, seconds: float | None) -> BoardRecord:
        """Count one finished game (see :meth:`BoardRecord.after`), save it, return the board's record.

        An I/O error becomes a message; the record is still kept in memory.
        """
        key = board_key(width, height, mines)
        self.boards[key] = self.get(width, height, mines).after(won=won, seconds=seconds)
        if self.path is None:
            return self.boards[key]

        path = self.path

        def merge(on_disk: Any) -> dict[str, Any]:
            if isinstance(on_disk, dict):  # what this save drops is first kept in a copy (an error stops it)
                unread = unread_records(on_disk)
                aside = self._unread.keep_before_save(path, unread)
                if aside is not None:
                    self.messages.append(describe_unread(f"Minesweeper records {path.name}", unread, aside.name))
            base = parse_boards(on_disk)[0] if isinstance(on_disk, dict) else dict(self.boards)
            if isinstance(on_disk, dict):
                base[key] = base.get(key, BoardRecord()).after(won=won, seconds=seconds)
            self.boards = base
            return {"version": FORMAT_VERSION, "boards": {k: v.to_json() for k, v in sorted(base.items())}}

        try:
            result = locked_update(self.path, merge, max_bytes=MAX_RECORDS_BYTES, indent=1)
        except OSError as exc:
            self.messages.append(f"could not save the Minesweeper records: {exc.strerror or exc}")
            return self.boards[key]
        if result.problems:
            kept = f"; kept as {result.set_aside_as.name}" if result.set_aside_as else ""
            self.messages.append(f"Minesweeper records file was unusable ({result.problems[0]}){kept}")
        return self.boards[key]


__all__ = ["BoardRecord", "FILE_NAME", "MinesRecords", "board_key", "default_records_path", "format_time",
           "parse_boards", "unread_records"]
