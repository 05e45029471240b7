"""A level of the player's own, edited from its pause menu: once the editor closes, the level is played
as it was saved (the pack's levels and Endless ones are saved as copies: they stay as they are)."""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol, Sequence, runtime_checkable

from game.core.catalog import LevelEntry, Section
from game.core.errors import GameError
from game.core.level import Level
from game.app.app import App, Scene
from game.app.render import LevelRenderer

#: What the level says when it opens again as saved.
RELOADED = "the level as you saved it"


@runtime_checkable
class ReloadablePlay(Protocol):
    """What opening a level again as saved keeps of the play scene (the play scene satisfies it)."""

    playlist: Sequence[LevelEntry]
    index: int
    renderer: LevelRenderer
    back_label: str
    speed_index: int

    def say(self, message: str, seconds: float = 2.5) -> None:
        """Show a one-line message."""


def saved_version(entry: LevelEntry) -> LevelEntry | None:
    """``entry`` as its file reads now when that is another level than the one in ``entry`` (None: the
    same, not a file of the player's, or no longer readable)."""
    if entry.section != Section.USER or entry.path is None:
        return None
    try:
        level = Level.load(entry.path)
    except (GameError, OSError):
        return None
    return replace(entry, level=level) if level.puzzle_hash != entry.level.puzzle_hash else None


def reopen_saved(app: App, play: Scene, entry: LevelEntry) -> Scene | None:
    """After the editor opened over ``play`` (on ``entry``) has closed: when the file was saved changed,
    ``play`` gives way to the level as saved (a win on the old version would be one on a level that no
    longer exists).  Returns the new play scene (None: nothing changed)."""
    saved = saved_version(entry)
    if saved is None or app.top is not play or not isinstance(play, ReloadablePlay):
        return None
    playlist = list(play.playlist)
    if 0 <= play.index < len(playlist) and playlist[play.index].key == entry.key:
        playlist[play.index] = saved
        scene: Scene = app.make("play", playlist=playlist, index=play.index, renderer=play.renderer,
                                back_label=play.back_label)
    else:
        scene = app.make("play", saved.level, key=saved.key, renderer=play.renderer, back_label=play.back_label)
    app.replace(scene)
    if isinstance(scene, ReloadablePlay):
        scene.speed_index = play.speed_index
        scene.say(RELOADED)
    return scene


__all__ = ["RELOADED", "ReloadablePlay", "reopen_saved", "saved_version"]
