"""The levels the game offers: the pack in ``levels/`` and the player's own levels (no pygame here)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from game.core.errors import GameError
from game.core.level import Level
from game.core.pack import pack_level_paths
from game.core.progress import level_key
from game.core.storage import user_levels_dir


class Section(str, enum.Enum):
    """Where a level comes from."""

    PACK = "pack"  #: the shipped pack in ``levels/``
    USER = "user"  #: the player's own levels
    FILE = "file"  #: a level file named on the command line
    ENDLESS = "endless"  #: a level made by Endless mode


@dataclass(frozen=True)
class LevelEntry:
    """One playable level: its progress ``key``, file, parsed level, and the section it belongs to."""

    key: str
    path: Path | None
    level: Level
    section: Section = Section.PACK

    @property
    def title(self) -> str:
        """The level's title, or its file name."""
        return self.level.title or (self.path.stem if self.path else "untitled")


def _load_folder(paths: list[Path], section: Section) -> tuple[list[LevelEntry], list[str]]:
    entries: list[LevelEntry] = []
    errors: list[str] = []
    for p in paths:
        try:
            level = Level.load(p)
        except GameError as exc:
            errors.append(str(exc))
            continue
        entries.append(LevelEntry(level_key(p), p, level, section))
    return entries, errors


def pack_entries() -> list[LevelEntry]:
    """The shipped pack, in play order (files that fail to parse are skipped)."""
    return _load_folder(pack_level_paths(), Section.PACK)[0]


def user_entries() -> list[LevelEntry]:
    """The player's own levels in ``user_levels_dir()``, sorted by name."""
    folder = user_levels_dir()
    if not folder.is_dir():
        return []
    return _load_folder(sorted(p for p in folder.glob("*.txt") if p.is_file()), Section.USER)[0]


def user_levels_stamp() -> tuple[tuple[str, int, int], ...]:
    """What changes when a level of the player's is saved, added or removed: each level file's name,
    modification time and size (cheap: no file is read)."""
    folder = user_levels_dir()
    if not folder.is_dir():
        return ()
    stamps = []
    for p in sorted(folder.glob("*.txt")):
        try:
            st = p.stat()
        except OSError:
            continue
        stamps.append((p.name, st.st_mtime_ns, st.st_size))
    return tuple(stamps)


#: Sources listed by the level select screen, in order.  Later features append their own.
LEVEL_SOURCES: list[Callable[[], list[LevelEntry]]] = [pack_entries, user_entries]


def all_entries() -> list[LevelEntry]:
    """Every level from every source in :data:`LEVEL_SOURCES`."""
    out: list[LevelEntry] = []
    for source in LEVEL_SOURCES:
        out.extend(source())
    return out


def entry_badge(entries: "list[LevelEntry] | Sequence[LevelEntry]", i: int) -> str:
    """The short label of level ``i`` shown in level select and in play: its pack number, or
    ``U<n>`` for the player's own levels (numbered among them); none for a file opened by name."""
    entry = entries[i]
    if entry.section == "file":  # a file named on the command line: no number (never "F1", the help key)
        return ""
    if entry.section == "pack":
        return str(1 + sum(1 for e in entries[:i] if e.section == "pack"))
    same = sum(1 for e in entries[:i] if e.section == entry.section)
    return f"{entry.section[:1].upper()}{same + 1}"
