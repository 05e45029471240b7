"""Endless: levels made by the UI worker's child process, rising by measured rating, progress kept across launches."""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai.facade import SolveContext
from game.core.endless_record import EndlessRecord, KeptLevel, load_record, save_record
from game.core.level import Level
from game.app.app import App
from game.app.scenes.endless import EndlessLevel, EndlessScene, difficulty, make_endless_level
from game.app.scenes.menu import MenuScene
from game.app.scenes.pause import PauseChoice, PauseScene
from game.app.scenes.play import PlayScene, PlayState
from game.app.scenes.play_draw import footer_hints, intro_heading, won_lines, won_next
from tests.game.app.conftest import leave_level, press


def gap_maker(step: int, seed: int, previous: float | None, ctx: SolveContext) -> EndlessLevel:
    """A stand-in generator: runs in the worker's child process like the real one and says where."""
    level = Level.from_rows(["> ..T", "XX.XX"], frames=9, budget=1).with_meta("title", f"Endless {step} \u00b7 Gap")
    level = level.with_meta("maker-pid", str(os.getpid()))
    return EndlessLevel(step, level, difficulty(step), 0.0, 4.0 + step)


@dataclass(frozen=True)
class CountingMaker:
    """The gap maker, writing one line per level made (in the worker's child process) to ``log``."""

    log: Path

    def __call__(self, step: int, seed: int, previous: float | None, ctx: SolveContext) -> EndlessLevel:
        with self.log.open("a", encoding="utf-8") as handle:
            handle.write(f"{step}\n")
        return gap_maker(step, seed, previous, ctx)

    def made(self, step: int) -> int:
        """How many times the level of ``step`` was made."""
        lines = self.log.read_text(encoding="utf-8").split() if self.log.exists() else []
        return lines.count(str(step))


def wait_for_play(app: App, timeout: float = 20.0) -> PlayScene:
    deadline = time.monotonic() + timeout
    while not isinstance(app.top, PlayScene) and time.monotonic() < deadline:
        app.run_frames(1)
        time.sleep(0.005)
    assert isinstance(app.top, PlayScene)
    return app.top


def start_endless(app: App, record: Path) -> tuple[EndlessScene, PlayScene]:
    """Endless from the title menu (seed 5, the gap maker, ``record`` as its file), up to its first level."""
    app.push(MenuScene(app))
    endless = app.push(EndlessScene(app, seed=5, make_level=gap_maker, record_path=record))
    assert isinstance(endless, EndlessScene)
    return endless, wait_for_play(app)


def win(app: App, play: PlayScene) -> None:
    play.apply_bricks([(1, 2)])
    press(app, pygame.K_SPACE, unicode=" ", frames=120)
    assert play.state == PlayState.WON


def quit_to_menu(app: App) -> None:
    """Leave the level being played by the pause menu's "Quit to menu" (it asks first)."""
    press(app, pygame.K_ESCAPE)
    pause = app.top
    assert isinstance(pause, PauseScene)
    for _ in range(pause.choices.index(PauseChoice.QUIT)):
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    assert pause.asking == PauseChoice.QUIT
    press(app, pygame.K_RETURN)
    assert isinstance(app.top, MenuScene)


def test_the_title_card_names_an_endless_level_as_endless(app: App, tmp_path: Path) -> None:
    app.push(MenuScene(app))
    app.push(EndlessScene(app, seed=5, make_level=gap_maker, record_path=tmp_path / "endless.json"))
    play = wait_for_play(app)
    assert play.badge_label() == "E1"
    assert intro_heading(play) == "Endless level E1"  # not one of the player's own levels


def test_endless_runs_in_the_worker_child_and_keeps_progress(app: App, tmp_path: Path) -> None:
    record = tmp_path / "endless.json"
    endless, play = start_endless(app, record)
    assert play.level.meta_value("maker-pid") not in ("", str(os.getpid()))  # made in a child process
    assert play.title == "Endless 1 \u00b7 Gap" and "Play-test" not in play.title
    assert play.playlist and play.index == 0  # the title card reads "Level 1", not "Play-test"
    win(app, play)
    press(app, pygame.K_RETURN)
    play = wait_for_play(app)
    assert endless.solved == 1 and play.title == "Endless 2 \u00b7 Gap" and play.index == 1
    win(app, play)
    press(app, pygame.K_RETURN)
    play = wait_for_play(app)
    leave_level(app)  # give up level 3: the streak ends, Enter retries
    assert app.top is endless and endless.record.streak == 0 and endless.record.best_streak == 2
    saved = json.loads(record.read_text())
    assert (saved["step"], saved["solved"], saved["best_streak"], saved["seed"]) == (3, 2, 2, 5)
    press(app, pygame.K_RETURN)
    assert isinstance(app.top, PlayScene) and app.top.title == "Endless 3 \u00b7 Gap"
    leave_level(app)
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.top, MenuScene)
    # A relaunch continues at step 3 with the best streak kept.
    again = app.push(EndlessScene(app, make_level=gap_maker, record_path=record))
    assert isinstance(again, EndlessScene)
    assert again.record.step == 3 and again.record.best_streak == 2 and again.record.seed == 5
    play = wait_for_play(app)
    assert play.title == "Endless 3 \u00b7 Gap"


