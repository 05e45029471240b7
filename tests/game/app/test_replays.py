"""The replay browser in level select: W lists the saved winning runs; Enter watches one."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.core.catalog import pack_entries
from game.core.level import Level
from game.core.progress import ProgressStore, default_progress_path
from game.app.app import App
from game.app.compose import build_app
from game.app.display import FixedClock
from game.app.scenes.play import BASE_FPS, PlayScene, PlayState
from game.app.scenes import play_draw
from game.app.scenes.replays import ReplayScene, replay_label
from game.app.scenes.select import LevelSelectScene
from game.app.scenes.timeline import timeline_rect
from tests.conftest import ORIGINAL_INDEX, ORIGINAL_KEY, ORIGINAL_SOLUTIONS
from tests.game.app.conftest import click, press


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
    assert browser.hints() == [("Esc", "levels")]  # nothing to choose nor watch


def test_w_on_a_locked_level_says_what_opens_it(app: App) -> None:
    """A level of a locked world cannot be won yet: its replays screen says what opens it, not "win this level"."""
    select = app.push(LevelSelectScene(app, entries=pack_entries()))
    app.run_frames(1)
    select.cursor = 12  # World 2, locked
    press(app, pygame.K_w, unicode="w")
    browser = app.top
    assert isinstance(browser, ReplayScene) and browser.replays == []
    assert browser.empty_text() == [
        "World 2 \u00b7 Rising Ground is locked: solve 7 more levels of World 1 \u00b7 First Steps to play this level.",
        "Its winning runs are kept here."]
    press(app, pygame.K_ESCAPE)
    select.cursor = 0  # World 1 is open: win it and the run is kept
    press(app, pygame.K_w, unicode="w")
    browser = app.top
    assert isinstance(browser, ReplayScene)
    assert browser.empty_text() == ["No saved winning runs yet: win this level and it is kept here."]


def test_a_run_on_an_older_version_says_why_it_cannot_be_watched(app: App) -> None:
    original = pack_entries()[ORIGINAL_INDEX]
    older = original.level.with_limits(frames=original.level.frames + 1)
    app.progress.record_win(ORIGINAL_KEY, older, sorted(ORIGINAL_SOLUTIONS)[0])
    browser = app.push(ReplayScene(app, original))
    assert isinstance(browser, ReplayScene) and not browser.current(browser.replays[0])
    app.run_frames(1)
    press(app, pygame.K_RETURN)
    assert app.top is browser
    assert [str(text) for text, _ in app.toasts] == [
        "This run was won on an older version of the level: it cannot be watched"]


def test_the_list_says_whose_run_it_was_and_watching_only_watches(app: App,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    entries = pack_entries()
    original = entries[ORIGINAL_INDEX]
    mine, ai = sorted(ORIGINAL_SOLUTIONS)[:2]
    app.progress.record_win(ORIGINAL_KEY, original.level, mine)
    app.progress.record_win(ORIGINAL_KEY, original.level, ai, assisted=True)
    saved = ProgressStore.load(default_progress_path()).records[ORIGINAL_KEY].replays
    assert {r.bricks: r.assisted for r in saved} == {tuple(sorted(mine)): False, tuple(sorted(ai)): True}
    browser = app.push(ReplayScene(app, original))
    assert isinstance(browser, ReplayScene)
    app.run_frames(1)
    labels = [replay_label(r, True) for r in browser.replays]
    assert sorted("AI solution" in label for label in labels) == [False, True]
    assert sum("your run" in label for label in labels) == 1
    browser.cursor = next(i for i, r in enumerate(browser.replays) if r.assisted)
    press(app, pygame.K_RETURN)
    play = app.top
    assert isinstance(play, PlayScene) and play.watching and "AI solution" in play.title
    assert list(play.extensions) == ["timeline"]  # no hints nor solver
    keys = {key for key, _ in play._hints()}
    assert not keys & {"Click", "H", "S", "A", "Tab", "Z/Y"}
    bricks = play.bricks
    click(app, play.layout().cell_center(1, 1))
    press(app, pygame.K_c, unicode="c")
    press(app, pygame.K_z, unicode="z")
    assert play.bricks == bricks and play.state == PlayState.RUNNING  # nothing edits a replay
    drawn: list[str] = []
    monkeypatch.setattr(play_draw, "draw_confetti", lambda *a: drawn.append("confetti"))
    monkeypatch.setattr(play_draw, "won_lines", lambda *a: drawn.append("Level complete!") or [])
    app.run_frames(int(play.level.frames / BASE_FPS * 60) + 10)
    assert play.state == PlayState.WON and drawn == []
    assert {key for key, _ in play._hints()} >= {"Enter", "Space"}
    press(app, pygame.K_RETURN)
    assert app.top is browser  # Enter at the end goes back to the list


def _watched_to_the_end(app: App) -> tuple[PlayScene, pygame.Rect, pygame.Rect]:
    """Run the replay on top of ``app`` to its end: the play scene, its end panel, and the rect around the
    cells where the lemmings stand at the last frame."""
    play = app.top
    assert isinstance(play, PlayScene) and play.watching
    app.run_frames(int(play.level.frames / BASE_FPS * 60) + 10)
    assert play.state == PlayState.WON
    surface = pygame.Surface(app.screen.get_size())
    box = play_draw.draw_result(play, surface, play.layout())
    assert box is not None
    layout = play.layout()
    cells = [layout.cell_rect(r, c) for r, c, _ in play.run.states_at(play.last_frame)]
    return play, box, cells[0].unionall(cells)


def test_the_end_of_a_replay_leaves_the_lemming_at_a_low_exit_in_view(data_home: Path) -> None:
    """Level 1's exit is low on the board: at 800x500 "End of the replay" goes high, clear of the lemming
    standing on it, as the play screen's panels do."""
    small = build_app(size=(800, 500), clock=FixedClock())
    entries = pack_entries()
    small.progress.record_win(entries[0].key, entries[0].level, ())
    select = small.push(LevelSelectScene(small, entries=entries))
    assert isinstance(select, LevelSelectScene)
    select.cursor = 0
    press(small, pygame.K_w, unicode="w")
    small.run_frames(1)
    press(small, pygame.K_RETURN)
    play, box, lemmings = _watched_to_the_end(small)
    assert not box.colliderect(lemmings) and box.bottom < lemmings.top


def test_the_end_of_a_replay_stays_above_the_timeline_when_the_exit_is_high(data_home: Path) -> None:
    small = build_app(size=(800, 500), clock=FixedClock())
    level = Level.from_rows([">  T", "XXXX", "X  X", "X  X", "XXXX"], frames=12, budget=0)
    play = small.open("play", level, key=None, title="Replay", back_label="replays", watching=True)
    play.apply_bricks((), assisted=False)
    play.toggle_run()
    _, box, lemmings = _watched_to_the_end(small)
    strip = timeline_rect(small.screen.get_size())
    assert not box.colliderect(lemmings) and box.bottom <= strip.top and box.top > lemmings.bottom
