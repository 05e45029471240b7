"""Getting to the editor and to the player's levels: E in the level select, "Edit level" in the pause menu,
U on the title and in the level select, and the Open list (the player's levels first, type to search)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pygame
import pytest

from game.app.app import App
from game.app.scenes.dialogs import OpenPrompt
from game.app.scenes.editor import EditorScene
from game.app.scenes.menu import MenuScene
from game.app.scenes.pause import PauseChoice, PauseScene
from game.app.scenes.play import PlayScene
from game.app.play_reload import RELOADED
from game.app.scenes.play_draw import intro_heading, intro_title
from game.app.scenes.select import LevelSelectScene
from game.core.catalog import Section, pack_entries
from game.core.editor_model import EditorModel
from game.core.level import Level
from game.core.storage import user_levels_dir
from tests.game.app.conftest import CTRL, press, press_save, type_text


@pytest.fixture(autouse=True)
def close_scenes(app: App) -> Iterator[None]:
    """Pop every scene after a test, so analysis workers stop."""
    yield
    while app.scenes:
        app.pop()


def letter(app: App, ch: str) -> None:
    press(app, getattr(pygame, f"K_{ch.lower()}"), unicode=ch)


def save_by_keys(app: App, editor: EditorScene) -> None:
    """Ctrl+S, then Enter on whatever the save asks (its title)."""
    press_save(app, CTRL)
    for _ in range(3):
        if app.top is editor:
            break
        press(app, pygame.K_RETURN)
    assert app.top is editor and not editor.model.dirty, editor.message


def user_level(title: str, name: str) -> Path:
    """A level of the player's own, saved as the editor saves it."""
    model = EditorModel.from_level(pack_entries()[0].level)
    model.set_title(title)
    folder = user_levels_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = model.save(folder)
    return path.rename(folder / name)


def open_select(app: App) -> LevelSelectScene:
    app.push(MenuScene(app))
    select = app.push(LevelSelectScene(app))
    assert isinstance(select, LevelSelectScene)
    app.run_frames(1)
    return select


# ---------------------------------------------------------------- level select
def test_e_in_the_level_select_edits_a_copy_of_a_pack_level(app: App) -> None:
    select = open_select(app)
    select.cursor = 0
    pack_level = select.entries[0]
    letter(app, "e")
    editor = app.top
    assert isinstance(editor, EditorScene)
    assert editor.model.to_level().grid == pack_level.level.grid and editor.model.path is None
    press(app, pygame.K_RIGHTBRACKET, unicode="]")  # B + 1: a change to save
    save_by_keys(app, editor)
    saved = list(user_levels_dir().glob("*.txt"))
    assert len(saved) == 1 and Level.load(saved[0]).budget == pack_level.level.budget + 1
    assert pack_level.path is not None and Level.load(pack_level.path) == pack_level.level  # the pack is unchanged
    press(app, pygame.K_ESCAPE)
    assert app.top is select
    mine = [e for e in select.entries if e.section == Section.USER]
    assert [e.path for e in mine] == saved  # listed under "Your levels" at once, with the cursor on it
    assert select.entries[select.cursor] == mine[0]


def test_e_on_one_of_your_levels_edits_that_file(app: App) -> None:
    path = user_level("Mine", "mine.txt")
    select = open_select(app)
    letter(app, "u")
    assert select.entries[select.cursor].path == path
    letter(app, "e")
    editor = app.top
    assert isinstance(editor, EditorScene) and editor.model.path == path
    press(app, pygame.K_RIGHTBRACKET, unicode="]")
    save_by_keys(app, editor)
    assert [p.name for p in user_levels_dir().iterdir()] == ["mine.txt"]  # saved in place, no copy
    assert Level.load(path).budget == pack_entries()[0].level.budget + 1


def test_u_finds_your_levels_from_the_title_and_the_level_select(app: App) -> None:
    select = open_select(app)
    start = select.cursor
    letter(app, "u")  # none yet: the cursor stays and a note says how to make one
    assert select.cursor == start and any("Editor" in str(text) for text, _ in app.toasts)
    while app.scenes:
        app.pop()
    path = user_level("Mine", "mine.txt")
    app.running = True
    menu = app.push(MenuScene(app))
    letter(app, "u")
    select = app.top
    assert isinstance(select, LevelSelectScene) and app.scenes[-2] is menu
    assert select.entries[select.cursor].path == path and select.entries[select.cursor].section == Section.USER


# ---------------------------------------------------------------- pause menu
def pause_menu(app: App) -> PauseScene:
    press(app, pygame.K_ESCAPE)
    pause = app.top
    assert isinstance(pause, PauseScene)
    return pause


def choose(app: App, pause: PauseScene, choice: PauseChoice) -> None:
    for _ in range(pause.choices.index(choice)):
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)


def test_edit_from_the_pause_menu_and_back_to_the_level(app: App) -> None:
    entries = pack_entries()
    app.push(MenuScene(app))
    play = app.push(PlayScene(app, playlist=entries, index=4))
    app.run_frames(1)
    choose(app, pause_menu(app), PauseChoice.EDIT)
    editor = app.top
    assert isinstance(editor, EditorScene) and app.scenes[-2] is play
    assert editor.model.to_level().grid == entries[4].level.grid and editor.model.path is None
    assert "copy" in editor.message
    press(app, pygame.K_ESCAPE)  # nothing changed: straight back to the level
    assert app.top is play


