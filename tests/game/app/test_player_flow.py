"""The player's flow, driven by posted events: the title menu and Continue, the pause menu, settings,
sound requests with the dummy audio driver, keyboard-only play, failure explanations,
AI-help and par marks, and the layout fixes."""

from __future__ import annotations

import json
import time
import warnings

import pygame
import pytest

from game.app import hud
from game.app.app import App
from game.app.compose import build_app
from game.app.display import FixedClock
from game.app.play_extension import ExtensionBase, Marks
from game.app.render import COLOURBLIND_PATH_COLORS
from game.app.scenes.dialogs import TextPrompt
from game.app.scenes.editor import EditorScene
from game.app.scenes.menu import MenuScene
from game.app.scenes.pause import HelpScene, PauseChoice, PauseScene
from game.app.scenes.play import BASE_FPS, PlayScene, PlayState
from game.app.scenes.play_panels import STATUS_STRIP
from game.app.scenes.select import LevelSelectScene, entry_badge
from game.app.scenes.settings import ROWS, SettingsScene
from game.core.catalog import LevelEntry, pack_entries
from game.core.editor_model import EditorModel, Tool
from game.core.level import Level
from game.core.progress import ProgressStore, default_progress_path
from game.core.settings import Palette, SettingsStore, default_settings_path
from tests.conftest import ORIGINAL_INDEX
from tests.game.app.conftest import click, leave_level, press

SOLUTION = ((2, 1), (5, 4), (6, 6))  # of The Original
#: Where The Original is in the pack's play order (found by its title: the pack is ordered by difficulty).


def open_level(app: App, index: int = ORIGINAL_INDEX) -> PlayScene:
    scene = PlayScene(app, playlist=pack_entries(), index=index)
    app.push(scene)
    app.run_frames(1)
    return scene


def play_to_end(app: App, scene: PlayScene) -> None:
    press(app, pygame.K_SPACE, unicode=" ")
    app.run_frames(int(scene.level.frames / BASE_FPS * 60) + 10)


def new_app() -> App:
    """A second launch of the game (same data and config folders)."""
    application = build_app(size=(1280, 800), clock=FixedClock())
    pygame.event.clear()
    return application


# ---------------------------------------------------------------- menu, Continue, relaunch
def test_continue_opens_the_level_and_bricks_of_the_last_session(app: App) -> None:
    menu = app.push(MenuScene(app))
    app.run_frames(1)
    assert [label for label, _ in menu.items()][:2] == ["Continue", "Levels"]
    press(app, pygame.K_RETURN)  # Continue on a fresh profile: level 1
    scene = app.top
    assert isinstance(scene, PlayScene) and scene.index == 0
    press(app, pygame.K_RETURN)  # shows the cursor
    # the third level, two bricks by keyboard

    leave_level(app)
    select = app.top
    assert isinstance(select, LevelSelectScene)
    pick = next(i for i, e in enumerate(select.entries) if i >= 2 and e.level.budget >= 2)
    select.open(pick)
    third = app.top
    assert isinstance(third, PlayScene)
    cells = [c for c in third.level.brickable_cells][:2]
    for cell in cells:
        third.click_cell(cell)
    bricks = third.bricks
    assert bricks
    app.run_frames(70)  # the bricks are saved within a second of the last edit
    assert not app.resume.dirty
    # relaunch: Continue goes to the third level, with its bricks
    again = new_app()
    menu2 = again.push(MenuScene(again))
    again.run_frames(1)
    assert menu2.continue_to == pick
    press(again, pygame.K_RETURN)
    resumed = again.top
    assert isinstance(resumed, PlayScene) and resumed.index == pick and resumed.bricks == bricks
    leave_level(again)
    assert isinstance(again.top, LevelSelectScene) and again.top.cursor == pick


