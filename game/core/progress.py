"""The player's progress: solved marks, best brick counts, level hashes and saved replays.

Stored as JSON in ``game.core.storage.user_data_dir() / "progress.json"`` (which respects
``XDG_DATA_HOME``), always written atomically under a lock and merged with what other
processes saved meanwhile.  Any file content is accepted without crashing: an unusable file
is moved aside to ``progress.json.corrupt-<time>`` and reported once through
:attr:`ProgressStore.messages`; the game goes on with fresh progress.  What a save cannot read is dropped
only once a copy of the file is kept aside (:func:`game.core.progress_unread.unread_progress`).

Levels are keyed by a stable string: the file name for pack levels (``"001_original.txt"``)
and ``"user/<name>"`` for the player's own levels (see :func:`level_key`).  Each record keeps the
:attr:`~game.core.level.Level.puzzle_hash` of the level that was solved, so a level whose file changed
since is marked "changed since solved".

>>> import tempfile, pathlib
>>> from game.core.level import Level
>>> tmp = pathlib.Path(tempfile.mkdtemp()) / "progress.json"
>>> store = ProgressStore.load(tmp)
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> store.record_win("demo.txt", level, [(1, 2)])
True
>>> st = store.status("demo.txt", level)
>>> st.solved, st.best_bricks, st.changed
(True, 1, False)
>>> ProgressStore.load(tmp).status("demo.txt", level).solved
True
"""

from __future__ import annotations

import copy
import enum
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from game.core.errors import IllegalBricksError
from game.core.level import Brick, Level
from game.core.progress_records import (
    FORMAT_VERSION, MAX_REPLAYS, LevelRecord, ProgressFormatError, PuzzleRecord, Replay,
    dropped_puzzles, merge_puzzle, merge_records, parse_progress, parse_puzzles,
)
from game.core.progress_unread import parse_worlds_seen, unread_progress
from game.core.progress_trim import ProgressTooLarge, Trimmed, trim_records
from game.core.simulation import simulate
from game.core.storage import read_user_object, user_data_dir, user_levels_dir
from game.core.store_aside import UnreadKeeper, describe_unread
from game.core.writing import keep_copy, locked_update, write_target

#: Top-level fields of the file the store reads itself (the others are kept as they are).
_OWN_FIELDS = ("version", "levels", "puzzles", "worlds_seen")
#: Largest progress file read, in bytes (a bigger one is set aside as unusable).
MAX_PROGRESS_BYTES = 32 * 1024 * 1024
#: Most digits of a level's ``par`` line (a longer one, or one not in ASCII digits, is ignored).
MAX_PAR_DIGITS = 6


def default_progress_path() -> Path:
    """``<user data dir>/progress.json``."""
    return user_data_dir() / "progress.json"


def level_key(path: Path | str) -> str:
    """The progress key of a level file: its name for pack levels, ``user/<name>`` for user levels.

    >>> level_key("levels/001_original.txt")
    '001_original.txt'
    """
    p = Path(path)
    try:
        if p.resolve().is_relative_to(user_levels_dir().resolve()):
            return f"user/{p.name}"
    except (OSError, ValueError, RuntimeError):
        pass
    return p.name


@dataclass(frozen=True)
class LevelStatus:
    """What the level select screen shows for one level."""

    solved: bool
    best_bricks: int | None
    changed: bool  #: solved, but the level file no longer matches the one solved
    own_best: int | None = None  #: fewest bricks in a win without AI help (None: never won alone)
    assisted: bool = False  #: won with AI help at least once
    par: int | None = None  #: the level's proven minimum brick count, when known

    @property
    def solved_now(self) -> bool:
        """Solved in the level's current form (what marks a card and counts toward opening a world)."""
        return self.solved and not self.changed

    @property
    def par_medal(self) -> bool:
        """The player's own solution uses the minimum number of bricks."""
        return self.own_best is not None and self.par is not None and self.own_best <= self.par


