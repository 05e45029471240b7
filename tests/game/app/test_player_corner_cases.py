"""Corner cases a player meets in menus, labels and keys, each driven by posted events on the real app."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path

import pygame

import game.app.export as export
from ai.kernel.base import SolveMode, SolveResult, SolveStatus
from game.core.catalog import LevelEntry, Section, pack_entries
from game.core.level import Level
from game.core.outcome import explain, frame_label
from game.core.simulation import simulate
from game.app.app import App
from game.app.compose import build_app
from game.app.display import FixedClock
from game.app.assistant import assistant_of
from game.app.assistant.state import AssistantState, SolutionView
from game.app.assistant.text import result_text, status_lines
from game.app.export import gif_frames  # the GIF's footer uses the same function
from game.app.scenes.endless import EndlessScene
from game.app.scenes.menu import MenuScene
from game.app.scenes.pause import PauseChoice, PauseScene
from game.app.scenes.play import BASE_FPS, PlayScene, PlayState
from game.app.scenes.play_draw import draw_result
from game.app.scenes.select import LevelSelectScene, entry_badge
from game.app.scenes.settings import ROWS, SettingsScene
from game.app.scenes.timeline import timeline_rect
from tests.conftest import ORIGINAL_INDEX, ORIGINAL_SOLUTIONS
from tests.game.app.conftest import move, press, run_until
from tests.game.app.test_assistant import frames_to_finish, wait_export
from tests.game.app.test_endless import gap_maker, wait_for_play, win

REPO = Path(__file__).resolve().parents[3]


def test_title_menu_does_not_wrap_onto_quit_and_quit_asks(app: App) -> None:
    menu = app.push(MenuScene(app))
    assert isinstance(menu, MenuScene)
    press(app, pygame.K_UP)
    assert menu.cursor == 0  # Up on the first entry stays there (no wrap onto Quit)
    for _ in range(len(menu.items()) + 2):
        press(app, pygame.K_DOWN)
    assert menu.items()[menu.cursor][0] == "Quit"
    press(app, pygame.K_DOWN)
    assert menu.items()[menu.cursor][0] == "Quit"  # no wrap at the bottom either
    press(app, pygame.K_RETURN)
    assert app.running and menu.confirming  # Quit asks first
    press(app, pygame.K_n, unicode="n")
    assert app.running and not menu.confirming
    press(app, pygame.K_RETURN)
    press(app, pygame.K_y, unicode="y")
    assert not app.running


def test_leaving_an_endless_streak_asks_first(app: App, tmp_path: Path) -> None:
    app.push(MenuScene(app))
    endless = app.push(EndlessScene(app, seed=5, make_level=gap_maker, record_path=tmp_path / "endless.json"))
    assert isinstance(endless, EndlessScene)
    play = wait_for_play(app)
    win(app, play)
    press(app, pygame.K_RETURN)
    play = wait_for_play(app)
    assert endless.record.streak == 1
    press(app, pygame.K_ESCAPE)
    pause = app.top
    assert isinstance(pause, PauseScene)
    for _ in range(pause.choices.index(PauseChoice.LEVELS)):
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    assert app.top is pause and pause.asking == PauseChoice.LEVELS
    assert pause.warning() == "your Endless streak of 1 ends"
    press(app, pygame.K_ESCAPE)  # stay: the streak is kept
    assert app.top is pause and pause.asking is None and endless.record.streak == 1
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)  # yes, leave
    assert app.top is endless and endless.record.streak == 0


def test_settings_keyboard_keeps_the_row_after_a_resize_under_a_resting_pointer(app: App) -> None:
    settings = app.push(SettingsScene(app))
    assert isinstance(settings, SettingsScene)
    labels = [row.label for row in ROWS]
    rects = settings._rects(app.screen.get_size())
    for _ in range(labels.index("Window size")):
        press(app, pygame.K_DOWN)
    resting = rects[labels.index("Reduced motion (no confetti)")].center
    move(app, resting)  # the pointer rests over another row (e.g. after the window changed size)
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=1024, h=640, size=(1024, 640)))
    move(app, resting)
    assert labels[settings.cursor] == "Window size"
    reduced = app.settings.reduced_motion
    press(app, pygame.K_LEFT)
    assert app.settings.reduced_motion == reduced and labels[settings.cursor] == "Window size"
    move(app, (resting[0] + 40, resting[1]))  # a real move gives the mouse the cursor back
    assert labels[settings.cursor] != "Window size" or rects[settings.cursor].collidepoint(resting)


def test_one_counting_convention_for_frames() -> None:
    level = Level.from_rows(["> ..T", "XX.XX"], frames=12, budget=1)
    assert frame_label(11, level.frames) == "frame 11 / 11"
    assert "frame_label(t, n)" in inspect.getsource(export.iter_gif_frames)
    assert gif_frames  # imported


def test_a_loss_in_a_one_cell_pit_reads_as_one_event() -> None:
    level = Level.from_rows([">  T", "XX.X", "XXXX"], frames=8, budget=1)
    (failure,) = explain(simulate(level))
    assert "," not in failure.sentence() and failure.sentence().startswith("fell into a one-cell pit at frame")


def test_level_select_opens_on_the_next_unsolved_and_the_wheel_scrolls_every_world(app: App) -> None:
    entries = pack_entries()
    app.resume.last_key = entries[3].key
    select = app.push(LevelSelectScene(app, entries=entries))
    assert isinstance(select, LevelSelectScene) and select.cursor == 3
    app.run_frames(1)
    size = app.screen.get_size()
    for _ in range(200):
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
        app.run_frames(1)
    last = select.card_rect(len(entries) - 1, size)
    assert select.scroll == select.max_scroll(size) > 0 and last.bottom <= size[1]


def test_a_level_opened_from_a_file_is_not_labelled_f1(app: App) -> None:
    level = Level.from_rows(["> .T", "XX.X"], frames=6, budget=1)
    entries = [LevelEntry("file:x", None, level, Section.FILE)]
    assert entry_badge(entries, 0) == ""
    scene = app.push(PlayScene(app, playlist=entries, index=0))
    assert isinstance(scene, PlayScene) and scene.badge_label() == ""


def test_the_default_speed_is_not_changed_by_plus(app: App) -> None:
    scene = app.push(PlayScene(app, playlist=pack_entries(), index=0))
    press(app, pygame.K_EQUALS, unicode="=")
    assert isinstance(scene, PlayScene) and scene.speed == 2 and app.settings.speed == 1


def run_main(*args: str) -> subprocess.CompletedProcess[str]:
    env = {"SDL_VIDEODRIVER": "dummy", "PATH": "/usr/bin:/bin", "HOME": str(REPO / ".no-home")}
    return subprocess.run([sys.executable, "main.py", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=120, env=env)


def test_cli_help_and_missing_files_read_plainly() -> None:
    assert "opens the title menu" in " ".join(run_main("--help").stdout.split())
    for command in ("solve", "play"):
        done = run_main(command, "no-such-level")
        assert done.returncode == 2 and done.stderr.strip() == "no-such-level: no such file", done.stderr


def test_switching_solver_clears_the_old_answer_and_its_bubble() -> None:
    result = SolveResult(SolveStatus.OPTIMAL, "cpsat", SolveMode.MIN, bricks=((1, 2),))
    state = AssistantState(solver_names=("cpsat", "milp"))
    state = state.say("AI solver: CP-SAT")
    state = AssistantState(**{**state.__dict__, "solution": SolutionView(result, (((1, 2),),), waited=7.25)})
    assert any("7.25 s" in line for line in status_lines(state))  # the time the player waited
    assert "7.25 s" in result_text(result, 7.25)
    after = state.next_solver()
    assert after.solution is None and after.notice is None and after.solver == "milp"


def test_after_g_on_the_win_screen_one_esc_reaches_the_pause_menu(app: App) -> None:
    scene = app.push(PlayScene(app, playlist=pack_entries(), index=ORIGINAL_INDEX))
    assert isinstance(scene, PlayScene)
    app.run_frames(1)
    for cell in sorted(ORIGINAL_SOLUTIONS)[0]:
        scene.click_cell(cell)
    press(app, pygame.K_SPACE, unicode=" ")
    app.run_frames(frames_to_finish(scene.level))
    assert scene.state == PlayState.WON
    press(app, pygame.K_g)
    wait_export(app, assistant_of(scene))
    app.toast("GIF saved")  # a message on screen as well
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.top, PauseScene)


def test_a_lost_panel_low_on_the_screen_leaves_the_timeline_in_view(data_home: Path) -> None:
    """The lemming is stuck high on the board, so "Not quite..." goes low: above the timeline it says to
    step back on, not over it (at 800x500 it hid the strip and its frame label)."""
    small = build_app(size=(800, 500), clock=FixedClock())
    level = Level.from_rows(["X>X  T", "XXXXXX", "X    X", "X    X", "XXXXXX"], frames=20, budget=0)
    scene = small.push(PlayScene(small, level))
    assert isinstance(scene, PlayScene)
    small.run_frames(1)
    press(small, pygame.K_SPACE, unicode=" ")
    small.run_frames(int(4 / BASE_FPS * 60) + 5)
    assert scene.state == PlayState.LOST
    surface = pygame.Surface(small.screen.get_size())
    box = draw_result(scene, surface, scene.layout())
    strip = timeline_rect(surface.get_size())
    assert box is not None and box.centery > scene.layout().rect.centery  # low, away from the stuck lemming
    assert box.bottom <= strip.top and not box.colliderect(strip)


def test_a_hint_after_a_win_does_not_send_the_player_to_win_again(app: App) -> None:
    """H on the "Level complete!" screen: the line says the bricks win and what Space does there (it plays
    their run again), not "already win - press Space" as if the level were still to be won."""
    level = Level.from_rows([">  T", "XXXX"], frames=12, budget=0)
    scene = app.push(PlayScene(app, level))
    assert isinstance(scene, PlayScene)
    app.run_frames(1)
    press(app, pygame.K_SPACE, unicode=" ")
    app.run_frames(int(4 / BASE_FPS * 60) + 5)
    assert scene.state == PlayState.WON
    press(app, pygame.K_h, unicode="h")
    run_until(app, lambda: assistant_of(scene).state.hint is not None, "the hint")
    view = assistant_of(scene).state.hint
    assert view is not None and view.line == "Hint: your bricks win this level  -  Space plays their run"
    press(app, pygame.K_SPACE, unicode=" ")
    assert scene.state == PlayState.RUNNING and scene.frame <= 1  # their run, from the start


def test_a_lost_panel_leaves_the_brick_a_hint_names_in_view(data_home: Path) -> None:
    """At 800x500, after a lost run, H until the hint names its brick: "Not quite..." moves off that cell
    (it went low, over the gap the brick fills, because the careful lemming paces high on the board)."""
    small = build_app(size=(800, 500), clock=FixedClock())
    level = Level.load(REPO / "levels" / "041_edge_of_reason.txt")
    scene = small.push(PlayScene(small, level))
    assert isinstance(scene, PlayScene)
    small.run_frames(1)
    press(small, pygame.K_SPACE, unicode=" ")
    run_until(small, lambda: scene.state == PlayState.LOST, "the run")
    assistant = assistant_of(scene)
    for _ in range(6):
        press(small, pygame.K_h, unicode="h")
        run_until(small, lambda: assistant.state.hint is not None and not assistant.state.busy, "the hint")
        hint = assistant.state.hint
        if hint is not None and hint.revealed:
            break
    hint = assistant.state.hint
    assert hint is not None and hint.revealed == 1
    cell = hint.steps[0].cell
    surface = pygame.Surface(small.screen.get_size())
    box = draw_result(scene, surface, scene.layout())
    assert box is not None and not box.colliderect(scene.layout().cell_rect(*cell))


def test_the_level_complete_panel_leaves_the_lemmings_at_their_exits_in_view(app: App) -> None:
    """The exit sits high on the board: "Level complete!" goes low, so the win it tells of stays in view (it
    sat a sixth of the way down the board, over the lemming at its exit)."""
    rows = ["XXXXXXX", "X>   TX", "XXXXXXX", "X     X", "X     X", "X     X", "X     X", "XXXXXXX"]
    scene = app.push(PlayScene(app, Level.from_rows(rows, frames=8, budget=0)))
    assert isinstance(scene, PlayScene)
    app.run_frames(1)
    press(app, pygame.K_SPACE, unicode=" ")
    run_until(app, lambda: scene.state == PlayState.WON, "the run")
    surface = pygame.Surface(app.screen.get_size())
    box = draw_result(scene, surface, scene.layout())
    assert box is not None and not box.colliderect(scene.layout().cell_rect(1, 5))
    assert box.bottom <= timeline_rect(surface.get_size()).top