def test_back_from_a_later_level_after_continue_focuses_that_level(app: App) -> None:
    app.push(MenuScene(app))
    app.run_frames(1)
    press(app, pygame.K_RETURN)  # Continue on a fresh profile: level 1, which needs no brick
    first = app.top
    assert isinstance(first, PlayScene) and first.index == 0
    press(app, pygame.K_SPACE, unicode=" ", frames=int(first.level.frames / 5 * 60) + 10)
    assert first.state == PlayState.WON
    press(app, pygame.K_RETURN)  # the next level
    second = app.top
    assert isinstance(second, PlayScene) and second.index == 1
    leave_level(app)
    select = app.top
    assert isinstance(select, LevelSelectScene)
    assert select.entries[select.cursor].key == second.key, "the level played last, not the one Continue opened"


def test_closing_the_window_mid_level_keeps_the_last_bricks(app: App) -> None:
    scene = open_level(app)
    scene.click_cell((2, 1))
    assert app.resume.dirty
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.run()  # the main loop ends on QUIT and saves on the way out
    again = new_app()
    assert again.resume.bricks_for(scene.key or "", scene.level.puzzle_hash) == ((2, 1),)


def test_continue_skips_to_the_next_unsolved_level(app: App) -> None:
    entries = pack_entries()
    app.progress.record_win(entries[0].key, entries[0].level, SOLUTION)
    app.resume.remember(entries[0].key, entries[0].level.puzzle_hash, SOLUTION)
    menu = app.push(MenuScene(app))
    assert menu.continue_to == 1


def test_continue_never_offers_a_level_of_a_locked_world(app: App) -> None:
    select = LevelSelectScene(app)
    locked = list(select.locked)
    first_locked = locked.index(True)  # a fresh profile: the second world is locked
    last_open = select.entries[first_locked - 1]  # solved (e.g. opened from the command line), so Continue
    app.progress.record_win(last_open.key, last_open.level, ())  # would move on to the next level
    app.resume.remember(last_open.key, last_open.level.puzzle_hash, ())
    menu = app.push(MenuScene(app))
    app.run_frames(1)
    assert menu.continue_to is not None and not locked[menu.continue_to]
    assert menu.continue_to == 0  # the first unsolved level of an open world
    press(app, pygame.K_RETURN)  # Continue
    scene = app.top
    assert isinstance(scene, PlayScene) and scene.level == select.entries[0].level
    assert all(not locked[select.entries.index(entry)] for entry in scene.playlist)


def test_preview_carries_over_and_plus_never_changes_the_default_speed(app: App) -> None:
    scene = open_level(app)
    assert scene.preview
    press(app, pygame.K_p, unicode="p")
    press(app, pygame.K_EQUALS, unicode="=")
    press(app, pygame.K_EQUALS, unicode="=")
    assert scene.speed == 4 and not scene.preview
    assert app.settings.speed == 1  # + is for this visit: the default speed is the Settings screen's
    scene.next_level()
    assert isinstance(app.top, PlayScene) and app.top.speed == 4  # the playlist's next level keeps it
    app.pop()
    nxt = open_level(app, 1)
    assert nxt.speed == 1 and not nxt.preview
    again = new_app()
    third = PlayScene(again, playlist=pack_entries(), index=2)
    assert third.speed == 1 and not third.preview


