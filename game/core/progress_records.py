"""The records of the progress file: one level's record, its saved replays, the strict readers
that accept any JSON without crashing, and the three-way merge of two processes' records.

:class:`game.core.progress.ProgressStore` loads, merges and saves them.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from typing import Any

from game.core.level import Brick
from game.core.pack import migrate_keys

#: File format version written in the JSON (a file of a newer one is kept aside before a save rewrites it).
FORMAT_VERSION = 1
#: Most replays kept per level (the best ones first, then the newest).
MAX_REPLAYS = 20
#: Largest counter (attempts, hints) and brick coordinate accepted in the file.
MAX_COUNT = 10**12
MAX_COORD = 1 << 16


class ProgressFormatError(ValueError):
    """A progress document (or a part of it) that does not have the expected form."""


# ---------------------------------------------------------------- strict field readers
def _count(value: Any, what: str, *, maximum: int = MAX_COUNT) -> int:
    """A whole number 0..maximum (an integral float is accepted); anything else raises.

    >>> _count(3.0, "x")
    3
    >>> _count(-1, "best_bricks")
    Traceback (most recent call last):
    ...
    game.core.progress_records.ProgressFormatError: best_bricks must be a whole number from 0 to 1000000000000, got -1
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


def parse_cells(raw: Any, what: str) -> tuple[Brick, ...]:
    """A list of ``[row, col]`` pairs (``what``: "a replay's bricks", ...), sorted; anything else raises
    :class:`ProgressFormatError` naming what is wrong.  The one reader of saved brick lists: progress reports a
    bad one, :mod:`game.core.resume` drops the board that holds it.

    >>> parse_cells([[2, 1], [0, 3.0]], "a replay's bricks")
    ((0, 3), (2, 1))
    >>> parse_cells([[2, True]], "a board's bricks")
    Traceback (most recent call last):
    ...
    game.core.progress_records.ProgressFormatError: a column in a board's bricks must be a whole number, got bool
    """
    if not isinstance(raw, list) or len(raw) > MAX_COORD:
        raise ProgressFormatError(f"{what} must be a list")
    cells = []
    for b in raw:
        if not isinstance(b, list) or len(b) != 2:
            raise ProgressFormatError(f"{what} must be [row, col] pairs")
        cells.append((_count(b[0], f"a row in {what}", maximum=MAX_COORD),
                      _count(b[1], f"a column in {what}", maximum=MAX_COORD)))
    return tuple(sorted(cells))