def test_a_corrupt_record_starts_afresh_and_is_kept_aside(tmp_path: Path) -> None:
    path = tmp_path / "endless.json"
    path.write_text("{not json")
    record, problem = load_record(path)
    assert record.step == 1 and "unreadable" in problem
    (aside,) = tmp_path.glob("endless.json.corrupt-*")
    assert aside.read_text() == "{not json" and not path.exists()
    path.write_text(json.dumps({"seed": 1, "step": 0, "solved": 0, "streak": 0, "best_streak": 0}))
    record, problem = load_record(path)
    assert record.step == 1 and "step starts at 1" in problem


def test_save_merges_the_best_streak_of_another_game(tmp_path: Path) -> None:
    path = tmp_path / "endless.json"
    save_record(EndlessRecord(seed=1, step=9, solved=8, streak=8, best_streak=8), path)
    merged = save_record(EndlessRecord(seed=1, step=3, solved=2, streak=2, best_streak=2), path)
    assert merged.best_streak == 8 and load_record(path)[0].best_streak == 8


def test_real_endless_levels_are_titled_and_rated() -> None:
    first = make_endless_level(1, 3, None)
    assert first is not None and first.level.title.startswith("Endless 1 \u00b7 ")
    assert first.score is not None and first.level.budget == difficulty(1).bricks
    second = make_endless_level(2, 3, first.score)
    assert second is not None and second.score is not None and second.score >= first.score


@pytest.mark.parametrize("step", [1])
def test_the_generator_error_is_shown_not_raised(app: App, tmp_path: Path, step: int) -> None:
    def broken(step: int, seed: int, previous: float | None, ctx: SolveContext) -> EndlessLevel:
        raise RuntimeError("boom")

    endless = app.push(EndlessScene(app, seed=1, make_level=broken, record_path=tmp_path / "e.json"))
    assert isinstance(endless, EndlessScene)
    deadline = time.monotonic() + 20
    while not endless.error and time.monotonic() < deadline:
        app.run_frames(1)
        time.sleep(0.005)
    assert "boom" in endless.error
    press(app, pygame.K_ESCAPE)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**6) | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["seed", "step", "solved", "streak", "best_streak", "last_score", "x"]), inner, max_size=7),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(JSON)
def test_any_saved_json_loads_to_a_valid_record(tmp_path_factory: pytest.TempPathFactory, data: Any) -> None:
    path = tmp_path_factory.mktemp("rec") / "endless.json"
    path.write_text(json.dumps(data))
    record, problem = load_record(path)
    assert record.step >= 1 and record.best_streak >= record.streak >= 0 and record.solved >= 0
    if problem:
        assert not path.exists() and len(list(path.parent.glob("endless.json.corrupt-*"))) == 1
    else:
        assert record == EndlessRecord.from_json(data)


def test_streak_shows_speed_carries_and_quitting_to_the_menu_keeps_the_streak(app: App, tmp_path: Path) -> None:
    record = tmp_path / "endless.json"
    endless, play = start_endless(app, record)
    assert play.note() == "streak 0"
    press(app, pygame.K_PLUS, unicode="+")
    assert play.speed == 2
    win(app, play)
    press(app, pygame.K_RETURN)
    play = wait_for_play(app)
    assert play.note() == "streak 1" and play.speed == 2  # the streak in the top bar; the speed kept
    play.draw(pygame.Surface((800, 500)))  # the note fits the narrow top bar
    quit_to_menu(app)
    # quitting to the menu puts the level aside, as closing the window does: the streak is kept
    assert load_record(record)[0].streak == 1
    again = app.push(EndlessScene(app, make_level=gap_maker, record_path=record))
    assert isinstance(again, EndlessScene) and again.record.streak == 1 and again.record.step == 2


def test_a_won_endless_level_counts_in_the_streak_and_enter_offers_the_next_level(app: App, tmp_path: Path) -> None:
    app.push(MenuScene(app))
    app.push(EndlessScene(app, seed=5, make_level=gap_maker, record_path=tmp_path / "endless.json"))
    play = wait_for_play(app)
    assert play.note() == "streak 0"
    win(app, play)
    assert play.note() == "streak 1"  # the top bar over the win card counts this level
    assert won_next(play) == "next level" and ("Enter", "next level") in footer_hints(play)
    press(app, pygame.K_RETURN)
    following = wait_for_play(app)
    assert following is not play and following.title == "Endless 2 \u00b7 Gap"  # what Enter said it opens
    assert following.note() == "streak 1"