# ---------------------------------------------------------------- pause menu
def test_pause_menu_resume_restart_levels_settings_quit(app: App) -> None:
    menu = app.push(MenuScene(app))
    select = app.push(LevelSelectScene(app))
    scene = open_level(app)
    scene.apply_bricks(SOLUTION, assisted=False)
    press(app, pygame.K_SPACE, unicode=" ", frames=20)
    assert scene.state == PlayState.RUNNING
    press(app, pygame.K_ESCAPE)
    pause = app.top
    assert isinstance(pause, PauseScene) and scene.state == PlayState.PAUSED
    t = scene.t
    app.run_frames(30)
    assert scene.t == t  # frozen under the menu
    assert [pause.label(c) for c in pause.choices] == ["Resume", "Restart", "Level select", "Edit level",
                                                       "Share level code", "Settings", "Quit to menu"]
    press(app, pygame.K_ESCAPE)  # Esc resumes
    assert app.top is scene
    press(app, pygame.K_ESCAPE)
    press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)  # Restart
    assert app.top is scene and scene.state == PlayState.PLACING and scene.t == 0 and scene.bricks == SOLUTION
    press(app, pygame.K_ESCAPE)
    for _ in range(5):
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)  # Settings
    assert isinstance(app.top, SettingsScene)
    press(app, pygame.K_ESCAPE)
    pause = app.top
    assert isinstance(pause, PauseScene)
    press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)  # Quit to menu: asks first
    assert app.top is pause and pause.confirming
    press(app, pygame.K_ESCAPE)  # no
    assert app.top is pause and not pause.confirming
    press(app, pygame.K_RETURN)
    press(app, pygame.K_y, unicode="y")  # yes
    assert app.top is menu and select not in app.scenes
    # the bricks are remembered
    assert app.resume.bricks_for(scene.key or "", scene.level.puzzle_hash) == SOLUTION


def test_pause_menu_by_mouse_levels(app: App) -> None:
    select = app.push(LevelSelectScene(app))
    open_level(app)
    press(app, pygame.K_ESCAPE)
    pause = app.top
    assert isinstance(pause, PauseScene)
    rects = pause._rects(app.screen.get_size())
    click(app, rects[pause.choices.index(PauseChoice.LEVELS)].center)
    assert app.top is select


def test_one_esc_dismisses_the_messages_and_opens_the_pause_menu(app: App) -> None:
    scene = open_level(app)
    scene.say("speed 2x")
    app.toast("hello")
    press(app, pygame.K_ESCAPE)
    assert app.toasts == [] and scene.message == "" and isinstance(app.top, PauseScene)


# ---------------------------------------------------------------- settings
def test_settings_screen_changes_are_saved_and_reloaded(app: App) -> None:
    settings = app.push(SettingsScene(app))
    app.run_frames(1)
    labels = [row.label for row in ROWS]
    press(app, pygame.K_LEFT)  # music volume 50% -> 40%
    for _ in range(labels.index("Colours")):
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)  # colour-blind palette
    press(app, pygame.K_DOWN)
    press(app, pygame.K_RIGHT)  # reduced motion on
    rect = settings._rects(app.screen.get_size())[labels.index("Default speed")]
    click(app, rect.center)  # 1x -> 2x
    data = json.loads(default_settings_path().read_text())
    assert data["music_volume"] == pytest.approx(0.4) and data["palette"] == "colourblind"
    assert data["reduced_motion"] is True and data["speed"] == 2
    loaded = SettingsStore.load().settings
    assert loaded.palette == Palette.COLOURBLIND and loaded.reduced_motion and loaded.speed == 2
    again = new_app()
    scene = PlayScene(again, playlist=pack_entries(), index=0)
    assert scene.speed == 2 and scene.path_colors()[0] == (86, 180, 233)
    press(app, pygame.K_ESCAPE)
    assert app.top is None or not isinstance(app.top, SettingsScene)


def test_m_mutes_everywhere_but_in_text_entry(app: App) -> None:
    open_level(app)
    press(app, pygame.K_m, unicode="m")
    assert app.settings.muted and SettingsStore.load().settings.muted
    app.sound.played.clear()
    app.top.click_cell((2, 1))  # type: ignore[union-attr]
    assert app.sound.played[-1] == ("place", 0.0)  # asked for, at volume 0
    press(app, pygame.K_m, unicode="m")
    assert not app.settings.muted

    got: list[str] = []
    app.push(TextPrompt(app, "Name", "name", "", got.append))
    press(app, pygame.K_m, unicode="m")
    press(app, pygame.K_RETURN)
    assert got == ["m"] and not app.settings.muted


