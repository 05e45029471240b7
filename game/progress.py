"""The player's progress: solved marks, best brick counts, level hashes and saved replays.

Stored as JSON in ``game.storage.user_data_dir() / "progress.json"`` (which respects
``XDG_DATA_HOME``) and always written atomically.  A corrupt file never crashes the game:
it is moved aside to ``progress.json.corrupt``, reported once through
:attr:`ProgressStore.messages`, and replaced by a fresh file.

Levels are keyed by a stable string: the file name for pack levels (``"001_original.txt"``)
and ``"user/<name>"`` for the player's own levels (see :func:`level_key`).  Each record keeps the
:attr:`~game.level.Level.puzzle_hash` of the level that was solved, so a level whose file changed
since is marked "changed since solved".

>>> import tempfile, pathlib
>>> from game.level import Level
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

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from game.level import Brick, Level
from game.storage import atomic_write_text, user_data_dir

#: File format version written in the JSON.
FORMAT_VERSION = 1
#: Most replays kept per level (the best ones first, then the newest).
MAX_REPLAYS = 20


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
        from game.storage import user_levels_dir

        if p.resolve().is_relative_to(user_levels_dir().resolve()):
            return f"user/{p.name}"
    except (OSError, ValueError):
        pass
    return p.name


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
    def from_json(cls, data: dict[str, Any]) -> Replay:
        """Parse the JSON form (raises on malformed data)."""
        bricks = tuple(sorted((int(b[0]), int(b[1])) for b in data["bricks"]))
        return cls(str(data["hash"]), bricks, float(data.get("saved_at", 0.0)))


@dataclass
class LevelRecord:
    """Progress on one level."""

    solved: bool = False
    level_hash: str = ""          #: puzzle hash of the level when last solved
    best_bricks: int | None = None
    replays: list[Replay] = field(default_factory=list)
    hints_used: int = 0
    attempts: int = 0
    # ---- issue 12 (additive): the player's own solves vs. solves with AI help, and the par
    own_best: int | None = None   #: fewest bricks in a win without AI help (this version)
    assisted: bool = False        #: won at least once with an AI solution applied (this version)
    min_bricks: int | None = None  #: the proven minimum brick count of the level ...
    min_hash: str = ""            #: ... for the level with this puzzle hash

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
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
    def from_json(cls, data: dict[str, Any]) -> LevelRecord:
        """Parse the JSON form (raises on malformed data)."""
        best = data.get("best_bricks")
        return cls(
            solved=bool(data.get("solved", False)),
            level_hash=str(data.get("hash", "")),
            best_bricks=None if best is None else int(best),
            replays=[Replay.from_json(r) for r in data.get("replays", [])],
            hints_used=int(data.get("hints_used", 0)),
            attempts=int(data.get("attempts", 0)),
            own_best=None if data.get("own_best") is None else int(data["own_best"]),
            assisted=bool(data.get("assisted", False)),
            min_bricks=None if data.get("min_bricks") is None else int(data["min_bricks"]),
            min_hash=str(data.get("min_hash", "")),
        )


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
    """The progress file in memory; every change is saved at once (atomically)."""

    def __init__(self, path: Path | None, records: dict[str, LevelRecord] | None = None) -> None:
        self.path = path
        self.records: dict[str, LevelRecord] = records or {}
        #: Problems met while loading, to show the player once.
        self.messages: list[str] = []

    # ---------------------------------------------------------------- load/save
    @classmethod
    def load(cls, path: Path | str) -> ProgressStore:
        """Read ``path``; a missing file gives empty progress, a corrupt one is moved aside and reported."""
        p = Path(path)
        store = cls(p)
        try:
            raw = p.read_bytes()
        except FileNotFoundError:
            return store
        except OSError as exc:
            store.messages.append(f"could not read progress file {p}: {exc.strerror or exc}; starting fresh")
            return store
        try:
            data = json.loads(raw.decode("utf-8"))
            if not isinstance(data, dict) or not isinstance(data.get("levels", {}), dict):
                raise ValueError("not a progress object")
            store.records = {str(k): LevelRecord.from_json(v) for k, v in data.get("levels", {}).items()}
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
            backup = p.with_name(p.name + ".corrupt")
            try:
                os.replace(p, backup)
                where = f"; the old file was kept as {backup.name}"
            except OSError:
                where = ""
            store.records = {}
            store.messages.append(f"progress file {p} was corrupt ({type(exc).__name__}); started fresh{where}")
            store.save()
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
        return {"version": FORMAT_VERSION, "levels": {k: r.to_json() for k, r in sorted(self.records.items())}}

    def save(self) -> None:
        """Write the file atomically (no-op for in-memory progress); I/O errors are reported, not raised."""
        if self.path is None:
            return
        try:
            atomic_write_text(self.path, json.dumps(self.to_json(), indent=1) + "\n")
        except OSError as exc:
            self.messages.append(f"could not save progress to {self.path}: {exc.strerror or exc}")

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


@dataclass(frozen=True)
class ReplayCheck:
    """The outcome of re-checking one saved replay."""

    key: str
    replay: Replay
    status: str  #: "wins", "loses", "illegal" or "missing"
    same_hash: bool
    detail: str = ""


def verify_replays(store: ProgressStore, levels: dict[str, Level]) -> list[ReplayCheck]:
    """Re-run every saved replay against the current level files (``levels``: key -> level)."""
    from game.errors import IllegalBricksError
    from game.simulation import simulate

    out: list[ReplayCheck] = []
    for key, rec in sorted(store.records.items()):
        for replay in rec.replays:
            level = levels.get(key)
            if level is None:
                out.append(ReplayCheck(key, replay, "missing", False, "level file not found"))
                continue
            same = level.puzzle_hash == replay.level_hash
            try:
                run = simulate(level, replay.bricks)
            except IllegalBricksError as exc:
                out.append(ReplayCheck(key, replay, "illegal", same, str(exc)))
                continue
            out.append(ReplayCheck(key, replay, "wins" if run.won else "loses", same))
    return out
