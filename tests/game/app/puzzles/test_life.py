"""The Reverse Life screen, headless, driven by posted events; the AI runs through the app's job runner."""

from __future__ import annotations

import numpy as np
import pygame

from game.core.puzzles.life.puzzle import LifePuzzle
from game.app.app import App
from game.app.puzzles.life import LifeScene
from tests.game.app.conftest import click, press

BLINKER = LifePuzzle.from_text("title: Blinker\nsteps: 1\n.......\n.......\n.......\n..###..\n.......\n.......\n"
                               ".......\n")
#: A 6x6 target whose predecessors share 12 live cells (found by the backbone and brute force).
FORCED = LifePuzzle.from_text("steps: 1\n..#..#\n...#..\n##...#\n######\n#..#..\n.##.##\n")
FORCED_ALIVE = {(0, 5), (1, 3), (1, 5), (2, 0), (2, 4), (2, 5), (3, 1), (3, 2), (3, 3), (4, 2), (5, 1), (5, 5)}
GLIDER = LifePuzzle.from_text("title: Glider\nsteps: 2\n........\n..#.....\n...#....\n.###....\n........\n"
                              "........\n........\n........\n")


def test_paint_with_keys_and_mouse_undo_and_win(app: App) -> None:
    scene = LifeScene(app, [BLINKER, GLIDER])
    app.push(scene)
    app.run_frames(1)
    assert scene.model is not None and not scene.model.solved
    press(app, pygame.K_DOWN, frames=1)
    press(app, pygame.K_DOWN, frames=1)
    for _ in range(3):
        press(app, pygame.K_RIGHT)
    press(app, pygame.K_SPACE, unicode=" ")  # (2, 3)
    press(app, pygame.K_DOWN)
    press(app, pygame.K_SPACE, unicode=" ")  # (3, 3)
    assert scene.model.start.sum() == 2
    cell, rects = scene._boards(app.screen.get_size())
    click(app, (rects[0].x + 3 * cell + cell // 2, rects[0].y + 4 * cell + cell // 2))  # (4, 3)
    assert scene.model.solved and "Solved" in scene.message
    press(app, pygame.K_z, unicode="z")
    assert not scene.model.solved and scene.model.start.sum() == 2
    press(app, pygame.K_y, unicode="y")
    assert scene.model.solved
    press(app, pygame.K_BACKSPACE)
    assert scene.model.start.sum() == 0
    press(app, pygame.K_RIGHTBRACKET, unicode="]")
    assert scene.model.puzzle is GLIDER and scene.view_step == 2
    press(app, pygame.K_COMMA, unicode=",")
    assert scene.view_step == 1


def test_solve_and_hint_through_the_job_runner(app: App) -> None:
    scene = LifeScene(app, [FORCED, GLIDER], ai_time_limit=None)
    app.push(scene)
    app.run_frames(1)
    press(app, pygame.K_h, unicode="h")
    scene.wait()
    assert scene.hint_cell in FORCED_ALIVE and "alive in every start" in scene.message, scene.message
    press(app, pygame.K_RIGHTBRACKET, unicode="]")
    press(app, pygame.K_s, unicode="s")
    scene.wait()
    assert scene.model is not None and scene.model.solved
    assert np.array_equal(scene.model.generation(2), GLIDER.target)
    press(app, pygame.K_z, unicode="z")  # the AI's answer is undoable
    assert not scene.model.solved
    press(app, pygame.K_ESCAPE)
    assert scene not in app.scenes


def test_shipped_pack_opens(app: App) -> None:
    scene = LifeScene(app)
    app.push(scene)
    app.run_frames(2)
    assert scene.model is not None and len(scene.puzzles) >= 10 and not scene.error


def test_an_answer_for_a_puzzle_left_behind_is_dropped(app: App) -> None:
    scene = LifeScene(app, [GLIDER, BLINKER], ai_time_limit=None, use_processes=False)
    app.push(scene)
    press(app, pygame.K_s, unicode="s")
    job = scene.job
    assert job is not None
    press(app, pygame.K_RIGHTBRACKET, unicode="]")  # to the blinker before the answer is taken
    job.wait(120.0)
    app.run_frames(2)
    assert scene.model is not None and scene.model.puzzle is BLINKER and scene.model.start.sum() == 0