def test_a_level_saved_from_the_pause_menus_editor_is_listed_back_in_the_level_select(app: App) -> None:
    select = open_select(app)
    select.cursor = 3
    press(app, pygame.K_RETURN)
    play = app.top
    assert isinstance(play, PlayScene) and play.key == select.entries[3].key
    choose(app, pause_menu(app), PauseChoice.EDIT)
    editor = app.top
    assert isinstance(editor, EditorScene)
    press(app, pygame.K_RIGHTBRACKET, unicode="]")  # B + 1: a change to save
    save_by_keys(app, editor)
    saved = list(user_levels_dir().glob("*.txt"))
    assert len(saved) == 1
    press(app, pygame.K_ESCAPE)  # saved: straight back to the level
    assert app.top is play
    choose(app, pause_menu(app), PauseChoice.LEVELS)
    assert app.top is select
    assert [e.path for e in select.entries if e.section == Section.USER] == saved
    assert select.cursor == 3, "the level played last"
    letter(app, "u")
    assert select.entries[select.cursor].path == saved[0]


def test_your_level_edited_from_its_pause_menu_is_played_as_saved(app: App) -> None:
    path = user_level("Mine", "mine.txt")
    select = open_select(app)
    letter(app, "u")
    press(app, pygame.K_RETURN)
    play = app.top
    assert isinstance(play, PlayScene) and play.entry is not None and play.entry.path == path
    choose(app, pause_menu(app), PauseChoice.EDIT)
    editor = app.top
    assert isinstance(editor, EditorScene) and editor.model.path == path
    press(app, pygame.K_EQUALS, unicode="+")  # one frame more
    save_by_keys(app, editor)
    press(app, pygame.K_ESCAPE)
    again = app.top
    assert isinstance(again, PlayScene) and again is not play and app.scenes[-2] is select
    assert again.level == Level.load(path) and again.level.frames == play.level.frames + 1
    assert again.entry is not None and again.entry.path == path and again.message == RELOADED
    choose(app, pause_menu(app), PauseChoice.EDIT)  # closed with nothing saved: the same scene
    press(app, pygame.K_ESCAPE)
    assert app.top is again


def test_a_play_test_offers_no_edit_entry(app: App) -> None:
    app.push(MenuScene(app))
    editor = app.push(EditorScene(app, EditorModel.from_level(pack_entries()[0].level)))
    assert isinstance(editor, EditorScene)
    press(app, pygame.K_SPACE, unicode=" ")
    assert isinstance(app.top, PlayScene)
    pause = pause_menu(app)
    assert PauseChoice.EDIT not in pause.choices and pause.label(PauseChoice.LEVELS) == "Back to editor"


def test_a_play_tests_title_card_says_play_test_once(app: App) -> None:
    app.push(MenuScene(app))
    level = pack_entries()[0].level
    editor = app.push(EditorScene(app, EditorModel.from_level(level)))
    assert isinstance(editor, EditorScene)
    press(app, pygame.K_SPACE, unicode=" ")
    play = app.top
    assert isinstance(play, PlayScene)
    assert play.title == f"Play-test: {level.title}"  # the top bar says what this is
    assert (intro_heading(play), intro_title(play)) == ("Play-test", level.title)  # the card: once, over the title


# ---------------------------------------------------------------- the Open list
def test_the_open_list_shows_your_levels_first_and_types_to_search(app: App) -> None:
    user_level("Zigzag Mine", "zigzag_mine.txt")
    app.push(MenuScene(app))
    editor = app.push(EditorScene(app, EditorModel.new(6, 8)))
    assert isinstance(editor, EditorScene)
    press(app, pygame.K_o, mod=CTRL)
    prompt = app.top
    assert isinstance(prompt, OpenPrompt)
    assert prompt.entries[0].section == Section.USER and prompt.entries[0].title == "Zigzag Mine"
    assert {e.section for e in prompt.entries[1:]} == {Section.PACK}
    wanted = pack_entries()[6]
    type_text(app, wanted.title.upper())  # any case
    assert wanted in prompt.entries and all(wanted.title.lower() in e.title.lower() for e in prompt.entries)
    letter(app, "m")  # typed letters search: M does not mute
    assert not app.settings.muted and prompt.query.endswith("m")
    press(app, pygame.K_BACKSPACE)
    type_text(app, "qqqq")
    assert prompt.entries == []
    press(app, pygame.K_ESCAPE)  # clears the search ...
    assert app.top is prompt and prompt.query == "" and len(prompt.entries) == len(prompt.every_level)
    type_text(app, wanted.title)
    press(app, pygame.K_RETURN)  # ... and Enter opens the first level it keeps
    assert app.top is editor and editor.model.to_level().grid == wanted.level.grid
    press(app, pygame.K_o, mod=CTRL)
    press(app, pygame.K_ESCAPE)  # no search: Esc cancels
    assert app.top is editor
