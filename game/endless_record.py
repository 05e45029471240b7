"""The player's Endless progress, kept across launches in ``endless.json`` (data folder).

:class:`EndlessRecord` holds the ladder's seed and the next step to play, the levels
solved, the current streak (levels solved in a row without giving one up) and the best
streak ever.  :func:`load_record` never fails: a missing file is a fresh start and an
unreadable one is set aside as ``endless.json.bad`` (the game says so) before starting
fresh.  :func:`save_record` writes atomically and merges with what another running game
saved meanwhile (the best streak never goes down).

>>> r = EndlessRecord(seed=7)
>>> r = r.won(score=5.2).won(score=6.0).gave_up()
>>> (r.step, r.solved, r.streak, r.best_streak, r.last_score)
(3, 2, 0, 2, 6.0)
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from game.storage import atomic_write_text, user_data_dir

FILE_NAME = "endless.json"


def default_record_path() -> Path:
    """``endless.json`` in the user's data folder."""
    return user_data_dir() / FILE_NAME


@dataclass(frozen=True)
class EndlessRecord:
    """Where the player is on the Endless ladder."""

    seed: int
    step: int = 1  #: the next step to play (1-based)
    solved: int = 0
    streak: int = 0
    best_streak: int = 0
    last_score: float | None = None  #: the measured score of the last level solved

    def won(self, score: float | None = None) -> EndlessRecord:
        """The record after solving the current step."""
        streak = self.streak + 1
        return replace(self, step=self.step + 1, solved=self.solved + 1, streak=streak,
                       best_streak=max(self.best_streak, streak),
                       last_score=score if score is not None else self.last_score)

    def gave_up(self) -> EndlessRecord:
        """The record after leaving a level unsolved: the streak ends (the step stays)."""
        return replace(self, streak=0)

    def to_json(self) -> dict[str, Any]:
        """The JSON object saved."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> EndlessRecord:
        """Parse a saved object; raise ``ValueError`` when it is not one."""
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
        return cls(ints["seed"], ints["step"], ints["solved"], ints["streak"],
                   max(ints["best_streak"], ints["streak"]), float(score) if score is not None else None)


def fresh_record() -> EndlessRecord:
    """A new ladder with a random seed."""
    return EndlessRecord(seed=random.randrange(1_000_000))


def load_record(path: Path | None = None) -> tuple[EndlessRecord, str]:
    """The saved record (or a fresh one) and a message for the player ("" when all is well)."""
    path = path if path is not None else default_record_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return fresh_record(), ""
    except OSError as exc:
        return fresh_record(), f"could not read {path.name} ({exc.strerror}): Endless starts afresh"
    try:
        return EndlessRecord.from_json(json.loads(text)), ""
    except (ValueError, json.JSONDecodeError) as exc:
        bad = path.with_name(path.name + ".bad")
        try:
            os.replace(path, bad)
        except OSError:
            pass
        return fresh_record(), f"{path.name} was unreadable ({exc}); kept as {bad.name}, Endless starts afresh"


def save_record(record: EndlessRecord, path: Path | None = None) -> EndlessRecord:
    """Save ``record`` atomically, keeping the larger best streak of it and the file on disk; return what was saved."""
    path = path if path is not None else default_record_path()
    merged = record
    try:
        on_disk = EndlessRecord.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, json.JSONDecodeError):
        on_disk = None
    if on_disk is not None:  # another game saved meanwhile: its best streak counts too
        merged = replace(record, best_streak=max(record.best_streak, on_disk.best_streak))
    atomic_write_text(path, json.dumps(merged.to_json(), indent=2) + "\n")
    return merged