def test_fullscreen_and_window_size_apply(app: App) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert tuple(pygame.Window.from_display_module().minimum_size) == (640, 400)
    app.change_settings(window_size=(800, 500))
    assert app.screen.get_size() == (800, 500)
    assert SettingsStore.load().settings.window_size == (800, 500)
    app.change_settings(fullscreen=True)
    assert app.settings.fullscreen
    app.change_settings(fullscreen=False)
    app.run_frames(1)


def test_a_window_size_larger_than_the_screen_opens_a_window_the_screen_shows_whole(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(800, 500)])
    settings = app.push(SettingsScene(app))
    assert isinstance(settings, SettingsScene)
    for _ in range([row.label for row in ROWS].index("Window size")):
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RIGHT)  # 1280 x 800 -> 1600 x 1000
    assert app.settings.window_size == (1600, 1000)  # saved for a larger screen
    assert app.screen.get_size() == (800, 500)
    assert any("at most 800 x 500" in str(text) for text, _ in app.toasts)


# ---------------------------------------------------------------- sound
def test_sound_calls_with_the_dummy_driver(app: App) -> None:
    assert app.sound.ok, app.sound.problem  # SDL_AUDIODRIVER=dummy opens a mixer
    menu = app.push(MenuScene(app))
    assert app.sound.count("music") >= 1
    menu.activate([label for label, _ in menu.items()].index("Levels"))
    assert app.sound.count("click") == 1
    scene = open_level(app)
    scene.click_cell((2, 1))
    scene.click_cell((2, 1))
    assert app.sound.count("place") == 1 and app.sound.count("remove") == 1
    play_to_end(app, scene)
    assert scene.state == PlayState.LOST
    assert app.sound.count("release") == 1 and app.sound.count("lose") == 1
    assert app.sound.count("land") >= 1 and app.sound.count("turn") >= 1
    press(app, pygame.K_r)
    scene.apply_bricks(SOLUTION, assisted=False)
    play_to_end(app, scene)
    assert scene.state == PlayState.WON
    assert app.sound.count("exit") >= 1 and app.sound.count("win") == 1


def test_the_game_runs_without_sound() -> None:
    silent = build_app(size=(640, 400), clock=FixedClock(), sound=False, progress=ProgressStore.in_memory())
    silent.push(MenuScene(silent))
    scene = silent.push(PlayScene(silent, playlist=pack_entries(), index=ORIGINAL_INDEX))
    assert isinstance(scene, PlayScene)
    scene.click_cell((2, 1))
    silent.run_frames(3)
    assert not silent.sound.ok and silent.sound.count("place") == 1


# ---------------------------------------------------------------- keyboard-only play
def test_keyboard_only_solves_the_original(app: App) -> None:
    """From the menu to a win without the mouse: arrows move the cursor, Enter / B place."""
    original = pack_entries()[ORIGINAL_INDEX]
    app.resume.remember(original.key, original.level.puzzle_hash, ())  # the player was on The Original
    app.push(MenuScene(app))
    app.run_frames(1)
    press(app, pygame.K_RETURN)  # Continue
    scene = app.top
    assert isinstance(scene, PlayScene) and scene.index == ORIGINAL_INDEX
    app.run_frames(1)
    press(app, pygame.K_UP)  # the cursor appears (below the first lemming)
    assert scene.cursor is not None

    def go(cell: tuple[int, int]) -> None:
        assert scene.cursor is not None
        r, c = scene.cursor
        for _ in range(abs(cell[0] - r)):
            press(app, pygame.K_DOWN if cell[0] > r else pygame.K_UP)
        for _ in range(abs(cell[1] - c)):
            press(app, pygame.K_RIGHT if cell[1] > c else pygame.K_LEFT)
        assert scene.cursor == cell

    go((2, 1))
    press(app, pygame.K_RETURN)
    go((5, 4))
    press(app, pygame.K_b, unicode="b")
    go((0, 0))
    press(app, pygame.K_b, unicode="b")  # a wall: refused, with a reason
    assert scene.bricks == ((2, 1), (5, 4)) and scene.message
    go((6, 6))
    press(app, pygame.K_RETURN)
    assert scene.bricks == SOLUTION
    go((6, 6))
    press(app, pygame.K_b, unicode="b")  # remove ...
    press(app, pygame.K_z, unicode="z")  # ... and undo it
    assert scene.bricks == SOLUTION
    play_to_end(app, scene)
    assert scene.state == PlayState.WON
    ended = scene.frame  # the result shows once the last lemming is home
    press(app, pygame.K_COMMA)  # , steps back
    assert scene.state == PlayState.PAUSED and scene.frame == ended - 1
    press(app, pygame.K_PERIOD)
    assert scene.state == PlayState.WON
    press(app, pygame.K_RETURN)
    nxt = app.top
    assert isinstance(nxt, PlayScene) and nxt.index == ORIGINAL_INDEX + 1


