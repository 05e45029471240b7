"""The editor's keys are findable: its own help page (F1), a footer that holds the main keys at every
window size, each lemming's direction on the board, and hints for the wheel and for turning a lemming."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

import pygame
import pytest

from game.app import hud
from game.app.app import App
from game.app.display import FixedClock
from game.app.compose import build_app
from game.app.input import Act
from game.app.scenes import editor_help, editor_view, pause
from game.app.scenes.dialogs import TextPrompt
from game.app.scenes.editor import EditorScene
from game.app.scenes.editor_palette import palette_buttons
from game.app.scenes.editor_view import direction_arrow
from game.app.scenes.menu import MenuScene
from game.app.scenes.pause import HelpScene
from game.app.scenes.play import PlayScene
from game.core.catalog import pack_entries
from game.core.editor_model import EditorModel, Tool
from tests.game.app.conftest import click, move, press

#: How the help names each action the editor binds (None: not a key, e.g. pointer motion, typed letters).
ACT_KEYS: dict[Act, str | None] = {
    Act.CLICK: "click", Act.RIGHT_CLICK: "right-click", Act.HOVER: None, Act.TOOL: "1", Act.UNDO: "z",
    Act.REDO: "y", Act.UP: "up", Act.DOWN: "down", Act.LEFT: "left", Act.RIGHT: "right", Act.SPEED_UP: "+",
    Act.SPEED_DOWN: "-", Act.NEXT_ITEM: "]", Act.PREV_ITEM: "[", Act.TOGGLE_RUN: "space", Act.SAVE: "ctrl+s",
    Act.OPEN: "ctrl+o", Act.BACK: "esc", Act.SCROLL: "wheel", Act.TEXT: None, Act.STEP_FORWARD: ".",
    Act.STEP_BACK: ",",
}
SIZES = [(1280, 800), (800, 500), (1024, 600)]


@pytest.fixture
def sized_app(request: pytest.FixtureRequest, data_home: object) -> Iterator[App]:
    """An app of the size the test is parametrised with."""
    application = build_app(size=request.param, clock=FixedClock())
    pygame.event.clear()
    yield application
    while application.scenes:
        application.pop()
    pygame.event.clear()


@pytest.fixture(autouse=True)
def close_scenes(request: pytest.FixtureRequest) -> Iterator[None]:
    """Pop every scene a test left on the app (the editor's analysis stops)."""
    application = request.getfixturevalue("app") if "app" in request.fixturenames else None
    yield
    while application is not None and application.scenes:
        application.pop()


def open_editor(app: App) -> EditorScene:
    app.push(MenuScene(app))
    editor = app.push(EditorScene(app, EditorModel.new(6, 8)))
    assert isinstance(editor, EditorScene)
    app.run_frames(1)
    return editor


def tokens(label: str) -> set[str]:
    return {t.lower() for t in re.split(r"\s*/\s*|\s+or\s+|\s+|(?<=\S),", label) if t}


class Spy:
    """Records every text the help draws, with where it went."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, module: object) -> None:
        self.drawn: list[tuple[str, pygame.Rect]] = []
        real = hud.blit_text

        def spy(surface: pygame.Surface, text: str, *args: object, **kwargs: object) -> pygame.Rect:
            rect = real(surface, text, *args, **kwargs)  # type: ignore[arg-type]
            self.drawn.append((text, rect))
            return rect

        monkeypatch.setattr(getattr(module, "hud"), "blit_text", spy)

    def texts(self) -> list[str]:
        return [text for text, _ in self.drawn]


def test_f1_in_the_editor_shows_the_editor_keys(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    editor = open_editor(app)
    spy = Spy(monkeypatch, pause)
    press(app, pygame.K_F1)
    assert isinstance(app.top, HelpScene)
    app.run_frames(1)
    drawn = spy.texts()
    assert "Editor keys" in drawn and "Keys" not in drawn
    assert "remove / add a row at the bottom" in drawn and "budget B down / up" in drawn
    assert "release / pause / resume" not in drawn  # no play keys
    press(app, pygame.K_ESCAPE)
    assert app.scenes[-1] is editor


def test_every_key_the_editor_handles_is_on_its_help_page(app: App) -> None:
    editor = open_editor(app)
    page = editor.help_page()
    listed = set().union(*(tokens(key) for _, keys in page.sections for key, _ in keys))
    for act in editor.input.bindings():
        assert act in ACT_KEYS, f"{act} has no help label in this test: add it here and on the help page"
        key = ACT_KEYS[act]
        assert key is None or key in listed, f"{act} ({key}) is not on the editor's help page"
    for letter in editor.letter_commands():
        assert letter in listed, f"the letter {letter!r} is not on the editor's help page"
    assert {"shift+arrows", "ctrl+arrows", "b", "f1"} <= listed  # keyboard painting, the other edges


def test_f1_in_play_still_shows_the_game_keys(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    app.push(MenuScene(app))
    app.push(PlayScene(app, playlist=pack_entries(), index=0))
    spy = Spy(monkeypatch, pause)
    press(app, pygame.K_F1)
    app.run_frames(1)
    assert "Keys" in spy.texts() and "release / pause / resume" in spy.texts()


@pytest.mark.parametrize("sized_app", SIZES, indirect=True)
@pytest.mark.parametrize("in_editor", [True, False])
def test_the_help_pages_fit_the_window(sized_app: App, in_editor: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    app = sized_app
    if in_editor:
        open_editor(app)
    else:
        app.push(MenuScene(app))
    spy = Spy(monkeypatch, pause)
    press(app, pygame.K_F1)
    app.run_frames(1)
    w, h = app.screen.get_size()
    assert len(spy.drawn) > 30
    for text, rect in spy.drawn:
        assert not text.endswith("\u2026"), f"cut off: {text!r}"
        assert 0 <= rect.left and rect.right <= w and rect.bottom <= h - hud.BOTTOM_BAR, (text, rect)


@pytest.mark.parametrize("width", [800, 1024, 1280, 1920])
def test_the_footer_holds_the_main_keys_in_at_most_two_lines(width: int) -> None:
    pygame.font.init()
    lines, size = editor_help.footer_lines(width)
    keys = [key for line in lines for key, _ in line]
    assert 1 <= len(lines) <= 2 and size >= 16
    for needed in ("+/-", "[ ]", "V", "Arrows", "Space/P", "Shift+arrows, B", "Z/Y", "A", "T", "F1"):
        assert needed in keys, f"{needed} missing from the footer at width {width}"
    for line in lines:
        assert sum(editor_help._hint_width(k, d, size) for k, d in line) <= width - 12


@pytest.mark.parametrize("sized_app", SIZES, indirect=True)
def test_the_palette_and_board_stay_above_the_footer(sized_app: App) -> None:
    editor = open_editor(sized_app)
    w, h = sized_app.screen.get_size()
    top = h - editor_help.footer_height(w)
    assert max(b.rect.bottom for b in palette_buttons(editor, (w, h))) <= top
    assert editor.board_area((w, h)).bottom <= top
    assert editor_help.footer_height(w) == editor_help.draw_footer(sized_app.screen).height


def test_the_footer_follows_the_players_bindings(app: App) -> None:
    app.change_settings(keys={"undo": "u", "place": "k"})
    try:
        assert editor_help.shown_key("Z/Y") == "U/Y" and editor_help.shown_key("Shift+arrows, B") == "Shift+arrows, K"
        assert editor_help.shown_key("A") == "A"  # the editor's own letters never move
        page = editor_help.editor_help_page()
        assert ("U / Y", "undo / redo (Ctrl+Z, Ctrl+Y too)") in page.sections[0][1]
    finally:
        app.change_settings(keys={})


def test_the_help_names_the_keys_that_browse_the_solutions_as_bound(app: App) -> None:
    editor = open_editor(app)
    bindings = editor.input.bindings()
    assert Act.STEP_BACK in bindings and Act.STEP_FORWARD in bindings  # the rebindable keys, not typed letters
    app.change_settings(keys={"step_back": ";"})
    try:
        rows = dict(row for _, section in editor_help.editor_help_page().sections for row in section)
        assert rows["; / ."] == "the previous / next optimal solution"
    finally:
        app.change_settings(keys={})


def test_tool_names_stay_in_the_help() -> None:
    first = editor_help.EDITOR_HELP_SECTIONS[0][1][0][1]
    assert all(tool.label.lower() in first for tool in Tool)


def cell_pos(editor: EditorScene, r: int, c: int) -> tuple[int, int]:
    return editor.layout().cell_center(r, c)


def arrow_color(app: App, editor: EditorScene, cell: tuple[int, int], right: bool) -> tuple[int, int, int]:
    """The colour in the middle of where the arrow of a lemming at ``cell`` facing that way is drawn."""
    app.run_frames(1)
    points = direction_arrow(editor.layout().cell_rect(*cell), right)
    x = sum(p[0] for p in points) // 3
    y = sum(p[1] for p in points) // 3
    return tuple(app.screen.get_at((x, y)))[:3]  # type: ignore[return-value]


def test_each_lemming_shows_its_direction_and_a_click_turns_it(app: App) -> None:
    editor = open_editor(app)
    press(app, pygame.K_3, unicode="3")
    assert "turn it round" in editor.message
    click(app, cell_pos(editor, 4, 2))
    assert editor.draft.char_at((4, 2)) == ">"
    assert arrow_color(app, editor, (4, 2), right=True) == hud.GOLD
    assert arrow_color(app, editor, (4, 2), right=False) != hud.GOLD
    click(app, cell_pos(editor, 4, 2))  # the Lemming tool on a lemming: it turns round
    assert editor.draft.char_at((4, 2)) == "<"
    assert arrow_color(app, editor, (4, 2), right=False) == hud.GOLD
    assert arrow_color(app, editor, (4, 2), right=True) != hud.GOLD


def test_hovering_a_lemming_with_the_lemming_tool_says_a_click_turns_it(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    editor = open_editor(app)
    press(app, pygame.K_3, unicode="3")
    click(app, cell_pos(editor, 4, 2))
    rendered: list[str] = []
    real = hud.text

    def spy(s: str, *args: object, **kwargs: object) -> pygame.Surface:
        rendered.append(s)
        return real(s, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(hud, "text", spy)
    move(app, cell_pos(editor, 4, 4))  # an empty cell: no note
    assert "click: turn round" not in rendered
    move(app, cell_pos(editor, 4, 2))
    assert "click: turn round" in rendered
    rendered.clear()
    press(app, pygame.K_1, unicode="1")  # the wall tool paints over it: no note
    assert "click: turn round" not in rendered


def test_the_wheel_cycles_the_tools_and_the_palette_says_so(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    editor = open_editor(app)
    spy = Spy(monkeypatch, editor_view)
    seen = []
    for _ in range(len(Tool)):
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1))
        app.run_frames(1)
        seen.append(editor.tool)
    assert seen == [Tool.ERASE, Tool.LEMMING, Tool.TARGET, Tool.WALL]
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1))
    app.run_frames(1)
    assert editor.tool == Tool.TARGET
    assert "wheel: next tool" in spy.texts()


def test_the_readme_names_every_editor_letter_and_where_levels_go(app: App) -> None:
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text()
    section = readme.split("## The level editor", 1)[1].split("\n## ", 1)[0]
    editor = open_editor(app)
    for ch in editor.letter_commands():
        assert f"**{ch.upper()}**" in section, f"the README's editor section does not name {ch.upper()}"
    for key in ("**F1**", "**Ctrl+S**", "**Ctrl+O**", "**E**", "**U**", "**Edit level**", "lemming-bricks/levels/"):
        assert key in section
    assert len(readme.splitlines()) <= 150


def test_f1_over_an_editor_dialog_shows_the_editor_keys(app: App) -> None:
    editor = open_editor(app)
    press(app, pygame.K_j, unicode="j")  # the physics prompt
    prompt = app.top
    assert isinstance(prompt, TextPrompt)
    press(app, pygame.K_F1)
    help_scene = app.top
    assert isinstance(help_scene, HelpScene) and help_scene.page.title == "Editor keys"
    press(app, pygame.K_ESCAPE)
    assert app.scenes[-1] is prompt and app.scenes[-2] is editor


def test_the_help_says_how_a_play_test_returns_to_the_editor(app: App) -> None:
    """Esc in a play-test opens the pause menu (as in any level); its "Back to editor" returns: the help says so."""
    rows = dict(row for _, section in editor_help.editor_help_page().sections for row in section)
    app.push(MenuScene(app))
    editor = app.push(EditorScene(app, EditorModel.from_level(pack_entries()[6].level)))
    app.run_frames(1)
    press(app, pygame.K_SPACE, unicode=" ")
    assert isinstance(app.top, PlayScene)
    press(app, pygame.K_ESCAPE)
    menu = app.top
    assert isinstance(menu, pause.PauseScene)
    back = menu.label(pause.PauseChoice.LEVELS)
    assert rows["Space or P"] == f"play-test (Esc, then {back}, returns here)"
    for _ in range(menu.choices.index(pause.PauseChoice.LEVELS)):
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    assert app.top is editor
