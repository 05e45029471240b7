"""Drive the real app headless and use the assistant: hints, solve/apply/play, undo, all
solutions, the solver cycle, deductions, relaxed answers and GIF export from the play scene."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

import imageio.v3 as iio
import numpy as np
import pygame
import pytest
from PIL import Image

from ai import facade
from ai.kernel.base import RelaxedSolution, SolveMode, SolveResult, SolveStatus
from ai.kernel.context import SolveContext
from game.core.outcome import settled_at
from game.core.simulation import simulate
from game.core.level import Level, cell_words
from game.core.progress import ProgressStore, default_progress_path
from game.core.storage import user_exports_dir
from game.app import hud
from game.app.app import App
from game.app.display import FixedClock
from game.app.compose import build_app
from game.app.jobs import Job
from game.app.assistant import SOLVER_CYCLE, Assistant, assistant_of, background, tasks
from game.app.assistant.overlay import badge_right
from game.app.assistant.state import solver_title
from game.app.assistant.tasks import PREFETCH_SOLVER
from game.app.export import DEFAULT_FPS, OUTCOME_SECONDS, TITLE_SECONDS, ExportResult
from game.app.gif_writer import played_seconds, shown_ms
from game.cli.export import MAX_FPS
from game.cli.export_run import long_gif_note
from game.core.catalog import pack_entries
from game.app.scenes.play import BASE_FPS, PlayScene, PlayState
from game.app.scenes.play_draw import draw_status_lines, status_layout, status_strip_text
from game.core.error_log import error_log_path
from tests.conftest import ORIGINAL_INDEX, ORIGINAL_KEY, ORIGINAL_SOLUTIONS
from tests.game.app.conftest import click, press, run_until

SOLUTION_CELLS = set().union(*ORIGINAL_SOLUTIONS)


def open_original(app: App) -> PlayScene:
    scene = PlayScene(app, playlist=pack_entries(), index=ORIGINAL_INDEX)
    app.push(scene)
    app.run_frames(1)
    return scene


def wait_idle(app: App, assistant: Assistant, timeout: float = 30.0) -> None:
    """Step the app until the assistant's job has been collected (``timeout``: a hang guard, never a speed
    check), then one frame more."""
    run_until(app, lambda: not assistant.busy and assistant.job is None, "the assistant's job", timeout)
    app.run_frames(1)
    assert assistant.job is None


def wait_export(app: App, assistant: Assistant, timeout: float = 30.0) -> None:
    """Step the app until the assistant's GIF has been written (``timeout``: a hang guard)."""
    run_until(app, lambda: not assistant.state.exporting, "the GIF export", timeout)


def frames_to_finish(level: Level) -> int:
    return int(level.frames / BASE_FPS * 60) + 10


def hint_cells(scene: PlayScene) -> list[tuple[int, int]]:
    return [cell for cell, rgba in scene.highlights if rgba[:3] in ((120, 255, 140), (255, 90, 90))]


def test_hint_highlights_a_cell_of_an_optimal_solution_and_is_counted(app: App) -> None:
    scene = open_original(app)
    press(app, pygame.K_h)
    wait_idle(app, assistant_of(scene))
    # the first press teaches where and why the run fails, the second the idea; no brick yet
    assert hint_cells(scene) == [] and any("drops into the pit" in line for line in scene.status_lines)
    press(app, pygame.K_h)
    assert hint_cells(scene) == [] and any(line.startswith("The idea:") for line in scene.status_lines)
    assert ProgressStore.load(default_progress_path()).records.get(ORIGINAL_KEY) is None or \
        ProgressStore.load(default_progress_path()).records[ORIGINAL_KEY].hints_used == 0
    press(app, pygame.K_h)
    cells = hint_cells(scene)
    assert len(cells) == 1 and cells[0] in SOLUTION_CELLS
    line = next(line for line in scene.status_lines if line.startswith("Hint"))
    assert f"place a brick at {cell_words(cells[0])}. It " in line and "frame" in line
    assert ProgressStore.load(default_progress_path()).records[ORIGINAL_KEY].hints_used == 1
    # repeated presses reveal more, up to a whole optimal solution
    press(app, pygame.K_h)
    press(app, pygame.K_h)
    revealed = hint_cells(scene)
    assert len(revealed) == 3 and tuple(sorted(revealed)) in ORIGINAL_SOLUTIONS
    assert any(line.startswith("Hint 3/3: ") for line in scene.status_lines)
    press(app, pygame.K_h)  # nothing more to reveal: not counted
    assert any(line.startswith("Hint 3/3 (the last): ") for line in scene.status_lines)
    assert ProgressStore.load(default_progress_path()).records[ORIGINAL_KEY].hints_used == 3
    # following the hint: place the revealed bricks and win
    for cell in revealed:
        scene.click_cell(cell)
    press(app, pygame.K_SPACE, unicode=" ")
    app.run_frames(frames_to_finish(scene.level))
    assert scene.state == PlayState.WON