def test_mouse_motion_hides_the_cursor(app: App) -> None:
    scene = open_level(app)
    press(app, pygame.K_DOWN)
    assert scene.cursor is not None
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=scene.layout().cell_center(3, 3), rel=(0, 0),
                                         buttons=(0, 0, 0)))
    app.run_frames(1)
    assert scene.cursor is None and scene.hover == (3, 3)


def test_help_screen_lists_keys(app: App) -> None:
    open_level(app)
    press(app, pygame.K_F1)
    assert isinstance(app.top, HelpScene)
    app.run_frames(1)
    press(app, pygame.K_F1)
    assert isinstance(app.top, PlayScene)


# ---------------------------------------------------------------- readable failures
def test_lost_run_marks_and_explains_each_missed_lemming(app: App) -> None:
    scene = open_level(app)
    play_to_end(app, scene)
    assert scene.state == PlayState.LOST
    assert scene.failures and scene.failures[0].cell == scene.run.tracks[0].final[:2]
    sentence = scene.failures[0].describe(len(scene.level.lemmings))
    assert "frame" in sentence
    view = scene.current_view()
    assert view.preview  # the paths show after a loss
    marked = pygame.Surface(app.screen.get_size())
    scene.draw(marked)
    failures, scene.failures = scene.failures, []
    plain = pygame.Surface(app.screen.get_size())
    scene.draw(plain)
    scene.failures = failures
    rect = scene.layout().cell_rect(*scene.failures[0].cell)
    changed = sum(1 for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom)
                  if marked.get_at((x, y)) != plain.get_at((x, y)))
    assert changed > 0  # the ring is drawn on the lemming's cell
    press(app, pygame.K_RETURN)  # try again clears them
    assert scene.failures == [] and scene.state == PlayState.PLACING


def test_lemmings_sharing_a_cell_get_a_count_badge(app: App) -> None:
    level = Level.from_rows(["> <T", "XXXX"], frames=3, budget=0)
    scene = app.push(PlayScene(app, level))
    assert isinstance(scene, PlayScene)
    scene.toggle_run()
    scene.step_frames(1)
    app.run_frames(20)  # past the fade-in
    rect = scene.layout().cell_rect(0, 1)
    white = sum(1 for x in range(rect.centerx, rect.right) for y in range(rect.top, rect.centery)
                if app.screen.get_at((x, y))[:3] == (255, 255, 255))
    assert white > 10


