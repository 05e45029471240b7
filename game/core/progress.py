"""The player's progress: solved marks, best brick counts, level hashes and saved replays.

Stored as JSON in ``game.core.storage.user_data_dir() / "progress.json"`` (which respects
``XDG_DATA_HOME``), always written atomically under a lock and merged with what other
processes saved meanwhile.  Any file content is accepted without crashing: an unusable file
is moved aside to ``progress.json.corrupt-<time>`` and reported once through
:attr:`ProgressStore.messages`; the game goes on with fresh progress.

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
import math
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from game.core.errors import IllegalBricksError
from game.core.level import Brick, Level
from game.core.pack import migrate_keys
from game.core.simulation import simulate
from game.core.storage import (
    file_lock, locked_update, read_user_json, set_aside, user_data_dir, user_levels_dir, write_target,
)

#: File format version written in the JSON.
FORMAT_VERSION = 1
#: Most replays kept per level (the best ones first, then the newest).
MAX_REPLAYS = 20
#: Largest progress file read, in bytes (a bigger one is set aside as unusable).
MAX_PROGRESS_BYTES = 32 * 1024 * 1024
#: Largest counter (attempts, hints) and brick coordinate accepted in the file.
MAX_COUNT = 10**12
MAX_COORD = 1 << 16


class ProgressFormatError(ValueError):
    """A progress document (or a part of it) that does not have the expected form."""


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


# ---------------------------------------------------------------- strict field readers
def _count(value: Any, what: str, *, maximum: int = MAX_COUNT) -> int:
    """A whole number 0..maximum (an integral float is accepted); anything else raises.

    >>> _count(3.0, "x")
    3
    >>> _count(-1, "best_bricks")
    Traceback (most recent call last):
    ...
    game.core.progress.ProgressFormatError: best_bricks must be a whole number from 0 to 1000000000000, got -1
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ProgressFormatError(f"{what} must be a whole number, got {type(value).__name__}")
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        raise ProgressFormatError(f"{what} must be a whole number, got {value!r}")
    if not 0 <= value <= maximum:
        raise ProgressFormatError(f"{what} must be a whole number from 0 to {maximum}, got {value!r:.40}")
    return int(value)


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or len(value) > 256:
        raise ProgressFormatError(f"{what} must be a short string")
    return value


def _flag(value: Any, what: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise ProgressFormatError(f"{what} must be true or false")


def _time(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ProgressFormatError("saved_at must be a finite number")
    return float(value)


@dataclass(frozen=True)
class Replay:
    """A winning brick set, saved with the hash of the level it won on."""

    level_hash: str
    bricks: tuple[Brick, ...]
    saved_at: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"hash": self.level_hash, "bricks": [list(b) for b in self.bricks], "saved_at": self.saved_at}

    @classmethod
    def from_json(cls, data: Any) -> Replay:
        """Parse the JSON form; raises :class:`ProgressFormatError` on anything malformed."""
        if not isinstance(data, dict):
            raise ProgressFormatError("a replay must be an object")
        raw = data.get("bricks")
        if not isinstance(raw, list) or len(raw) > MAX_COORD:
            raise ProgressFormatError("a replay's bricks must be a list")
        bricks = []
        for b in raw:
            if not isinstance(b, list) or len(b) != 2:
                raise ProgressFormatError("a brick must be a [row, col] pair")
            bricks.append((_count(b[0], "a brick row", maximum=MAX_COORD),
                           _count(b[1], "a brick column", maximum=MAX_COORD)))
        return cls(_text(data.get("hash"), "a replay's hash"), tuple(sorted(bricks)),
                   _time(data.get("saved_at", 0.0)))


@dataclass
class LevelRecord:
    """Progress on one level.

    ``extra`` keeps fields this version does not know (written back unchanged), so a newer
    version's fields survive an older game saving the file.
    """

    solved: bool = False
    level_hash: str = ""          #: puzzle hash of the level when last solved
    best_bricks: int | None = None
    replays: list[Replay] = field(default_factory=list)
    hints_used: int = 0
    attempts: int = 0
    # (fields added later, all optional): the player's own solves vs. solves with AI help, and the par
    own_best: int | None = None   #: fewest bricks in a win without AI help (this version)
    assisted: bool = False        #: won at least once with an AI solution applied (this version)
    min_bricks: int | None = None  #: the proven minimum brick count of the level ...
    min_hash: str = ""            #: ... for the level with this puzzle hash
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            **self.extra,
            "solved": self.solved,
            "hash": self.level_hash,
            "best_bricks": self.best_bricks,
            "replays": [r.to_json() for r in self.replays],
            "hints_used": self.hints_used,
            "attempts": self.attempts,
            "own_best": self.own_best,
            "assisted": self.assisted,
            "min_bricks": self.min_bricks,
            "min_hash": self.min_hash,
        }

    @classmethod
    def from_json(cls, data: Any) -> LevelRecord:
        """Parse the JSON form; raises :class:`ProgressFormatError` on anything malformed."""
        if not isinstance(data, dict):
            raise ProgressFormatError("a level record must be an object")
        best = data.get("best_bricks")
        replays = data.get("replays", [])
        if not isinstance(replays, list):
            raise ProgressFormatError("replays must be a list")
        return cls(
            solved=_flag(data.get("solved", False), "solved"),
            level_hash=_text(data.get("hash", ""), "hash"),
            best_bricks=None if best is None else _count(best, "best_bricks", maximum=MAX_COORD),
            replays=[Replay.from_json(r) for r in replays[: 4 * MAX_REPLAYS]],
            hints_used=_count(data.get("hints_used", 0), "hints_used"),
            attempts=_count(data.get("attempts", 0), "attempts"),
            extra={k: v for k, v in data.items() if k not in _KNOWN_FIELDS},
            own_best=_optional_count(data.get("own_best"), "own_best"),
            assisted=_flag(data.get("assisted", False), "assisted"),
            min_bricks=_optional_count(data.get("min_bricks"), "min_bricks"),
            min_hash=_text(data.get("min_hash", ""), "min_hash"),
        )


