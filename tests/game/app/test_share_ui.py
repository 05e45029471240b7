"""Sharing in the game: the code box from the pause menu and level select, and "Play a code"."""

from __future__ import annotations

from pathlib import Path

import pygame

from game.core.catalog import pack_entries
from game.core.level import Level
from game.core.share import encode
from game.app.app import App
from game.app.scenes.menu import MenuScene
from game.app.scenes.pause import PauseChoice, PauseScene
from game.app.scenes.play import PlayScene
from game.app.scenes.play_draw import won_lines
from game.app.scenes.select import LevelSelectScene
from game.app.scenes.share import MENU_LABEL, PasteCodeScene, ShareCodeScene
from tests.game.app.conftest import press, type_text

REPO = Path(__file__).resolve().parents[3]


def test_pause_menu_shows_the_level_code(app: App) -> None:
    scene = app.push(PlayScene(app, playlist=pack_entries(), index=6))
    assert isinstance(scene, PlayScene)
    press(app, pygame.K_ESCAPE)
    pause = app.top
    assert isinstance(pause, PauseScene)
    for _ in range(pause.choices.index(PauseChoice.SHARE)):
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    box = app.top
    assert isinstance(box, ShareCodeScene) and box.code == encode(scene.level) and len(box.code) <= 64
    app.run_frames(1)  # drawn over the pause menu without error
    press(app, pygame.K_ESCAPE)
    assert app.top is pause


def test_level_select_c_shows_the_selected_levels_code(app: App) -> None:
    select = app.push(LevelSelectScene(app, entries=pack_entries()))
    assert isinstance(select, LevelSelectScene)
    press(app, pygame.K_c, unicode="c")
    box = app.top
    assert isinstance(box, ShareCodeScene) and box.level == select.entries[select.cursor].level


def test_play_a_code_from_the_title_menu(app: App) -> None:
    assert MENU_LABEL in [entry.label for entry in app.registry.menu_entries]
    menu = app.push(MenuScene(app))
    assert isinstance(menu, MenuScene)
    labels = [label for label, _ in menu.items()]
    for _ in range(labels.index(MENU_LABEL)):
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    paste = app.top
    assert isinstance(paste, PasteCodeScene)
    type_text(app, "LBbad")
    press(app, pygame.K_RETURN)
    assert app.top is paste and paste.error  # one clear message, still in the box
    for _ in range(5):
        press(app, pygame.K_BACKSPACE)
    assert paste.typed == ""
    original = Level.load(REPO / "levels" / "007_the_original.txt")
    code = encode(original)
    type_text(app, code)
    assert paste.typed == code
    press(app, pygame.K_RETURN)
    play = app.top
    assert isinstance(play, PlayScene) and play.level == original and play.key is not None
    assert play.key.startswith("code:") and play.badge_label() == ""


def test_ctrl_v_without_a_clipboard_says_so(app: App) -> None:
    paste = app.push(PasteCodeScene(app))
    assert isinstance(paste, PasteCodeScene)
    press(app, pygame.K_v, mod=pygame.KMOD_CTRL)
    assert paste.typed == "" or paste.typed.startswith("LB") or paste.error


def test_a_level_from_a_code_won_with_ai_help_does_not_point_to_the_level_list(app: App) -> None:
    original = Level.load(REPO / "levels" / "001_let_them_go.txt")
    paste = app.push(PasteCodeScene(app))
    assert isinstance(paste, PasteCodeScene)
    type_text(app, encode(original))
    press(app, pygame.K_RETURN)
    play = app.top
    assert isinstance(play, PlayScene) and play.key is not None and play.key.startswith("code:")
    play.assisted = True  # as after an AI answer was applied
    press(app, pygame.K_SPACE, unicode=" ", frames=120)
    texts = [text for text, _ in won_lines(play)]
    assert "solved with AI help" in texts  # the code's levels have no card in the level list to mark
