"""The play scene's own line under the HUD (why a click was refused, the speed...): how long it stays.

A line said with a :class:`~game.app.play_extension.Tie` goes as soon as what it describes changes (the
bricks, or where the run is), before its time is up: "no bricks left" leaves with the undo that frees one.
"""

from __future__ import annotations

from typing import Protocol

from game.app.play_extension import Situated, Tie


class MessageHost(Situated, Protocol):
    """The play scene's line: its text, the seconds it has left and its tie (None: only its time ends it)."""

    message: str
    message_time: float
    message_tie: Tie | None


def age_message(host: MessageHost, dt: float) -> None:
    """Count ``dt`` seconds off the line; clear it when its time is up or what it describes changed."""
    if not host.message:
        return
    host.message_time -= dt
    if host.message_time <= 0 or (host.message_tie is not None and not host.message_tie.true_on(host)):
        host.message, host.message_time, host.message_tie = "", 0.0, None


__all__ = ["MessageHost", "age_message"]