def test_hint_says_which_brick_to_remove(app: App) -> None:
    scene = open_original(app)
    click(app, scene.layout().cell_center(1, 3))  # a cell no solution uses, and the budget is tight
    click(app, scene.layout().cell_center(2, 1))
    click(app, scene.layout().cell_center(5, 4))
    assert scene.bricks == ((1, 3), (2, 1), (5, 4))
    for _ in range(3):  # the reason, the idea, then the brick (each may wait for the assistant's job)
        press(app, pygame.K_h)
        wait_idle(app, assistant_of(scene))
    assert [(c, rgba[:3]) for c, rgba in scene.highlights] == [((1, 3), (255, 90, 90))]
    assert any(f"remove the brick at {cell_words((1, 3))}." in line for line in scene.status_lines)


def test_solve_enter_space_wins_and_undo_restores_the_players_bricks(app: App) -> None:
    scene = open_original(app)
    click(app, scene.layout().cell_center(1, 3))
    mine = scene.bricks
    press(app, pygame.K_s)
    assert assistant_of(scene).busy or assistant_of(scene).shown is not None
    wait_idle(app, assistant_of(scene))
    shown = assistant_of(scene).shown
    assert shown in ORIGINAL_SOLUTIONS
    assert set(scene.ghost_bricks) == set(shown)
    assert ((1, 3), (255, 120, 120, 200)) in scene.highlights  # the player's brick the solution drops
    assert scene.status_lines[0].startswith("Auto: 3 bricks, the fewest possible (proved in")
    press(app, pygame.K_RETURN)
    assert scene.bricks == shown and scene.ghost_bricks == ()
    assert scene.state == PlayState.PLACING
    press(app, pygame.K_SPACE, unicode=" ")
    app.run_frames(frames_to_finish(scene.level))
    assert scene.state == PlayState.WON
    press(app, pygame.K_z)
    assert scene.bricks == mine
    press(app, pygame.K_y)
    assert scene.bricks == shown


def test_space_plays_the_solution_on_screen(app: App) -> None:
    scene = open_original(app)
    press(app, pygame.K_s)
    wait_idle(app, assistant_of(scene))
    press(app, pygame.K_SPACE, unicode=" ")
    assert scene.state == PlayState.RUNNING and scene.bricks in ORIGINAL_SOLUTIONS
    app.run_frames(frames_to_finish(scene.level))
    assert scene.state == PlayState.WON
    press(app, pygame.K_z)
    assert scene.bricks == ()


def test_the_applied_line_goes_once_space_plays_the_bricks(app: App) -> None:
    scene = open_original(app)
    press(app, pygame.K_s)
    wait_idle(app, assistant_of(scene))
    press(app, pygame.K_RETURN)
    applied = "AI solution applied  -  Z returns to your bricks, Space plays it"
    assert applied in scene.status_lines
    press(app, pygame.K_SPACE, unicode=" ")
    assert scene.state == PlayState.RUNNING and applied not in scene.status_lines
    app.run_frames(frames_to_finish(scene.level))
    assert scene.state == PlayState.WON and not any("Space plays" in line for line in scene.status_strip_lines())


