"""Titles for generated levels: an adjective and a landmark, drawn from the candidate's seed.

>>> import numpy as np
>>> level_title(np.random.default_rng(0)) == level_title(np.random.default_rng(0))
True
"""

from __future__ import annotations

import numpy as np

ADJECTIVES = (
    "Quiet", "Crooked", "Hidden", "Narrow", "Windy", "Sunken", "Lofty", "Patient", "Busy",
    "Broken", "Careful", "Double", "Forgotten", "Gentle", "Hollow", "Lucky", "Mossy", "Stubborn",
)
PLACES = (
    "Ledges", "Pillars", "Pits", "Steps", "Gap", "Terraces", "Shelves", "Crossing", "Drop",
    "Bridge", "Landing", "Hollow", "Tower", "Walkway", "Overhang", "Cellar", "Attic", "Corner",
)


def level_title(rng: np.random.Generator) -> str:
    """A two-word title such as ``"Mossy Ledges"``."""
    return f"{ADJECTIVES[int(rng.integers(len(ADJECTIVES)))]} {PLACES[int(rng.integers(len(PLACES)))]}"
