"""The level editor as a designer uses it, driven by posted pygame events: strokes without gaps, "unsaved"
only when the level differs from its file, the physics prompt, browsing the optimal solutions, Save As and
the level's author, description and hint."""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Iterator

import pygame
import pytest

from game.app import hud
from game.app.app import App
from game.app.display import FixedClock
from game.app.compose import build_app
from game.app.jobs import Execution
from game.app.scenes import editor_saving
from game.app.scenes.dialogs import TextPrompt
from game.app.scenes.editor import EditorScene
from game.app.scenes.share import ShareCodeScene
from game.app.scenes.menu import MenuScene
from game.core.editor_model import EditorModel, Tool
from game.core.level import Level
from game.core.physics_catalog import SHIPPED
from game.core.storage import user_levels_dir
from tests.conftest import ORIGINAL_PACK
from tests.game.app.conftest import (CTRL, after_save_check, click, move, press, press_save, type_text,
                                     wait_for_analysis)


def open_editor(app: App, model: EditorModel | None = None) -> EditorScene:
    app.push(MenuScene(app))
    editor = app.push(EditorScene(app, model if model is not None else EditorModel.new(12, 16)))
    assert isinstance(editor, EditorScene)
    app.run_frames(1)
    return editor


def letter(app: App, ch: str, mod: int = 0) -> None:
    press(app, getattr(pygame, f"K_{ch}"), mod=mod, unicode=ch)


@pytest.fixture(autouse=True)
def close_scenes(app: App) -> Iterator[None]:
    """Pop every scene after a test, so analysis workers stop."""
    yield
    while app.scenes:
        app.pop()


