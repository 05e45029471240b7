"""Shared fixtures: paths to the shipped levels."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.level import Level

REPO = Path(__file__).resolve().parent.parent
ORIGINAL_SHARED = REPO.parent / "shared" / "levels" / "original_level.txt"
ORIGINAL_PACK = REPO / "levels" / "001_original.txt"

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
