"""Naming left and right when only positions were observed: a lemming on open flat floor walks ahead.

Positions alone cannot tell a physics from its mirror image (:func:`mirrored`: every rule with ahead and
behind swapped) when every lemming starts facing the other way: both move every lemming to the same
cells.  One of the two names has to be chosen, and the choice matters as soon as the rules are used on a
level, whose ``<`` and ``>`` markers do name the directions.

The name is read from the neighbourhoods that look the same from either side (:data:`UNOBSTRUCTED`):
there a lemming's move cannot depend on where walls are, only on the way it faces, so a sideways move
shows which way is *ahead*.  Open flat floor comes first (solid below, free everywhere else): a lemming
standing there defines ahead as the way it keeps moving.  When a physics does not move sideways on open
flat floor, the next such neighbourhood decides, fewest solid cells first; when none moves sideways, the
sideways drift summed over every neighbourhood does, and last a fixed order of the move tables.
:func:`ahead_sign` reads only the moves (not the turns), so two physics that move every lemming alike
get the same name, and a physics and its mirror image get opposite names.

>>> from game.core.physics_catalog import SHIPPED
>>> [ahead_sign(p) for p in (SHIPPED["classic"], mirrored(SHIPPED["classic"]))]
[1, -1]
>>> named_ahead(mirrored(SHIPPED["climber"])) == SHIPPED["climber"]
True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from game.core.physics import CONFIGS, MIRRORED, NEIGHBOURS, Physics, Rule
from game.core.physics_views import views

IntArray = npt.NDArray[np.int64]

#: Open flat floor: the three cells below solid, every other neighbour free.
FLAT_FLOOR: int = sum(1 << NEIGHBOURS.index((1, da)) for da in (-1, 0, 1))


def _unobstructed() -> tuple[int, ...]:
    """The neighbourhoods equal to their mirror image: open flat floor first, then by fewest solid cells."""
    same = [c for c in range(CONFIGS) if MIRRORED[c] == c and c != FLAT_FLOOR]
    return (FLAT_FLOOR, *sorted(same, key=lambda c: (bin(c).count("1"), c)))


#: Neighbourhoods that look the same whichever way a lemming faces, in the order they name ahead.
UNOBSTRUCTED: tuple[int, ...] = _unobstructed()


def mirrored(physics: Physics) -> Physics:
    """``physics`` with left and right named the other way round (it moves lemmings alike when every
    lemming starts facing the other way).

    >>> from game.core.physics_catalog import SHIPPED
    >>> mirrored(mirrored(SHIPPED["climber"])) == SHIPPED["climber"]
    True
    """
    rules = tuple(Rule(tuple(sorted(((dr, -da), solid) for (dr, da), solid in rule.when)),
                       (rule.move[0], -rule.move[1]), rule.turn) for rule in physics.rules)
    return Physics(physics.name, physics.targets_stop, rules)


def ahead_sign(physics: Physics) -> int:
    """``1`` when ``physics`` names ahead as this module says (a lemming on open flat floor walks
    ahead, ...), ``-1`` when its mirror image does, ``0`` when the two move every lemming alike in
    every neighbourhood (then the name does not matter).

    >>> from game.core.physics import CLASSIC
    >>> back = Physics("back", True, (Rule((((0, -1), False),), (0, -1)),))
    >>> ahead_sign(CLASSIC), ahead_sign(back), ahead_sign(Physics("still", True, ()))
    (1, -1, 0)
    """
    table = views(physics).table
    ahead = table[:, 1].astype(np.int64)
    for config in UNOBSTRUCTED:
        if ahead[config]:
            return 1 if ahead[config] > 0 else -1
    drift = int(ahead.sum())
    if drift:
        return 1 if drift > 0 else -1
    own = [(int(table[c, 0]), int(ahead[c])) for c in range(CONFIGS)]
    other = [(int(table[MIRRORED[c], 0]), -int(ahead[MIRRORED[c]])) for c in range(CONFIGS)]
    if own == other:
        return 0
    return 1 if own > other else -1


def named_ahead(physics: Physics) -> Physics:
    """``physics`` or its mirror image, whichever :func:`ahead_sign` names ahead (``physics`` itself when
    the name does not matter)."""
    return mirrored(physics) if ahead_sign(physics) < 0 else physics


__all__ = ["FLAT_FLOOR", "UNOBSTRUCTED", "ahead_sign", "mirrored", "named_ahead"]
