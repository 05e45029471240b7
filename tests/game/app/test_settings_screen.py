"""The settings screen, driven by posted key presses: the window size row tells the saved size and, when
the window is not that size, the real one, and the row stays inside its panel."""

from __future__ import annotations

import pygame
import pytest

from game.app import hud
from game.app.app import App
from game.app.scenes.settings import ROWS, WINDOW_SIZE_ROW, SettingsScene
from tests.game.app.conftest import press


def window_size_row(app: App) -> tuple[SettingsScene, int]:
    """The settings screen with the cursor on the Window size row."""
    scene = app.push(SettingsScene(app))
    assert isinstance(scene, SettingsScene)
    row = ROWS.index(WINDOW_SIZE_ROW)
    for _ in range(row):
        press(app, pygame.K_DOWN)
    assert scene.cursor == row
    return scene, row


def test_the_window_size_row_adds_the_real_size_when_the_window_was_fitted_to_the_desktop(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    scene, row = window_size_row(app)
    assert scene.value_text(WINDOW_SIZE_ROW) == "1280 x 800"  # the window is the saved size
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(800, 500)])
    press(app, pygame.K_RIGHT)  # 1280 x 800 -> 1600 x 1000, on a desktop of 800 x 500
    assert app.settings.window_size == (1600, 1000) and app.screen.get_size() == (800, 500)
    assert scene.value_text(WINDOW_SIZE_ROW) == "1600 x 1000 (now 800 x 500)"
    rect = scene._rects(app.screen.get_size())[row]
    label, shown, size = scene.row_texts(row, rect)
    assert shown == "<  1600 x 1000 (now 800 x 500)  >", "shown whole"
    assert hud.text(label, size).get_width() + hud.text(shown, size).get_width() + 48 <= rect.width
    press(app, pygame.K_LEFT)  # back to 1280 x 800: still larger than the desktop
    assert scene.value_text(WINDOW_SIZE_ROW) == "1280 x 800 (now 800 x 500)"
    app.change_settings(fullscreen=True)  # full screen: the window size is not in use
    assert scene.value_text(WINDOW_SIZE_ROW) == "1280 x 800"
