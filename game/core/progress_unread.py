"""What of a progress document a load or a save cannot read: the parts :class:`game.core.progress.ProgressStore`
drops only once a copy of the file is kept aside (:mod:`game.core.store_aside`), and the ``worlds_seen`` list."""

from __future__ import annotations

from typing import Any

from game.core.progress_records import FORMAT_VERSION, dropped_puzzles, parse_progress, parse_puzzles
from game.core.store_aside import UnreadEntry, newer_version, unread_entry

#: Most world names kept in ``worlds_seen`` (and longest name), bounds against a hostile file.
MAX_WORLDS_SEEN, MAX_WORLD_NAME = 200, 200


def parse_worlds_seen(data: Any) -> set[str]:
    """The ``worlds_seen`` list of a progress file (anything else is none; at most :data:`MAX_WORLDS_SEEN`).
    >>> sorted(parse_worlds_seen(["The Steps", 3, "The Steps"])), parse_worlds_seen({"a": 1})
    (['The Steps'], set())"""
    if not isinstance(data, list):
        return set()
    return {name for name in data[:MAX_WORLDS_SEEN] if _world_name(name)}


def _world_name(name: Any) -> bool:
    return isinstance(name, str) and len(name) <= MAX_WORLD_NAME


def unread_progress(data: dict[str, Any]) -> list[UnreadEntry]:
    """The parts of a progress document a load or save cannot read and drops: ``levels`` or ``puzzles`` when
    not an object, each malformed level or puzzle record, ``worlds_seen`` when not a list and each name of it
    that is not kept (see :func:`parse_progress`, :func:`parse_puzzles`, :func:`parse_worlds_seen`), and the
    ``version`` of a newer game (:func:`game.core.store_aside.newer_version`).

    >>> [e.name for e in unread_progress({"levels": 5, "puzzles": {"p": 1}, "worlds_seen": ["ok", 7]})]
    ['levels', 'puzzles/p', 'worlds_seen/1']
    """
    out = newer_version(data, FORMAT_VERSION)
    levels, puzzles, worlds = data.get("levels", {}), data.get("puzzles"), data.get("worlds_seen")
    if isinstance(levels, dict):
        out += [unread_entry(f"levels/{key}", levels[key]) for key in parse_progress({"levels": levels})[1]]
    else:
        out.append(unread_entry("levels", levels))
    if isinstance(puzzles, dict):
        dropped = dropped_puzzles(puzzles, parse_puzzles(puzzles))
        out += [unread_entry(f"puzzles/{key}", puzzles[key]) for key in dropped]
    elif puzzles is not None:
        out.append(unread_entry("puzzles", puzzles))
    if isinstance(worlds, list):
        out += [unread_entry(f"worlds_seen/{i}", name) for i, name in enumerate(worlds)
                if i >= MAX_WORLDS_SEEN or not _world_name(name)]
    elif worlds is not None:
        out.append(unread_entry("worlds_seen", worlds))
    return out
