"""What the assistant needs from the scene it is installed on: :class:`AssistantHost`.

The play scene (:class:`game.app.scenes.play.PlayScene`) satisfies this protocol; the assistant never
imports the play scene, so the two have no import cycle.  The assistant writes nothing into the scene:
the scene calls it as a :class:`~game.app.play_extension.PlayExtension` and reads its marks.
"""

from __future__ import annotations

from typing import Protocol, Sequence

from game.core.level import Brick, Level
from game.app.play_extension import RGBA, HostApp
from game.app.render import LevelRenderer


class AssistantHost(Protocol):
    """A scene that can host the assistant (see the module docstring)."""

    @property
    def level(self) -> Level:
        """The level played."""

    @property
    def key(self) -> str | None:
        """The level's progress key (None: hints are not recorded)."""

    @property
    def app(self) -> HostApp:
        """The app (its progress store)."""

    @property
    def renderer(self) -> LevelRenderer:
        """The board renderer (the relaxed overlay draws with its colours)."""

    @property
    def bricks(self) -> tuple[Brick, ...]:
        """The bricks on the board now."""

    def apply_bricks(self, bricks: Sequence[Brick]) -> bool:
        """Put a brick set on the board (on the undo chain); True if it changed."""

    def toggle_run(self) -> None:
        """Release the lemmings (Space)."""


__all__ = ["AssistantHost", "HostApp", "RGBA"]
