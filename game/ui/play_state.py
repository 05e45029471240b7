"""The play scene's states (here, not in the play scene's module, so other scenes can test them
without importing it)."""

from __future__ import annotations

import enum


class PlayState(str, enum.Enum):
    """Where the play scene is."""

    PLACING = "placing"
    RUNNING = "running"
    PAUSED = "paused"
    WON = "won"
    LOST = "lost"


__all__ = ["PlayState"]
