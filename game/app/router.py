"""The scene router: scenes are opened by name (``app.open("select")``), so no scene module imports
another, and the registries add-ons extend (title menu entries, play-scene extensions).

:data:`SCENES` maps a name to ``"module:Class"``; the module is imported the first time the name is
opened (as :data:`ai.SOLVERS` does for solvers).  A new screen adds one line here, or calls
:func:`register_scene` from its own package.  The class's constructor takes the app first, then the
arguments given to ``app.open(name, ...)``.

>>> scene_class("menu").__name__, "play" in SCENES
('MenuScene', True)
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

#: Scene name -> ``"module:Class"`` (or the class itself, once registered by an add-on).
SCENES: dict[str, Any] = {
    "menu": "game.app.scenes.menu:MenuScene",
    "select": "game.app.scenes.select:LevelSelectScene",
    "play": "game.app.scenes.play:PlayScene",
    "pause": "game.app.scenes.pause:PauseScene",
    "help": "game.app.scenes.pause:HelpScene",
    "settings": "game.app.scenes.settings:SettingsScene",
    "keys": "game.app.scenes.keys:KeysScene",
    "share_code": "game.app.scenes.share:ShareCodeScene",
    "paste_code": "game.app.scenes.share:PasteCodeScene",
    "replays": "game.app.scenes.replays:ReplayScene",
    "endless": "game.app.scenes.endless:EndlessScene",
    "editor": "game.app.scenes.editor:EditorScene",
    "learned": "game.app.scenes.learned:LearnedScene",
}

#: ``(label, factory)`` entries of the title menu after "Levels" (see :mod:`game.app.scenes.menu`);
#: the factory builds the scene to push, or returns None to do nothing.
MENU_ENTRIES: list[tuple[str, Callable[[Any], Any]]] = []  # (label, app -> Scene | None)

#: Factories called once with every new play scene; each returns a
#: :class:`game.app.play_extension.PlayExtension` (the assistant, other add-ons) or None.
PLAY_SCENE_EXTENSIONS: list[Callable[[Any], Any]] = []


def register_scene(name: str, target: Any) -> None:
    """Make ``name`` open ``target`` (a ``"module:Class"`` string or a Scene class)."""
    SCENES[name] = target


def scene_class(name: str) -> Any:
    """The Scene class registered as ``name`` (its module imported on first use); KeyError if unknown."""
    target = SCENES[name]
    if isinstance(target, str):
        module, _, attr = target.partition(":")
        target = getattr(importlib.import_module(module), attr)
        SCENES[name] = target
    return target


__all__ = ["MENU_ENTRIES", "PLAY_SCENE_EXTENSIONS", "SCENES", "register_scene", "scene_class"]