def test_space_on_a_solution_says_z_returns_until_the_bricks_change(app: App) -> None:
    scene = open_original(app)
    press(app, pygame.K_s)
    wait_idle(app, assistant_of(scene))
    press(app, pygame.K_SPACE, unicode=" ")
    applied = "AI solution applied  -  Z returns to your bricks"
    assert scene.state == PlayState.RUNNING and applied in scene.status_lines
    app.run_frames(frames_to_finish(scene.level))
    assert scene.state == PlayState.WON and applied in scene.status_lines  # still true after the win
    press(app, pygame.K_z)
    assert scene.bricks == () and applied not in scene.status_lines


def test_all_solutions_browse_with_brackets(app: App) -> None:
    scene = open_original(app)
    press(app, pygame.K_a)
    wait_idle(app, assistant_of(scene))
    assert "solution 1 / 6 (all found)" in scene.status_lines[0]
    seen = {assistant_of(scene).shown}
    for k in range(2, 7):
        press(app, pygame.K_RIGHTBRACKET)
        assert f"solution {k} / 6 (all found)" in scene.status_lines[0]
        seen.add(assistant_of(scene).shown)
    assert seen == ORIGINAL_SOLUTIONS
    press(app, pygame.K_RIGHTBRACKET)
    assert "1 / 6" in scene.status_lines[0]
    press(app, pygame.K_LEFTBRACKET)
    assert "6 / 6" in scene.status_lines[0]
    sixth = assistant_of(scene).shown
    press(app, pygame.K_RETURN)
    assert scene.bricks == sixth


def test_tab_cycles_the_available_solvers(app: App) -> None:
    scene = open_original(app)
    names = assistant_of(scene).solver_names
    assert names[0] == "auto"
    assert set(names) <= set(SOLVER_CYCLE) and set(names) <= set(facade.SOLVERS)
    assert {"cpsat", "milp", "search"} <= set(names)
    seen = []
    for _ in names:
        press(app, pygame.K_TAB)
        seen.append(assistant_of(scene).solver)
        assert f"AI solver: {solver_title(assistant_of(scene).solver)}" in scene.status_lines
        assert solver_title(assistant_of(scene).solver)  # the badge under the top bar names it
    assert tuple(seen) == names[1:] + names[:1]
    # the chosen solver is the one that answers
    assistant_of(scene).select_solver("cpsat")
    press(app, pygame.K_s)
    wait_idle(app, assistant_of(scene))
    assert scene.status_lines[0].startswith("Logic solver: 3 bricks, the fewest possible")


def test_forced_overlay_shows_the_deductions(app: App) -> None:
    scene = open_original(app)
    press(app, pygame.K_f)
    wait_idle(app, assistant_of(scene))
    assistant = assistant_of(scene)
    # the only cell in all six solutions
    assert assistant.state.deductions is not None and assistant.state.deductions.forced == ((6, 6),)
    assert ((6, 6), (255, 214, 90, 255)) in scene.highlights
    assert not set(assistant.state.deductions.never_useful) & SOLUTION_CELLS
    assert len(assistant.state.deductions.never_useful) == len(scene.level.brickable_cells) - len(SOLUTION_CELLS)
    assert any("1 forced" in line for line in scene.status_lines)
    press(app, pygame.K_f)
    assert not any(rgba[:3] == (255, 214, 90) for _, rgba in scene.highlights)


def gated_gif_jobs(gate: Path) -> Callable[..., Job]:
    """The assistant's GIF jobs, each waiting (in its child process) until ``gate`` exists: the test, not
    the machine's speed, decides when the GIF is written."""
    real = tasks.gif_job

    def make(*args: Any, **kwargs: Any) -> Job:
        export = real(*args, **kwargs)

        def wait_then_export(ctx: SolveContext) -> Any:
            while not gate.exists():
                ctx.check()
                time.sleep(0.005)
            return export(ctx)

        return wait_then_export

    return make


