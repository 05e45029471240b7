"""The game's screens: :class:`~game.app.scenes.menu.MenuScene`,
:class:`~game.app.scenes.select.LevelSelectScene` and :class:`~game.app.scenes.play.PlayScene`
(plus the editor and Endless).

Importing this package installs the default play-scene extensions: the AI assistant
(:func:`game.app.assistant.install`) goes into :data:`game.app.router.PLAY_SCENE_EXTENSIONS`, so the
play scene and the assistant never import each other.  Scenes open each other by name through the
router (:mod:`game.app.router`, ``app.open("select")``): no scene module imports another.
"""

from game.app.assistant import install as _install_assistant
from game.app.router import PLAY_SCENE_EXTENSIONS

if _install_assistant not in PLAY_SCENE_EXTENSIONS:
    PLAY_SCENE_EXTENSIONS.insert(0, _install_assistant)
