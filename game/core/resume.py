"""Where the player was: the last level opened and the bricks left on each level's board.

Saved as ``resume.json`` in the user's data folder, so a relaunch's "Continue" and every level
open where the player left them.  Like the settings, the loader accepts any bytes and never
blocks (:func:`game.core.storage.read_user_json`: regular files only, at most :data:`MAX_RESUME_BYTES`):
an unusable file is set aside as ``resume.json.corrupt-<time>`` with one message and replaced by
an empty record; malformed entries are dropped one by one.  Saving merges under a lock
(:func:`game.core.writing.locked_update`): the boards this process changed since its last save are
the most recent writes of those levels and win, every other level keeps the file's board, so
two running games lose nothing.  Bricks are stored with the level's puzzle hash: a level file
that changed since does not get stale bricks.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "resume.json"
>>> store = ResumeStore.load(path)
>>> store.remember("001_original.txt", "abc", [(5, 4), (2, 1)])
>>> again = ResumeStore.load(path)
>>> again.last_key, again.bricks_for("001_original.txt", "abc"), again.bricks_for("001_original.txt", "changed")
('001_original.txt', ((2, 1), (5, 4)), ())
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from game.core.level import Brick
from game.core.storage import read_user_object, set_aside_reason, user_data_dir
from game.core.writing import locked_update

#: Most levels whose bricks are kept (the most recently played ones).
MAX_LEVELS = 500
#: Largest resume file read, in bytes (500 boards of a few bricks are far below).
MAX_RESUME_BYTES = 8 * 1024 * 1024


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
    #: Levels whose board this process changed since its last save (they win when merging).
    changed_keys: set[str] = field(default_factory=set)
    last_changed: bool = False  #: the last level was changed by this process since its last save

    @classmethod
    def load(cls, path: Path | str | None = None) -> ResumeStore:
        """Read ``path`` (default: :func:`default_resume_path`); never raises, never blocks."""
        p = Path(path) if path is not None else default_resume_path()
        store = cls(p)
        data, problem = read_user_object(p, MAX_RESUME_BYTES)
        if problem is not None:
            store.messages.append(f"{p.name} unusable {set_aside_reason(p, problem)}; "
                                  "where you were in each level is forgotten")
            return store
        if data is None:
            return store  # no file yet
        store.last_key, store.boards = _parse_document(data)
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
        if changed:
            self.changed_keys.add(key)
            self.last_changed = True
        self.dirty = self.dirty or changed
        if save and self.dirty:
            self.save()

    def to_json(self) -> dict[str, Any]:
        """The JSON document."""
        return {"last": self.last_key,
                "boards": {k: {"hash": h, "bricks": [list(b) for b in bricks]} for k, (h, bricks) in self.boards.items()}}

    def merged_with(self, on_disk: Any) -> tuple[str, dict[str, tuple[str, tuple[Brick, ...]]]]:
        """The last level and boards after merging this store's changes into ``on_disk`` (a parsed file).

        Boards this process changed since its last save win (they are the most recent writes);
        other levels keep the file's board; the last level is this store's if it changed it.
        """
        disk_last, disk_boards = _parse_document(on_disk) if isinstance(on_disk, dict) else ("", {})
        boards = dict(disk_boards)
        for key, entry in self.boards.items():
            if key in self.changed_keys or key not in boards:
                boards.pop(key, None)
                boards[key] = entry  # most recent last
        while len(boards) > MAX_LEVELS:
            del boards[next(iter(boards))]
        last = self.last_key if self.last_changed or not disk_last else disk_last
        return last, boards

    def save(self) -> None:
        """Merge into the file under a lock (no-op in memory); an I/O error becomes a message."""
        self.dirty = False
        if self.path is None:
            return

        def merge(on_disk: Any) -> dict[str, Any]:
            self.last_key, self.boards = self.merged_with(on_disk)
            return self.to_json()

        try:
            result = locked_update(self.path, merge, max_bytes=MAX_RESUME_BYTES, indent=None)
        except OSError as exc:
            self.messages.append(f"could not save {self.path}: {exc.strerror or exc}")
            return
        self.changed_keys.clear()
        self.last_changed = False
        if result.problems:
            kept = f"; kept as {result.set_aside_as.name}" if result.set_aside_as else ""
            self.messages.append(f"{self.path.name} was unusable ({result.problems[0]}){kept}")


def _parse_document(data: dict[str, Any]) -> tuple[str, dict[str, tuple[str, tuple[Brick, ...]]]]:
    """The last level and the well-formed boards of a parsed resume file (malformed ones dropped)."""
    last = data.get("last", "")
    boards: dict[str, tuple[str, tuple[Brick, ...]]] = {}
    entries = data.get("boards", {})
    if isinstance(entries, dict):
        for key, entry in entries.items():
            parsed = _parse_board(entry)
            if parsed is not None:
                boards[str(key)] = parsed
    return (last if isinstance(last, str) else ""), boards


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


def continue_index(keys: list[str], solved: list[bool], last_key: str,
                   locked: Sequence[bool] | None = None) -> int | None:
    """Which level "Continue" opens: the last level played while it is unsolved, else the next
    unsolved one after it (wrapping), else the first unsolved one; a ``locked`` level never (when every
    level is solved: the last one played, or the first open one); None when there are no open levels.

    >>> continue_index(["a", "b", "c"], [True, False, False], "c")
    2
    >>> continue_index(["a", "b", "c"], [True, False, True], "c")
    1
    >>> continue_index(["a", "b", "c"], [False, True, True], "")
    0
    >>> continue_index(["a", "b"], [True, True], "b"), continue_index([], [], "")
    (1, None)
    >>> continue_index(["a", "b", "c"], [True, False, False], "a", locked=[False, False, True])
    1
    >>> continue_index(["a", "b", "c"], [True, True, False], "b", locked=[False, False, True])
    1
    >>> continue_index(["a", "b", "c"], [True, True, False], "c", locked=[False, False, True])
    0
    """
    if not keys:
        return None
    closed = list(locked) if locked is not None else [False] * len(keys)
    start = keys.index(last_key) if last_key in keys else 0
    for step in range(len(keys)):
        i = (start + step) % len(keys)
        if not solved[i] and not closed[i]:
            return i
    return next((i for i in (start, *range(len(keys))) if not closed[i]), None)
