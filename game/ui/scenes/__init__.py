"""The game's screens: :class:`~game.ui.scenes.menu.MenuScene`,
:class:`~game.ui.scenes.select.LevelSelectScene` and :class:`~game.ui.scenes.play.PlayScene`
(plus the editor and Endless).

Importing this package installs the default play-scene extensions: the AI assistant
(:func:`game.ui.assistant.install`) goes into :data:`game.ui.router.PLAY_SCENE_EXTENSIONS`, so the
play scene and the assistant never import each other.  Scenes open each other by name through the
router (:mod:`game.ui.router`, ``app.open("select")``): no scene module imports another.
"""

from game.ui.assistant import install as _install_assistant
from game.ui.router import PLAY_SCENE_EXTENSIONS

if _install_assistant not in PLAY_SCENE_EXTENSIONS:
    PLAY_SCENE_EXTENSIONS.insert(0, _install_assistant)
