"""Where the player was: the last level opened and the bricks left on each level's board.

Saved as ``resume.json`` in the user's data folder (atomically), so a relaunch's "Continue"
and every level open where the player left them.  Like the settings, the loader accepts any
bytes: bad content is reported once and replaced by an empty record; malformed entries are
dropped one by one.  Bricks are stored with the level's puzzle hash: a level file that changed
since does not get stale bricks.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "resume.json"
>>> store = ResumeStore.load(path)
>>> store.remember("001_original.txt", "abc", [(5, 4), (2, 1)])
>>> again = ResumeStore.load(path)
>>> again.last_key, again.bricks_for("001_original.txt", "abc"), again.bricks_for("001_original.txt", "changed")
('001_original.txt', ((2, 1), (5, 4)), ())
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from game.level import Brick
from game.storage import atomic_write_text, user_data_dir

#: Most levels whose bricks are kept (the most recently played ones).
MAX_LEVELS = 500


def default_resume_path() -> Path:
    """``<user data dir>/resume.json``."""
    return user_data_dir() / "resume.json"


@dataclass
class ResumeStore:
    """The last level and the bricks per level (key -> (level hash, bricks))."""

    path: Path | None
    last_key: str = ""
    boards: dict[str, tuple[str, tuple[Brick, ...]]] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)
    dirty: bool = False  #: changed since the last save

    @classmethod
    def load(cls, path: Path | str | None = None) -> ResumeStore:
        """Read ``path`` (default: :func:`default_resume_path`); never raises."""
        p = Path(path) if path is not None else default_resume_path()
        store = cls(p)
        try:
            raw = p.read_bytes()
        except FileNotFoundError:
            return store
        except OSError as exc:
            store.messages.append(f"could not read {p}: {exc.strerror or exc}; starting fresh")
            return store
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            store.messages.append(f"{p.name} was not valid JSON; where you were in each level is forgotten")
            return store
        if not isinstance(data, dict):
            store.messages.append(f"{p.name} is not a JSON object; where you were in each level is forgotten")
            return store
        last = data.get("last", "")
        store.last_key = last if isinstance(last, str) else ""
        boards = data.get("boards", {})
        if isinstance(boards, dict):
            for key, entry in boards.items():
                parsed = _parse_board(entry)
                if parsed is not None:
                    store.boards[str(key)] = parsed
        return store

    @classmethod
    def in_memory(cls) -> ResumeStore:
        """A store that is never written (tests, benchmarks)."""
        return cls(None)

    def bricks_for(self, key: str, level_hash: str) -> tuple[Brick, ...]:
        """The bricks last left on ``key`` (empty when none, or the level changed since)."""
        entry = self.boards.get(key)
        if entry is None or entry[0] != level_hash:
            return ()
        return entry[1]

    def remember(self, key: str, level_hash: str, bricks: Iterable[Brick], *, save: bool = True) -> None:
        """Record that the player is on ``key`` with ``bricks`` on the board."""
        placed = tuple(sorted((int(r), int(c)) for r, c in bricks))
        changed = self.last_key != key or self.boards.get(key) != (level_hash, placed)
        self.last_key = key
        self.boards.pop(key, None)
        self.boards[key] = (level_hash, placed)  # most recent last
        while len(self.boards) > MAX_LEVELS:
            del self.boards[next(iter(self.boards))]
        self.dirty = self.dirty or changed
        if save and self.dirty:
            self.save()

    def to_json(self) -> dict[str, Any]:
        """The JSON document."""
        return {"last": self.last_key,
                "boards": {k: {"hash": h, "bricks": [list(b) for b in bricks]} for k, (h, bricks) in self.boards.items()}}

    def save(self) -> None:
        """Write atomically (no-op in memory); an I/O error becomes a message."""
        self.dirty = False
        if self.path is None:
            return
        try:
            atomic_write_text(self.path, json.dumps(self.to_json()) + "\n")
        except OSError as exc:
            self.messages.append(f"could not save {self.path}: {exc.strerror or exc}")


def _parse_board(entry: Any) -> tuple[str, tuple[Brick, ...]] | None:
    """``{"hash": str, "bricks": [[r, c], ...]}`` or None when malformed."""
    if not isinstance(entry, dict) or not isinstance(entry.get("hash"), str):
        return None
    bricks = entry.get("bricks")
    if not isinstance(bricks, list):
        return None
    out: list[Brick] = []
    for b in bricks:
        if (not isinstance(b, list) or len(b) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 100_000 for v in b)):
            return None
        out.append((b[0], b[1]))
    return (entry["hash"], tuple(sorted(out)))


def continue_index(keys: list[str], solved: list[bool], last_key: str) -> int | None:
    """Which level "Continue" opens: the last level played while it is unsolved, else the next
    unsolved one after it (wrapping), else the first unsolved one; None when there are no levels.

    >>> continue_index(["a", "b", "c"], [True, False, False], "c")
    2
    >>> continue_index(["a", "b", "c"], [True, False, True], "c")
    1
    >>> continue_index(["a", "b", "c"], [False, True, True], "")
    0
    >>> continue_index(["a", "b"], [True, True], "b"), continue_index([], [], "")
    (1, None)
    """
    if not keys:
        return None
    start = keys.index(last_key) if last_key in keys else 0
    for step in range(len(keys)):
        i = (start + step) % len(keys)
        if not solved[i]:
            return i
    return start
