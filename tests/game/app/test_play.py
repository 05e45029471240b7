"""Drive the real app headless: clicks and keys as pygame events, a bounded number of frames."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.core.level import Level
from game.core.physics_catalog import resolve
from game.core.progress import ProgressStore, default_progress_path
from game.app import hud
from game.app.app import App
from game.app.display import FixedClock
from game.app.compose import build_app
from game.core.catalog import pack_entries
from game.app.scenes.play import BASE_FPS, PlayScene, PlayState
from game.app.scenes.play_draw import draw_status_lines, footer_keep
from game.app.scenes.select import LevelSelectScene
from tests.conftest import ORIGINAL_INDEX, ORIGINAL_KEY, ORIGINAL_SOLUTIONS
from tests.game.app.conftest import click, leave_level, move, press, run_until

SOLUTION = ((2, 1), (5, 4), (6, 6))


def open_level(app: App, index: int = ORIGINAL_INDEX) -> PlayScene:
    """Push the play scene of pack level ``index`` and step one frame."""
    scene = PlayScene(app, playlist=pack_entries(), index=index)
    app.push(scene)
    app.run_frames(1)
    return scene


def click_cell(app: App, scene: PlayScene, cell: tuple[int, int]) -> None:
    click(app, scene.layout().cell_center(*cell))


def frames_to_finish(level: Level) -> int:
    """Enough app frames (at 60 fps, 1x) to play the whole run."""
    return int(level.frames / BASE_FPS * 60) + 10


def test_original_solution_by_clicks_wins_and_is_saved(app: App) -> None:
    scene = open_level(app)
    assert scene.level.title == "The Original"
    for cell in SOLUTION:
        click_cell(app, scene, cell)
    assert scene.bricks == SOLUTION
    assert scene.state == PlayState.PLACING
    press(app, pygame.K_SPACE, unicode=" ")
    assert scene.state == PlayState.RUNNING
    app.run_frames(frames_to_finish(scene.level))
    assert scene.state == PlayState.WON
    assert scene.frame == max(t.reached_at or 0 for t in scene.run.tracks)  # ends when the last one is home
    stored = ProgressStore.load(default_progress_path())
    st = stored.status(ORIGINAL_KEY, scene.level)
    assert st.solved and st.best_bricks == 3 and not st.changed
    assert stored.records[ORIGINAL_KEY].replays[0].bricks == SOLUTION


def test_no_bricks_loses(app: App) -> None:
    scene = open_level(app)
    press(app, pygame.K_SPACE, unicode=" ")
    app.run_frames(frames_to_finish(scene.level))
    assert scene.state == PlayState.LOST
    record = ProgressStore.load(default_progress_path()).records[ORIGINAL_KEY]
    assert not record.solved and record.attempts == 1  # the release counted as an attempt


def test_undo_redo_with_keys(app: App) -> None:
    scene = open_level(app)
    click_cell(app, scene, (2, 1))
    click_cell(app, scene, (5, 4))
    assert scene.bricks == ((2, 1), (5, 4))
    press(app, pygame.K_z)
    assert scene.bricks == ((2, 1),)
    press(app, pygame.K_z, mod=pygame.KMOD_LCTRL)
    assert scene.bricks == ()
    press(app, pygame.K_z)
    assert scene.bricks == ()
    press(app, pygame.K_y)
    assert scene.bricks == ((2, 1),)
    press(app, pygame.K_y, mod=pygame.KMOD_LCTRL)
    assert scene.bricks == ((2, 1), (5, 4))
    # removing by clicking is an edit too
    click_cell(app, scene, (2, 1))
    assert scene.bricks == ((5, 4),)
    press(app, pygame.K_z)
    assert scene.bricks == ((2, 1), (5, 4))
    # a new edit after undo drops the redo states
    press(app, pygame.K_z)
    click_cell(app, scene, (6, 6))
    press(app, pygame.K_y)
    assert scene.bricks == ((2, 1), (6, 6))


def test_budget_is_enforced(app: App) -> None:
    scene = open_level(app)
    for cell in SOLUTION:
        click_cell(app, scene, cell)
    click_cell(app, scene, (3, 3))
    assert scene.bricks == SOLUTION
    assert scene.deny is not None and scene.deny[0] == (3, 3)
    assert "budget" in scene.message


def test_the_budget_line_goes_with_the_undo_that_frees_a_brick(app: App) -> None:
    scene = open_level(app)
    for cell in SOLUTION:
        click_cell(app, scene, cell)
    click_cell(app, scene, (3, 3))
    assert scene.message == "no bricks left (budget 3)" and scene.message in scene.status_strip_lines()
    press(app, pygame.K_z)
    assert scene.bricks == SOLUTION[:2] and scene.message == "" and scene.status_strip_lines() == []
    press(app, pygame.K_EQUALS, unicode="+")  # a line about no brick stays through an edit
    click_cell(app, scene, (6, 6))
    assert scene.message.startswith("speed")


@pytest.mark.parametrize("cell", [(0, 0), (1, 1), (8, 8), (5, 2)])  # wall, start, target, wall
def test_clicking_fixed_cells_changes_nothing(app: App, cell: tuple[int, int]) -> None:
    scene = open_level(app)
    click_cell(app, scene, cell)
    assert scene.bricks == ()
    assert scene.deny is not None and scene.deny[0] == cell
    assert not scene.session.history.can_undo
    app.run_frames(60)
    assert scene.deny is None  # the cue fades


def test_click_outside_board_is_ignored(app: App) -> None:
    scene = open_level(app)
    click(app, (3, 3))
    assert scene.bricks == () and scene.deny is None


def test_restart_keeps_bricks(app: App) -> None:
    scene = open_level(app)
    click_cell(app, scene, (2, 1))
    press(app, pygame.K_SPACE, unicode=" ", frames=40)
    assert scene.state == PlayState.RUNNING and scene.t > 1
    press(app, pygame.K_r, unicode="r")
    assert scene.state == PlayState.PLACING and scene.t == 0
    assert scene.bricks == ((2, 1),)


def test_backspace_clears_and_is_undoable(app: App) -> None:
    scene = open_level(app)
    for cell in SOLUTION:
        click_cell(app, scene, cell)
    press(app, pygame.K_BACKSPACE)
    assert scene.bricks == ()
    press(app, pygame.K_z)
    assert scene.bricks == SOLUTION


def test_step_forward_and_back_is_exact(app: App) -> None:
    scene = open_level(app)
    for cell in SOLUTION:
        click_cell(app, scene, cell)
    run = scene.run
    press(app, pygame.K_PERIOD)  # "." steps from the start (the arrows move the brick cursor while placing)
    for _ in range(4):
        press(app, pygame.K_RIGHT)  # once released, Right steps too
    assert scene.state == PlayState.PAUSED and scene.frame == 5
    press(app, pygame.K_LEFT)
    press(app, pygame.K_LEFT)
    assert scene.frame == 3 and scene.t == 3.0
    assert run.states_at(scene.frame) == scene.run.states_at(3)
    for _ in range(scene.level.frames + 3):
        press(app, pygame.K_RIGHT)
    assert scene.state == PlayState.WON and scene.frame == scene.level.frames - 1
    press(app, pygame.K_LEFT)
    assert scene.state == PlayState.PAUSED and scene.frame == scene.level.frames - 2


def test_pause_resume_and_speed(app: App) -> None:
    scene = open_level(app)
    press(app, pygame.K_SPACE, unicode=" ", frames=12)
    t1 = scene.t
    assert t1 == pytest.approx(12 / 60 * BASE_FPS, abs=0.2)
    press(app, pygame.K_SPACE, unicode=" ", frames=30)
    assert scene.state == PlayState.PAUSED and scene.t == t1
    for _ in range(5):
        press(app, pygame.K_EQUALS, unicode="=")
    assert scene.speed == 8
    press(app, pygame.K_MINUS, unicode="-")
    assert scene.speed == 4
    press(app, pygame.K_SPACE, unicode=" ", frames=12)
    assert scene.t == pytest.approx(t1 + 13 / 60 * BASE_FPS * 4, abs=0.6)


def test_editing_during_a_run_returns_to_placing(app: App) -> None:
    scene = open_level(app)
    press(app, pygame.K_SPACE, unicode=" ", frames=20)
    click_cell(app, scene, (2, 1))
    assert scene.state == PlayState.PLACING and scene.t == 0 and scene.bricks == ((2, 1),)


def test_preview_toggle_and_hover(app: App) -> None:
    scene = open_level(app)
    assert scene.preview  # on by default (settings)
    press(app, pygame.K_p, unicode="p")
    assert not scene.preview and not app.settings.preview
    press(app, pygame.K_p, unicode="p")
    assert scene.preview
    move(app, scene.layout().cell_center(3, 3))
    assert scene.hover == (3, 3)
    assert scene.current_view().hover_ok
    move(app, scene.layout().cell_center(0, 0))
    assert scene.hover == (0, 0) and not scene.current_view().hover_ok
    press(app, pygame.K_p, unicode="p")
    assert not scene.preview


def test_enter_after_win_opens_next_level_and_esc_goes_back(app: App) -> None:
    select = app.push(LevelSelectScene(app))
    scene = open_level(app)
    scene.apply_bricks(SOLUTION)
    press(app, pygame.K_SPACE, unicode=" ")
    app.run_frames(frames_to_finish(scene.level))
    assert scene.state == PlayState.WON
    press(app, pygame.K_RETURN)
    nxt = app.top
    assert isinstance(nxt, PlayScene) and nxt.index == ORIGINAL_INDEX + 1
    leave_level(app)
    assert app.top is select
    assert select.statuses[ORIGINAL_INDEX].solved


def test_all_six_original_solutions_win(app: App) -> None:
    scene = open_level(app)
    for sol in ORIGINAL_SOLUTIONS:
        scene.apply_bricks(sol)
        assert scene.run.won


def test_resize_keeps_board_inside_and_centred(app: App) -> None:
    scene = open_level(app)
    for size in [(640, 480), (1600, 900), (500, 900)]:
        screen = pygame.Surface(size)
        app.screen = screen
        app.run_frames(1)
        rect = scene.layout(size).rect
        assert screen.get_rect().contains(rect)
        area = scene.board_area(size)
        assert abs(rect.centerx - area.centerx) <= 1 and abs(rect.centery - area.centery) <= 1


def test_quit_event_stops_the_app(app: App) -> None:
    open_level(app)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert app.run_frames(10) == 1
    assert not app.running


def test_window_resize_event_refits_the_board(app: App) -> None:
    scene = open_level(app)
    before = scene.layout().cell
    pygame.display.set_mode((640, 480), pygame.RESIZABLE)  # what SDL does when the user resizes
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=640, h=480, size=(640, 480)))
    app.run_frames(1)
    assert app.screen.get_size() == (640, 480)
    lay = scene.layout()
    assert lay.cell < before and app.screen.get_rect().contains(lay.rect)
    click(app, lay.cell_center(2, 1))
    assert scene.bricks == ((2, 1),)


def _play_scene(app: App, rows: list[str], frames: int, physics: str = "classic") -> PlayScene:
    """A play scene of a small level under ``physics`` (no progress key)."""
    level = Level.from_rows(rows, frames=frames, budget=0, physics=resolve(physics))
    scene = PlayScene(app, level)
    app.push(scene)
    app.run_frames(1)
    return scene


def test_the_result_shows_once_every_lemming_is_home_and_the_rest_can_be_scrubbed(app: App) -> None:
    scene = _play_scene(app, [">  T", "XXXX"], frames=60)
    press(app, pygame.K_SPACE, unicode=" ")
    app.run_frames(int(4 / BASE_FPS * 60) + 5)  # about one second at 1x, not the twelve of the whole run
    assert scene.state == PlayState.WON and scene.frame == 3
    press(app, pygame.K_END)
    assert scene.state == PlayState.WON and scene.frame == 59  # the frames after it are still there
    press(app, pygame.K_LEFT)
    assert scene.state == PlayState.PAUSED and scene.frame == 58
    press(app, pygame.K_SPACE, unicode=" ")
    assert scene.state == PlayState.WON  # resuming past the settled frame shows the result again


def test_the_result_shows_once_every_lemming_is_lost_for_good(app: App) -> None:
    scene = _play_scene(app, ["X>X  T", "XXXXXX"], frames=60)
    press(app, pygame.K_SPACE, unicode=" ")
    app.run_frames(int(3 / BASE_FPS * 60) + 5)
    assert scene.state == PlayState.LOST and scene.frame == 2  # it turned on the spot and back again
    assert scene.failures


def test_where_targets_do_not_stop_lemmings_the_run_plays_to_the_end(app: App) -> None:
    scene = _play_scene(app, [">  T", "XXXX"], frames=30, physics="restless")
    press(app, pygame.K_SPACE, unicode=" ")
    app.run_frames(int(4 / BASE_FPS * 60) + 5)
    assert scene.state == PlayState.RUNNING
    app.run_frames(frames_to_finish(scene.level))
    assert scene.frame == scene.last_frame


def test_a_narrow_footer_says_how_to_browse_the_solutions_on_screen(data_home: Path) -> None:
    small = build_app(size=(800, 500), clock=FixedClock())
    scene = open_level(small)
    press(small, pygame.K_a)  # every optimal solution: six, the first on screen
    run_until(small, lambda: "solution 1 / 6" in " ".join(scene.status_lines), "all solutions")
    shown, _ = hud.fit_hints(scene._hints(), 800, keep=footer_keep(scene._hints(), 800))
    assert ("[ ]", "browse") in shown and ("Enter", "apply") in shown and ("Esc", "hide") in shown
    assert hud.hints_width(shown, hud.SMALL_HINT_SIZE) <= 800 - 20


def test_the_status_lines_share_one_bubble(app: App) -> None:
    scene = open_level(app)
    press(app, pygame.K_TAB)  # the assistant names the new solver ...
    press(app, pygame.K_p, unicode="p")  # ... and the scene says the preview changed
    lines = scene.status_strip_lines()
    assert len(lines) == 2
    surface = pygame.Surface(app.screen.get_size())
    bubbles = draw_status_lines(scene, surface)
    assert len(bubbles) == 1 and bubbles[0].height >= 2 * 22  # both lines inside one panel


@pytest.mark.parametrize("width", [800, 640])
def test_a_narrow_footer_keeps_the_assistant_keys_tab_and_help(data_home: Path, width: int) -> None:
    small = build_app(size=(width, 500), clock=FixedClock())
    scene = open_level(small)
    shown, _ = hud.fit_hints(scene._hints(), width, keep=footer_keep(scene._hints(), width))
    keys = [key for key, _ in shown]
    assert {"H", "S", "A", "F", "G", "Tab", "F1"} <= set(keys)
    assert hud.hints_width(shown, hud.SMALL_HINT_SIZE) <= width - 20
    if width == 800:
        assert {"Space", "Esc"} <= set(keys)  # the main keys fit beside them
    press(small, pygame.K_SPACE, unicode=" ")
    shown, _ = hud.fit_hints(scene._hints(), width, keep=footer_keep(scene._hints(), width))
    assert {"A", "F", "G", "Tab"} <= {key for key, _ in shown}
