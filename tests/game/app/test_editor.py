"""The level editor driven by posted pygame events (headless, fixed clock)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Iterator

import pygame
import pytest

import game.cli.main as cli
from game.core.level import Level
from game.core.pack import pack_level_paths
from game.core.physics_catalog import resolve
from tests.conftest import ORIGINAL_PACK
from tests.stopping import STOP_GUARD
from ai.facade import Rating, analyse_level
from ai.kernel.context import ManualClock, SolveContext
from game.core.storage import user_levels_dir
from game.app import hud
from game.app.app import App
from game.core.catalog import user_entries
from game.core.editor_draft import MAX_EDIT_SIDE, MIN_EDIT_SIDE
from game.core.editor_model import EditorModel, Tool
from game.app.scenes.dialogs import ConfirmPrompt, OpenPrompt, TextPrompt
from game.app.scenes import editor_analysis
from game.app.scenes.editor import EditorScene
from game.app.scenes.editor_analysis import analyse_and_rate
from game.app.scenes.editor_palette import palette_buttons, tool_label_layout
from game.app.scenes.menu import MenuScene
from game.app.scenes.pause import PauseChoice, PauseScene
from game.app.scenes.play import PlayScene
from game.app.scenes.select import LevelSelectScene
from tests.game.app.conftest import (CTRL, after_save_check, click, leave_level, move, press, press_save, type_text,
                                     wait_for_analysis)


def letter(app: App, ch: str) -> None:
    press(app, getattr(pygame, f"K_{ch}"), unicode=ch)


def open_editor(app: App, model: EditorModel | None = None) -> EditorScene:
    app.push(MenuScene(app))
    editor = app.push(EditorScene(app, model if model is not None else EditorModel.new(6, 8)))
    assert isinstance(editor, EditorScene)
    app.run_frames(1)
    return editor


def cell_pos(editor: EditorScene, r: int, c: int) -> tuple[int, int]:
    return editor.layout().cell_center(r, c)


def make_playable(app: App, editor: EditorScene) -> None:
    press(app, pygame.K_3, unicode="3")
    click(app, cell_pos(editor, 4, 1))
    press(app, pygame.K_4, unicode="4")
    click(app, cell_pos(editor, 4, 6))


@pytest.fixture(autouse=True)
def close_scenes(app: App) -> Iterator[None]:
    """Pop every scene after a test, so analysis workers and generator threads stop."""
    yield
    while app.scenes:
        app.pop()


# ---------------------------------------------------------------- painting
def test_paint_flip_erase_undo_redo_by_events(app: App) -> None:
    editor = open_editor(app)
    press(app, pygame.K_3, unicode="3")
    assert editor.tool == Tool.LEMMING
    click(app, cell_pos(editor, 2, 2))
    assert editor.draft.char_at((2, 2)) == ">"
    click(app, cell_pos(editor, 2, 2))
    assert editor.draft.char_at((2, 2)) == "<"
    press(app, pygame.K_4, unicode="4")
    click(app, cell_pos(editor, 2, 5))
    press(app, pygame.K_1, unicode="1")
    click(app, cell_pos(editor, 3, 3))
    assert editor.draft.char_at((2, 5)) == "T" and editor.draft.char_at((3, 3)) == "X"
    click(app, cell_pos(editor, 3, 3), button=3)  # right click erases whatever the tool
    assert editor.draft.char_at((3, 3)) == " " and editor.tool == Tool.WALL
    after = editor.draft
    for _ in range(5):
        press(app, pygame.K_z, unicode="z")
    assert editor.draft == EditorModel.new(6, 8).draft
    for _ in range(5):
        press(app, pygame.K_y, mod=CTRL)
    assert editor.draft == after
    # the palette works by clicking too
    buttons = {b.label: b for b in editor.buttons(app.screen.get_size())}
    click(app, buttons["Target"].rect.center)
    assert editor.tool == Tool.TARGET


def test_drag_paints_one_undo_step(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    editor = open_editor(app)
    held = [True, False, False]
    monkeypatch.setattr(pygame.mouse, "get_pressed", lambda num_buttons=3: tuple(held))
    click(app, cell_pos(editor, 2, 1))
    for c in (2, 3, 4):
        move(app, cell_pos(editor, 2, c))
    held[0] = False
    move(app, cell_pos(editor, 3, 5))
    assert editor.draft.grid[2] == "XXXXX  X" and editor.draft.char_at((3, 5)) == " "
    press(app, pygame.K_z, unicode="z")
    assert editor.draft == EditorModel.new(6, 8).draft
    # a right-button drag erases
    press(app, pygame.K_y, unicode="y")
    held[2] = True
    click(app, cell_pos(editor, 2, 2), button=3)
    move(app, cell_pos(editor, 2, 3))
    held[2] = False
    move(app, cell_pos(editor, 2, 4))
    assert editor.draft.grid[2] == "XX  X  X"


def test_resize_frames_budget_and_grid_by_keys(app: App) -> None:
    editor = open_editor(app)
    press(app, pygame.K_DOWN)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RIGHT)
    assert (editor.draft.height, editor.draft.width) == (7, 10)
    press(app, pygame.K_UP)
    press(app, pygame.K_LEFT)
    assert (editor.draft.height, editor.draft.width) == (6, 9)
    n = editor.draft.frames
    press(app, pygame.K_EQUALS, unicode="=")
    press(app, pygame.K_EQUALS, unicode="=")
    press(app, pygame.K_MINUS, unicode="-")
    assert editor.draft.frames == n + 1
    press(app, pygame.K_RIGHTBRACKET, unicode="]")
    press(app, pygame.K_RIGHTBRACKET, unicode="]")
    press(app, pygame.K_LEFTBRACKET, unicode="[")
    assert editor.draft.budget == 1
    assert editor.grid_on
    letter(app, "g")
    assert not editor.grid_on
    press(app, pygame.K_z, unicode="z")
    assert editor.draft.budget == 2


def test_invalid_draft_cannot_be_played_or_saved(app: App) -> None:
    editor = open_editor(app)
    press(app, pygame.K_SPACE, unicode=" ")
    assert app.top is editor and "lemming" in editor.message
    press_save(app, CTRL)
    assert app.top is editor and "can't save" in editor.message
    letter(app, "a")
    assert not editor.analysing and "can't analyse" in editor.message
    buttons = {b.label: b for b in editor.buttons(app.screen.get_size())}
    assert not buttons["Play-test"].enabled
    click(app, buttons["Play-test"].rect.center)
    assert app.top is editor and "can't play-test yet" in editor.message
    assert not user_levels_dir().exists() or not list(user_levels_dir().iterdir())


# ---------------------------------------------------------------- play-test
def test_play_test_returns_to_the_same_editor_state(app: App) -> None:
    editor = open_editor(app)
    make_playable(app, editor)
    press(app, pygame.K_1, unicode="1")
    draft, index, states = editor.draft, editor.model.index, list(editor.model.states)
    press(app, pygame.K_SPACE, unicode=" ")
    play = app.top
    assert isinstance(play, PlayScene) and play.key is None
    assert play.level == editor.model.to_level()
    # play a little: place a brick, run, then leave (the pause menu says where it goes)
    click(app, play.layout().cell_center(1, 3))
    press(app, pygame.K_SPACE, unicode=" ", frames=30)
    play.message = ""
    press(app, pygame.K_ESCAPE)
    pause = app.top
    assert isinstance(pause, PauseScene) and pause.label(PauseChoice.LEVELS) == "Back to editor"
    press(app, pygame.K_ESCAPE)  # resume
    leave_level(app)
    assert app.top is editor
    assert editor.draft == draft and editor.model.index == index and editor.model.states == states
    assert editor.tool == Tool.WALL
    assert app.progress.status("x", play.level).best_bricks is None  # play-tests record nothing


# ---------------------------------------------------------------- saving
def test_save_with_title_round_trip_and_level_select(app: App) -> None:
    editor = open_editor(app)
    make_playable(app, editor)
    press_save(app, CTRL)
    prompt = app.top
    assert isinstance(prompt, TextPrompt)
    for _ in range(len(prompt.text)):
        press(app, pygame.K_BACKSPACE)
    type_text(app, "My First Level")
    press(app, pygame.K_RETURN)
    assert app.top is editor and not editor.model.dirty
    path = user_levels_dir() / "my_first_level.txt"
    assert path.is_file() and editor.model.path == path
    level = Level.load(path)
    assert level == editor.model.to_level() and level.title == "My First Level"
    assert [e.title for e in user_entries()] == ["My First Level"]
    # it is listed in the level select screen and plays like a pack level (progress key user/...)
    select = app.push(LevelSelectScene(app))
    assert isinstance(select, LevelSelectScene)
    i = next(k for k, e in enumerate(select.entries) if e.section == "user")
    select.open(i)
    play = app.top
    assert isinstance(play, PlayScene) and play.key == "user/my_first_level.txt" and play.level == level
    app.pop()
    app.pop()
    assert app.top is editor
    # a second save (no prompt needed for the title: it is kept) overwrites the same file
    press(app, pygame.K_RIGHTBRACKET, unicode="]")
    press_save(app, CTRL)
    press(app, pygame.K_RETURN)
    assert Level.load(path).budget == 1 and len(list(user_levels_dir().glob("*.txt"))) == 1


def test_failed_save_keeps_the_old_file(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    editor = open_editor(app)
    make_playable(app, editor)
    assert editor.model.set_title("Keep Me")
    assert editor.save_now()
    path = editor.model.path
    assert path is not None
    old = path.read_bytes()
    press(app, pygame.K_RIGHTBRACKET, unicode="]")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", broken_replace)
    press_save(app, CTRL)
    press(app, pygame.K_RETURN)
    assert app.top is editor and "save failed" in editor.message and "Permission denied" in editor.message
    assert path.read_bytes() == old and editor.model.dirty
    assert [p.name for p in path.parent.iterdir()] == [path.name]


def test_unsaved_changes_prompt_on_exit(app: App) -> None:
    editor = open_editor(app)
    menu = app.scenes[0]
    press(app, pygame.K_ESCAPE)  # nothing changed: leaves at once
    assert app.top is menu
    editor = app.push(EditorScene(app, EditorModel.new(6, 8)))
    assert isinstance(editor, EditorScene)
    make_playable(app, editor)
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.top, ConfirmPrompt)
    press(app, pygame.K_ESCAPE)  # keep editing
    assert app.top is editor
    press(app, pygame.K_ESCAPE)
    press(app, pygame.K_RETURN)  # save...
    after_save_check(app)
    prompt = app.top
    assert isinstance(prompt, TextPrompt) and prompt.text == "Untitled"
    for _ in range(len(prompt.text)):
        press(app, pygame.K_BACKSPACE)
    type_text(app, "Saved On Exit")
    press(app, pygame.K_RETURN)
    assert app.top is menu
    assert (user_levels_dir() / "saved_on_exit.txt").is_file()
    # discard
    editor2 = app.push(EditorScene(app, EditorModel.new(6, 8)))
    make_playable(app, editor2)  # type: ignore[arg-type]
    press(app, pygame.K_ESCAPE)
    letter(app, "d")
    assert app.top is menu and len(list(user_levels_dir().glob("*.txt"))) == 1


def test_closing_the_window_with_unsaved_changes_asks(app: App) -> None:
    editor = open_editor(app)
    make_playable(app, editor)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.run_frames(1)
    assert app.running and isinstance(app.top, ConfirmPrompt)
    letter(app, "d")
    assert not app.running


# ---------------------------------------------------------------- opening
def test_open_pack_level_saves_a_copy(app: App) -> None:
    editor = open_editor(app)
    pack = pack_level_paths()[0]
    before = pack.read_bytes()
    press(app, pygame.K_o, mod=CTRL)
    picker = app.top
    assert isinstance(picker, OpenPrompt) and picker.entries[0].path == pack
    press(app, pygame.K_RETURN)
    assert app.top is editor and editor.model.path is None
    assert editor.draft.grid == Level.load(pack).grid and not editor.model.dirty
    press_save(app, CTRL)
    press(app, pygame.K_RETURN)
    copy = user_levels_dir() / "let_them_go.txt"  # the pack's first level: the first tutorial
    assert copy.is_file() and Level.load(copy) == Level.load(pack)
    assert pack.read_bytes() == before
    # the copy is listed, and opening it edits it in place
    press(app, pygame.K_o, mod=CTRL)
    picker = app.top
    assert isinstance(picker, OpenPrompt)
    i = next(k for k, e in enumerate(picker.entries) if e.section == "user")
    picker.cursor = i
    press(app, pygame.K_RETURN)
    assert editor.model.path == copy


def test_opening_another_level_asks_about_unsaved_changes(app: App) -> None:
    editor = open_editor(app)
    make_playable(app, editor)
    mine = editor.draft
    press(app, pygame.K_o, mod=CTRL)
    press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)  # "Let Them Go"
    assert isinstance(app.top, ConfirmPrompt)
    press(app, pygame.K_ESCAPE)  # keep editing: nothing changes
    assert app.top is editor and editor.draft == mine
    press(app, pygame.K_o, mod=CTRL)
    press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    letter(app, "d")  # discard
    assert app.top is editor and editor.draft.grid == Level.load(pack_level_paths()[1]).grid
    assert not editor.model.dirty and not editor.model.can_undo


def test_new_level_with_a_chosen_size(app: App) -> None:
    editor = open_editor(app)
    letter(app, "n")
    prompt = app.top
    assert isinstance(prompt, TextPrompt)
    for _ in range(len(prompt.text)):
        press(app, pygame.K_BACKSPACE)
    type_text(app, "7x12")
    press(app, pygame.K_RETURN)
    assert (editor.draft.height, editor.draft.width) == (7, 12)


def test_a_size_that_does_not_read_asks_again_after_discard(app: App) -> None:
    editor = open_editor(app)
    make_playable(app, editor)  # unsaved: N asks first
    before = editor.draft
    letter(app, "n")
    assert isinstance(app.top, ConfirmPrompt)
    letter(app, "d")  # discard
    prompt = app.top
    assert isinstance(prompt, TextPrompt)
    type_text(app, "200x300")  # the initial text is selected: typing replaces it
    press(app, pygame.K_RETURN)
    assert app.top is prompt and prompt.text == "200x300" and editor.draft == before
    assert " ".join(prompt.preview_lines(2000)).startswith("size must read like 10x14")
    for _ in range(len(prompt.text)):
        press(app, pygame.K_BACKSPACE)
    type_text(app, "8x9")
    press(app, pygame.K_RETURN)
    assert app.top is editor and (editor.draft.height, editor.draft.width) == (8, 9)


# ---------------------------------------------------------------- analysis
def test_analyse_and_tighten_in_the_worker(app: App) -> None:
    editor = open_editor(app, EditorModel.from_level(Level.load(ORIGINAL_PACK)))
    letter(app, "a")
    assert editor.analysing  # the frame returned while the worker runs
    wait_for_analysis(app, editor)
    a = editor.analysis
    assert a is not None and a.min_bricks == 3 and a.solution_count == 6 and a.complete
    assert a.fewest_frames == 16 and editor.status_now() == "ok"
    letter(app, "v")
    assert editor.solutions.visible
    letter(app, "t")
    assert (editor.draft.frames, editor.draft.budget) == (16, 3)
    assert editor.analysis_current() and editor.status_now() == "ok"
    press(app, pygame.K_z, unicode="z")
    assert (editor.draft.frames, editor.draft.budget) == (20, 3)
    # N changed since: Tighten analyses again first, then tightens
    letter(app, "t")
    wait_for_analysis(app, editor)
    assert (editor.draft.frames, editor.draft.budget) == (16, 3)
    # a smaller budget makes the analysis stale; analysed again, it is unsolvable within budget
    for _ in range(2):
        press(app, pygame.K_LEFTBRACKET, unicode="[")
    assert editor.status_now() is None and editor.analysis_stale()
    letter(app, "a")
    wait_for_analysis(app, editor)
    assert editor.status_now() == "over_budget"
    lines = [t for t, _, _ in editor.view.panel.side_lines()]
    assert "UNSOLVABLE" in lines and any("within budget" in t for t in lines)
    assert editor.view.badge()[0] == "UNSOLVABLE"


#: Restless lemmings walk off targets: in 30 frames a brick must stop this one past T, in 7 it is still on T.
WALK_OFF = ["XXXXXXXXXXXX", "X>     T   X", "XXX XX XXXXX", "XXXXXXXXXXXX"]


def test_tighten_where_lemmings_walk_off_targets_keeps_the_minimum(app: App) -> None:
    """In 7 frames two bricks are enough (the lemming stands on the target at the last frame on its way):
    N = 7 would be another puzzle, so the fewest frames are 8, from which the level still needs 3."""
    level = Level.from_rows(WALK_OFF, frames=30, budget=3, physics=resolve("restless"))
    editor = open_editor(app, EditorModel.from_level(level))
    letter(app, "a")
    wait_for_analysis(app, editor)
    assert editor.analysis is not None and (editor.analysis.min_bricks, editor.analysis.fewest_frames) == (3, 8)
    assert analyse_level(level.with_limits(frames=7)).min_bricks == 2
    letter(app, "t")
    assert (editor.draft.frames, editor.draft.budget) == (8, 3)
    assert editor.analysing  # the analysis for N = 30 says nothing about N = 8
    wait_for_analysis(app, editor)
    fresh = analyse_level(editor.model.to_level())
    a = editor.analysis
    assert a is not None and a.min_bricks == fresh.min_bricks == 3 and a.fewest_frames == fresh.fewest_frames == 8
    shown = [t for t, _, _ in editor.view.panel.analysis_lines(400)]
    assert "minimum bricks: 3" in shown and "tight" in shown


def test_analysis_in_a_thread_where_fork_is_missing(app: App) -> None:
    model = EditorModel.from_level(Level.load(ORIGINAL_PACK).with_limits(budget=1))
    app.push(MenuScene(app))
    editor = app.push(EditorScene(app, model, analysis_in_process=False))
    assert isinstance(editor, EditorScene)
    letter(app, "a")
    wait_for_analysis(app, editor)
    assert editor.analysis is not None and editor.analysis.min_bricks == 3
    assert editor.status_now() == "over_budget"


def test_tighten_analyses_first_and_unsolvable_is_shown(app: App) -> None:
    level = Level.load(ORIGINAL_PACK).with_limits(frames=40, budget=9)
    editor = open_editor(app, EditorModel.from_level(level))
    letter(app, "t")
    wait_for_analysis(app, editor)
    assert (editor.draft.frames, editor.draft.budget) == (16, 3)
    press(app, pygame.K_MINUS, unicode="-", frames=1)
    for _ in range(5):
        press(app, pygame.K_MINUS, unicode="-")
    letter(app, "a")
    wait_for_analysis(app, editor)
    assert editor.status_now() == "unsolvable"
    assert "UNSOLVABLE" in [t for t, _, _ in editor.view.panel.side_lines()]


def test_analysis_never_blocks_a_frame(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """The analysis is a job of the app's runner: the frames go on while it works.

    The analysis here is a double that works until it is cancelled, so a frame that waited for it
    would never return; the frame times themselves are figures of ``bench/ui_frame_time.py``.
    """
    def analyse_until_cancelled(level: Level, solver: str, ctx: SolveContext) -> Any:
        while True:
            ctx.check()
            time.sleep(0.005)

    monkeypatch.setattr(editor_analysis, "analyse_and_rate", analyse_until_cancelled)
    editor = open_editor(app, EditorModel.from_level(Level.load(ORIGINAL_PACK)))
    letter(app, "a")
    app.run_frames(30)
    assert editor.analysing  # the double never ends on its own
    letter(app, "a")  # a second press cancels
    wait_for_analysis(app, editor, timeout=STOP_GUARD)
    assert editor.analysis is None and not editor.analysis_error


# ---------------------------------------------------------------- menu, drawing, CLI
def test_menu_has_editor_and_endless(app: App) -> None:
    menu = app.push(MenuScene(app))
    assert isinstance(menu, MenuScene)
    labels = [label for label, _ in menu.items()]
    assert labels[:4] == ["Continue", "Levels", "Editor", "Endless"] and labels[-2:] == ["Settings", "Quit"]
    press(app, pygame.K_DOWN)
    press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    assert isinstance(app.top, EditorScene)


def test_draws_at_small_and_large_sizes(app: App) -> None:
    editor = open_editor(app, EditorModel.from_level(Level.load(pack_level_paths()[-1])))
    for size in [(480, 360), (900, 640), (1920, 1080)]:
        app.screen = pygame.Surface(size)
        move(app, editor.layout().cell_center(1, 1))
        app.run_frames(2)
    letter(app, "n")
    app.run_frames(1)
    press(app, pygame.K_ESCAPE)
    press(app, pygame.K_o, mod=CTRL)
    app.run_frames(1)


def test_edit_command_runs_headless(tmp_path: Path) -> None:
    shot = tmp_path / "editor.png"
    assert cli.main(["edit", "1", "--frames", "5", "--screenshot", str(shot), "--screenshot-frame", "3"]) == 0
    assert shot.is_file()
    assert cli.main(["edit", "--new", "8x9", "--frames", "2"]) == 0
    assert cli.main(["edit", "--new", "1x1", "--frames", "2"]) == 2


def test_edit_new_refuses_a_size_naming_the_sizes_it_takes(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["edit", "--new", "1x5", "--frames", "1"]) == 2
    assert f"(rows x columns, {MIN_EDIT_SIDE} to {MAX_EDIT_SIDE})" in capsys.readouterr().err
    assert cli.main(["edit", "--new", f"{MAX_EDIT_SIDE}x{MIN_EDIT_SIDE}", "--frames", "1"]) == 0


# ---------------------------------------------------------------- the rating
def test_analyse_shows_the_levels_rating_in_the_panel(app: App) -> None:
    editor = open_editor(app, EditorModel.from_level(Level.load(ORIGINAL_PACK)))
    letter(app, "a")
    wait_for_analysis(app, editor, timeout=90.0)
    assert editor.analysis is not None and editor.analysis.min_bricks == 3  # the analysis is kept
    rating = editor.analyser.rating
    assert rating is not None, editor.analyser.rating_note
    assert rating.min_bricks == 3 and rating.solutions == 6 and rating.solutions_complete
    texts = [t for t, _, _ in editor.view.panel.side_lines()]
    shown = " ".join(texts)
    assert "RATING" in texts and texts.index("RATING") > texts.index("ANALYSIS")
    for line in rating.lines():  # every rating line, wrapped to the panel
        assert line in shown, line
    width = 290 - 28  # the wide window's panel: every line fits it
    assert all(hud.text(t, size).get_width() <= width for t, size, _ in editor.view.panel.rating_lines())
    app.run_frames(1)  # and it draws
    letter(app, "t")  # tightening changes the level: the old rating is not shown as its own
    assert editor.analyser.rating is None and "press A" in editor.analyser.rating_note


def test_a_rating_out_of_time_or_failing_keeps_the_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    level = Level.load(ORIGINAL_PACK)

    clock = ManualClock()

    def slow(level: Level, ctx: SolveContext, **_: object) -> Rating:
        clock.advance(10.0)  # the rating uses up the job's time (an injected clock: no waiting)
        assert ctx.should_stop(), "the deadline never reached the rating"
        return Rating(None, 0, False, 0, 0.0, 0, 0.0, None, 0, False, 2, 3, 20, "timeout")

    monkeypatch.setattr(editor_analysis, "rate_level", slow)
    ctx = SolveContext.create(time_limit=8.0, clock=clock)
    analysis, rating, note = analyse_and_rate(level, "auto", ctx)
    assert analysis.min_bricks == 3 and analysis.solution_count == 6
    assert rating is None and "ran out of time" in note

    def broken(level: Level, *_: object, **__: object) -> Rating:
        raise RuntimeError("boom")

    monkeypatch.setattr(editor_analysis, "rate_level", broken)
    analysis, rating, note = analyse_and_rate(level, "auto", SolveContext.create(time_limit=30.0))
    assert analysis.min_bricks == 3 and rating is None and "rating failed" in note


# ---------------------------------------------------------------- physics
def test_pick_a_physics_by_key_and_play_test_and_save_use_it(app: App) -> None:
    editor = open_editor(app)
    make_playable(app, editor)
    letter(app, "k")
    assert editor.model.physics.name == "careful"
    letter(app, "k")
    assert editor.model.physics.name == "climber"
    assert editor.model.to_level().physics.name == "climber"
    assert editor.model.to_level().physics.name == "climber"
    press(app, pygame.K_z, mod=CTRL)  # undoable like any edit
    assert editor.model.physics.name == "careful"
    press(app, pygame.K_SPACE, unicode=" ")
    play = app.top
    assert isinstance(play, PlayScene) and play.level.physics.name == "careful"
    assert play.level == editor.model.to_level()
    leave_level(app)
    assert app.top is editor


def test_write_a_physics_as_json_and_bad_json_is_refused(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    editor = open_editor(app)
    make_playable(app, editor)
    letter(app, "j")
    prompt = app.top
    assert isinstance(prompt, TextPrompt) and prompt.text == editor.model.physics.to_text()
    prompt.text = ""
    text = '{"name": "hopper", "rules": [{"when": {"-1,1": "free"}, "move": [-1, 1]}]}'
    monkeypatch.setattr("game.app.scenes.dialogs.clipboard_text", lambda: text)
    press(app, pygame.K_v, mod=CTRL)  # Ctrl+V pastes
    assert prompt.text == text
    press(app, pygame.K_RETURN)
    assert app.top is editor and editor.model.physics.name == "hopper"
    assert editor.model.to_level().physics.rules[0].move == (-1, 1)
    letter(app, "j")
    prompt = app.top
    assert isinstance(prompt, TextPrompt)
    prompt.text = '{"rules": [{"move": [0, 1]}]}'
    press(app, pygame.K_RETURN)  # refused: the prompt stays open with the reason
    assert app.top is prompt and "does not require free" in prompt.error
    press(app, pygame.K_ESCAPE)
    assert editor.model.physics.name == "hopper"  # unchanged


# ---------------------------------------------------------------- stale analyses, sizes, no solution
UP_THERE = ["XXXXXXXXXX", "X      T X", "X        X", "X>       X", "XXXXXXXXXX"]


def test_a_physics_change_makes_the_analysis_stale_and_v_t_refuse(app: App) -> None:
    editor = open_editor(app, EditorModel.from_level(Level.load(ORIGINAL_PACK).with_limits(frames=16, budget=3)))
    letter(app, "a")
    wait_for_analysis(app, editor)
    assert editor.status_now() == "ok" and editor.view.badge()[0] == "READY"
    letter(app, "k")
    assert editor.model.physics.name == "careful"
    assert editor.analysis_stale() and not editor.analysis_current() and editor.status_now() is None
    lines = [t for t, _, _ in editor.view.panel.side_lines()]
    assert "changed since analysis:" in lines and "press A" in lines
    assert "tight" not in lines and not any(t.startswith("V:") for t in lines)
    assert editor.view.badge()[0] == "UNCHECKED"
    letter(app, "v")
    assert not editor.solutions.visible and "changed since the analysis" in editor.message
    letter(app, "t")
    assert "changed since the analysis" in editor.message and "already tight" not in editor.message
    assert editor.analysing  # T analyses the level as it is now before it tightens anything


def test_removing_a_line_with_a_lemming_is_refused_by_name(app: App) -> None:
    editor = open_editor(app, EditorModel.from_level(Level.from_rows(UP_THERE, frames=20, budget=2)))
    before = editor.draft
    press(app, pygame.K_UP)  # the bottom line inside the border holds the lemming
    assert editor.draft == before and "can't remove the bottom row" in editor.message
    assert "it holds the lemming (row 3, column 1)" in editor.message
    press(app, pygame.K_UP, mod=CTRL)  # the top line holds the target
    assert editor.draft == before and "the target at row 1, column 7" in editor.message
    press(app, pygame.K_DOWN, mod=CTRL)  # a new empty row at the top
    assert editor.draft.height == 6 and editor.draft.grid[1] == "X        X"
    press(app, pygame.K_UP, mod=CTRL)  # an empty line goes at once
    assert editor.draft == before
    press(app, pygame.K_DOWN)
    editor.paint((4, 4), Tool.WALL)
    press(app, pygame.K_UP)  # a line holding walls: asked first
    prompt = app.top
    assert isinstance(prompt, ConfirmPrompt) and "1 wall" in prompt.question
    press(app, pygame.K_ESCAPE)
    assert editor.draft.height == 6 and editor.draft.char_at((4, 4)) == "X"
    press(app, pygame.K_UP)
    press(app, pygame.K_RETURN)
    assert editor.draft.grid == before.grid


def test_a_big_level_is_edited_at_its_size(app: App) -> None:
    rows = ["X" * 90] + ["X" + " " * 88 + "X" for _ in range(78)] + ["X" * 90]
    rows[78] = "X>" + " " * 86 + "TX"
    editor = open_editor(app, EditorModel.from_level(Level.from_rows(rows, frames=200, budget=0)))
    press(app, pygame.K_DOWN)
    assert (editor.draft.height, editor.draft.width) == (81, 90)
    level = editor.model.to_level()
    assert len(level.lemmings) == 1 and level.targets == ((78, 88),)


def test_saving_a_level_with_no_solution_asks_first(app: App) -> None:
    editor = open_editor(app, EditorModel.from_level(Level.from_rows(UP_THERE, frames=20, budget=2, title="Up")))
    # never analysed: the quick check finds the lemming that cannot get home
    press_save(app, CTRL)
    prompt = app.top
    assert isinstance(prompt, ConfirmPrompt) and "the lemming cannot reach any target" in prompt.question
    type_text(app, "n")
    assert app.top is editor
    letter(app, "a")
    wait_for_analysis(app, editor)
    assert editor.status_now() == "unsolvable" and editor.view.badge() == ("UNSOLVABLE", hud.RED)
    lines = [t for t, _, _ in editor.view.panel.side_lines()]
    assert any("the lemming cannot reach" in t for t in lines)
    press_save(app, CTRL)
    prompt = app.top
    assert isinstance(prompt, ConfirmPrompt)
    assert prompt.question.startswith("This level has no solution: the lemming cannot reach any target")
    assert prompt.question.endswith("Save anyway?")
    type_text(app, "y")  # saved at once: the level has a title
    assert app.top is editor and not editor.model.dirty
    assert [p.name for p in user_levels_dir().iterdir()] == ["up.txt"]


def test_the_check_before_saving_is_a_job_of_the_runner(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    editor = open_editor(app, EditorModel.from_level(Level.from_rows(UP_THERE, frames=20, budget=2, title="Up")))
    submitted: list[str] = []
    submit = app.jobs.submit

    def recording(job: Any, **kwargs: Any) -> Any:
        submitted.append(kwargs["label"])
        return submit(job, **kwargs)

    monkeypatch.setattr(app.jobs, "submit", recording)
    press_save(app, CTRL)
    assert submitted == ["save-check"]
    prompt = app.top
    assert isinstance(prompt, ConfirmPrompt) and "the lemming cannot reach any target" in prompt.question
    type_text(app, "n")
    assert app.top is editor and not list(user_levels_dir().glob("*.txt"))  # N: nothing saved


@pytest.mark.parametrize("size", [(800, 500), (1024, 600), (1280, 800)])
def test_every_palette_button_sits_above_the_footer_and_clicks(app: App, size: tuple[int, int]) -> None:
    editor = open_editor(app)
    buttons = palette_buttons(editor, size)
    assert len(buttons) == 4 + 8 + 1 + 7
    for b in buttons:
        assert b.rect.bottom <= size[1] - hud.BOTTOM_BAR and b.rect.right <= size[0], (b.label, b.rect)
    for a, b in zip(buttons, buttons[1:]):
        assert not a.rect.colliderect(b.rect), (a.label, b.label)
    lemming = next(b for b in buttons if b.icon == Tool.LEMMING.name)
    lemming.run()
    assert editor.tool == Tool.LEMMING


@pytest.mark.parametrize("size", [(800, 500), (1024, 600), (1280, 800)])
def test_every_tool_label_ends_inside_its_button(app: App, size: tuple[int, int]) -> None:
    editor = open_editor(app)
    tools = [b for b in palette_buttons(editor, size) if b.icon in Tool.__members__]
    assert [b.label for b in tools] == [tool.label for tool in Tool]
    for b in tools:
        x, font_size = tool_label_layout(b)
        assert font_size >= 14 and b.rect.left < x
        assert x + hud.text(b.label, font_size).get_width() <= b.rect.right - 4, (b.label, size)
