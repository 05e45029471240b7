"""The colours that tell a good mark from a bad one on the side puzzles' boards (a proved-safe cell or a hint; a
proved mine or a wrong cell), in the player's palette (settings: palette), and whether shapes tell them apart too.

The colour-blind pair is Okabe-Ito sky blue and vermillion: told apart with the common colour-vision deficiencies,
where green and red are not.  Minesweeper (:mod:`game.app.puzzles.mines_view`) and Reverse Life
(:mod:`game.app.puzzles.life_view`) both draw with these.

>>> pair(Palette.COLOURBLIND).good == SKY_BLUE, pair(Palette.STANDARD).shapes
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass

from game.app import hud
from game.core.settings import Palette

RGB = tuple[int, int, int]

#: Okabe-Ito sky blue and vermillion.
SKY_BLUE: RGB = (86, 180, 233)
VERMILLION: RGB = (213, 94, 0)


@dataclass(frozen=True)
class MarkPair:
    """The colours of good and bad marks, their names in the legends, and whether a shape marks them too."""

    good: RGB
    bad: RGB
    shapes: bool  #: a bad mark has a shape of its own too (not told by its colour alone)
    good_word: str
    bad_word: str


#: Green and red (settings: palette standard).
STANDARD_PAIR = MarkPair(hud.GREEN, hud.RED, False, "green", "red")
#: Sky blue and vermillion, with shapes (settings: palette colourblind).
COLOURBLIND_PAIR = MarkPair(SKY_BLUE, VERMILLION, True, "blue", "orange")


def pair(palette: Palette) -> MarkPair:
    """The marks' colours of the player's ``palette``."""
    return COLOURBLIND_PAIR if palette == Palette.COLOURBLIND else STANDARD_PAIR


__all__ = ["COLOURBLIND_PAIR", "MarkPair", "RGB", "SKY_BLUE", "STANDARD_PAIR", "VERMILLION", "pair"]
