"""A win that opens the next world of the pack: the player is told, and the playlist goes on into it.

The level select opens a world once enough levels of the world before are solved
(:func:`locked_entries`, the one place of that rule) and plays only the open levels.  Without this, the win
that opens a world would say nothing, and Enter after the last level of the world would go back to the
level select although the next world is open.
"""

from __future__ import annotations

from typing import MutableSequence, Sequence

from game.core.catalog import LevelEntry, Section, pack_entries
from game.core.pack import group_worlds, open_worlds_by_counts, world_name
from game.core.progress import ProgressStore


def world_label(number: int, name: str) -> str:
    """A world as the level select names it, e.g. ``World 2 · Rising Ground``."""
    return f"World {number} \u00b7 {name}"


def locked_entries(entries: Sequence[LevelEntry], solved: Sequence[bool]) -> list[bool]:
    """Which of ``entries`` are in a locked world, given which are solved now (solved, and not changed
    since): a world of the pack opens once enough levels of the world before it are solved
    (:func:`game.core.pack.open_worlds_by_counts`); the player's own levels are never locked."""
    names = [world_name(e.level) if e.section == Section.PACK else "" for e in entries]
    pack = [(first, count) for _, first, count in group_worlds(names) if entries[first].section == Section.PACK]
    opened = open_worlds_by_counts([count for _, count in pack], [sum(solved[f:f + c]) for f, c in pack])
    locked = [False] * len(entries)
    for (first, count), is_open in zip(pack, opened):
        locked[first:first + count] = [not is_open] * count
    return locked


class WorldUnlock:
    """The pack's worlds, which are open, and what one win opened (see the module docstring)."""

    def __init__(self, progress: ProgressStore, entries: list[LevelEntry] | None = None) -> None:
        self.progress = progress
        self.entries = pack_entries() if entries is None else entries
        self.groups = group_worlds([world_name(e.level) for e in self.entries])
        self.before = self.open_flags()

    def open_flags(self) -> list[bool]:
        """Which worlds are open now (as the level select counts: solved and not changed since)."""
        locked = locked_entries(self.entries, [self.progress.is_solved(e.key, e.level) for e in self.entries])
        return [not locked[first] for _, first, _ in self.groups]

    def opened(self) -> list[tuple[str, list[LevelEntry]]]:
        """The worlds opened since this was made (label and levels), in order."""
        now = self.open_flags()
        return [(world_label(g + 1, name), self.entries[first:first + count])
                for g, (name, first, count) in enumerate(self.groups) if now[g] and not self.before[g]]


def continue_into(playlist: MutableSequence[LevelEntry], world: list[LevelEntry]) -> None:
    """Put ``world``'s levels into ``playlist`` right after the pack levels before them (the pack is in
    file-name order), so Enter goes on into the world that opened; nothing when they are there already."""
    keys = {e.key for e in playlist}
    if not world or any(e.key in keys for e in world):
        return
    at = max((i + 1 for i, e in enumerate(playlist) if e.section == Section.PACK and e.key < world[0].key),
             default=0)
    playlist[at:at] = world


__all__ = ["WorldUnlock", "continue_into", "locked_entries", "world_label"]