def test_g_exports_the_run_on_screen_without_stalling(app: App, monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    gate = tmp_path / "write-the-gif"
    monkeypatch.setattr(background, "gif_job", gated_gif_jobs(gate))
    scene = open_original(app)
    press(app, pygame.K_s)
    wait_idle(app, assistant_of(scene))
    shown = assistant_of(scene).shown
    before = app.frame_count
    press(app, pygame.K_g)
    assert assistant_of(scene).state.exporting and assistant_of(scene).use_processes  # in a child
    press(app, pygame.K_g)  # a second G never cuts the GIF being written
    assert "still writing the last GIF..." in scene.status_lines
    gate.touch()
    wait_export(app, assistant_of(scene))
    assert app.frame_count - before >= 2  # the game kept stepping while the GIF was written
    path = Path(assistant_of(scene).state.export_path)
    assert path.parent == user_exports_dir() and path.name.startswith("the-original-")
    assert any(f"GIF saved: {path.name}  (in {path.parent})" in line for line in scene.status_lines)
    for width in (800, 1280):  # the file's name is whole on screen, even where the folder is cut
        _, _, room = status_strip_text(width, scene.strip_left)
        size, _, lines = status_layout(scene.status_strip_lines(), width, scene.strip_left)
        drawn = [hud.fit_text(line, size, room) for line in lines]
        assert any(path.name in line for line in drawn), drawn
    frames = iio.imread(path, index=None)
    assert shown is not None
    # the title card, frames 0 to the one where the outcome is settled, then the held outcome
    assert frames.shape[0] == settled_at(simulate(scene.level, tuple(shown))) + 3 < scene.level.frames + 2


def test_the_hint_names_its_cell_by_the_numbers_the_ruler_shows_there(app: App,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[str, tuple[int, int]]] = []
    real = hud.blit_text

    def spy(surface: pygame.Surface, text: str, pos: tuple[int, int], *args: object, **kwargs: object) -> pygame.Rect:
        drawn.append((text, (int(pos[0]), int(pos[1]))))
        return real(surface, text, pos, *args, **kwargs)  # type: ignore[arg-type]

    scene = open_original(app)
    press(app, pygame.K_n)  # the ruler on
    for _ in range(3):  # where it fails, the idea, then the first brick
        press(app, pygame.K_h)
        wait_idle(app, assistant_of(scene))
    (row, col), = hint_cells(scene)
    monkeypatch.setattr(hud, "blit_text", spy)
    app.run_frames(1)
    line = next(line for line in scene.status_lines if line.startswith("Hint"))
    assert f"place a brick at row {row}, column {col}." in line
    board = scene.layout().rect
    x, y = scene.layout().cell_center(row, col)
    assert (str(col), (x, board.top - 6)) in drawn and (str(row), (board.left - 6, y)) in drawn


def zigzag_level(width: int = 40, floors: int = 10) -> Level:
    """A lemming that walks every floor of a zigzag down to the target: a run of some 440 frames in 3000."""
    rows = ["X>" + " " * (width - 3) + "X"]
    for k in range(floors):
        hole = width - 2 if k % 2 == 0 else 1
        rows += ["".join(" " if c == hole else "X" for c in range(width)), "X" + " " * (width - 2) + "X"]
    rows[-1] = "X" + " " * (width - 3) + "TX"
    return Level.from_rows(rows + ["X" * width], frames=3000, budget=0)


def gif_delays(path: Path) -> list[int]:
    """How long each frame of the GIF at ``path`` shows, in milliseconds."""
    delays: list[int] = []
    with Image.open(path) as gif:
        for index in range(gif.n_frames):
            gif.seek(index)
            delays.append(int(gif.info["duration"]))
    return delays


def test_g_on_a_long_run_writes_a_gif_of_at_most_a_minute_at_the_rate_export_names(app: App) -> None:
    level = zigzag_level()
    settled = settled_at(simulate(level, ()))
    at_default = played_seconds(settled + 3, fps=DEFAULT_FPS, title_seconds=TITLE_SECONDS,
                                outcome_seconds=OUTCOME_SECONDS)
    assert at_default > 60  # the export's default rate would play it for over a minute
    scene = app.push(PlayScene(app, level))
    assert isinstance(scene, PlayScene)
    app.run_frames(1)
    press(app, pygame.K_g)
    wait_export(app, assistant_of(scene), timeout=600)
    path = Path(assistant_of(scene).state.export_path)
    delays = gif_delays(path)
    assert len(delays) == settled + 3 and sum(delays) <= 60_000
    note = long_gif_note(ExportResult(path, len(delays), (1, 1), 1, True, played=at_default), DEFAULT_FPS, MAX_FPS)
    fps = float(note.split("--fps ")[1].split()[0])  # the rate main.py export names for this run
    assert delays[1:-1] == [shown_ms(1000 / fps)] * (settled + 1)
    said = f"GIF saved: {path.name}, {sum(delays) / 1000:.0f} s at {fps:g} frames a second"
    assert any(said in line for line in scene.status_lines), scene.status_lines


class RelaxedSolver:
    """Returns a fractional answer only, like the LP relaxation."""

    name = "relaxed"
    exact = False

    def solve_in(self, level: Level, mode: SolveMode, ctx: SolveContext) -> SolveResult:
        obst = np.zeros((level.height, level.width))
        obst[3, 1] = 2 / 3
        obst[5, 4] = 1 / 3
        occ = np.zeros((level.frames, level.height, level.width, 2))
        occ[:, 1, 1, 1] = 1.0
        relaxed = RelaxedSolution(obstacles=obst, occupancy=occ, objective=1.0)
        return SolveResult(SolveStatus.UNKNOWN, self.name, SolveMode(mode), message="relaxed", relaxed=relaxed)


def test_relaxed_answer_is_drawn_and_exported(app: App) -> None:
    scene = open_original(app)
    assistant_of(scene).add_solver(RelaxedSolver())
    press(app, pygame.K_s)
    wait_idle(app, assistant_of(scene))
    assert assistant_of(scene).state.relaxed is not None and assistant_of(scene).shown is None
    assert any("relaxed answer, 1.00 bricks" in line for line in scene.status_lines)
    layout = scene.layout()
    rect = layout.cell_rect(3, 1)
    empty = scene.level.brickable_cells[0]
    assert empty not in ((3, 1), (5, 4))
    sample = pygame.surfarray.array3d(app.screen.subsurface(rect)).astype(int)
    blank = pygame.surfarray.array3d(app.screen.subsurface(layout.cell_rect(*empty))).astype(int)
    assert np.abs(sample.mean(axis=(0, 1)) - blank.mean(axis=(0, 1))).sum() > 20  # a translucent brick
    press(app, pygame.K_g)
    wait_export(app, assistant_of(scene))
    assert assistant_of(scene).state.export_path.endswith("-relaxed.gif")
    assert 3 <= iio.imread(assistant_of(scene).state.export_path, index=None).shape[0] <= scene.level.frames + 2


def test_milp_solves_in_the_game(app: App) -> None:
    """MILP starts its own child process inside the job's child: it answers, no error."""
    scene = open_original(app)
    assistant = assistant_of(scene)
    assert assistant.use_processes
    assistant.select_solver("milp")
    press(app, pygame.K_a)
    wait_idle(app, assistant, timeout=90)
    assert scene.status_lines[0].startswith("Optimizer: 3 bricks, the fewest possible")
    assert "solution 1 / 6 (all found)" in scene.status_lines[0]
    assert solver_title(assistant.solver) == "Optimizer (MILP)"


def test_after_a_win_the_assistant_owns_enter_and_the_board(app: App) -> None:
    scene = open_original(app)
    for cell in sorted(ORIGINAL_SOLUTIONS)[0]:
        scene.click_cell(cell)
    press(app, pygame.K_SPACE, unicode=" ")
    app.run_frames(frames_to_finish(scene.level))
    assert scene.state == PlayState.WON
    assert ("Enter", "next level") in scene._hints() and not scene.board_claimed()
    press(app, pygame.K_a)
    wait_idle(app, assistant_of(scene))
    # the footer and the status line agree: Enter applies; no "next level" while a solution shows
    hints = scene._hints()
    assert ("Enter", "apply") in hints and ("Enter", "next level") not in hints and ("[ ]", "browse") in hints
    # browsing: the win panel steps aside and the board is not dimmed, so the ghost bricks show
    press(app, pygame.K_RIGHTBRACKET)
    shown = assistant_of(scene).shown
    assert shown is not None and shown != scene.bricks
    assert scene.board_claimed() and scene.current_view().dim == 0.0
    assert set(scene.current_view().ghost_bricks) == set(shown) - set(scene.bricks)
    # Esc hides the solutions: the panel and "Enter: next level" come back, and Enter does that
    press(app, pygame.K_ESCAPE)
    assert app.top is scene and not scene.board_claimed() and ("Enter", "next level") in scene._hints()
    press(app, pygame.K_RETURN)
    app.run_frames(1)
    assert app.top is not scene and isinstance(app.top, PlayScene) and app.top.index == ORIGINAL_INDEX + 1


def test_a_failed_export_shows_a_friendly_line_and_logs_the_error(app: App, monkeypatch: Any) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tasks, "export_gif", broken)  # the child is forked: it sees the patch
    scene = open_original(app)
    press(app, pygame.K_g)
    wait_export(app, assistant_of(scene))
    assert "The GIF could not be saved (details in errors.log)" in scene.status_lines
    assert not any("No space" in line or "Error" in line for line in scene.status_lines)
    assert "OSError: [Errno 28] No space left on device" in error_log_path().read_text()


