"""The text fields of the game's dialogs, driven by posted key presses: a default text is selected, so the
first character typed replaces it and Backspace erases it; Ctrl+A selects all the text, and the footers and
the F1 pages say so."""

from __future__ import annotations

from typing import Iterator, Sequence

import pygame
import pytest

from game.app import hud
from game.app.app import App
from game.app.compose import build_app
from game.app.display import FixedClock
from game.app.scenes.dialogs import OpenPrompt, TextPrompt
from game.app.scenes.editor import EditorScene
from game.app.scenes.menu import MenuScene
from game.app.scenes.share import PasteCodeScene
from game.app.text_field import SELECTION
from game.core.editor_model import EditorModel
from game.core.storage import user_levels_dir
from tests.game.app.conftest import CTRL, click, press, press_save, type_text


@pytest.fixture(autouse=True)
def close_scenes(app: App) -> Iterator[None]:
    """Pop every scene after a test, so the editor's workers stop."""
    yield
    while app.scenes:
        app.pop()


def save_prompt(app: App) -> TextPrompt:
    """The editor's "Save level" prompt for a new, untitled level with a lemming and an exit."""
    app.push(MenuScene(app))
    editor = app.push(EditorScene(app, EditorModel.new(6, 8)))
    assert isinstance(editor, EditorScene)
    app.run_frames(1)
    press(app, pygame.K_3, unicode="3")
    click(app, editor.layout().cell_center(4, 2))
    press(app, pygame.K_4, unicode="4")
    click(app, editor.layout().cell_center(4, 6))
    press_save(app, CTRL)
    prompt = app.top
    assert isinstance(prompt, TextPrompt) and prompt.title == "Save level" and prompt.text == "Untitled"
    return prompt


def test_typing_replaces_the_default_title_and_the_level_is_saved_under_it(app: App) -> None:
    prompt = save_prompt(app)
    type_text(app, "Walk Over")
    assert prompt.text == "Walk Over"
    press(app, pygame.K_RETURN)
    assert (user_levels_dir() / "walk_over.txt").is_file()


def test_one_backspace_erases_the_default_title(app: App) -> None:
    prompt = save_prompt(app)
    press(app, pygame.K_BACKSPACE)
    assert prompt.text == ""
    type_text(app, "Mine")
    assert prompt.text == "Mine"


def test_a_cursor_key_keeps_the_default_and_ctrl_a_selects_all_again(app: App) -> None:
    prompt = save_prompt(app)
    press(app, pygame.K_LEFT)  # the selection ends; the cursor goes to its start
    type_text(app, "My ")
    assert prompt.text == "My Untitled"
    press(app, pygame.K_a, mod=CTRL)
    type_text(app, "Fresh")
    assert prompt.text == "Fresh"
    press(app, pygame.K_a, mod=CTRL)
    press(app, pygame.K_DELETE)
    assert prompt.text == ""


def test_the_selected_text_is_shaded(app: App) -> None:
    prompt = save_prompt(app)

    def shaded() -> bool:
        surface = pygame.Surface(app.screen.get_size())
        prompt.draw(surface)
        field = prompt.box(surface.get_size())
        return any(surface.get_at((x, y))[:3] == SELECTION
                   for x in range(field.left, field.right, 2) for y in range(field.top, field.bottom, 2))

    assert shaded()
    press(app, pygame.K_END)
    assert not shaded()


def test_ctrl_a_in_the_open_lists_search_lets_the_next_key_replace_it(app: App) -> None:
    app.push(MenuScene(app))
    app.push(EditorScene(app, EditorModel.new(6, 8)))
    press(app, pygame.K_o, mod=CTRL)
    prompt = app.top
    assert isinstance(prompt, OpenPrompt)
    type_text(app, "qqqq")
    assert prompt.query == "qqqq" and prompt.entries == []
    press(app, pygame.K_a, mod=CTRL)
    assert prompt.query == "qqqq", "selected, not changed"
    type_text(app, "o")
    assert prompt.query == "o" and prompt.entries
    press(app, pygame.K_a, mod=CTRL)
    press(app, pygame.K_BACKSPACE)
    assert prompt.query == "" and len(prompt.entries) == len(prompt.every_level)


