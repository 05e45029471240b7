"""The level pack shipped in ``levels/`` (ordered by file name)."""

from __future__ import annotations

from pathlib import Path

#: Folder of the shipped levels.
PACK_DIR = Path(__file__).resolve().parent.parent / "levels"


def pack_level_paths(folder: Path = PACK_DIR) -> list[Path]:
    """The pack's level files in play order (sorted by name, ``*.txt``)."""
    return sorted(p for p in folder.glob("*.txt") if p.is_file())