def test_the_minimum_solutions_are_enumerated_in_the_background_and_hints_reuse_them(app: App) -> None:
    """When a level opens the assistant lists every minimum solution in a child process; H then plans from
    that list (no second enumeration), and the hint is one of those solutions."""
    scene = open_original(app)
    assistant = assistant_of(scene)
    run_until(app, lambda: assistant.state.cached(PREFETCH_SOLVER, "all") is not None,
              "the background list of solutions", 30)
    known = assistant.state.cached(PREFETCH_SOLVER, "all")
    assert known is not None and known.complete and set(known.solutions) == ORIGINAL_SOLUTIONS
    assert not assistant.busy  # the background list shows no spinner and blocks no key
    press(app, pygame.K_h, unicode="h")
    wait_idle(app, assistant)
    hint = assistant.state.hint
    assert hint is not None and hint.hint.solution in ORIGINAL_SOLUTIONS and hint.steps


def test_the_status_strip_keeps_clear_of_the_solver_badge_on_narrow_and_wide_windows(data_home: Path) -> None:
    for size in ((800, 500), (1280, 800)):
        app = build_app(size=size, clock=FixedClock())
        scene = open_original(app)
        press(app, pygame.K_h)
        wait_idle(app, assistant_of(scene))
        right = badge_right(assistant_of(scene).state)
        assert scene.strip_left == right > 100
        panels = draw_status_lines(scene, pygame.Surface(size))
        assert panels and all(p.left > right and p.right <= size[0] for p in panels)
        assert "drops into the pit" in " ".join(scene.status_lines)