# ---------------------------------------------------------------- progress marks
def test_attempts_ai_help_and_par(app: App) -> None:
    entries = pack_entries()
    app.push(MenuScene(app))
    scene = open_level(app)
    scene.apply_bricks(SOLUTION)  # as the assistant does: an AI solution
    play_to_end(app, scene)
    rec = app.progress.records[entries[ORIGINAL_INDEX].key]
    assert scene.state == PlayState.WON and rec.attempts == 1
    st = app.progress.status(entries[ORIGINAL_INDEX].key, entries[ORIGINAL_INDEX].level)
    assert st.solved and st.assisted and st.own_best is None and not st.par_medal
    app.pop()
    cleared = open_level(app)  # the AI's bricks are back: the player clears them and leaves with none left
    assert cleared.bricks == SOLUTION and cleared.assisted
    press(app, pygame.K_BACKSPACE)
    app.pop()
    own = open_level(app)  # the AI showed the solution: the first win with bricks placed by hand is AI help
    assert own.bricks == () and own.assisted
    for cell in SOLUTION:
        own.click_cell(cell)
    play_to_end(app, own)
    assert own.state == PlayState.WON and own.assisted
    assert app.progress.status(entries[ORIGINAL_INDEX].key, entries[ORIGINAL_INDEX].level).own_best is None
    press(app, pygame.K_BACKSPACE)  # after it, the player's own win
    for cell in SOLUTION:
        own.click_cell(cell)
    assert not own.assisted
    play_to_end(app, own)
    assert own.state == PlayState.WON
    # the par search runs in the background (a child process)

    deadline = time.monotonic() + 60
    while own.par() is None and time.monotonic() < deadline:
        app.run_frames(1)
        time.sleep(0.01)
    assert own.par() == 3
    st = ProgressStore.load(default_progress_path()).status(entries[ORIGINAL_INDEX].key, entries[ORIGINAL_INDEX].level)
    assert st.own_best == 3 and st.par == 3 and st.par_medal and st.assisted
    assert ProgressStore.load(default_progress_path()).records[entries[ORIGINAL_INDEX].key].attempts == 3
    select = app.push(LevelSelectScene(app))
    app.run_frames(2)
    assert select.statuses[ORIGINAL_INDEX].par_medal


def test_user_level_badge_is_the_same_in_select_and_play(app: App) -> None:
    level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1, title="Mine")
    entries = pack_entries()[:2] + [LevelEntry("user/mine.txt", None, level, "user")]
    assert entry_badge(entries, 2) == "U1" and entry_badge(entries, 1) == "2"
    scene = PlayScene(app, playlist=entries, index=2)
    assert scene.badge_label() == "U1"


# ---------------------------------------------------------------- layout at small sizes
@pytest.mark.parametrize("size", [(800, 500), (640, 400)])
def test_menu_fits_above_the_footer(app: App, size: tuple[int, int]) -> None:
    menu = app.push(MenuScene(app))
    app.run_frames(1)
    menu.draw(pygame.Surface(size))
    rects = menu._item_rects(size)
    assert rects[-1].bottom <= size[1] - hud.BOTTOM_BAR
    assert all(a.bottom <= b.top for a, b in zip(rects, rects[1:]))


def test_hud_keeps_counters_and_hints_at_640x400(app: App) -> None:
    scene = open_level(app)
    app.run_frames(30)  # past the fade-in
    screen = pygame.Surface((640, 400))
    scene.draw(screen)
    # the bricks counter is drawn: its gold text appears in the top bar
    bar = pygame.Rect(0, 0, 640, hud.TOP_BAR)
    gold = sum(1 for x in range(bar.left, bar.right, 2) for y in range(bar.top, bar.bottom, 2)
               if screen.get_at((x, y))[:3] == hud.GOLD)
    assert gold > 20
    assert hud.hints_width(scene._hints(), 17) > 640  # too many hints: the bar ends with the help key
    foot = pygame.Rect(0, 400 - hud.BOTTOM_BAR, 640, hud.BOTTOM_BAR)
    keys = sum(1 for x in range(foot.left, foot.right, 2) for y in range(foot.top, foot.bottom, 2)
               if screen.get_at((x, y))[:3] == (210, 200, 240))
    assert keys > 50


def test_status_lines_never_cover_the_board(app: App) -> None:
    scene = open_level(app)
    scene.say("a message")

    class Lines(ExtensionBase):
        name = "lines"

        def marks(self) -> Marks:
            return Marks(status_lines=("first", "second", "third"))

    scene.add_extension(Lines())
    lines = scene.status_strip_lines()
    assert len(lines) == 2 and "third" in lines[1]
    app.run_frames(1)

    assert scene.layout().rect.top >= hud.TOP_BAR + STATUS_STRIP


