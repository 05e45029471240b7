"""The game's screens: :class:`~game.app.scenes.menu.MenuScene`,
:class:`~game.app.scenes.select.LevelSelectScene` and :class:`~game.app.scenes.play.PlayScene`
(plus the editor, Endless and the smaller screens).

Scenes open each other by name through the app's registry (``app.open("select")``, built by the
composition root :mod:`game.app.compose`): no scene module imports another.
"""
