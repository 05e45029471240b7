"""Keeping ``progress.json`` within the size its loader reads (:data:`game.core.progress.MAX_PROGRESS_BYTES`).

A save that would write a larger file first drops, in this order, until the file fits:

1. the replays that are not a level's best one (the best is its first: the current version, fewest bricks,
   newest), oldest first;
2. the records of levels never solved (their attempt and hint counts, a cached minimum), those with the fewest
   attempts and hints first;
3. the best replay of each solved level, oldest first.

A solved level's record itself (solved mark, level version, best and own best brick counts) is never dropped:
when those alone pass the cap, :func:`trim_records` raises :class:`ProgressTooLarge` and the save is refused
(the file on disk, which the loader reads, stays as it was).

Sizes are those of ``json.dumps(document, indent=1)`` (how the file is written): each entry's share is worked
out from its own text and its depth in the document, then the whole document is measured again.

>>> from game.core.progress_records import Replay
>>> records = {"a": LevelRecord(solved=True, level_hash="h", best_bricks=1,
...                             replays=[Replay("h", ((1, 1),), 2.0), Replay("h", ((1, 1), (2, 2)), 1.0)]),
...            "b": LevelRecord(attempts=3)}
>>> document = lambda: {"levels": {k: r.to_json() for k, r in records.items()}}
>>> size(document()) > 400
True
>>> dropped = trim_records(records, document, 400)
>>> dropped, size(document()) <= 400, records["a"].solved, len(records["a"].replays)
(Trimmed(replays=1, records=1), True, True, 1)
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable

from game.core.progress_records import LevelRecord

#: Depth in the document of a level record (``levels`` > key) and of one of its replays (> ``replays`` > item).
RECORD_DEPTH, REPLAY_DEPTH = 2, 4


class ProgressTooLarge(ValueError):
    """Even with every replay and unsolved record dropped, the progress passes its size cap."""


@dataclass(frozen=True)
class Trimmed:
    """How many replays and unsolved level records a save dropped to stay within the cap."""

    replays: int = 0
    records: int = 0

    def __bool__(self) -> bool:
        return bool(self.replays or self.records)

    def describe(self, name: str) -> str:
        """What the save of file ``name`` dropped, for the player."""
        return (f"{name} reached its size cap: {self.replays} older replays and {self.records} records of unsolved "
                "levels dropped (no solved level)")


def size(document: Any) -> int:
    """Bytes of ``document`` as the progress file is written (JSON, indent 1, a final newline)."""
    return len(json.dumps(document, indent=1)) + 1


def _share(value: Any, depth: int, key: str | None = None) -> int:
    """Bytes ``value`` takes at ``depth`` in the document: its lines indented, a key, a separator."""
    text = json.dumps(value, indent=1)
    head = len(json.dumps(key)) + 2 if key is not None else 0
    return len(text) + depth * (text.count("\n") + 1) + head + 2


def _candidates(records: dict[str, LevelRecord]) -> list[tuple[int, Callable[[], bool]]]:
    """What may be dropped, in the order of the module docstring: ``(bytes, drop)`` (``drop`` says whether it
    dropped a record rather than a replay)."""
    extra, unsolved, best = [], [], []
    for key, rec in records.items():
        for replay in rec.replays[1:]:
            extra.append((replay.saved_at, _share(replay.to_json(), REPLAY_DEPTH), _drop_replay(rec, replay)))
        if not rec.solved:
            unsolved.append((rec.attempts + rec.hints_used, key, _share(rec.to_json(), RECORD_DEPTH, key),
                             _drop_record(records, key)))
        elif rec.replays:
            first = rec.replays[0]
            best.append((first.saved_at, _share(first.to_json(), REPLAY_DEPTH), _drop_replay(rec, first)))
    extra.sort(key=lambda c: c[0])
    unsolved.sort(key=lambda c: (c[0], c[1]))
    best.sort(key=lambda c: c[0])
    return ([(n, drop) for _, n, drop in extra] + [(n, drop) for _, _, n, drop in unsolved]
            + [(n, drop) for _, n, drop in best])


def _drop_replay(rec: LevelRecord, replay: Any) -> Callable[[], bool]:
    def drop() -> bool:
        rec.replays = [r for r in rec.replays if r is not replay]
        return False
    return drop


def _drop_record(records: dict[str, LevelRecord], key: str) -> Callable[[], bool]:
    def drop() -> bool:
        records.pop(key, None)
        return True
    return drop


def trim_records(records: dict[str, LevelRecord], document: Callable[[], Any], max_bytes: int) -> Trimmed:
    """Drop entries of ``records`` (in place, in the order of the module docstring) until ``document()``, the
    whole file built from them, takes at most ``max_bytes``; how many were dropped.  Raises
    :class:`ProgressTooLarge` when everything that may go is gone and it is still larger."""
    total = size(document())
    if total <= max_bytes:
        return Trimmed()
    candidates = deque(_candidates(records))
    replays = dropped_records = 0
    while total > max_bytes:
        if not candidates:
            raise ProgressTooLarge(f"the solved levels alone take {total} bytes, past the {max_bytes} the game reads")
        excess = total - max_bytes
        while excess > 0 and candidates:
            share, drop = candidates.popleft()
            if drop():
                dropped_records += 1
            else:
                replays += 1
            excess -= share
        total = size(document())
    return Trimmed(replays, dropped_records)


__all__ = ["ProgressTooLarge", "Trimmed", "size", "trim_records"]
