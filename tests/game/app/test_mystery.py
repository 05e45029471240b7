"""Mystery worlds in the real app (headless, posted events): the world card once per world, the preview off
until the first release, the timeline showing only what was watched, what the AI learned after each run,
and the hint opening on the rule difference."""

from __future__ import annotations

import dataclasses

import pygame

from ai import facade
from game.core.catalog import pack_entries
from game.core.mystery import FIRST_VISIT_MESSAGE, PREVIEW_LOCKED, PREVIEW_OFF
from game.core.physics import CLASSIC
from game.core.playback import PlayState
from game.core.progress import ProgressStore, default_progress_path
from game.app import hud
from game.app.app import App
from game.app.assistant.answers import press_again, with_hint
from game.app.assistant.state import AssistantState
from game.app.scenes.mystery import CARD_DELAY, WATCH_FIRST, MysteryGuide, WorldCardScene
from game.app.scenes.mystery_draw import NOT_SURE, panel_text
from game.app.scenes.play import BASE_FPS, PlayScene
from game.app.scenes.play_draw import footer_keep
from game.app.scenes.timeline import TimelineArt
from game.core.simulation import simulate
from tests.game.app.conftest import leave_level, press

#: Frames after opening a level by which the card has shown (its delay, with room).
CARD_FRAMES = int(CARD_DELAY * 60) + 5
#: A brick that turns a classic lemming on "Up We Go" but is a step to the climbers of "The Steps".
STEP_BRICK = (2, 4)


def index_of(prefix: str) -> int:
    """The pack index of the level whose file name starts with ``prefix``."""
    return next(i for i, e in enumerate(pack_entries()) if e.key.startswith(prefix))


def open_level(app: App, prefix: str, frames: int = CARD_FRAMES) -> PlayScene:
    """Open the pack level ``prefix`` (as the level select does, over the title menu) and step ``frames``
    frames."""
    if not app.scenes:
        app.open("menu")
    scene = app.open("play", playlist=pack_entries(), index=index_of(prefix))
    assert isinstance(scene, PlayScene)
    app.run_frames(frames)
    return scene


def close_card(app: App) -> None:
    assert isinstance(app.top, WorldCardScene)
    press(app, pygame.K_RETURN)


def play_to_end(app: App, scene: PlayScene) -> None:
    """Release the lemmings and run until the playback ends (a bound, never a wait on the clock)."""
    press(app, pygame.K_SPACE, unicode=" ")
    for _ in range(int(scene.level.frames / BASE_FPS * 60) + 60):
        if scene.state in (PlayState.WON, PlayState.LOST):
            return
        app.run_frames(1)
    raise AssertionError(f"the run did not end: {scene.state}")


def test_world_card_shows_once_per_world_and_is_remembered(app: App) -> None:
    scene = open_level(app, "001_")  # a classic world: no card
    assert app.top is scene
    leave_level(app)
    scene = open_level(app, "049_")
    card = app.top
    assert isinstance(card, WorldCardScene) and card.card.title == "The Steps"
    assert "other rules" in " ".join(card.card.lines)
    press(app, pygame.K_RETURN)
    assert app.top is scene and scene.message == FIRST_VISIT_MESSAGE
    assert "The Steps" in ProgressStore.load(default_progress_path()).worlds_seen  # saved at once
    leave_level(app)
    open_level(app, "050_")  # the same world: no card again
    assert isinstance(app.top, PlayScene)
    leave_level(app)
    open_level(app, "057_")  # another mystery world: its own card
    assert isinstance(app.top, WorldCardScene) and app.top.card.title == "Windy Heights"


def test_preview_off_until_the_first_release(app: App) -> None:
    scene = open_level(app, "049_")
    close_card(app)
    assert app.settings.preview and not scene.current_view().preview
    press(app, pygame.K_p)
    assert scene.message == PREVIEW_LOCKED and app.settings.preview  # P refused, the setting kept
    assert not scene.current_view().preview
    press(app, pygame.K_SPACE, unicode=" ")
    app.run_frames(3)
    press(app, pygame.K_r)
    assert scene.state == PlayState.PLACING and scene.current_view().preview
    leave_level(app)
    again = open_level(app, "049_", frames=2)  # the release is remembered across visits
    assert isinstance(app.top, PlayScene) and again.current_view().preview
    leave_level(app)
    fresh = open_level(app, "050_", frames=2)  # another level of the world: watch it first
    assert not fresh.current_view().preview and fresh.message == WATCH_FIRST
    press(app, pygame.K_SPACE, unicode=" ")  # released: "release the lemmings ... (no preview yet)" is past
    app.run_frames(1)
    assert fresh.message != WATCH_FIRST


def test_setting_keeps_the_preview_off_in_mystery_worlds(app: App) -> None:
    app.change_settings(mystery_preview=False)
    app.progress.mark_world_seen("The Steps")
    scene = open_level(app, "049_")
    press(app, pygame.K_SPACE, unicode=" ")
    app.run_frames(3)
    press(app, pygame.K_r)
    assert not scene.current_view().preview
    press(app, pygame.K_p)
    assert scene.message == PREVIEW_OFF
    leave_level(app)
    classic = open_level(app, "001_", frames=2)
    assert classic.current_view().preview  # the classic worlds keep their preview


