"""The player's Endless progress, kept across launches in ``endless.json`` (data folder).

:class:`EndlessRecord` holds the ladder's seed and the next step to play, the levels
solved, the current streak (levels solved in a row without giving one up) and the best
streak ever, the level generated for that step (:class:`KeptLevel`, in the level file's text
form), so that coming back to Endless plays it again at once instead of generating it again, and the levels
generated ahead of it (``ahead``: at most :data:`MAX_AHEAD`, for the next steps), so that they are not made
again either.  A kept level that is damaged, too large or made for another seed or step is dropped without a
word (the level is generated again); a file of an older form, without a level or without levels ahead, loads
as it always did.  :func:`load_record` never fails and never blocks (regular files only, at most
:data:`MAX_RECORD_BYTES`, :func:`game.core.storage.read_user_object`): a missing file is a fresh start
and an unusable one is set aside as ``endless.json.corrupt-<time>`` (the game says so) before
starting fresh.  :func:`save_record` merges under a lock (:func:`game.core.writing.locked_update`)
with what another running game saved meanwhile: the best streak is the larger of the two, the
rest comes from the newer record (the one being saved), so the best streak never goes down.
Nothing the file held is lost to a save: a file that is not JSON or holds no JSON object (``null``
included) is moved aside, and one that holds an object that is not an Endless record, a record with fields
this game does not read, or a record changed outside this game since it last read or wrote the file (``base``),
is first copied aside as
``endless.json.corrupt-<time>``; the save says so in ``notes`` (the game toasts them).

>>> r = EndlessRecord(seed=7)
>>> r = r.won(score=5.2).won(score=6.0).gave_up()
>>> (r.step, r.solved, r.streak, r.best_streak, r.last_score)
(3, 2, 0, 2, 6.0)
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable

from game.core.errors import GameError
from game.core.level import Level
from game.core.storage import read_user_object, set_aside_reason, user_data_dir
from game.core.writing import copy_aside, locked_update

FILE_NAME = "endless.json"
#: Largest Endless file read, in bytes (a real one is about 150 bytes, and 1,500 with its kept levels).
MAX_RECORD_BYTES = 64 * 1024
#: Largest kept level, in bytes of its JSON string (a generated level's text is a few hundred bytes).
MAX_KEPT_LEVEL_BYTES = 16 * 1024
#: Most levels kept ahead of the current step (with the current one, their largest texts stay well within
#: :data:`MAX_RECORD_BYTES`).
MAX_AHEAD = 2
#: The fields of a record (a file holding others is copied aside before a save drops them).
_FIELDS = frozenset({"seed", "step", "solved", "streak", "best_streak", "last_score", "level", "ahead"})


def default_record_path() -> Path:
    """``endless.json`` in the user's data folder."""
    return user_data_dir() / FILE_NAME


def _natural(value: Any) -> bool:
    """``value`` is a non-negative JSON integer (not a boolean)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


@dataclass(frozen=True)
class KeptLevel:
    """The level generated for step ``step`` of the ladder of ``seed``, and its measured score."""

    seed: int
    step: int
    level: Level
    score: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON object saved: the level in its file's text form."""
        return {"seed": self.seed, "step": self.step, "score": self.score, "text": self.level.to_text()}

    def fits(self) -> bool:
        """Small enough to be kept (:data:`MAX_KEPT_LEVEL_BYTES`)."""
        return len(json.dumps(self.level.to_text())) <= MAX_KEPT_LEVEL_BYTES

    @classmethod
    def from_json(cls, data: Any) -> KeptLevel | None:
        """Parse a saved level; ``None`` when it is not a usable one (never raises)."""
        if not isinstance(data, dict) or not _natural(data.get("seed")) or not _natural(data.get("step")):
            return None
        score, text = data.get("score"), data.get("text")
        if score is not None and (not isinstance(score, (int, float)) or isinstance(score, bool)):
            return None
        if not isinstance(text, str) or data["step"] < 1 or len(json.dumps(text)) > MAX_KEPT_LEVEL_BYTES:
            return None
        try:
            level = Level.from_text(text, "endless.json")
        except (GameError, ValueError, RecursionError):
            return None
        return cls(data["seed"], data["step"], level, float(score) if score is not None else None)


