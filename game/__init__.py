"""Lemming Bricks game core: level model, rules, simulators, replays and storage.

Plain Python and numpy only: pygame lives under :mod:`game.ui`, the solvers under
:mod:`ai`.  The reference simulator :func:`game.simulation.simulate` defines the
rules; every other form of them is tested against it.
"""

from game.errors import GameError, IllegalBricksError, LevelFormatError
from game.level import LEFT, RIGHT, Brick, Lemming, Level
from game.rules import check_bricks, format_bricks, parse_bricks
from game.simulation import LemmingTrack, Run, simulate

__all__ = [
    "LEFT",
    "RIGHT",
    "Brick",
    "GameError",
    "IllegalBricksError",
    "LemmingTrack",
    "Level",
    "LevelFormatError",
    "Lemming",
    "Run",
    "check_bricks",
    "format_bricks",
    "parse_bricks",
    "simulate",
]