@pytest.fixture
def left_held(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """The mouse buttons as held (set an item to press or release one)."""
    held = [True, False, False]
    monkeypatch.setattr(pygame.mouse, "get_pressed", lambda num_buttons=3: tuple(held))
    return held


# ---------------------------------------------------------------- strokes
def test_a_fast_diagonal_drag_paints_every_crossed_cell_in_one_undo_step(app: App, left_held: list[bool]) -> None:
    editor = open_editor(app)
    start = editor.draft
    click(app, editor.layout().cell_center(2, 2))
    move(app, editor.layout().cell_center(6, 12))  # one motion event jumps ten columns
    move(app, editor.layout().cell_center(9, 12))
    left_held[0] = False
    move(app, editor.layout().cell_center(10, 3))
    walls = {(r, c) for r in range(1, 11) for c in range(1, 15) if editor.draft.char_at((r, c)) == "X"}
    assert len(walls) == 11 + 3  # (2,2)..(6,12) crosses 11 cells, then three more down column 12
    assert {(2, 2), (4, 7), (6, 12), (7, 12), (9, 12)} <= walls and (10, 3) not in walls
    columns = sorted(c for r, c in walls if r <= 6)
    assert columns == list(range(2, 13))  # no column skipped
    press(app, pygame.K_z, unicode="z")
    assert editor.draft == start


def test_a_drag_that_leaves_the_board_does_not_paint_across_it(app: App, left_held: list[bool]) -> None:
    editor = open_editor(app)
    click(app, editor.layout().cell_center(2, 2))
    move(app, (5, 5))  # off the board, past the palette's edge
    move(app, editor.layout().cell_center(2, 12))
    walls = [c for c in range(1, 15) if editor.draft.char_at((2, c)) == "X"]
    assert walls == [2, 12]


# ---------------------------------------------------------------- unsaved changes
def saved_level(tmp_path: Path) -> EditorModel:
    """A playable level saved in ``tmp_path`` and opened from there."""
    rows = ["XXXXXXXXXXXXXXXX"] + ["X              X"] * 10 + ["XXXXXXXXXXXXXXXX"]
    rows[10] = "X>            TX"
    path = tmp_path / "mine.txt"
    Level.from_rows(rows, frames=40, budget=0, title="Mine").save(path)
    return EditorModel.from_level(Level.load(path), path=path)


def file_state(editor: EditorScene) -> str:
    return [text for text, _, _ in editor.view.panel.file_lines()][-1]


def test_unsaved_only_while_the_level_differs_from_its_file(app: App, tmp_path: Path) -> None:
    editor = open_editor(app, saved_level(tmp_path))
    assert file_state(editor) == "saved"
    click(app, editor.layout().cell_center(3, 3))
    assert editor.model.dirty and file_state(editor) == "unsaved changes"
    press(app, pygame.K_z, unicode="z")  # back to the level as it is in the file
    assert not editor.model.dirty and file_state(editor) == "saved"
    click(app, editor.layout().cell_center(3, 3))
    click(app, editor.layout().cell_center(3, 3), button=3)  # painted, then erased: the file's level again
    assert not editor.model.dirty and file_state(editor) == "saved"
    press(app, pygame.K_RIGHTBRACKET, unicode="]")
    press(app, pygame.K_LEFTBRACKET, unicode="[")  # B up and down again
    assert not editor.model.dirty
    press(app, pygame.K_ESCAPE)  # nothing to save: leaves at once
    assert isinstance(app.top, MenuScene)


# ---------------------------------------------------------------- the physics prompt
def test_the_physics_prompt_edits_the_current_json_at_a_moving_cursor(app: App) -> None:
    editor = open_editor(app)
    letter(app, "k")  # careful
    letter(app, "j")
    prompt = app.top
    assert isinstance(prompt, TextPrompt)
    assert json.loads(prompt.text) == json.loads(SHIPPED["careful"].to_text())
    assert prompt.field.cursor == len(prompt.text)
    press(app, pygame.K_HOME)
    assert prompt.field.cursor == 0
    for _ in range(len('{"name": "')):
        press(app, pygame.K_RIGHT)
    for _ in range(len("careful")):
        press(app, pygame.K_DELETE)
    type_text(app, "wary")
    press(app, pygame.K_LEFT)
    press(app, pygame.K_BACKSPACE)  # "wary" -> "way"
    assert prompt.text.startswith('{"name": "way", ')
    press(app, pygame.K_END)
    assert prompt.field.cursor == len(prompt.text)
    press(app, pygame.K_RETURN)
    assert app.top is editor and editor.model.physics.name == "way"
    assert editor.model.physics.rules == SHIPPED["careful"].rules


def test_a_refused_physics_keeps_the_prompt_and_its_reason_fits_the_box(app: App) -> None:
    editor = open_editor(app)
    letter(app, "j")
    prompt = app.top
    assert isinstance(prompt, TextPrompt)
    press(app, pygame.K_HOME)
    type_text(app, "oops")  # no longer JSON
    press(app, pygame.K_RETURN)
    assert app.top is prompt and prompt.error and editor.model.physics.name == "classic"
    for size in ((1280, 800), (800, 500)):
        box = prompt.box(size)
        lines = prompt.preview_lines(box.width - 48)
        assert lines and " ".join(lines).rstrip("\u2026") in prompt.error.replace("\n", " ")
        assert all(hud.text(line, 20).get_width() <= box.width - 48 for line in lines)
        assert box.height <= size[1] - 20
    press(app, pygame.K_DELETE)  # editing clears the reason
    assert prompt.error == ""
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.top, EditorScene) and editor.model.physics.name == "classic"