def reveal_all(app: App, scene: PlayScene) -> list[tuple[int, int]]:
    """H until it reveals nothing more (the lessons first, then one brick per press): the bricks revealed."""
    assistant = assistant_of(scene)
    press(app, pygame.K_h, unicode="h")
    wait_idle(app, assistant)
    seen: list[tuple[int, int]] = []
    for _ in range(12):
        press(app, pygame.K_h, unicode="h")
        now = hint_cells(scene)
        if now == seen and now:
            break
        seen = now
    return seen


def test_h_then_s_show_the_same_bricks_and_both_keep_the_players_brick(app: App) -> None:
    scene = open_original(app)
    assistant = assistant_of(scene)
    revealed = reveal_all(app, scene)
    press(app, pygame.K_s, unicode="s")
    wait_idle(app, assistant)
    assert len(revealed) == 3 and assistant.shown == tuple(sorted(revealed))  # S shows H's bricks
    assert scene.status_lines[0].startswith("Auto: 3 bricks, the fewest possible")
    press(app, pygame.K_ESCAPE)
    # a brick of the player's: S first, then H; both keep it, and H reveals the rest of S's solution
    mine = next(cell for sol in sorted(ORIGINAL_SOLUTIONS) for cell in sol if cell not in revealed)
    click(app, scene.layout().cell_center(*mine))
    assert scene.bricks == (mine,)
    press(app, pygame.K_s, unicode="s")
    wait_idle(app, assistant)
    shown = assistant.shown
    assert shown is not None and mine in shown and shown in ORIGINAL_SOLUTIONS
    more = reveal_all(app, scene)
    assert sorted(more + [mine]) == sorted(shown) and assistant.state.hint is not None
    assert all(step.kind.value == "place" for step in assistant.state.hint.steps)