class ProgressStore:
    """The progress file in memory; every change is saved at once.

    Saving locks the file (:func:`game.core.writing.locked_update`), re-reads it and merges this
    process's changes into what is there (:func:`merge_records`), so two game, editor or CLI
    processes playing at the same time lose nothing.
    """

    def __init__(self, path: Path | None, records: dict[str, LevelRecord] | None = None) -> None:
        self.path = path
        self.records: dict[str, LevelRecord] = records or {}
        #: Side-puzzle progress (``"life/<file name>"``, ...), saved under ``puzzles`` in the same file.
        self.puzzles: dict[str, PuzzleRecord] = {}
        #: Worlds whose first-visit card the player has seen (by world name), saved under ``worlds_seen``.
        self.worlds_seen: set[str] = set()
        #: Problems met while loading or saving, to show the player.
        self.messages: list[str] = []
        #: The records as last read from (or written to) the file: the base of the merge.
        self._base: dict[str, LevelRecord] = copy.deepcopy(self.records)
        #: Top-level fields of the file this version does not know (kept).
        self.extra: dict[str, Any] = {}
        #: False when the path is not a regular file (a folder, FIFO, device): nothing is written.
        self.writable = path is not None
        #: A checking view (``verify``): never written, nothing moved aside.
        self.read_only = False
        #: Why the file could not be used at all (``None`` when it was read, or missing).
        self.unusable: str | None = None
        #: The unreadable parts of the file a copy aside already holds (a save drops them only after a copy).
        self._unread = UnreadKeeper()

    # ---------------------------------------------------------------- load/save
    @classmethod
    def load(cls, path: Path | str, *, read_only: bool = False) -> ProgressStore:
        """Read ``path``; never raises.

        A missing file gives empty progress.  An unusable file (not JSON, not a progress
        object, too large) is moved aside as ``progress.json.corrupt-<time>`` and reported
        in :attr:`messages`; malformed records are dropped (the original file is kept
        aside too).  A path that is not a regular file is reported and never written.  With
        ``read_only`` nothing is moved or written.
        """
        p = Path(path)
        store = cls(p)
        store.read_only = read_only
        data, problem = read_user_object(p, MAX_PROGRESS_BYTES)
        bad: list[str] = []
        if problem is None and data is not None:
            try:
                store.records, bad = parse_progress(data)
                store.puzzles = parse_puzzles(data.get("puzzles"))
                bad += dropped_puzzles(data.get("puzzles"), store.puzzles)
                store.worlds_seen = parse_worlds_seen(data.get("worlds_seen"))
                store.extra = {k: v for k, v in data.items() if k not in _OWN_FIELDS}
            except ProgressFormatError as exc:
                problem = str(exc)
        if problem is None and not bad:
            store._base = copy.deepcopy(store.records)
            return store
        if problem is not None:
            problem = problem.replace(str(p), "the file")
            store.records = {}
            store.unusable = problem
            try:
                write_target(p)
            except OSError:
                store.writable = False
                store.messages.append(f"{p.name}: {problem}; progress will not be saved")
                return store
        if read_only:
            store.messages.append(f"{p.name}: {problem or f'{len(bad)} unreadable record(s)'}")
            return store
        kept = keep_copy(p, move=problem is not None)
        if problem is not None:
            where = f"moved to {kept.name}" if kept is not None else "left in place"
            store.messages.append(f"{p.name} unusable ({problem}); {where}, starting fresh")
        else:
            where = f"; original kept as {kept.name}" if kept is not None else ""
            store.messages.append(f"{p.name}: {len(bad)} unreadable record(s) dropped{where}")
        store._base = copy.deepcopy(store.records)
        if problem is None:
            if kept is not None and data is not None:
                store._unread.remember(unread_progress(data))
            store.save()  # write the good records back (the malformed ones are only in the copy)
        return store

    @classmethod
    def load_default(cls) -> ProgressStore:
        """Load the progress file from the user's data folder."""
        return cls.load(default_progress_path())

    @classmethod
    def in_memory(cls) -> ProgressStore:
        """Progress that is never written to disk (benchmarks, previews)."""
        return cls(None)

    def to_json(self) -> dict[str, Any]:
        """The JSON document."""
        return {**self.extra, "version": FORMAT_VERSION,
                "levels": {k: r.to_json() for k, r in sorted(self.records.items())},
                "puzzles": {k: r.to_json() for k, r in sorted(self.puzzles.items())},
                "worlds_seen": sorted(self.worlds_seen)}

    def save(self) -> None:
        """Merge this process's changes into the file under a lock; errors are reported, not raised.  The file
        stays within :data:`MAX_PROGRESS_BYTES` (:mod:`game.core.progress_trim`: never a solved level's record)."""
        if self.path is None or self.read_only:
            return
        if not self.writable:
            note = f"could not save progress to {self.path}: it is not a regular file"
            if note not in self.messages:
                self.messages.append(note)
            return

        path, copied = self.path, list[str]()

        def merge(on_disk: Any) -> dict[str, Any]:
            if isinstance(on_disk, dict):  # what this save would drop is first kept in a copy (an error stops it)
                unread = unread_progress(on_disk)
                if (aside := self._unread.keep_before_save(path, unread)) is not None:
                    copied.append(describe_unread(path.name, unread, aside.name))
            try:
                disk, _ = parse_progress(on_disk) if on_disk is not None else ({}, [])
            except ProgressFormatError:
                disk = {}
            merged = {key: merge_records(disk.get(key), self.records.get(key), self._base.get(key))
                      for key in set(disk) | set(self.records)}
            self.records = merged
            if isinstance(on_disk, dict):
                disk_puzzles = parse_puzzles(on_disk.get("puzzles"))
                self.puzzles = {key: merge_puzzle(disk_puzzles.get(key), self.puzzles.get(key))
                                for key in set(disk_puzzles) | set(self.puzzles)}
                self.extra = {**{k: v for k, v in on_disk.items() if k not in _OWN_FIELDS}, **self.extra}
                self.worlds_seen |= parse_worlds_seen(on_disk.get("worlds_seen"))
            trimmed.append(trim_records(self.records, self.to_json, MAX_PROGRESS_BYTES))  # within the loader's cap
            return self.to_json()

        trimmed: list[Trimmed] = []
        try:
            result = locked_update(self.path, merge, max_bytes=MAX_PROGRESS_BYTES)
        except (OSError, ProgressTooLarge) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.messages.append(f"could not save progress to {self.path}: {reason}")
            return
        self._base = copy.deepcopy(self.records)
        self.messages.extend(copied)
        if trimmed and trimmed[0]:
            self.messages.append(trimmed[0].describe(self.path.name))
        if result.problems:
            kept = f"; moved to {result.set_aside_as.name}" if result.set_aside_as else ""
            self.messages.append(f"{self.path.name} unusable ({result.problems[0]}){kept}")

    # ---------------------------------------------------------------- queries
    def record(self, key: str) -> LevelRecord:
        """The record of ``key`` (created empty if missing)."""
        rec = self.records.get(key)
        if rec is None:
            rec = self.records[key] = LevelRecord()
        return rec

    def status(self, key: str, level: Level | None) -> LevelStatus:
        """Solved mark, best brick count and the "changed since solved" mark of a level."""
        rec = self.records.get(key)
        par = self.par(key, level)
        if rec is None or not rec.solved:
            return LevelStatus(False, None, False, par=par)
        changed = level is not None and rec.level_hash != level.puzzle_hash
        return LevelStatus(True, rec.best_bricks, changed, None if changed else rec.own_best,
                           rec.assisted and not changed, par)

    def par(self, key: str, level: Level | None) -> int | None:
        """The level's minimum brick count: its ``par`` line, else the one recorded for this version."""
        if level is not None:
            meta = level.meta_value("par")
            if meta.isascii() and meta.isdigit() and len(meta) <= MAX_PAR_DIGITS:  # else unusable: ignored
                return int(meta)
        rec = self.records.get(key)
        if rec is None or rec.min_bricks is None or (level is not None and rec.min_hash != level.puzzle_hash):
            return None
        return rec.min_bricks

    def record_min(self, key: str, level: Level, min_bricks: int, *, save: bool = True) -> None:
        """Remember the proven minimum brick count of ``level`` (for the par medal)."""
        rec = self.record(key)
        rec.min_bricks, rec.min_hash = int(min_bricks), level.puzzle_hash
        if save:
            self.save()

    def is_solved(self, key: str, level: Level | None = None) -> bool:
        """True when solved (and, given ``level``, solved in its current form)."""
        return self.status(key, level).solved_now

    # ---------------------------------------------------------------- changes
    def record_win(self, key: str, level: Level, bricks: Iterable[Brick], *, save: bool = True,
                   assisted: bool = False) -> bool:
        """Save a winning brick set as a replay; returns True if it is a new best for this version.

        ``assisted``: the win used an AI solution (marked apart from the player's own solves).
        """
        placed = tuple(sorted((int(r), int(c)) for r, c in bricks))
        rec = self.record(key)
        new_hash = level.puzzle_hash
        if rec.level_hash != new_hash:
            rec.best_bricks = None  # the level changed: bests of the old version no longer count
            rec.own_best, rec.assisted = None, False
        if assisted:
            rec.assisted = True
        elif rec.own_best is None or len(placed) < rec.own_best:
            rec.own_best = len(placed)
        improved = rec.best_bricks is None or len(placed) < rec.best_bricks
        rec.solved = True
        rec.level_hash = new_hash
        if improved:
            rec.best_bricks = len(placed)
        replay = Replay(new_hash, placed, time.time(), assisted)
        rec.replays = [r for r in rec.replays if (r.level_hash, r.bricks) != (new_hash, placed)]
        rec.replays.insert(0, replay)
        rec.replays.sort(key=lambda r: (r.level_hash != new_hash, len(r.bricks), -r.saved_at))
        del rec.replays[MAX_REPLAYS:]
        if save:
            self.save()
        return improved

    def puzzle(self, key: str, puzzle_hash: str) -> PuzzleRecord | None:
        """The progress on side puzzle ``key`` in its version ``puzzle_hash`` (``None``: none yet)."""
        rec = self.puzzles.get(key)
        return rec if rec is not None and rec.puzzle_hash == puzzle_hash else None

    def record_puzzle(self, key: str, puzzle_hash: str, wrong: int, *, save: bool = True,
                      start: tuple[tuple[int, int], ...] | None = None) -> bool:
        """Remember ``wrong`` cells (0: solved, and ``start``'s live cells kept as the winning start) reached on
        side puzzle ``key``; True when it is a new best for this version (saved, as a new winning start is)."""
        rec = self.puzzle(key, puzzle_hash) or PuzzleRecord(puzzle_hash=puzzle_hash)
        after = rec.reached(int(wrong), start)
        if after != rec:
            self.puzzles[key] = after
            if save:
                self.save()
        return after.best != rec.best

    def record_attempt(self, key: str, *, save: bool = True) -> None:
        """Count one released run."""
        self.record(key).attempts += 1
        if save:
            self.save()

    def mark_world_seen(self, world: str, *, save: bool = True) -> bool:
        """Remember that the player has seen ``world``'s first-visit card; True when it is the first time."""
        if world in self.worlds_seen:
            return False
        self.worlds_seen.add(world)
        if save:
            self.save()
        return True

    def add_hints(self, key: str, count: int = 1, *, save: bool = True) -> None:
        """Count hints used on a level (for the assistant)."""
        self.record(key).hints_used += count
        if save:
            self.save()