# ---------------------------------------------------------------- a long level code
def test_a_long_level_code_scrolls_to_its_last_line(app: App) -> None:
    rng = random.Random(5)
    rows = ["".join(rng.choice("X  ") for _ in range(200)) for _ in range(120)]
    rows[0] = ">" + rows[0][1:]
    rows[-1] = rows[-1][:-1] + "T"
    level = Level.from_rows(rows, frames=90, budget=2, title="Noisy")
    box = app.push(ShareCodeScene(app, level))
    assert isinstance(box, ShareCodeScene)
    for size in ((1280, 800), (800, 500)):
        every, _, shown = box.code_view(size)
        assert "".join(every) == box.code and shown < len(every)
    every, _, shown = box.code_view(app.screen.get_size())
    for _ in range(len(every)):
        press(app, pygame.K_DOWN)
    assert box.first == len(every) - shown  # the last line is in view, nothing is cut off
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1))
    app.run_frames(1)
    assert box.first == len(every) - shown - 1
    for _ in range(len(every)):
        press(app, pygame.K_UP)
    assert box.first == 0


# ---------------------------------------------------------------- browsing the optimal solutions
TURN_BACK = ["XXXXXXXXX", "XT>     X", "XXXXXX  X", "X       X", "XXXXXXXXX"]  # a brick at (1,3)..(1,6) wins


def panel_text(editor: EditorScene) -> str:
    return " ".join(text for text, _, _ in editor.view.panel.analysis_lines(400))


def test_every_optimal_solution_can_be_browsed(app: App) -> None:
    editor = open_editor(app, EditorModel.from_level(Level.from_rows(TURN_BACK, frames=20, budget=1, title="Turn")))
    press(app, pygame.K_PERIOD, unicode=".")
    assert editor.solutions.shown() == () and "analyse first" in editor.message
    letter(app, "a")
    wait_for_analysis(app, editor)
    assert editor.analysis is not None and editor.analysis.solution_count == 4 and editor.analysis.complete
    letter(app, "v")
    assert editor.solutions.shown() in [((1, c),) for c in (3, 4, 5, 6)] and "solution 1 of 4" in panel_text(editor)
    seen = [editor.solutions.shown()]
    for _ in range(3):
        press(app, pygame.K_PERIOD, unicode=".")
        seen.append(editor.solutions.shown())
    assert sorted(seen) == [((1, c),) for c in (3, 4, 5, 6)]  # four different sets, each once
    assert "solution 4 of 4" in panel_text(editor) and "solution 4 of 4" in editor.message
    press(app, pygame.K_PERIOD, unicode=".")  # after the last, the first again
    assert editor.solutions.shown() == seen[0]
    press(app, pygame.K_COMMA, unicode=",")
    assert editor.solutions.shown() == seen[3]
    letter(app, "v")  # V hides it; V again shows the one browsed to
    assert editor.solutions.shown() == ()
    letter(app, "v")
    assert editor.solutions.shown() == seen[3]
    click(app, editor.layout().cell_center(3, 2))  # any change: the solutions are of another level
    assert editor.solutions.shown() == ()
    press(app, pygame.K_PERIOD, unicode=".")
    assert editor.solutions.shown() == () and "changed since the analysis" in editor.message


# ---------------------------------------------------------------- the rating in the panel
def test_the_whole_panel_can_be_read_at_800x500(data_home: Path) -> None:
    app = build_app(size=(800, 500), clock=FixedClock())
    editor = open_editor(app, EditorModel.from_level(Level.load(ORIGINAL_PACK)))
    letter(app, "a")
    wait_for_analysis(app, editor)
    assert editor.analyser.rating is not None and app.screen.get_size() == (800, 500)
    rect, lines = editor.view.panel.side_panel((800, 500))
    assert rect.bottom <= 500 - hud.BOTTOM_BAR
    assert all(hud.text(text, size).get_width() <= rect.width - 14 for text, size, _ in lines)
    seen = [line for line in editor.view.panel.visible_side_lines((800, 500))[0]]
    assert editor.view.panel.visible_side_lines((800, 500))[2]  # more below: the rating does not fit at once
    move(app, rect.center)
    for _ in range(len(lines)):
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1))
        app.run_frames(1)
        seen += editor.view.panel.visible_side_lines((800, 500))[0]
    assert editor.tool == Tool.WALL  # the wheel over the panel scrolled it, it picked no tool
    assert not editor.view.panel.visible_side_lines((800, 500))[2]
    texts = {text for text, _, _ in seen}
    assert {text for text, _, _ in lines} <= texts  # every line was shown at some point
    assert editor.analyser.rating.label in texts
    move(app, editor.layout().cell_center(1, 1))  # elsewhere the wheel picks the tools as before
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1))
    app.run_frames(1)
    assert editor.tool.label == "Erase"
    while app.scenes:
        app.pop()


