"""Situations a player can picture (an edge, a step, a high wall, open air): which of them the runs showed.

The learner sees neighbourhood configurations; a situation is a pattern of cells around a lemming facing
ahead (some solid, some free, the rest anything).  A situation none of the seen configurations matches is
one the AI cannot be sure of yet: its rules only guess what a lemming does there.

>>> from game.core.physics import CONFIGS
>>> unseen_situations(range(CONFIGS))[:1]
['at the edge of a drop']
>>> unseen_situations([])
[]
"""

from __future__ import annotations

from typing import Iterable

from game.core.physics import CONFIGS, Offset, config_solid

#: Each situation: how it is said, and the cells it fixes (``True``: solid, ``False``: free).
SITUATIONS: tuple[tuple[str, tuple[tuple[Offset, bool], ...]], ...] = (
    ("at the edge of a drop", (((1, 0), True), ((0, 1), False), ((1, 1), False))),
    ("facing a step one cell high", (((1, 0), True), ((0, 1), True), ((-1, 1), False), ((-1, 0), False))),
    ("facing a step under a low ceiling", (((1, 0), True), ((0, 1), True), ((-1, 1), False), ((-1, 0), True))),
    ("facing a wall two cells high", (((1, 0), True), ((0, 1), True), ((-1, 1), True))),
    ("falling with room ahead", (((1, 0), False), ((0, 1), False), ((1, 1), False))),
    ("falling beside a wall", (((1, 0), False), ((0, 1), True))),
)


def unseen_situations(unseen: Iterable[int]) -> list[str]:
    """The situations none of the seen configurations (all but ``unseen``) matches, in :data:`SITUATIONS` order."""
    skip = set(int(c) for c in unseen)
    seen = [c for c in range(CONFIGS) if c not in skip]
    return [name for name, pattern in SITUATIONS
            if not any(all(config_solid(c, offset) == want for offset, want in pattern) for c in seen)]


__all__ = ["SITUATIONS", "unseen_situations"]
