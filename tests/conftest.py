"""Shared fixtures: the shipped levels, and for every test headless pygame and a fresh data folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from game.core.level import Level
from game.core.pack import original_level_path, pack_level_paths

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

REPO = Path(__file__).resolve().parent.parent
ORIGINAL_SHARED = REPO.parent / "shared" / "levels" / "original_level.txt"
#: The Original in the pack (found by its title: the pack opens with the tutorials).
ORIGINAL_PACK = original_level_path()
#: Its 0-based index in the pack (playlists) and its 1-based number (``play 7``, ``solve 7``).
ORIGINAL_INDEX = pack_level_paths().index(ORIGINAL_PACK)
ORIGINAL_NUMBER = str(ORIGINAL_INDEX + 1)
ORIGINAL_KEY = ORIGINAL_PACK.name

#: The six minimum solutions of the original level.
ORIGINAL_SOLUTIONS = {
    ((2, 1), (5, 4), (6, 6)),
    ((2, 1), (6, 4), (6, 6)),
    ((4, 1), (5, 4), (6, 6)),
    ((4, 1), (6, 4), (6, 6)),
    ((5, 1), (5, 4), (6, 6)),
    ((5, 1), (6, 4), (6, 6)),
}


@pytest.fixture
def original() -> Level:
    """The original example level (from the pack)."""
    return Level.load(ORIGINAL_PACK)


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test writes the player's files under a fresh ``XDG_DATA_HOME``."""
    home = tmp_path / "xdg"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))  # settings.json
    return home
