"""The game's screens: :class:`~game.ui.scenes.menu.MenuScene`,
:class:`~game.ui.scenes.select.LevelSelectScene` and :class:`~game.ui.scenes.play.PlayScene`."""