def test_timeline_marks_only_what_was_watched(app: App) -> None:
    level = pack_entries()[index_of("001_")].level
    run = simulate(level, ())
    arrival = run.tracks[0].reached_at
    assert arrival is not None
    size = (1280, 800)

    def green(upto: int | None) -> int:
        art = TimelineArt().surface(run, level.frames, size, upto)
        return sum(1 for x in range(art.get_width()) for y in range(art.get_height())
                   if art.get_at((x, y))[:3] == hud.GREEN)

    assert green(None) > 0 and green(arrival) > 0
    assert green(-1) == 0 and green(arrival - 1) == 0


def test_after_each_run_the_ai_says_what_it_learned(app: App) -> None:
    app.progress.mark_world_seen("The Steps")
    scene = open_level(app, "049_")
    scene.apply_bricks([STEP_BRICK], assisted=False)
    app.run_frames(1)
    play_to_end(app, scene)
    assert scene.state == PlayState.LOST  # the climbers climb the brick a classic lemming turns at
    guide = scene.extensions["mystery"]
    assert isinstance(guide, MysteryGuide) and guide.panel_open and guide.job is not None
    assert guide.job.label == "learn-after-run"  # through the app's job runner, not the UI thread
    assert guide.job.wait(120)
    app.run_frames(2)
    known = guide.knowledge
    assert known is not None and known.runs == 1 and known.pictures
    text = panel_text(known, "", "", guide.world)
    words = [line for line, _ in text.rows]
    assert "The Steps" in text.title
    assert any("climbs" in line for line in words)  # the rule this run showed, in words
    assert any("Not sure yet" in line or NOT_SURE in line for line in words) == bool(
        known.unsure or not all(p.sure for p in known.pictures) or not known.exits_sure)
    assert scene.marks().claims_board  # the panel is on the board, the lose panel waits
    footer = scene._hints()
    assert ("Enter/Esc/Space", "close") in footer  # what the keys do while the panel is up
    assert not any(key in ("Esc", "Space", "Enter/R") or key.startswith("Enter") and label != "close"
                   for key, label in footer), footer
    shown, _ = hud.fit_hints(footer, 800, keep=footer_keep(footer, 800, scene.extra_hints))
    assert ("Enter/Esc/Space", "close") in shown  # kept on a narrow window, where other keys drop
    press(app, pygame.K_RETURN)
    assert not guide.panel_open and scene.state == PlayState.LOST  # Enter closed the panel only
    press(app, pygame.K_RETURN)
    assert scene.state == PlayState.PLACING  # now Enter tries again


def test_the_hint_opens_on_the_rule_difference() -> None:
    level = pack_entries()[index_of("049_")].level
    hint = facade.compute_hint(level, ())
    state, _ = with_hint(AssistantState(), level, (), hint, (), None)
    assert state.hint is not None
    first = state.hint.line
    assert first.startswith("Here lemmings climb one-cell steps") and "is not a wall to them" in first
    assert hint.solution is not None
    assert not any(f"row {r}, column {c}" in first for r, c in hint.solution)  # no brick of the answer given away
    assert state.hint.revealed == 0
    view, counted = press_again(state.hint)
    assert view.revealed == 1 and counted and view.line != first  # the next press shows the first brick
    classic = pack_entries()[index_of("001_")].level
    plain, _ = with_hint(AssistantState(), classic, (), facade.compute_hint(classic, ()), (), None)
    assert plain.hint is not None and not plain.hint.line.startswith("Here lemmings")


def test_the_rule_hint_marks_the_cell_its_words_name() -> None:
    level = pack_entries()[index_of("041_")].level  # timid lemmings: they turn back at the platform's edge
    state, _ = with_hint(AssistantState(), level, (), facade.compute_hint(level, ()), (), None)
    assert state.hint is not None
    first = state.hint.lessons[0]
    assert "never walk off an edge: at row 2, column 6" in first.text
    assert first.cell == (2, 6)  # the marked cell is the one named, not the lemming's hatch


def test_the_panel_says_a_check_against_the_game_covers_the_guesses_it_is_not_sure_of() -> None:
    known = facade.Knowledge(runs=1, examples=17, configurations=256, right=256, exact=True, physics=CLASSIC,
                             unsure=["facing a step one cell high"])
    rows = [line for line, _ in panel_text(known, "", "", "The Timid Plains").rows]
    assert rows[0].startswith("From 1 run the AI has seen 17 of the 256 situations a lemming can be in "
                              "(in the others it guesses); ")
    assert rows[0].endswith("Checked against the game, its rules are exact, the guesses included.")
    assert rows[-1] == ("Not sure yet what a lemming does facing a step one cell high: your runs never showed one "
                        "(its guess there is right, the check says).")  # "exact" above, and this, both true
    guessed = panel_text(dataclasses.replace(known, pictures=(facade.RulePicture([], 1, (0, 1), 1, "a guess", sure=False),)), "", "",
                         "The Timid Plains").rows
    assert guessed[1][0] == "1. a guess (not sure yet: your runs never showed it, but the check says this guess is right)"
    unchecked = panel_text(dataclasses.replace(known, right=200, exact=False), "", "", "The Timid Plains").rows
    assert "exact" not in unchecked[0][0] and "(in the others it guesses)" in unchecked[0][0]
    assert unchecked[-1][0].endswith("your runs never showed one.")