_KNOWN_FIELDS = frozenset({"solved", "hash", "best_bricks", "replays", "hints_used", "attempts",
                           "own_best", "assisted", "min_bricks", "min_hash"})


def _optional_count(value: Any, what: str) -> int | None:
    """``None`` or a brick count (see :func:`_count`)."""
    return None if value is None else _count(value, what, maximum=MAX_COORD)


def parse_progress(data: Any) -> tuple[dict[str, LevelRecord], list[str]]:
    """The records of a progress document, and the keys of records that were malformed (dropped).

    Raises :class:`ProgressFormatError` when the document as a whole is not a progress object.

    >>> recs, bad = parse_progress({"version": 1, "levels": {"a": {"best_bricks": 1e999}, "b": {}}})
    >>> sorted(recs), bad
    (['b'], ['a'])
    """
    if not isinstance(data, dict):
        raise ProgressFormatError("not a progress object")
    levels = data.get("levels", {})
    if not isinstance(levels, dict):
        raise ProgressFormatError("'levels' is not an object")
    records: dict[str, LevelRecord] = {}
    bad: list[str] = []
    for key, value in levels.items():
        try:
            records[key] = LevelRecord.from_json(value)
        except ProgressFormatError:
            bad.append(key)
    migrate_keys(records)  # records saved before the pack was renumbered follow their level
    return records, bad


def merge_records(disk: LevelRecord | None, mine: LevelRecord | None, base: LevelRecord | None) -> LevelRecord:
    """Three-way merge of one level's progress: what is on disk now, this process's record, and
    the record as this process last read it (``base``).

    Counters add both sides' increments; replays are united (the best and newest kept); the
    level version is the one of the newest replay; the best count is the smallest for that
    version; fields this process did not change keep the disk's value.

    >>> a = LevelRecord(attempts=5, hints_used=1)
    >>> merge_records(LevelRecord(attempts=7, hints_used=1), LevelRecord(attempts=6, hints_used=2), a).attempts
    8
    """
    if mine is None:
        return copy.deepcopy(disk) if disk is not None else LevelRecord()
    if disk is None:
        return copy.deepcopy(mine)
    base = base if base is not None else LevelRecord()
    by_id: dict[tuple[str, tuple[Brick, ...]], Replay] = {}
    for r in disk.replays + mine.replays:
        old = by_id.get((r.level_hash, r.bricks))
        if old is None or r.saved_at > old.saved_at:
            by_id[(r.level_hash, r.bricks)] = r
    replays = list(by_id.values())
    if replays:
        newest = max(replays, key=lambda r: r.saved_at)
        level_hash = newest.level_hash
    else:
        level_hash = mine.level_hash if mine.level_hash != base.level_hash else disk.level_hash
    bests = [rec.best_bricks for rec in (disk, mine) if rec.level_hash == level_hash and rec.best_bricks is not None]
    bests += [len(r.bricks) for r in replays if r.level_hash == level_hash]
    solved = any(rec.solved and rec.level_hash == level_hash for rec in (disk, mine)) or any(
        r.level_hash == level_hash for r in replays)
    replays.sort(key=lambda r: (r.level_hash != level_hash, len(r.bricks), -r.saved_at))
    own = [rec.own_best for rec in (disk, mine) if rec.level_hash == level_hash and rec.own_best is not None]
    newer_min = mine if (mine.min_bricks, mine.min_hash) != (base.min_bricks, base.min_hash) else disk
    extra = dict(disk.extra)
    for k, v in mine.extra.items():
        if base.extra.get(k, _MISSING) != v:
            extra[k] = copy.deepcopy(v)
    return LevelRecord(
        solved=solved,
        level_hash=level_hash,
        best_bricks=min(bests) if bests and solved else None,
        replays=replays[:MAX_REPLAYS],
        hints_used=disk.hints_used + max(0, mine.hints_used - base.hints_used),
        attempts=disk.attempts + max(0, mine.attempts - base.attempts),
        extra=extra,
        own_best=min(own) if own else None,
        assisted=any(rec.assisted and rec.level_hash == level_hash for rec in (disk, mine)),
        min_bricks=newer_min.min_bricks,
        min_hash=newer_min.min_hash,
    )