def test_confetti_stays_below_the_top_bar_and_reduced_motion_removes_it(app: App) -> None:
    scene = open_level(app)
    scene.apply_bricks(SOLUTION, assisted=False)
    play_to_end(app, scene)
    assert scene.state == PlayState.WON
    shots = []
    for reduced in (False, True):
        app.change_settings(reduced_motion=reduced)
        app.run_frames(1)
        top = app.screen.subsurface(pygame.Rect(0, 0, app.screen.get_width(), hud.TOP_BAR)).copy()
        shots.append(pygame.image.tobytes(top, "RGB"))
        surface = pygame.Surface(app.screen.get_size())
        scene.draw(surface)
        shots.append(pygame.image.tobytes(surface, "RGB"))
    # the top bar looks the same with and without confetti; the rest does not
    assert shots[0] == shots[2] and shots[1] != shots[3]


def test_plural_everywhere() -> None:
    assert hud.plural(1, "brick") == "1 brick" and hud.plural(2, "brick") == "2 bricks"


def test_f12_confirms(app: App) -> None:
    open_level(app)
    press(app, pygame.K_F12)
    assert any("Screenshot saved" in str(t[0]) for t in app.toasts)


def test_each_lemming_wears_its_path_colour(app: App) -> None:
    app.change_settings(palette=Palette.COLOURBLIND)
    level = Level.from_rows([">   ", "X  T", "XXXX", "<  T", "XXXX"], frames=6, budget=0)
    scene = app.push(PlayScene(app, level))
    assert isinstance(scene, PlayScene) and scene.preview
    scene.toggle_run()
    scene.step_frames(1)
    app.run_frames(20)
    view = scene.current_view()
    assert view.tags and tuple(view.path_colors) == COLOURBLIND_PATH_COLORS
    shot = pygame.Surface(app.screen.get_size())
    scene.draw(shot)
    for k in range(2):
        r, c, _ = scene.run.tracks[k].path[scene.frame]
        rect = scene.layout().cell_rect(r, c).inflate(0, scene.layout().cell // 2)
        colour = COLOURBLIND_PATH_COLORS[k]
        hits = sum(1 for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom)
                   if shot.get_at((x, y))[:3] == colour)
        assert hits > 5, f"lemming {k} has no tag in its path colour"


def test_editor_paints_without_a_mouse(app: App) -> None:
    app.push(MenuScene(app))
    editor = app.push(EditorScene(app, EditorModel.new(6, 8)))
    assert isinstance(editor, EditorScene)
    app.run_frames(1)
    size = (editor.draft.height, editor.draft.width)
    press(app, pygame.K_b, unicode="b")  # shows the cursor in the middle
    assert editor.hover == (3, 4)
    press(app, pygame.K_UP, mod=pygame.KMOD_LSHIFT)
    press(app, pygame.K_LEFT, mod=pygame.KMOD_LSHIFT)
    assert editor.hover == (2, 3) and (editor.draft.height, editor.draft.width) == size  # no resize
    assert editor.tool == Tool.WALL
    press(app, pygame.K_b, unicode="b")
    assert editor.draft.char_at((2, 3)) == "X"


def test_shift_arrows_move_the_cursor_after_the_release(app: App) -> None:
    scene = open_level(app)
    press(app, pygame.K_SPACE, unicode=" ", frames=5)
    press(app, pygame.K_DOWN)
    start = scene.cursor
    t = scene.t
    press(app, pygame.K_RIGHT, mod=pygame.KMOD_LSHIFT)
    assert start is not None and scene.cursor == (start[0], start[1] + 1)
    assert scene.state == PlayState.RUNNING and scene.t > t  # no frame step: the run goes on