@dataclass(frozen=True)
class EndlessRecord:
    """Where the player is on the Endless ladder."""

    seed: int
    step: int = 1  #: the next step to play (1-based)
    solved: int = 0
    streak: int = 0
    best_streak: int = 0
    last_score: float | None = None  #: the measured score of the last level solved
    level: KeptLevel | None = None  #: the level generated for the current step, when kept
    #: levels generated for the next steps, by step (at most :data:`MAX_AHEAD`)
    ahead: tuple[KeptLevel, ...] = ()

    def won(self, score: float | None = None) -> EndlessRecord:
        """The record after solving the current step: its kept level goes, the one kept ahead for the next
        step (if any) becomes the current one."""
        streak, step = self.streak + 1, self.step + 1
        nxt = next((kept for kept in self.ahead if (kept.seed, kept.step) == (self.seed, step)), None)
        return replace(self, step=step, solved=self.solved + 1, streak=streak,
                       best_streak=max(self.best_streak, streak),
                       last_score=score if score is not None else self.last_score, level=nxt,
                       ahead=tuple(kept for kept in self.ahead if kept.step > step))

    def gave_up(self) -> EndlessRecord:
        """The record after leaving a level unsolved: the streak ends (the step and its level stay)."""
        return replace(self, streak=0)

    def keeping(self, level: Level, score: float | None = None) -> EndlessRecord:
        """The record keeping ``level`` as the current step's (one too large is not kept)."""
        kept = KeptLevel(self.seed, self.step, level, score)
        return replace(self, level=kept if kept.fits() else None)

    def keeping_ahead(self, levels: Iterable[tuple[int, Level, float | None]]) -> EndlessRecord:
        """The record keeping ``levels`` (step, level, score) as those made ahead: the ones for the next
        :data:`MAX_AHEAD` steps (one too large is not kept)."""
        kept = (KeptLevel(self.seed, step, level, score) for step, level, score in sorted(levels, key=lambda x: x[0])
                if self._ahead(step))
        return replace(self, ahead=tuple(level for level in kept if level.fits()))

    def kept_ahead(self) -> tuple[KeptLevel, ...]:
        """The levels kept ahead that were made for this record's seed and its next steps."""
        return tuple(kept for kept in self.ahead if kept.seed == self.seed and self._ahead(kept.step))

    def _ahead(self, step: int) -> bool:
        """``step`` is one of the next :data:`MAX_AHEAD` steps of the ladder."""
        return self.step < step <= self.step + MAX_AHEAD

    def kept_level(self) -> KeptLevel | None:
        """The kept level when it was made for this record's seed and step, else ``None``."""
        kept = self.level
        return kept if kept is not None and (kept.seed, kept.step) == (self.seed, self.step) else None

    def to_json(self) -> dict[str, Any]:
        """The JSON object saved (no ``level`` key when none is kept, no ``ahead`` key when none is ahead)."""
        data: dict[str, Any] = {"seed": self.seed, "step": self.step, "solved": self.solved, "streak": self.streak,
                                "best_streak": self.best_streak, "last_score": self.last_score}
        if self.level is not None:
            data["level"] = self.level.to_json()
        if self.ahead:
            data["ahead"] = [kept.to_json() for kept in self.ahead]
        return data

    @classmethod
    def from_json(cls, data: Any) -> EndlessRecord:
        """Parse a saved object; raise ``ValueError`` when it is not one (a kept level that is not usable is
        dropped: :meth:`KeptLevel.from_json`, as are levels ahead beyond :data:`MAX_AHEAD`)."""
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        ints: dict[str, int] = {}
        for key in ("seed", "step", "solved", "streak", "best_streak"):
            value = data.get(key)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError("seed, step, solved, streak and best_streak must be non-negative integers")
            ints[key] = value
        if ints["step"] < 1:
            raise ValueError("step starts at 1")
        score = data.get("last_score")
        if score is not None and (not isinstance(score, (int, float)) or isinstance(score, bool)):
            raise ValueError("last_score must be a number")
        ahead = data.get("ahead")
        levels = [KeptLevel.from_json(kept) for kept in ahead[:MAX_AHEAD]] if isinstance(ahead, list) else []
        return cls(ints["seed"], ints["step"], ints["solved"], ints["streak"],
                   max(ints["best_streak"], ints["streak"]), float(score) if score is not None else None,
                   KeptLevel.from_json(data.get("level")), tuple(kept for kept in levels if kept is not None))


