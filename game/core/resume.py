"""Where the player was: the last level opened and the bricks left on each level's board.

Saved as ``resume.json`` in the user's data folder, so a relaunch's "Continue" and every level
open where the player left them.  Like the settings, the loader accepts any bytes and never
blocks (:func:`game.core.storage.read_user_object`: regular files only, at most :data:`MAX_RESUME_BYTES`):
an unusable file is set aside as ``resume.json.corrupt-<time>`` with one message and replaced by
an empty record; malformed entries (and fields this version does not read) are dropped one by one, but never
unseen: the file as it was is
copied aside (``resume.json.corrupt-<time>``) before a save drops them, and the player is told once.
Saving merges under a lock (:func:`game.core.writing.locked_update`): the boards this process changed
since its last save are the most recent writes of those levels and win, every other level keeps the
file's board, so two running games lose nothing.  A save keeps the file within :data:`MAX_LEVELS` boards
and :data:`MAX_RESUME_BYTES` (what the loader reads) by dropping the boards played least recently
(:func:`trim_boards`).  Bricks are stored with the level's puzzle hash: a level file that changed since
does not get stale bricks, and with whether the AI showed a solution of the level since a win with bricks the
player placed (``"assisted"``, false when missing), whatever bricks are on the board: a win, on this visit or a
later one, is marked as AI-helped until then.

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
from typing import Any, Iterable, NamedTuple, Sequence

from game.core.level import Brick
from game.core.progress_records import ProgressFormatError, parse_cells
from game.core.storage import read_user_object, set_aside_reason, user_data_dir
from game.core.store_aside import UnreadEntry, UnreadKeeper, unread_entry
from game.core.writing import keep_copy, locked_update

#: Most levels whose bricks are kept (the most recently played ones).
MAX_LEVELS = 500
#: Largest resume file read, in bytes (500 boards of a few bricks are far below).
MAX_RESUME_BYTES = 8 * 1024 * 1024


class Board(NamedTuple):
    """The bricks left on one level, with the hash of the level they were left on."""

    level_hash: str
    bricks: tuple[Brick, ...]
    #: the AI showed a solution of the level since a win with bricks the player placed (a win is assisted)
    assisted: bool = False


def default_resume_path() -> Path:
    """``<user data dir>/resume.json``."""
    return user_data_dir() / "resume.json"


@dataclass
class ResumeStore:
    """The last level and the bricks per level (key -> :class:`Board`)."""

    path: Path | None
    last_key: str = ""
    boards: dict[str, Board] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)
    dirty: bool = False  #: changed since the last save
    #: Levels whose board this process changed since its last save (they win when merging).
    changed_keys: set[str] = field(default_factory=set)
    last_changed: bool = False  #: the last level was changed by this process since its last save
    #: The malformed entries of the file (see :func:`_parse_document`) a copy aside already holds, by name and
    #: content (an entry edited again under the same name is copied again before a save drops it).
    unread: UnreadKeeper = field(default_factory=UnreadKeeper)

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
        store.last_key, store.boards, malformed = _parse_document(data)
        if malformed:  # the next save drops them: the file as it was is kept aside now
            aside = keep_copy(p)
            if aside is not None:
                store.unread.remember(malformed)
            store._kept_aside(malformed, aside)
        return store

    def _kept_aside(self, malformed: Sequence[UnreadEntry], aside: Path | None) -> None:
        """Tell the player, once, that the file's ``malformed`` entries are dropped, and where the file is kept."""
        assert self.path is not None
        if aside is None:  # no copy could be made: the save will try again before it drops them
            self.messages.append(f"{self.path.name}: {_entries(malformed)} unreadable; they are dropped only once "
                                 "a copy of the file is kept")
            return
        self.messages.append(f"{self.path.name}: {_entries(malformed)} unreadable, dropped; the file as it was "
                             f"is kept as {aside.name}")

    @classmethod
    def in_memory(cls) -> ResumeStore:
        """A store that is never written (tests, benchmarks)."""
        return cls(None)

    def bricks_for(self, key: str, level_hash: str) -> tuple[Brick, ...]:
        """The bricks last left on ``key`` (empty when none, or the level changed since)."""
        entry = self.boards.get(key)
        if entry is None or entry.level_hash != level_hash:
            return ()
        return entry.bricks

    def assisted_for(self, key: str, level_hash: str) -> bool:
        """True when the AI showed a solution of ``key`` (this version of it) since a win with bricks the player
        placed."""
        entry = self.boards.get(key)
        return entry is not None and entry.level_hash == level_hash and entry.assisted

    def remember(self, key: str, level_hash: str, bricks: Iterable[Brick], *, save: bool = True,
                 assisted: bool = False) -> None:
        """Record that the player is on ``key`` with ``bricks`` on the board (``assisted``: the AI showed a
        solution of the level since a win with bricks the player placed, kept even when the board is cleared)."""
        placed = tuple(sorted((int(r), int(c)) for r, c in bricks))
        board = Board(level_hash, placed, assisted)
        changed = self.last_key != key or self.boards.get(key) != board
        self.last_key = key
        self.boards.pop(key, None)
        self.boards[key] = board  # most recent last
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
        return {"last": self.last_key, "boards": {k: _board_json(entry) for k, entry in self.boards.items()}}

    def merged_with(self, on_disk: Any) -> tuple[str, dict[str, Board]]:
        """The last level and boards after merging this store's changes into ``on_disk`` (a parsed file).

        Boards this process changed since its last save win (they are the most recent writes);
        other levels keep the file's board; the last level is this store's if it changed it.
        """
        disk_last, disk_boards, _ = _parse_document(on_disk) if isinstance(on_disk, dict) else ("", {}, [])
        boards = dict(disk_boards)
        for key, entry in self.boards.items():
            if key in self.changed_keys or key not in boards:
                boards.pop(key, None)
                boards[key] = entry  # most recent last
        last = self.last_key if self.last_changed or not disk_last else disk_last
        return last, trim_boards(last, boards, max_levels=MAX_LEVELS, max_bytes=MAX_RESUME_BYTES)

    def save(self) -> None:
        """Merge into the file under a lock (no-op in memory); an I/O error becomes a message."""
        self.dirty = False
        path = self.path
        if path is None:
            return
        aside: list[tuple[list[UnreadEntry], Path | None]] = []

        def merge(on_disk: Any) -> dict[str, Any]:
            malformed = _parse_document(on_disk)[2] if isinstance(on_disk, dict) else []
            # new ones (the file changed, or an entry was edited again) are first kept in a copy of the file as it
            # is (an error stops the save: nothing dropped)
            copy = self.unread.keep_before_save(path, malformed)
            if copy is not None:
                aside.append((malformed, copy))
            self.last_key, self.boards = self.merged_with(on_disk)
            return self.to_json()

        try:
            result = locked_update(path, merge, max_bytes=MAX_RESUME_BYTES, indent=None)
        except OSError as exc:
            self.messages.append(f"could not save {path}: {exc.strerror or exc}")
            return
        self.changed_keys.clear()
        self.last_changed = False
        for malformed, copy in aside:
            self._kept_aside(malformed, copy)
        if result.problems:
            kept = f"; kept as {result.set_aside_as.name}" if result.set_aside_as else ""
            self.messages.append(f"{path.name} was unusable ({result.problems[0]}){kept}")


