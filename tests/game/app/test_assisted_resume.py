"""Once the AI shows a solution of a level, its wins are AI-helped until a win with bricks the player placed,
whatever the bricks and across visits and relaunches (the resume store keeps the mark): driven by posted events,
the assistant's solve shown with S and applied with Enter, the level left through the pause menu, opened again,
and the game relaunched."""

from __future__ import annotations

import json

import pygame

from game.app.app import App
from game.app.assistant import assistant_of
from game.app.compose import build_app
from game.app.display import FixedClock
from game.app.scenes.menu import MenuScene
from game.app.scenes.play import BASE_FPS, PlayScene, PlayState
from game.app.scenes.play_draw import won_lines
from game.app.scenes.select import LevelSelectScene
from game.core.progress import ProgressStore, default_progress_path
from game.core.resume import default_resume_path
from tests.conftest import ORIGINAL_INDEX, ORIGINAL_KEY, ORIGINAL_SOLUTIONS
from tests.game.app.conftest import leave_level, press, run_until


def open_from_select(app: App) -> PlayScene:
    """Open The Original from the level select on top, as Enter on its card does."""
    select = app.top
    assert isinstance(select, LevelSelectScene)
    select.open(ORIGINAL_INDEX)
    scene = app.top
    assert isinstance(scene, PlayScene) and scene.key == ORIGINAL_KEY
    app.run_frames(1)
    return scene


def play_to_end(app: App, scene: PlayScene) -> None:
    press(app, pygame.K_SPACE, unicode=" ")
    app.run_frames(int(scene.level.frames / BASE_FPS * 60) + 10)
    assert scene.state == PlayState.WON


def test_an_ai_solution_left_on_the_board_is_still_ai_help_on_the_next_visit_and_after_a_relaunch(app: App) -> None:
    scene = open_from_menu(app)
    press(app, pygame.K_s)  # the assistant's solve, then Enter puts its bricks on the board
    assistant = assistant_of(scene)
    run_until(app, lambda: not assistant.busy and assistant.shown is not None, "the assistant's solve")
    shown = assistant.shown
    assert shown in ORIGINAL_SOLUTIONS
    press(app, pygame.K_RETURN)
    assert scene.bricks == shown and scene.assisted
    leave_level(app)  # not played: the bricks wait on the board for the next visit

    again = open_from_select(app)
    assert again.bricks == shown and again.assisted
    play_to_end(app, again)
    texts = [text for text, _ in won_lines(again)]
    assert any(text.startswith("solved with AI help") for text in texts) and not any("Par!" in t for t in texts)
    record = ProgressStore.load(default_progress_path()).records[ORIGINAL_KEY]
    assert record.assisted and record.own_best is None  # not the player's own win
    assert [(r.bricks, r.assisted) for r in record.replays] == [(tuple(sorted(shown)), True)]
    leave_level(app)
    saved = json.loads(default_resume_path().read_text())["boards"][ORIGINAL_KEY]
    assert saved == {"hash": again.level.puzzle_hash, "bricks": [list(b) for b in sorted(shown)], "assisted": True}

    relaunched = build_app(size=(1280, 800), clock=FixedClock())  # a relaunch, the level opened again
    pygame.event.clear()
    resumed = open_from_menu(relaunched)
    assert resumed.bricks == shown and resumed.assisted
    press(relaunched, pygame.K_BACKSPACE)  # the player clears the board and places bricks: the win with the
    for cell in shown:  # AI's bricks left them AI-helped, as when the solution was applied in this visit
        resumed.click_cell(cell)
    play_to_end(relaunched, resumed)
    assert any(text.startswith("solved with AI help") for text, _ in won_lines(resumed))
    assert ProgressStore.load(default_progress_path()).records[ORIGINAL_KEY].own_best is None
    assert not relaunched.resume.assisted_for(ORIGINAL_KEY, resumed.level.puzzle_hash)  # spent by that win


def open_from_menu(app: App) -> PlayScene:
    """The title menu, the level select over it, and the level it focuses opened."""
    app.push(MenuScene(app))
    app.push(LevelSelectScene(app))
    return open_from_select(app)


def show_solution(app: App, scene: PlayScene) -> tuple[tuple[int, int], ...]:
    """S: the assistant's solution on screen (not applied)."""
    press(app, pygame.K_s)
    assistant = assistant_of(scene)
    run_until(app, lambda: not assistant.busy and assistant.shown is not None, "the assistant's solve")
    shown = assistant.shown
    assert shown is not None and shown in ORIGINAL_SOLUTIONS
    return shown


def place_by_hand(app: App, scene: PlayScene, bricks: tuple[tuple[int, int], ...]) -> None:
    """Backspace clears the board, then each brick is clicked."""
    press(app, pygame.K_BACKSPACE)
    assert scene.bricks == ()
    for cell in bricks:
        assert scene.click_cell(cell).ok


def test_a_solution_applied_then_cleared_before_leaving_still_makes_the_next_win_ai_help(app: App) -> None:
    scene = open_from_menu(app)
    shown = show_solution(app, scene)
    press(app, pygame.K_RETURN)
    press(app, pygame.K_BACKSPACE)  # nothing of the AI's answer is left on the board
    leave_level(app)
    saved = json.loads(default_resume_path().read_text())["boards"][ORIGINAL_KEY]
    assert saved == {"hash": scene.level.puzzle_hash, "bricks": [], "assisted": True}
    again = open_from_select(app)
    assert again.bricks == () and again.assisted
    place_by_hand(app, again, shown)
    play_to_end(app, again)
    texts = [text for text, _ in won_lines(again)]
    assert "solved with AI help (marked in the level list)" in texts and not any("Par!" in t for t in texts)
    assert "AI help counts until a win with bricks you placed" in texts
    assert ProgressStore.load(default_progress_path()).records[ORIGINAL_KEY].own_best is None
    place_by_hand(app, again, shown)  # the mark went with that win: the next one is the player's own
    assert not again.assisted
    play_to_end(app, again)
    assert not any(text.startswith("solved with AI help") for text, _ in won_lines(again))
    assert ProgressStore.load(default_progress_path()).records[ORIGINAL_KEY].own_best == len(shown)


def test_a_solution_only_shown_then_copied_by_hand_in_the_same_visit_is_ai_help(app: App) -> None:
    scene = open_from_menu(app)
    shown = show_solution(app, scene)
    press(app, pygame.K_ESCAPE)  # hidden again, never applied
    assert assistant_of(scene).shown is None
    place_by_hand(app, scene, shown)
    play_to_end(app, scene)
    assert any(text.startswith("solved with AI help") for text, _ in won_lines(scene))
    record = ProgressStore.load(default_progress_path()).records[ORIGINAL_KEY]
    assert record.assisted and record.own_best is None


def test_a_solution_applied_cleared_and_placed_by_hand_in_the_same_visit_is_ai_help(app: App) -> None:
    scene = open_from_menu(app)
    shown = show_solution(app, scene)
    press(app, pygame.K_RETURN)
    place_by_hand(app, scene, shown)
    play_to_end(app, scene)
    assert any(text.startswith("solved with AI help") for text, _ in won_lines(scene))
    assert ProgressStore.load(default_progress_path()).records[ORIGINAL_KEY].own_best is None