def test_a_scrolled_panel_whose_lines_all_fit_again_shows_them_from_the_top(data_home: Path) -> None:
    """Scrolled down to the rating, then the level changes: the rating goes, everything left fits, and the
    panel shows it from its first line (it kept one line hidden under "more above")."""
    size = (1280, 800)
    app = build_app(size=size, clock=FixedClock())
    editor = open_editor(app, EditorModel.from_level(Level.load(ORIGINAL_PACK)))
    letter(app, "a")
    wait_for_analysis(app, editor)
    rect, lines = editor.view.panel.side_panel(size)
    move(app, rect.center)
    for _ in range(len(lines)):
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1))
        app.run_frames(1)
    assert editor.view.panel.visible_side_lines(size)[1]  # scrolled: more above
    press(app, pygame.K_PLUS, unicode="+")  # one more frame: the analysis is out of date, the rating gone
    _, lines = editor.view.panel.side_panel(size)
    shown, above, below = editor.view.panel.visible_side_lines(size)
    assert not above and not below and shown == lines
    while app.scenes:
        app.pop()


# ---------------------------------------------------------------- saving, a copy, the level's info
def test_saving_asks_for_a_title_only_for_a_new_untitled_level(app: App, tmp_path: Path) -> None:
    editor = open_editor(app, saved_level(tmp_path))
    press(app, pygame.K_RIGHTBRACKET, unicode="]")
    press_save(app, CTRL)  # a titled level is saved at once
    assert app.top is editor and not editor.model.dirty and Level.load(tmp_path / "mine.txt").budget == 1
    fresh = app.push(EditorScene(app, EditorModel.new(6, 8)))
    assert isinstance(fresh, EditorScene)
    click(app, fresh.layout().cell_center(4, 1))
    press(app, pygame.K_3, unicode="3")
    click(app, fresh.layout().cell_center(4, 2))
    press(app, pygame.K_4, unicode="4")
    click(app, fresh.layout().cell_center(4, 6))
    press_save(app, CTRL)
    prompt = app.top
    assert isinstance(prompt, TextPrompt) and prompt.title == "Save level"  # untitled and new: asked once
    prompt.text = "Fresh"
    press(app, pygame.K_RETURN)
    assert app.top is fresh and (user_levels_dir() / "fresh.txt").is_file()
    letter(app, "g")
    press(app, pygame.K_1, unicode="1")
    click(app, fresh.layout().cell_center(2, 2))
    press_save(app, CTRL)
    assert app.top is fresh and not fresh.model.dirty  # the second save asks nothing
    assert Level.load(user_levels_dir() / "fresh.txt").grid[2][2] == "X"


def test_save_a_copy_under_a_new_name_and_edit_the_copy(app: App, tmp_path: Path) -> None:
    editor = open_editor(app, saved_level(tmp_path))
    original = (tmp_path / "mine.txt").read_text()
    click(app, editor.layout().cell_center(3, 3))
    press_save(app, CTRL | pygame.KMOD_SHIFT)
    prompt = app.top
    assert isinstance(prompt, TextPrompt) and prompt.text == "Mine (copy)"
    assert "new file: mine_copy.txt" in prompt.preview_lines(500)[0]
    prompt.text = "Mine Too"
    press(app, pygame.K_RETURN)
    copy = user_levels_dir() / "mine_too.txt"
    assert app.top is editor and editor.model.path == copy and not editor.model.dirty
    assert Level.load(copy).title == "Mine Too" and Level.load(copy).grid[3][3] == "X"
    assert (tmp_path / "mine.txt").read_text() == original  # the first file is untouched
    press(app, pygame.K_RIGHTBRACKET, unicode="]")
    press_save(app, CTRL)  # later saves go to the copy
    assert Level.load(copy).budget == 1 and (tmp_path / "mine.txt").read_text() == original


