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
from typing import Iterable, TypeVar

from game.core.errors import GameError
from game.core.level import Level

#: Folder of the shipped levels.
PACK_DIR = Path(__file__).resolve().parents[2] / "levels"
#: Title of the research notes' level in the pack.
ORIGINAL_TITLE = "The Original"
#: Share of a world's levels to solve before the next world opens ("most of it").
UNLOCK_FRACTION = 0.7
#: Pack file names before the pack was renumbered into worlds -> their names now, so that
#: progress saved under the old names (progress keys are file names) follows its level.
FORMER_NAMES: dict[str, str] = {
    "002_let_them_go.txt": "001_let_them_go.txt",
    "003_down_the_stairs.txt": "002_down_the_stairs.txt",
    "004_about_turn.txt": "003_about_turn.txt",
    "005_mind_the_gap.txt": "004_mind_the_gap.txt",
    "006_stop_right_there.txt": "005_stop_right_there.txt",
    "007_two_at_once.txt": "006_two_at_once.txt",
    "001_original.txt": "007_the_original.txt",
    "010_hidden_shaft.txt": "008_hidden_shaft.txt",
    "012_the_great_cavern.txt": "010_the_great_cavern.txt",
    "009_detour.txt": "011_detour.txt",
    "008_stepping_stones.txt": "012_stepping_stones.txt",
    "018_long_way_down.txt": "013_the_long_way_down.txt",
    "021_deep_mine.txt": "014_deep_mine.txt",
    "013_switchback.txt": "017_switchback.txt",
    "011_twin_drop.txt": "019_twin_drop.txt",
    "014_zig_zag.txt": "020_zig_zag.txt",
    "015_staircase.txt": "022_staircase.txt",
    "019_twin_caverns.txt": "023_twin_caverns.txt",
    "017_crossed_paths.txt": "024_crossed_paths.txt",
    "022_the_grand_bridge.txt": "026_the_grand_bridge.txt",
    "016_three_in_a_row.txt": "028_three_in_a_row.txt",
    "023_meeting_point.txt": "034_meeting_point.txt",
    "020_family_outing.txt": "035_family_outing.txt",
}
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


Record = TypeVar("Record")


def migrate_keys(records: dict[str, Record]) -> int:
    """Move records saved under a :data:`FORMER_NAMES` key to the level's name now; return how many moved.

    A record already kept under the new name wins (the old one is dropped).

    >>> records = {"001_original.txt": "won", "002_let_them_go.txt": "old", "001_let_them_go.txt": "new"}
    >>> migrate_keys(records), sorted(records.items())
    (2, [('001_let_them_go.txt', 'new'), ('007_the_original.txt', 'won')])
    """
    moved = 0
    for old, new in FORMER_NAMES.items():
        if old in records:
            record = records.pop(old)
            records.setdefault(new, record)
            moved += 1
    return moved