class ReplayStatus(str, enum.Enum):
    """What re-running a saved replay found."""

    WINS = "wins"
    LOSES = "loses"
    ILLEGAL = "illegal"  #: the bricks break the level's rules now
    MISSING = "missing"  #: the level file is gone


@dataclass(frozen=True)
class ReplayCheck:
    """The outcome of re-checking one saved replay."""

    key: str
    replay: Replay
    status: ReplayStatus
    same_hash: bool
    detail: str = ""


def verify_replays(store: ProgressStore, levels: dict[str, Level]) -> list[ReplayCheck]:
    """Re-run every saved replay against the current level files (``levels``: key -> level)."""
    out: list[ReplayCheck] = []
    for key, rec in sorted(store.records.items()):
        for replay in rec.replays:
            level = levels.get(key)
            if level is None:
                out.append(ReplayCheck(key, replay, ReplayStatus.MISSING, False, "level file not found"))
                continue
            same = level.puzzle_hash == replay.level_hash
            try:
                run = simulate(level, replay.bricks)
            except IllegalBricksError as exc:
                out.append(ReplayCheck(key, replay, ReplayStatus.ILLEGAL, same, str(exc)))
                continue
            out.append(ReplayCheck(key, replay, ReplayStatus.WINS if run.won else ReplayStatus.LOSES, same))
    return out