def test_ctrl_a_in_the_code_box_lets_a_paste_replace_the_code(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    paste = app.push(PasteCodeScene(app))
    assert isinstance(paste, PasteCodeScene)
    type_text(app, "LBbad")
    monkeypatch.setattr("game.app.scenes.share.paste_from_clipboard", lambda: "LBgood")
    press(app, pygame.K_a, mod=CTRL)
    press(app, pygame.K_v, mod=CTRL)
    assert paste.typed == "LBgood", "the paste replaced the selected code"
    press(app, pygame.K_a, mod=CTRL)
    press(app, pygame.K_BACKSPACE)
    assert paste.typed == ""


def drawn_texts(app: App, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, pygame.Rect]]:
    """Every text the top scene of ``app`` draws, with where it went."""
    drawn: list[tuple[str, pygame.Rect]] = []
    real = hud.blit_text

    def spy(surface: pygame.Surface, text: str, *args: object, **kwargs: object) -> pygame.Rect:
        rect = real(surface, text, *args, **kwargs)  # type: ignore[arg-type]
        drawn.append((text, rect))
        return rect

    assert app.top is not None
    with monkeypatch.context() as patch:
        patch.setattr(hud, "blit_text", spy)
        app.top.draw(pygame.Surface(app.screen.get_size()))
    return drawn


def test_the_text_boxes_name_ctrl_a_in_their_footers_and_in_f1_on_a_small_window(
        data_home: object, monkeypatch: pytest.MonkeyPatch) -> None:
    app = build_app(size=(800, 500), clock=FixedClock())
    try:
        app.push(MenuScene(app))
        editor = app.push(EditorScene(app, EditorModel.new(6, 8)))
        app.run_frames(1)
        press(app, pygame.K_i, unicode="i")  # the level's info: title, author, then the description (3 lines)
        press(app, pygame.K_RETURN)
        press(app, pygame.K_RETURN)
        prompt = app.top
        assert isinstance(prompt, TextPrompt) and prompt.lines > 1 and prompt.note  # the longest footer
        box = prompt.box(app.screen.get_size())
        drawn = drawn_texts(app, monkeypatch)
        assert any("Ctrl+A: select all" in text for text, _ in drawn)
        for text, rect in drawn:
            assert not text.endswith("\u2026"), f"cut off: {text!r}"
            assert box.contains(rect), (text, rect, box)
        press(app, pygame.K_ESCAPE)
        press(app, pygame.K_F1)  # the editor's F1 page, with the keys of its text boxes
        assert any("Ctrl+A" in text for text, _ in drawn_texts(app, monkeypatch))
        press(app, pygame.K_ESCAPE)
        press(app, pygame.K_o, mod=CTRL)
        type_text(app, "walk")
        assert isinstance(app.top, OpenPrompt)
        assert any("Ctrl+A: select all" in text for text, _ in drawn_texts(app, monkeypatch))
        while app.top is not editor:
            app.pop()
        app.push(PasteCodeScene(app))
        shown: list[Sequence[tuple[str, str]]] = []
        with monkeypatch.context() as patch:
            patch.setattr(hud, "hint_bar", lambda surface, hints, **kw: shown.append(hints))
            app.run_frames(1)
        assert ("Ctrl+A", "select all") in hud.fit_hints(shown[-1], 800)[0]  # nothing dropped at this width
        press(app, pygame.K_F1)  # the game's F1 page
        assert any("Ctrl+A" in text for text, _ in drawn_texts(app, monkeypatch))
    finally:
        while app.scenes:
            app.pop()