_MISSING = object()


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
    def par_medal(self) -> bool:
        """The player's own solution uses the minimum number of bricks."""
        return self.own_best is not None and self.par is not None and self.own_best <= self.par


class ProgressStore:
    """The progress file in memory; every change is saved at once.

    Saving locks the file (:func:`game.core.storage.locked_update`), re-reads it and merges this
    process's changes into what is there (:func:`merge_records`), so two game, editor or CLI
    processes playing at the same time lose nothing.
    """

    def __init__(self, path: Path | None, records: dict[str, LevelRecord] | None = None) -> None:
        self.path = path
        self.records: dict[str, LevelRecord] = records or {}
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

    # ---------------------------------------------------------------- load/save
    @classmethod
    def load(cls, path: Path | str, *, read_only: bool = False) -> ProgressStore:
        """Read ``path``; never raises.

        A missing file gives empty progress.  An unusable file (not JSON, not a progress
        object, too large) is moved aside as ``progress.json.corrupt-<time>`` and reported
        in :attr:`messages`; malformed level records are dropped (the original file is kept
        aside too).  A path that is not a regular file is reported and never written.  With
        ``read_only`` nothing is moved or written.
        """
        p = Path(path)
        store = cls(p)
        store.read_only = read_only
        data, problem = read_user_json(p, MAX_PROGRESS_BYTES)
        bad: list[str] = []
        if problem is None and data is not None:
            try:
                store.records, bad = parse_progress(data)
                store.extra = {k: v for k, v in data.items() if k not in ("version", "levels")}
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
            store.messages.append(f"{p.name}: {problem or f'{len(bad)} unreadable level record(s)'}")
            return store
        kept = _keep_copy(p, move=problem is not None)
        if problem is not None:
            where = f"moved to {kept.name}" if kept is not None else "left in place"
            store.messages.append(f"{p.name} unusable ({problem}); {where}, starting fresh")
        else:
            where = f"; original kept as {kept.name}" if kept is not None else ""
            store.messages.append(f"{p.name}: {len(bad)} unreadable level record(s) dropped{where}")
        store._base = copy.deepcopy(store.records)
        if problem is None:
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
                "levels": {k: r.to_json() for k, r in sorted(self.records.items())}}

    def save(self) -> None:
        """Merge this process's changes into the file under a lock; errors are reported, not raised."""
        if self.path is None or self.read_only:
            return
        if not self.writable:
            note = f"could not save progress to {self.path}: it is not a regular file"
            if note not in self.messages:
                self.messages.append(note)
            return

        def merge(on_disk: Any) -> dict[str, Any]:
            try:
                disk, _ = parse_progress(on_disk) if on_disk is not None else ({}, [])
            except ProgressFormatError:
                disk = {}
            merged = {key: merge_records(disk.get(key), self.records.get(key), self._base.get(key))
                      for key in set(disk) | set(self.records)}
            self.records = merged
            if isinstance(on_disk, dict):
                self.extra = {**{k: v for k, v in on_disk.items() if k not in ("version", "levels")},
                              **self.extra}
            return self.to_json()

        try:
            result = locked_update(self.path, merge, max_bytes=MAX_PROGRESS_BYTES)
        except OSError as exc:
            reason = exc.strerror if exc.strerror else str(exc)
            self.messages.append(f"could not save progress to {self.path}: {reason}")
            return
        self._base = copy.deepcopy(self.records)
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
            if meta.isdigit():
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
        st = self.status(key, level)
        return st.solved and not st.changed

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
        replay = Replay(new_hash, placed, time.time())
        rec.replays = [r for r in rec.replays if (r.level_hash, r.bricks) != (new_hash, placed)]
        rec.replays.insert(0, replay)
        rec.replays.sort(key=lambda r: (r.level_hash != new_hash, len(r.bricks), -r.saved_at))
        del rec.replays[MAX_REPLAYS:]
        if save:
            self.save()
        return improved

    def record_attempt(self, key: str, *, save: bool = True) -> None:
        """Count one released run."""
        self.record(key).attempts += 1
        if save:
            self.save()

    def add_hints(self, key: str, count: int = 1, *, save: bool = True) -> None:
        """Count hints used on a level (for the assistant)."""
        self.record(key).hints_used += count
        if save:
            self.save()


def _keep_copy(path: Path, *, move: bool) -> Path | None:
    """Keep an unusable progress file aside: moved (``move``) or copied, under the file's lock."""
    try:
        with file_lock(path):
            if move:
                return set_aside(path)
            aside = set_aside(path)
            if aside is not None:
                shutil.copy2(aside, path)  # the good records stay in place until rewritten
            return aside
    except OSError:
        return None


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
