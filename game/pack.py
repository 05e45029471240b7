"""The level pack shipped in ``levels/``: play order, worlds, and which worlds are open.

Files are named ``NNN_slug.txt`` and played in name order.  Each level names its world
in a metadata line (``# world: First Steps``); consecutive levels with the same world
form one :class:`World`.  World 1 is always open; a later world opens once
:data:`UNLOCK_FRACTION` of the previous world is solved (:func:`open_worlds`).
"The Original" (the level of the research notes) is found by its title, not its number
(:func:`original_level_path`).

>>> worlds = pack_worlds()
>>> len(worlds) >= 4 and all(w.levels for w in worlds)
True
>>> open_worlds(worlds, set())[:2]
[True, False]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from game.errors import GameError
from game.level import Level

#: Folder of the shipped levels.
PACK_DIR = Path(__file__).resolve().parent.parent / "levels"
#: Title of the research notes' level in the pack.
ORIGINAL_TITLE = "The Original"
#: Share of a world's levels to solve before the next world opens ("most of it").
UNLOCK_FRACTION = 0.7
#: World name of levels without a ``world`` metadata line.
DEFAULT_WORLD = "Extras"


def pack_level_paths(folder: Path = PACK_DIR) -> list[Path]:
    """The pack's level files in play order (sorted by name, ``*.txt``)."""
    return sorted(p for p in folder.glob("*.txt") if p.is_file())


@dataclass(frozen=True)
class World:
    """A run of consecutive pack levels sharing a ``world`` name; ``first`` is the 0-based index of its first level."""

    number: int
    title: str
    first: int
    levels: tuple[Path, ...]

    def need(self) -> int:
        """Levels of this world to solve before the next one opens.

        >>> World(1, "a", 0, tuple(Path(str(i)) for i in range(10))).need()
        7
        """
        return math.ceil(UNLOCK_FRACTION * len(self.levels))


def world_name(level: Level) -> str:
    """The ``world`` metadata of a level (:data:`DEFAULT_WORLD` when missing)."""
    return level.meta_value("world") or DEFAULT_WORLD


def group_worlds(names: Iterable[str]) -> list[tuple[str, int, int]]:
    """``(name, first, count)`` for each run of equal consecutive names.

    >>> group_worlds(["a", "a", "b", "c", "c"])
    [('a', 0, 2), ('b', 2, 1), ('c', 3, 2)]
    """
    out: list[tuple[str, int, int]] = []
    for i, name in enumerate(names):
        if out and out[-1][0] == name:
            out[-1] = (name, out[-1][1], out[-1][2] + 1)
        else:
            out.append((name, i, 1))
    return out


def pack_worlds(folder: Path = PACK_DIR) -> list[World]:
    """The pack's worlds in play order (levels that fail to parse count as :data:`DEFAULT_WORLD`)."""
    paths = pack_level_paths(folder)
    names = []
    for p in paths:
        try:
            names.append(world_name(Level.load(p)))
        except GameError:
            names.append(DEFAULT_WORLD)
    return [World(n, name, first, tuple(paths[first:first + count]))
            for n, (name, first, count) in enumerate(group_worlds(names), 1)]


def open_worlds_by_counts(sizes: list[int], solved: list[int]) -> list[bool]:
    """Which worlds are open, from each world's size and solved count.

    >>> open_worlds_by_counts([10, 10, 10], [7, 6, 0])
    [True, True, False]
    """
    out: list[bool] = []
    for i, _ in enumerate(sizes):
        if i == 0:
            out.append(True)
        else:
            need = math.ceil(UNLOCK_FRACTION * sizes[i - 1])
            out.append(out[-1] and solved[i - 1] >= need)
    return out


def open_worlds(worlds: list[World], solved_names: set[str]) -> list[bool]:
    """Which worlds are open, given the file names of the solved levels."""
    return open_worlds_by_counts(
        [len(w.levels) for w in worlds], [sum(p.name in solved_names for p in w.levels) for w in worlds]
    )


def original_level_path(folder: Path = PACK_DIR) -> Path:
    """The pack file titled :data:`ORIGINAL_TITLE`."""
    for p in pack_level_paths(folder):
        if Level.load(p).title == ORIGINAL_TITLE:
            return p
    raise GameError(f"the pack in {folder} has no level titled {ORIGINAL_TITLE!r}")