def test_level_info_fields_are_asked_in_turn_and_saved(app: App, tmp_path: Path) -> None:
    editor = open_editor(app, saved_level(tmp_path))
    letter(app, "i")
    for value in ("Mine, Renamed", "Ada", "A walk to the right", "Just press Space"):
        prompt = app.top
        assert isinstance(prompt, TextPrompt) and prompt.title.startswith("Level info")
        prompt.text = value
        press(app, pygame.K_RETURN)
    assert app.top is editor and editor.model.dirty
    press_save(app, CTRL)
    text = (tmp_path / "mine.txt").read_text()
    assert text.startswith("# title: Mine, Renamed\n# author: Ada\n# description: A walk to the right\n"
                           "# hint: Just press Space\n")
    letter(app, "i")
    press(app, pygame.K_RETURN)  # the title as it is
    prompt = app.top
    assert isinstance(prompt, TextPrompt) and prompt.text == "Ada"
    prompt.text = ""  # empty: the author line goes
    press(app, pygame.K_RETURN)
    press(app, pygame.K_ESCAPE)  # stop before the description: it stays
    assert app.top is editor and editor.model.meta_value("author") == ""
    assert editor.model.meta_value("description") == "A walk to the right"
    press(app, pygame.K_z, unicode="z")  # one undo brings the author back
    assert editor.model.meta_value("author") == "Ada" and not editor.model.dirty


def test_the_check_before_saving_is_said_while_it_runs_and_not_behind_the_save_prompt(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    checked = threading.Event()

    def slow_check(level: Level, ctx: object) -> str | None:  # as on a busy machine: ends when told
        assert checked.wait(30)
        return None

    monkeypatch.setattr(editor_saving, "why_no_solution", slow_check)
    app.jobs.execution = Execution.THREAD  # the test's event is shared with a thread, not a child
    fresh = open_editor(app, EditorModel.new(6, 8))
    click(app, fresh.layout().cell_center(4, 1))
    press(app, pygame.K_3, unicode="3")
    click(app, fresh.layout().cell_center(4, 2))
    press(app, pygame.K_4, unicode="4")
    click(app, fresh.layout().cell_center(4, 6))
    press(app, pygame.K_s, mod=CTRL)  # a new level: checked first (a job), then its title is asked
    app.run_frames(30, dt=0.1)  # three seconds of the game's time: the check still runs
    assert app.top is fresh and fresh.message == editor_saving.CHECKING
    checked.set()
    after_save_check(app)
    assert isinstance(app.top, TextPrompt) and app.top.title == "Save level"
    assert "checking" not in fresh.message  # the check has ended: not shown behind the prompt
    press(app, pygame.K_ESCAPE)  # cancel the save
    assert app.top is fresh and "checking" not in fresh.message


def test_why_a_level_has_no_solution_is_read_whole_in_the_panel(app: App) -> None:
    """The lemming walks below the only target: the analysis gives the reason, brackets and all, not cut off
    after three lines of the panel."""
    level = Level.from_rows(["XXXXXX", "X  T X", "X    X", "X>   X", "XXXXXX"], frames=20, budget=0)
    editor = open_editor(app, EditorModel.from_level(level))
    letter(app, "a")
    wait_for_analysis(app, editor)
    assert editor.status_now() == "unsolvable" and editor.analysis is not None
    reason = editor.analysis.reasons[0]
    assert "(every target is higher up, and lemmings never climb)" in reason
    panel = " ".join(text for text, _, _ in editor.view.panel.side_lines())
    assert "\u2022 " + reason in panel and "\u2026" not in panel
