"""The pure core of Lemming Bricks: level model, rules, simulators, replays, storage and the puzzle models.

Plain Python and numpy only: no pygame, no :mod:`ai`.  The reference simulator
:func:`game.core.simulation.simulate` defines the rules; every other form of them is tested against it.
"""

from game.core.errors import GameError, IllegalBricksError, LevelFormatError
from game.core.level import LEFT, RIGHT, Brick, Lemming, Level
from game.core.rules import check_bricks, format_bricks, parse_bricks
from game.core.simulation import LemmingTrack, Run, simulate

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