def fresh_record() -> EndlessRecord:
    """A new ladder with a random seed."""
    return EndlessRecord(seed=random.randrange(1_000_000))


def load_record(path: Path | None = None) -> tuple[EndlessRecord, str]:
    """The saved record (or a fresh one) and a message for the player ("" when all is well); never raises."""
    path = path if path is not None else default_record_path()
    data, problem = read_user_object(path, MAX_RECORD_BYTES)
    if problem is None:
        if data is None:
            return fresh_record(), ""
        try:
            return EndlessRecord.from_json(data), ""
        except (ValueError, TypeError, OverflowError) as exc:
            problem = str(exc)
    return fresh_record(), f"{path.name} was unreadable {set_aside_reason(path, problem)}, Endless starts afresh"


def merge_records(newer: EndlessRecord, on_disk: EndlessRecord | None) -> EndlessRecord:
    """``newer`` with the larger best streak of it and ``on_disk``.

    >>> merge_records(EndlessRecord(1, step=4, best_streak=2), EndlessRecord(1, step=9, best_streak=5))
    EndlessRecord(seed=1, step=4, solved=0, streak=0, best_streak=5, last_score=None, level=None, ahead=())
    """
    if on_disk is None:
        return newer
    return replace(newer, best_streak=max(newer.best_streak, on_disk.best_streak))


def save_record(record: EndlessRecord, path: Path | None = None, *, base: EndlessRecord | None = None,
                notes: list[str] | None = None) -> EndlessRecord:
    """Merge ``record`` into the file under a lock (:func:`merge_records`); return what was saved.

    ``base`` is the record this game last read from or wrote to the file (``None``: it does not know):
    a record on disk that differs from it and from what is saved was changed outside the game, and is
    copied aside first, as is an object that is not a record (a file that is not JSON or holds no object,
    ``null`` included, is moved aside).  Each copy is one line in ``notes``.  I/O errors raise :class:`OSError` (a copy that cannot be
    made stops the save: the file stays as it was).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / FILE_NAME
    >>> mine = save_record(EndlessRecord(seed=1, step=2), path)
    >>> _ = path.write_text('{"seed": 1, "step": 40, "solved": 39, "streak": 0, "best_streak": 9}')
    >>> notes: list[str] = []
    >>> save_record(mine.won(), path, base=mine, notes=notes).best_streak
    9
    >>> notes[0].startswith("endless.json was changed outside the game: what it held is kept as endless.json.corrupt-")
    True
    """
    path = path if path is not None else default_record_path()
    saved: list[EndlessRecord] = []
    kept: list[str] = []

    def merge(on_disk: Any) -> dict[str, Any]:
        try:
            disk = EndlessRecord.from_json(on_disk) if on_disk is not None else None
        except (ValueError, TypeError, OverflowError) as exc:
            disk, problem = None, f"it held no Endless record: {exc}"
        else:
            problem = "it was changed outside the game"
        saved.append(merge_records(record, disk))
        unknown = sorted(str(k) for k in on_disk if k not in _FIELDS) if disk is not None else []
        if unknown:
            problem = f"it held fields this game does not read ({', '.join(unknown[:3])})"
        foreign = on_disk is not None and (disk is None or bool(unknown))
        edited = disk is not None and base is not None and disk not in (base, saved[-1])
        if foreign or edited:
            aside = copy_aside(path)  # under the lock; an error stops the save before the file is replaced
            if aside is not None:
                kept.append(f"{path.name} was changed outside the game: what it held is kept as {aside.name}"
                            if edited else f"{path.name}: {problem}; what it held is kept as {aside.name}")
        return saved[-1].to_json()

    result = locked_update(path, merge, max_bytes=MAX_RECORD_BYTES, indent=2)
    if result.problems:
        where = f"; kept as {result.set_aside_as.name}" if result.set_aside_as else ""
        kept.insert(0, f"{path.name} was unreadable ({result.problems[0].replace(str(path), 'the file')}){where}")
    if notes is not None:
        notes.extend(kept)
    return saved[-1]
