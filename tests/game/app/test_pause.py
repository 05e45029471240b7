"""The pause menu over the play scene, driven by posted key presses: what it shows of the level below and
how its entries read."""

from __future__ import annotations

import pygame

from game.app import hud
from game.app.app import App
from game.core.catalog import pack_entries
from game.core.level import Level
from game.app.scenes.menu import MenuScene
from game.app.scenes.pause import PauseChoice, PauseScene
from game.app.scenes.play import BASE_FPS, PlayScene, PlayState
from tests.conftest import ORIGINAL_INDEX
from tests.game.app.conftest import press


def red_pixels(surface: pygame.Surface, rows: range) -> int:
    """How many pixels of ``rows`` have the lost panel's edge colour."""
    return sum(surface.get_at((x, y))[:3] == hud.RED for x in range(0, surface.get_width(), 2) for y in rows)


def test_the_pause_menu_over_a_lost_run_hides_the_result_panel_whole(app: App) -> None:
    scene = PlayScene(app, playlist=pack_entries(), index=ORIGINAL_INDEX)
    app.push(scene)
    app.run_frames(1)
    press(app, pygame.K_SPACE, unicode=" ")
    app.run_frames(int(scene.level.frames / BASE_FPS * 60) + 10)
    assert scene.state == PlayState.LOST
    size = app.screen.get_size()
    rows = range(hud.TOP_BAR + 40, size[1] - hud.BOTTOM_BAR - 60)  # under the top bar, above the timeline
    played = pygame.Surface(size)
    scene.draw(played)
    assert red_pixels(played, rows) > 100  # the "Not quite..." panel's edge
    press(app, pygame.K_ESCAPE)
    pause = app.top
    assert isinstance(pause, PauseScene)
    under_menu = pygame.Surface(size)
    scene.draw(under_menu)  # as the pause menu draws the level under it
    assert red_pixels(under_menu, rows) < red_pixels(played, rows) // 10
    press(app, pygame.K_ESCAPE)  # resume: the panel is back
    assert app.top is scene
    again = pygame.Surface(size)
    scene.draw(again)
    assert red_pixels(again, rows) == red_pixels(played, rows)


def test_back_to_endless_reads_as_the_mode_is_named(app: App) -> None:
    app.push(MenuScene(app))
    level = Level.from_rows(["> ..T", "XX.XX"], frames=9, budget=1)
    for back_label, entry in (("endless", "Back to Endless"), ("editor", "Back to editor"),
                              ("levels", "Level select")):
        scene = app.push(PlayScene(app, level, key=None, title="Gap", back_label=back_label))
        app.run_frames(1)
        for _ in range(3):  # the first Esc may close the level's title card
            press(app, pygame.K_ESCAPE)
            if isinstance(app.top, PauseScene):
                break
        pause = app.top
        assert isinstance(pause, PauseScene)
        assert pause.label(PauseChoice.LEVELS) == entry
        press(app, pygame.K_ESCAPE)
        assert app.top is scene
        app.pop()
