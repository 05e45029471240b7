"""The replay browser in level select: W lists the saved winning runs; Enter watches one."""

from __future__ import annotations

import pygame

from game.core.catalog import pack_entries
from game.app.app import App
from game.app.scenes.play import BASE_FPS, PlayScene, PlayState
from game.app.scenes.replays import ReplayScene
from game.app.scenes.select import LevelSelectScene
from tests.conftest import ORIGINAL_INDEX, ORIGINAL_KEY, ORIGINAL_SOLUTIONS
from tests.game.app.conftest import press


def test_watch_a_saved_winning_run_from_level_select(app: App) -> None:
    entries = pack_entries()
    original = entries[ORIGINAL_INDEX]
    solution = sorted(ORIGINAL_SOLUTIONS)[0]
    app.progress.record_win(ORIGINAL_KEY, original.level, solution)
    attempts = app.progress.records[ORIGINAL_KEY].attempts
    select = app.push(LevelSelectScene(app, entries=entries))
    assert isinstance(select, LevelSelectScene)
    select.cursor = ORIGINAL_INDEX
    press(app, pygame.K_w, unicode="w")
    browser = app.top
    assert isinstance(browser, ReplayScene) and [r.bricks for r in browser.replays] == [tuple(sorted(solution))]
    app.run_frames(1)
    press(app, pygame.K_RETURN)
    play = app.top
    assert isinstance(play, PlayScene) and play.key is None and play.bricks == tuple(sorted(solution))
    assert play.state == PlayState.RUNNING and play.title.startswith("Replay")
    app.run_frames(int(play.level.frames / BASE_FPS * 60) + 10)
    assert play.state == PlayState.WON
    assert app.progress.records[ORIGINAL_KEY].attempts == attempts  # watching records nothing
    press(app, pygame.K_END)
    assert play.frame == play.last_frame


def test_a_level_without_replays_says_so(app: App) -> None:
    entries = pack_entries()
    browser = app.push(ReplayScene(app, entries[0]))
    assert isinstance(browser, ReplayScene) and browser.replays == []
    app.run_frames(1)
    press(app, pygame.K_RETURN)
    assert app.top is browser