def _parse_document(data: dict[str, Any]) -> tuple[str, dict[str, Board], list[UnreadEntry]]:
    """The last level and the well-formed boards of a parsed resume file, and what was malformed (dropped), by
    name and content: ``"last"``, ``"boards"`` (not an object), each malformed board (by its level key), and
    each other field."""
    last = data.get("last", "")
    malformed = [] if isinstance(last, str) else [unread_entry("last", last)]
    boards: dict[str, Board] = {}
    entries = data.get("boards", {})
    if isinstance(entries, dict):
        for key, entry in entries.items():
            parsed = _parse_board(entry)
            if parsed is not None:
                boards[str(key)] = parsed
            else:
                malformed.append(unread_entry(str(key), entry))
    else:
        malformed.append(unread_entry("boards", entries))
    malformed += [unread_entry(str(key), value) for key, value in data.items()
                  if key not in ("last", "boards")]  # a field this version does not read
    return (last if isinstance(last, str) else ""), boards, malformed


def _entries(malformed: Sequence[UnreadEntry]) -> str:
    """``"1 entry"``, ``"3 entries"``."""
    return f"{len(malformed)} entr{'y' if len(malformed) == 1 else 'ies'}"


def trim_boards(last: str, boards: dict[str, Board], *, max_levels: int = MAX_LEVELS,
                max_bytes: int = MAX_RESUME_BYTES) -> dict[str, Board]:
    """``boards`` (oldest first) within ``max_levels`` boards and a file of at most ``max_bytes``: the boards
    played least recently go first (the most recent ones are where the player is likely to come back).

    >>> boards = {k: Board("h", ((1, 2),) * 3) for k in "abcd"}
    >>> list(trim_boards("d", boards, max_levels=3)), list(trim_boards("d", boards, max_bytes=140))
    (['b', 'c', 'd'], ['c', 'd'])
    """
    keys = list(boards)[-max_levels:] if max_levels > 0 else []
    sizes = [len(json.dumps(k)) + len(json.dumps(_board_json(boards[k]))) + 4 for k in keys]  # ', ' and ': '
    total = len(json.dumps({"last": last, "boards": {}})) + 1 + sum(sizes)  # and the newline
    start = 0
    while total > max_bytes and start < len(keys):
        total -= sizes[start]
        start += 1
    return {k: boards[k] for k in keys[start:]}


def _board_json(entry: Board) -> dict[str, Any]:
    """One board as saved (``"assisted"`` only when true)."""
    data: dict[str, Any] = {"hash": entry.level_hash, "bricks": [list(b) for b in entry.bricks]}
    if entry.assisted:
        data["assisted"] = True
    return data


def _parse_board(entry: Any) -> Board | None:
    """``{"hash": str, "bricks": [[r, c], ...], "assisted": bool (optional, false when missing)}`` or None when
    malformed (the bricks are read as progress reads its replays', :func:`game.core.progress_records.parse_cells`)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("hash"), str):
        return None
    assisted = entry.get("assisted", False)
    if not isinstance(assisted, bool):
        return None
    try:
        bricks = parse_cells(entry.get("bricks"), "a board's bricks")
    except ProgressFormatError:
        return None
    return Board(entry["hash"], bricks, assisted)


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