def _time(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ProgressFormatError("saved_at must be a finite number")
    return float(value)


@dataclass(frozen=True)
class Replay:
    """A winning brick set, saved with the hash of the level it won on (``assisted``: an AI solution)."""

    level_hash: str
    bricks: tuple[Brick, ...]
    saved_at: float = 0.0
    assisted: bool = False

    def to_json(self) -> dict[str, Any]:
        """JSON form (``assisted`` only when true)."""
        data: dict[str, Any] = {"hash": self.level_hash, "bricks": [list(b) for b in self.bricks],
                                "saved_at": self.saved_at}
        if self.assisted:
            data["assisted"] = True
        return data

    @classmethod
    def from_json(cls, data: Any) -> Replay:
        """Parse the JSON form; raises :class:`ProgressFormatError` on anything malformed."""
        if not isinstance(data, dict):
            raise ProgressFormatError("a replay must be an object")
        bricks = parse_cells(data.get("bricks"), "a replay's bricks")
        assisted = data.get("assisted", False)
        if not isinstance(assisted, bool):
            raise ProgressFormatError("a replay's 'assisted' must be true or false")
        return cls(_text(data.get("hash"), "a replay's hash"), bricks,
                   _time(data.get("saved_at", 0.0)), assisted)


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
    """The records of a progress document, and the keys of records that were malformed (dropped; the
    side puzzles' are :func:`dropped_puzzles`).

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


def dropped_puzzles(data: Any, kept: dict[str, PuzzleRecord]) -> list[str]:
    """The keys of the side-puzzle records ``data`` held that :func:`parse_puzzles` did not keep in ``kept``
    (``puzzles`` when ``data`` is not an object).

    >>> data = {"life/a.txt": {"best": 0}, "life/b.txt": {"best": -2}}
    >>> dropped_puzzles(data, parse_puzzles(data)), dropped_puzzles([1], {})
    (['life/b.txt'], ['puzzles'])
    """
    if data is None:
        return []
    if not isinstance(data, dict):
        return ["puzzles"]
    return [str(key) for key in data if key not in kept]


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


@dataclass
class PuzzleRecord:
    """Progress on one side puzzle (a Reverse Life target, ...): solved, and the best result reached.

    ``best`` is the fewest wrong cells reached (0 once solved); ``puzzle_hash`` names the puzzle's version
    (a puzzle whose file changed starts afresh); ``start`` is the player's latest winning start, as its
    live cells ``(row, column)`` (``None``: none kept).
    """

    solved: bool = False
    best: int | None = None
    puzzle_hash: str = ""
    start: tuple[tuple[int, int], ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON form (``start`` only when kept)."""
        data: dict[str, Any] = {"solved": self.solved, "best": self.best, "hash": self.puzzle_hash}
        if self.start is not None:
            data["start"] = [list(cell) for cell in self.start]
        return data

    def reached(self, wrong: int, start: tuple[tuple[int, int], ...] | None) -> PuzzleRecord:
        """The record after a start with ``wrong`` wrong cells (``start``: its live cells, kept when it solves
        the puzzle).

        >>> PuzzleRecord(False, 3, "h").reached(0, ((1, 2),))
        PuzzleRecord(solved=True, best=0, puzzle_hash='h', start=((1, 2),))
        >>> PuzzleRecord(True, 0, "h", ((1, 2),)).reached(4, ((0, 0),)).start
        ((1, 2),)
        """
        best = wrong if self.best is None else min(self.best, wrong)
        kept = start if wrong == 0 and start is not None else self.start
        return PuzzleRecord(self.solved or wrong == 0, best, self.puzzle_hash, kept)

    @classmethod
    def from_json(cls, data: Any) -> PuzzleRecord:
        """Parse the JSON form; raises :class:`ProgressFormatError` on anything malformed."""
        if not isinstance(data, dict):
            raise ProgressFormatError("a puzzle record must be an object")
        start = data.get("start")
        return cls(_flag(data.get("solved", False), "solved"), _optional_count(data.get("best"), "best"),
                   _text(data.get("hash", ""), "hash"),
                   None if start is None else parse_cells(start, "a puzzle's start"))


def parse_puzzles(data: Any) -> dict[str, PuzzleRecord]:
    """The side-puzzle records of a progress document's ``puzzles`` object (malformed ones dropped).

    >>> sorted(parse_puzzles({"life/a.txt": {"solved": True, "best": 0}, "life/b.txt": {"best": -2}}))
    ['life/a.txt']
    """
    if not isinstance(data, dict):
        return {}
    out: dict[str, PuzzleRecord] = {}
    for key, value in data.items():
        try:
            out[_text(key, "a puzzle key")] = PuzzleRecord.from_json(value)
        except ProgressFormatError:
            continue
    return out


def merge_puzzle(disk: PuzzleRecord | None, mine: PuzzleRecord | None) -> PuzzleRecord:
    """One side puzzle's progress from two processes: for the same version, solved by either and the
    smaller best, and this process's winning start (else the disk's); for different versions, this
    process's record.

    >>> merge_puzzle(PuzzleRecord(True, 0, "h", ((1, 2),)), PuzzleRecord(False, 3, "h"))
    PuzzleRecord(solved=True, best=0, puzzle_hash='h', start=((1, 2),))
    """
    if mine is None or disk is None:
        return copy.deepcopy(mine if mine is not None else disk or PuzzleRecord())
    if disk.puzzle_hash != mine.puzzle_hash:
        return copy.deepcopy(mine)
    bests = [b for b in (disk.best, mine.best) if b is not None]
    return PuzzleRecord(disk.solved or mine.solved, min(bests) if bests else None, mine.puzzle_hash,
                        mine.start if mine.start is not None else disk.start)
