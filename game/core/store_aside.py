"""Keeping a store file aside before a save drops the parts of it the store cannot read.

A store saves through :func:`game.core.writing.locked_update`: its merge re-reads the file under the lock and
writes back what it understood.  Entries it cannot read (a malformed record, a field this version does not know,
a section of the wrong shape) would be dropped by that write, so the merge first copies the file as it is aside
(:func:`game.core.writing.copy_aside`: the lock is already held, so never :func:`game.core.writing.keep_copy`,
which takes it again).  :class:`UnreadKeeper` remembers which unread entries a copy already holds, by name and
content, so the player is told once, and again only when the file holds new ones.

>>> keeper = UnreadKeeper()
>>> entries = [unread_entry("levels/a.txt", {"best": -1})]
>>> keeper.is_new(entries), keeper.remember(entries), keeper.is_new(entries)
(True, None, False)
>>> keeper.is_new([unread_entry("levels/a.txt", {"best": -2})])  # the same entry edited again
True
>>> describe_unread("progress.json", entries, "progress.json.corrupt-1")
'progress.json: 1 entry could not be read (levels/a.txt) and is dropped; the file as it was is kept as progress.json.corrupt-1'

A file written by a newer version of the game is read as far as this version can, and its ``version`` is one
more unread entry (:func:`newer_version`): the save that rewrites it in this version's format first keeps the
file as it was aside, so nothing the newer version wrote is lost.

>>> [e.name for e in newer_version({"version": 3}, 1)], newer_version({"version": 1}, 1), newer_version({}, 1)
(["version 3, newer than this game's 1"], [], [])
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Sequence

from game.core.writing import copy_aside

#: Most entry names a message lists.
NAMES_SHOWN = 3


class UnreadEntry(NamedTuple):
    """One part of a store file that the store cannot read: its name (for the player) and a digest of its JSON."""

    name: str
    digest: str


def unread_entry(name: str, value: Any) -> UnreadEntry:
    """The entry ``name`` holding the parsed JSON ``value``."""
    text = json.dumps(value, sort_keys=True, default=repr)
    return UnreadEntry(name[:60], hashlib.sha256(text.encode("utf-8")).hexdigest())


def newer_version(data: dict[str, Any], ours: int) -> list[UnreadEntry]:
    """The file's ``version`` as an unread entry when this game does not write it: a newer version's number,
    or anything but a whole number; none when it is missing, this game's or older."""
    version = data.get("version", ours)
    whole = isinstance(version, int) and not isinstance(version, bool)
    if whole and version <= ours:
        return []
    if whole:
        return [unread_entry(f"version {version}, newer than this game's {ours}", version)]
    return [unread_entry(f"version {json.dumps(version)[:20]}, not one this game writes", version)]


@dataclass
class UnreadKeeper:
    """The unread entries of a store file that a copy aside already holds."""

    kept: frozenset[UnreadEntry] = frozenset()

    def is_new(self, entries: Sequence[UnreadEntry]) -> bool:
        """``entries`` include one that no copy aside holds yet."""
        return not set(entries) <= self.kept

    def remember(self, entries: Sequence[UnreadEntry]) -> None:
        """A copy aside now holds ``entries``."""
        self.kept = self.kept | frozenset(entries)

    def keep_before_save(self, path: Path, entries: Sequence[UnreadEntry]) -> Path | None:
        """Inside a merge (the file's lock held): copy ``path`` aside when ``entries`` include new ones; the copy's
        path, or ``None`` when nothing new is dropped.  An I/O error raises :class:`OSError`, which stops the save
        before the file is replaced."""
        if not self.is_new(entries):
            return None
        aside = copy_aside(path)
        if aside is not None:
            self.remember(entries)
        return aside


def describe_unread(file_name: str, entries: Sequence[UnreadEntry], aside_name: str) -> str:
    """The line that tells the player which entries a save drops and where the file as it was is kept."""
    names = sorted({entry.name for entry in entries})
    shown = ", ".join(names[:NAMES_SHOWN]) + (", ..." if len(names) > NAMES_SHOWN else "")
    count = f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'}"
    verb = "is" if len(entries) == 1 else "are"
    return (f"{file_name}: {count} could not be read ({shown}) and {verb} dropped; the file as it was is kept as "
            f"{aside_name}")
