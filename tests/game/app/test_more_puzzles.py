"""The "More puzzles" screen and the Minesweeper scene, driven headless by posted events."""

from __future__ import annotations

import pygame

from game.app.jobs import Execution
from game.core.puzzles.mines import Difficulty, MinesStatus
from game.app.app import App
from game.app.scenes.menu import MenuScene
from game.app.puzzles.mines import MinesScene
from game.app.scenes.more_puzzles import MENU_LABEL, MorePuzzlesScene
from tests.game.app.conftest import click, press


def test_every_puzzle_opens_from_the_screen_by_its_key(app: App) -> None:
    screen = app.push(MorePuzzlesScene(app))
    assert isinstance(screen, MorePuzzlesScene)
    assert [(e.key, e.title) for e in screen.puzzles] == [
        ("life", "Reverse Life"), ("pegs", "Peg solitaire"), ("mines", "Minesweeper")]
    for i, entry in enumerate(screen.puzzles):
        screen.open(i)
        assert type(app.top) is entry.scene and app.showing(entry.key)
        app.pop()
        assert app.top is screen


def test_menu_opens_more_puzzles_then_minesweeper(app: App) -> None:
    menu = app.push(MenuScene(app))
    assert isinstance(menu, MenuScene)
    labels = [label for label, _ in menu.items()]
    assert labels.count(MENU_LABEL) == 1
    menu.activate(labels.index(MENU_LABEL))
    screen = app.top
    assert isinstance(screen, MorePuzzlesScene)
    titles = [e.title for e in screen.puzzles]
    assert "Minesweeper" in titles
    for _ in range(titles.index("Minesweeper")):
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    assert isinstance(app.top, MinesScene)
    press(app, pygame.K_ESCAPE)
    back: object = app.top
    assert back is screen
    press(app, pygame.K_ESCAPE)
    last: object = app.top
    assert last is menu


def test_more_puzzles_opens_a_puzzle_by_mouse(app: App) -> None:
    screen = app.push(MorePuzzlesScene(app))
    assert isinstance(screen, MorePuzzlesScene)
    app.run_frames(1)
    i = [e.title for e in screen.puzzles].index("Minesweeper")
    click(app, screen._rects(app.screen.get_size())[i].center)
    assert isinstance(app.top, MinesScene)


def scene_on(app: App, **kwargs: object) -> MinesScene:
    scene = app.push(MinesScene(app, seed=11, execution=Execution.THREAD, **kwargs))  # type: ignore[arg-type]
    assert isinstance(scene, MinesScene)
    app.run_frames(1)
    return scene


def test_click_reveals_right_click_flags(app: App) -> None:
    scene = scene_on(app)
    lay = scene.layout(app.screen.get_size())
    click(app, lay.cell_rect(8, 8).center)
    assert scene.board.status in (MinesStatus.PLAYING, MinesStatus.WON)
    assert (8, 8) in scene.board.revealed and (8, 8) not in scene.board.mine_set
    hidden = next((r, c) for r in range(9) for c in range(9) if (r, c) not in scene.board.revealed)
    click(app, (lay.cell_rect(*hidden).x + 2, lay.cell_rect(*hidden).y + 2), button=3)
    assert hidden in scene.board.flags


def test_keyboard_play_and_difficulty_choice(app: App) -> None:
    scene = scene_on(app)
    press(app, pygame.K_3, unicode="3")
    assert (scene.board.width, scene.board.height, scene.board.mines) == Difficulty.EXPERT.size
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_DOWN)
    assert scene.cursor == (1, 1)
    press(app, pygame.K_f, unicode="f")
    assert (1, 1) in scene.board.flags
    press(app, pygame.K_f, unicode="f")
    press(app, pygame.K_RETURN)
    assert (1, 1) in scene.board.revealed
    press(app, pygame.K_4, unicode="4")
    w, h, m = scene.custom
    press(app, pygame.K_EQUALS, unicode="=")
    press(app, pygame.K_RIGHTBRACKET, unicode="]")
    assert scene.difficulty is None and (scene.board.width, scene.board.height, scene.board.mines) == (w + 1, h + 1, m + 1)


def test_assistant_overlay_and_auto_play(app: App) -> None:
    scene = scene_on(app)
    press(app, pygame.K_s, unicode="s")  # first step: the corner
    assert (0, 0) in scene.board.revealed
    press(app, pygame.K_h, unicode="h")
    scene.wait()
    assert scene.analysis is not None and scene.analysed_view == scene.board.view()
    unknown = set(scene.board.view().unknown())
    assert set(scene.analysis.probability) == unknown
    assert sum(scene.analysis.probability.values()) == scene.board.mines
    app.run_frames(1)  # the overlay draws
    press(app, pygame.K_a, unicode="a")
    for _ in range(400):
        if scene.board.status != MinesStatus.PLAYING:
            break
        scene.wait()
        app.run_frames(20)
    assert scene.board.status in (MinesStatus.WON, MinesStatus.LOST)
    assert scene.auto_play is False


def test_the_analysis_runs_in_a_child_process(app: App) -> None:
    scene = app.push(MinesScene(app, Difficulty.INTERMEDIATE, seed=5))
    assert isinstance(scene, MinesScene) and scene.execution is None
    assert app.jobs.execution == Execution.CHILD_PROCESS
    scene.reveal(0, 0)
    press(app, pygame.K_h, unicode="h")
    scene.wait()
    assert scene.analysis is not None and scene.analysed_view == scene.board.view()
    assert scene.analysis.safe.isdisjoint(scene.board.mine_set)
    press(app, pygame.K_ESCAPE)
    assert not isinstance(app.top, MinesScene)