def test_an_endless_win_with_ai_help_does_not_point_to_a_level_list(app: App, tmp_path: Path) -> None:
    app.push(MenuScene(app))
    app.push(EndlessScene(app, seed=5, make_level=gap_maker, record_path=tmp_path / "endless.json"))
    play = wait_for_play(app)
    win(app, play)  # with bricks given by the AI (apply_bricks)
    texts = [text for text, _ in won_lines(play)]
    assert "solved with AI help" in texts and not any("level list" in text for text in texts)


def test_a_record_edited_during_play_is_kept_aside_and_the_player_told(app: App, tmp_path: Path) -> None:
    record = tmp_path / "endless.json"
    endless, play = start_endless(app, record)
    edited = json.dumps({"seed": 5, "step": 30, "solved": 29, "streak": 0, "best_streak": 12})
    record.write_text(edited)  # edited by hand while the level is played
    win(app, play)
    press(app, pygame.K_RETURN)  # back to the ladder: the win is saved
    (aside,) = tmp_path.glob("endless.json.corrupt-*")
    assert aside.read_text() == edited
    assert json.loads(record.read_text())["best_streak"] == 12 and endless.record.step == 2
    assert any(f"kept as {aside.name}" in str(text) for text, _ in app.toasts)


def test_coming_back_from_the_menu_plays_the_same_level_without_making_it_again(app: App, tmp_path: Path) -> None:
    record = tmp_path / "endless.json"
    maker = CountingMaker(tmp_path / "made.log")
    app.push(MenuScene(app))
    app.push(EndlessScene(app, seed=5, make_level=maker, record_path=record))
    win(app, wait_for_play(app))
    press(app, pygame.K_RETURN)
    play = wait_for_play(app)  # step 2
    quit_to_menu(app)
    for visit in range(2):
        app.push(EndlessScene(app, make_level=maker, record_path=record))
        app.run_frames(1)
        again = app.top
        assert isinstance(again, PlayScene), f"visit {visit}: not shown at once"  # no "generating" card
        assert again.level == play.level and again.title == "Endless 2 \u00b7 Gap"  # the same level, same maker
        quit_to_menu(app)
    assert (maker.made(1), maker.made(2)) == (1, 1)
    assert load_record(record)[0].step == 2


@pytest.mark.parametrize("kept", [{"seed": 5, "step": 2, "score": 1.0, "text": "9\n1\n> ?T\nXXXX\n"},
                                  KeptLevel(5, 7, Level.from_rows(["> T", "XXX"], 4, 0)).to_json()])
def test_a_damaged_or_stale_kept_level_is_made_again_without_a_word(app: App, tmp_path: Path,
                                                                     kept: dict[str, Any]) -> None:
    record = tmp_path / "endless.json"
    record.write_text(json.dumps({"seed": 5, "step": 2, "solved": 1, "streak": 1, "best_streak": 1,
                                  "last_score": 5.0, "level": kept}))
    maker = CountingMaker(tmp_path / "made.log")
    app.push(MenuScene(app))
    app.push(EndlessScene(app, make_level=maker, record_path=record))
    play = wait_for_play(app)
    assert play.title == "Endless 2 \u00b7 Gap" and maker.made(2) == 1
    assert app.toasts == [] and not list(tmp_path.glob("*.corrupt-*"))
    saved = load_record(record)[0].kept_level()
    assert saved is not None and saved.level == play.level  # kept in its place for the next visit


def test_coming_back_from_the_menu_keeps_the_levels_made_ahead(app: App, tmp_path: Path) -> None:
    record = tmp_path / "endless.json"
    maker = CountingMaker(tmp_path / "made.log")
    app.push(MenuScene(app))
    endless = app.push(EndlessScene(app, seed=5, make_level=maker, record_path=record))
    assert isinstance(endless, EndlessScene)
    wait_for_play(app)  # step 1; step 2 is made ahead while it is played
    deadline = time.monotonic() + 20
    while not endless.ready and time.monotonic() < deadline:
        app.run_frames(1)
        time.sleep(0.005)
    assert [lv.step for lv in endless.ready] == [2]
    assert [kept["step"] for kept in json.loads(record.read_text())["ahead"]] == [2]
    quit_to_menu(app)
    back = app.push(EndlessScene(app, make_level=maker, record_path=record))
    assert isinstance(back, EndlessScene) and [lv.step for lv in back.ready] == [2]
    win(app, wait_for_play(app))
    press(app, pygame.K_RETURN)
    app.run_frames(1)
    play = app.top
    assert isinstance(play, PlayScene) and play.title == "Endless 2 \u00b7 Gap"  # at once: no "generating" card
    assert (maker.made(1), maker.made(2)) == (1, 1)
    saved = load_record(record)[0]
    assert saved.step == 2 and saved.kept_level() is not None and saved.kept_level().level == play.level
