"""The Reverse Life screen, headless, driven by posted events; the AI runs through the app's job runner."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace
from typing import Any

import numpy as np
import pygame
import pytest

from game.core.puzzles.life.puzzle import LifePuzzle
from game.core.puzzles.life.rules import step
from ai.facade import LifeHintKind, LifeReverseStatus
from game.app import hud
from game.app.app import App
from game.app.display import FixedClock
from game.app.compose import build_app
import game.app.puzzles.life as life_module
from game.app.puzzles.life import LifeScene, LifeTask
from game.app.palette import SKY_BLUE, VERMILLION
from game.app.puzzles import mines_view
from game.app.puzzles.life_text import HINT_DROPPED, KEPT_MESSAGE, SOLVED_MESSAGE
from ai.facade import SolveContext
from game.core.settings import Palette
from tests.stopping import STOP_GUARD
from tests.game.app.conftest import click, press

BLINKER = LifePuzzle.from_text("title: Blinker\nsteps: 1\n.......\n.......\n.......\n..###..\n.......\n.......\n"
                               ".......\n")
#: A 6x6 target whose predecessors share 12 live cells (found by the backbone and brute force).
FORCED = LifePuzzle.from_text("steps: 1\n..#..#\n...#..\n##...#\n######\n#..#..\n.##.##\n")
FORCED_ALIVE = {(0, 5), (1, 3), (1, 5), (2, 0), (2, 4), (2, 5), (3, 1), (3, 2), (3, 3), (4, 2), (5, 1), (5, 5)}
#: Live cells on the blinker puzzle that no start keeps all of (while starts exist).
PAINTED_NO_START_KEEPS = ((0, 3), (2, 2), (2, 3), (3, 1), (3, 3), (3, 4), (4, 0), (4, 2), (4, 3), (5, 2))
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
    assert scene.model.solved and scene.message == SOLVED_MESSAGE
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
    assert scene.hint_cell in FORCED_ALIVE and "every start that keeps your live cells" in scene.message, scene.message
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


def test_a_puzzle_left_with_the_brackets_is_found_again_as_it_was(app: App) -> None:
    scene = LifeScene(app, [GLIDER, BLINKER], 0)
    app.push(scene)
    app.run_frames(1)
    for cell in ((1, 1), (2, 2)):
        scene.cursor = cell
        _flip_at_cursor(app)
    painted = scene.model.start.copy() if scene.model is not None else None
    press(app, pygame.K_RIGHTBRACKET, unicode="]")
    assert scene.model is not None and scene.model.puzzle is BLINKER and scene.model.start.sum() == 0
    press(app, pygame.K_LEFTBRACKET, unicode="[")
    assert scene.model.puzzle is GLIDER and np.array_equal(scene.model.start, painted)
    press(app, pygame.K_z, unicode="z")  # its undo history came back with it
    assert scene.model.start.sum() == 1


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


def test_a_hint_asked_before_the_start_changed_is_dropped_not_shown(app: App,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    scene = LifeScene(app, [BLINKER], ai_time_limit=None, use_processes=False)
    app.push(scene)
    app.run_frames(1)
    submitted: list[Any] = []
    submit = app.jobs.submit
    monkeypatch.setattr(app.jobs, "submit", lambda *a, **k: submitted.append(submit(*a, **k)) or submitted[-1])
    scene.cursor = (3, 3)
    for key, char in ((pygame.K_h, "h"), (pygame.K_SPACE, " ")):  # a flip before the hint's answer is taken
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=char, scancode=0))
    app.run_frames(1)
    assert len(submitted) == 1
    submitted[0].wait(120.0)
    app.run_frames(2)
    assert scene.model is not None and scene.model.start.sum() == 1
    assert scene.job is None and scene.hint_cell is None and scene.last_hint is None
    assert scene.message == HINT_DROPPED.format(hint="H")
    _take_hint(app, scene)  # asked again, about the start on the board
    assert scene.last_hint is not None and scene.last_hint.wrong_now == scene.model.wrong_cells


def _take_hint(app: App, scene: LifeScene) -> None:
    press(app, pygame.K_h, unicode="h")
    scene.wait()


def _flip_at_cursor(app: App) -> None:
    press(app, pygame.K_SPACE, unicode=" ")


def test_hint_on_a_wrap_around_board_names_a_cell_and_following_them_solves(app: App) -> None:
    scene = LifeScene(app, [GLIDER], ai_time_limit=None)
    app.push(scene)
    app.run_frames(1)
    assert scene.model is not None
    for _ in range(64):
        _take_hint(app, scene)
        h = scene.last_hint
        assert h is not None and "forced cells" not in scene.message, scene.message
        assert scene.hint_cell == h.cell == scene.cursor and h.kind == LifeHintKind.ADD, scene.message
        assert scene.message.startswith("Hint: make the marked cell alive"), scene.message
        assert h.start is not None and np.array_equal(step(h.start, GLIDER.rule, 2), GLIDER.target)
        assert not scene.model.start[h.cell] and h.start[h.cell]
        _flip_at_cursor(app)
        if scene.model.solved:
            break
    assert scene.model.solved and scene.message == SOLVED_MESSAGE


def test_a_hint_for_painted_cells_no_start_keeps_reduces_the_error(app: App) -> None:
    scene = LifeScene(app, [BLINKER], ai_time_limit=None)
    app.push(scene)
    app.run_frames(1)
    assert scene.model is not None
    for r, c in PAINTED_NO_START_KEEPS:
        scene.model.set_cell(r, c, True)
    scene._changed()
    before = scene.model.wrong_cells
    _take_hint(app, scene)
    h = scene.last_hint
    assert h is not None and h.kind == LifeHintKind.REMOVE and scene.model.start[h.cell], scene.message
    assert "Clear the marked cell" in scene.message or "clear the marked cell" in scene.message
    _flip_at_cursor(app)
    assert scene.model.wrong_cells == h.wrong_after < before


def test_progress_is_kept_across_a_new_app(app: App) -> None:
    pack = [BLINKER, GLIDER]
    scene = LifeScene(app, pack)
    app.push(scene)
    app.run_frames(1)
    assert scene.progress_label(BLINKER) == "" and scene.solved_count() == 0
    assert scene.model is not None
    for r in (2, 3, 4):
        scene.cursor = (r, 3)
        _flip_at_cursor(app)
    assert scene.model.solved
    press(app, pygame.K_RIGHTBRACKET, unicode="]")
    for cell in BLOCK_ON_GLIDER:  # a start better than the empty board on the glider: its best so far
        scene.cursor = cell
        _flip_at_cursor(app)
    wrong = scene.model.wrong_cells
    press(app, pygame.K_ESCAPE)
    again = build_app(size=(800, 500), clock=FixedClock())
    fresh = LifeScene(again, pack)
    again.push(fresh)
    again.run_frames(1)
    assert fresh.progress_label(BLINKER) == "solved" and fresh.solved_count() == 1
    assert fresh.progress_label(GLIDER) == f"best: {wrong} wrong"
    changed = LifePuzzle.from_text("title: Blinker\nsteps: 2\n" + "\n".join(
        "".join("#" if v else "." for v in row) for row in BLINKER.target) + "\n")
    assert fresh.progress_label(changed) == ""  # another puzzle under the same title starts afresh


#: A 2x2 block (a still life) over the glider's target: 3 wrong cells, fewer than the empty board's 5.
BLOCK_ON_GLIDER = ((2, 2), (2, 3), (3, 2), (3, 3))


def test_a_best_not_solved_yet_is_kept_when_the_window_closes(app: App) -> None:
    scene = LifeScene(app, [GLIDER])
    app.push(scene)
    app.run_frames(1)
    for cell in BLOCK_ON_GLIDER:
        scene.cursor = cell
        _flip_at_cursor(app)
    assert scene.model is not None and scene.model.wrong_cells == 3
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.run()  # the main loop ends on QUIT, as when the window is closed
    again = LifeScene(build_app(size=(800, 500), clock=FixedClock()), [GLIDER])
    assert again.progress_label(GLIDER) == "best: 3 wrong"
    assert not app.scenes  # every scene left, as on Esc


def test_a_start_no_better_than_the_empty_board_shows_no_best(app: App) -> None:
    scene = LifeScene(app, [GLIDER])
    app.push(scene)
    app.run_frames(1)
    scene.cursor = (7, 7)
    _flip_at_cursor(app)  # one stray cell, which dies: as wrong as the empty board
    assert scene.model is not None and scene.model.wrong_cells == GLIDER.empty_wrong == 5
    press(app, pygame.K_ESCAPE)
    assert scene.progress_label(GLIDER) == ""
    app.progress.record_puzzle(GLIDER.progress_key, GLIDER.puzzle_hash, 5)  # as an older game kept it
    assert scene.progress_label(GLIDER) == ""
    app.progress.record_puzzle(GLIDER.progress_key, GLIDER.puzzle_hash, 4)
    assert scene.progress_label(GLIDER) == "best: 4 wrong"


def test_solved_is_said_once_per_solve(app: App) -> None:
    scene = LifeScene(app, [BLINKER], ai_time_limit=None)
    app.push(scene)
    app.run_frames(1)
    assert scene.model is not None
    for r in (2, 3, 4):
        scene.cursor = (r, 3)
        _flip_at_cursor(app)
    assert scene.model.solved and scene.message == SOLVED_MESSAGE
    _take_hint(app, scene)
    assert scene.message == "No hint needed: your start already becomes the target." and scene.hint_cell is None
    cell, rects = scene._boards(app.screen.get_size())
    click(app, (rects[0].x + cell // 2, rects[0].y + cell // 2), button=3)  # clears a dead cell: no change
    press(app, pygame.K_LEFT)
    press(app, pygame.K_COMMA, unicode=",")
    press(app, pygame.K_PERIOD, unicode=".")
    app.run_frames(5)
    assert scene.message.startswith("No hint needed"), scene.message  # not announced again
    press(app, pygame.K_z, unicode="z")
    assert not scene.model.solved and scene.message == ""
    press(app, pygame.K_y, unicode="y")
    assert scene.message == SOLVED_MESSAGE  # a new solve is announced


def _solve_blinker(app: App, scene: LifeScene) -> None:
    for r in (2, 3, 4):
        scene.cursor = (r, 3)
        _flip_at_cursor(app)
    assert scene.model is not None and scene.model.solved


def _drawn_texts(app: App, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the screen draws in one frame."""
    drawn: list[str] = []

    def spy(surface: pygame.Surface, text: str, *args: Any, **kwargs: Any) -> pygame.Rect:
        drawn.append(text)
        return pygame.Rect(0, 0, 1, 1)

    with monkeypatch.context() as patch:
        patch.setattr(life_module.hud, "blit_text", spy)
        app.run_frames(1)
    return drawn


def _said_solved(texts: list[str]) -> list[str]:
    """The texts that say the puzzle is solved (not the count of solved puzzles in the top bar)."""
    return [t for t in texts if re.search(r"solved", re.sub(r"\d+/\d+ solved", "", t), re.IGNORECASE)]


def test_solved_is_shown_once_on_the_screen(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    scene = LifeScene(app, [BLINKER, GLIDER])
    app.push(scene)
    app.run_frames(1)
    _solve_blinker(app, scene)
    drawn = _drawn_texts(app, monkeypatch)
    assert _said_solved(drawn) == ["Solved!"], drawn
    assert any("1/2 solved" in text for text in drawn)
    press(app, pygame.K_BACKSPACE)
    drawn = _drawn_texts(app, monkeypatch)
    assert any(text.endswith("(solved)") for text in drawn), "the title says a cleared board was solved before"
    assert "Solved!" not in drawn


def test_a_solved_puzzle_opens_with_the_winning_start_again(app: App) -> None:
    scene = LifeScene(app, [BLINKER, GLIDER])
    app.push(scene)
    app.run_frames(1)
    _solve_blinker(app, scene)
    winning = scene.model.start.copy() if scene.model is not None else None
    scene = LifeScene(app, [BLINKER, GLIDER], 0)  # the screen opened again on the blinker
    app.push(scene)
    app.run_frames(1)
    assert scene.model is not None and scene.model.puzzle is BLINKER
    assert np.array_equal(scene.model.start, winning) and scene.model.solved and scene.message == KEPT_MESSAGE
    press(app, pygame.K_z, unicode="z")  # the empty board it opened on
    assert scene.model.start.sum() == 0 and scene.message == ""
    press(app, pygame.K_ESCAPE)
    assert app.progress.path is not None
    saved = json.loads(app.progress.path.read_text())["puzzles"][BLINKER.progress_key]
    assert saved["start"] == [[2, 3], [3, 3], [4, 3]]
    again = build_app(size=(800, 500), clock=FixedClock())
    fresh = LifeScene(again, [BLINKER, GLIDER], 0)
    again.push(fresh)
    again.run_frames(1)
    assert fresh.model is not None and np.array_equal(fresh.model.start, winning) and fresh.model.solved
    assert fresh.message == KEPT_MESSAGE and not fresh.assisted


def test_the_screen_opens_on_the_first_puzzle_not_solved_after_a_relaunch(app: App) -> None:
    scene = LifeScene(app, [BLINKER, GLIDER, FORCED])
    app.push(scene)
    app.run_frames(1)
    assert scene.model is not None and scene.model.puzzle is BLINKER, "nothing solved: the first puzzle"
    _solve_blinker(app, scene)
    press(app, pygame.K_ESCAPE)
    again = build_app(size=(800, 500), clock=FixedClock())
    fresh = LifeScene(again, [BLINKER, GLIDER, FORCED])
    again.push(fresh)
    again.run_frames(1)
    assert fresh.model is not None and fresh.model.puzzle is GLIDER and fresh.model.start.sum() == 0
    for puzzle in (GLIDER, FORCED):
        again.progress.record_puzzle(puzzle.progress_key, puzzle.puzzle_hash, 0)
    every = LifeScene(again, [BLINKER, GLIDER, FORCED])
    assert every.model is not None and every.model.puzzle is BLINKER, "every puzzle solved: the first again"


def test_a_kept_start_that_does_not_solve_the_puzzle_is_not_shown(app: App) -> None:
    app.progress.record_puzzle(BLINKER.progress_key, BLINKER.puzzle_hash, 0, start=((0, 0), (3, 3)))
    scene = LifeScene(app, [BLINKER])
    app.push(scene)
    app.run_frames(1)
    assert scene.model is not None and scene.model.start.sum() == 0 and scene.message == ""


def test_the_ais_start_is_not_kept(app: App) -> None:
    scene = LifeScene(app, [GLIDER, BLINKER], ai_time_limit=None)
    app.push(scene)
    app.run_frames(1)
    press(app, pygame.K_s, unicode="s")
    scene.wait()
    assert scene.model is not None and scene.model.solved and scene.assisted
    press(app, pygame.K_RIGHTBRACKET, unicode="]")
    press(app, pygame.K_LEFTBRACKET, unicode="[")  # the board as left: still the AI's start, still not counted
    assert scene.model.puzzle is GLIDER and scene.model.solved and scene.assisted
    press(app, pygame.K_ESCAPE)
    assert app.progress.puzzle(GLIDER.progress_key, GLIDER.puzzle_hash) is None
    again = LifeScene(app, [GLIDER, BLINKER])
    assert again.model is not None and again.model.puzzle is GLIDER and again.model.start.sum() == 0


def test_undoing_the_ais_start_gives_the_player_back_their_own(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    ai_start = np.zeros(BLINKER.shape, dtype=bool)
    ai_start[2:5, 3] = ai_start[0, 0] = True  # the vertical line and a cell that dies: a start the player won't paint
    monkeypatch.setattr(life_module, "life_reverse", lambda *a: SimpleNamespace(
        start=ai_start, status=LifeReverseStatus.EXACT, wrong_cells=0))
    scene = LifeScene(app, [BLINKER], ai_time_limit=None, use_processes=False)
    app.push(scene)
    app.run_frames(1)
    for r in (2, 3):  # two cells of the player's own
        scene.cursor = (r, 3)
        _flip_at_cursor(app)
    press(app, pygame.K_s, unicode="s")
    scene.wait()
    assert scene.model is not None and scene.model.solved and scene.assisted
    press(app, pygame.K_z, unicode="z")  # back to the player's two cells
    assert scene.model.start.sum() == 2 and not scene.assisted
    press(app, pygame.K_y, unicode="y")  # the AI's start again
    assert scene.assisted
    press(app, pygame.K_z, unicode="z")
    scene.cursor = (4, 3)
    _flip_at_cursor(app)  # the player's own solution
    assert scene.model.solved and not scene.assisted
    record = app.progress.puzzle(BLINKER.progress_key, BLINKER.puzzle_hash)
    assert record is not None and record.solved


def test_the_ai_at_work_says_for_how_long_and_that_esc_stops_it(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    scene = LifeScene(app, [FORCED, GLIDER], ai_time_limit=None, use_processes=False)
    app.push(scene)
    app.run_frames(1)

    def until_cancelled(ctx: SolveContext) -> None:  # an AI job that blocks until it is stopped (a thread here)
        for event in ctx.cancel_events:
            event.wait()
        ctx.check()

    drawn: list[str] = []

    def spy(surface: pygame.Surface, text: str, *args: Any, **kwargs: Any) -> pygame.Rect:
        drawn.append(text)
        return pygame.Rect(0, 0, 1, 1)

    monkeypatch.setattr(life_module.hud, "blit_text", spy)
    scene._submit(LifeTask.HINT, until_cancelled)
    app.run_frames(1)
    assert any(line.startswith("The AI is looking for a hint...") and "s, Esc stops)" in line for line in drawn)
    press(app, pygame.K_ESCAPE)
    drawn.clear()
    app.run_frames(1)
    assert "Stopped." in drawn and not any("Esc stops" in line for line in drawn)


def test_esc_stops_the_ai_first_then_leaves(app: App) -> None:
    scene = LifeScene(app, [FORCED, GLIDER], ai_time_limit=None, use_processes=False)
    app.push(scene)
    app.run_frames(1)

    def until_cancelled(ctx: SolveContext) -> None:  # an AI job that blocks until it is stopped (a thread here)
        assert ctx.cancel_events
        for event in ctx.cancel_events:
            event.wait()
        ctx.check()

    scene._submit(LifeTask.SOLVE, until_cancelled)
    handle = scene.job
    assert handle is not None
    press(app, pygame.K_ESCAPE)
    assert app.top is scene and scene.job is None and scene.message == "Stopped." and handle.cancel_requested
    assert handle.wait(STOP_GUARD)
    app.run_frames(2)
    assert scene.message == "Stopped."  # the cancelled job's end changes nothing
    press(app, pygame.K_ESCAPE)
    assert scene not in app.scenes


def test_the_colour_blind_palette_marks_the_hint_and_the_wrong_cells_without_red_or_green(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    scene = LifeScene(app, [BLINKER], ai_time_limit=None)
    app.push(scene)
    app.run_frames(1)
    _take_hint(app, scene)
    app.run_frames(1)
    assert scene.model is not None and scene.hint_cell is not None and scene.model.wrong_cells == 3
    cell, rects = scene._boards(app.screen.get_size())
    hint = pygame.Rect(rects[0].x + scene.hint_cell[1] * cell, rects[0].y + scene.hint_cell[0] * cell, cell, cell)
    wrong = pygame.Rect(rects[1].x + 3 * cell, rects[1].y + 3 * cell, cell, cell)  # (3, 3): alive in the target only

    def colour(at: tuple[int, int]) -> tuple[int, ...]:
        return tuple(app.screen.get_at(at))[:3]

    def marks() -> list[tuple[int, ...]]:  # the hint's ring and centre, a wrong cell's edge and centre
        return [colour((hint.x - 1, hint.centery)), colour(hint.center), colour((wrong.x, wrong.centery)),
                colour(wrong.center)]

    standard = marks()
    assert standard[0] == hud.GREEN and standard[2] == hud.RED
    assert standard[1] != hud.GREEN and standard[3] != hud.RED, "colour alone: no shapes"
    drawn = _drawn_texts(app, monkeypatch)
    assert "3 wrong cells, outlined in red" in drawn and "Hint: the green ring" in drawn, drawn
    app.change_settings(palette=Palette.COLOURBLIND.value)
    app.run_frames(1)
    assert marks() == [SKY_BLUE, SKY_BLUE, VERMILLION, VERMILLION], "a dot in the hint's ring, a cross on wrong cells"
    assert marks()[:2] == [mines_view.COLOURBLIND_MARKS.safe] * 2 and marks()[2] == mines_view.COLOURBLIND_MARKS.mine
    drawn = _drawn_texts(app, monkeypatch)
    assert "3 wrong cells, crossed in orange" in drawn and "Hint: the blue ring with a dot" in drawn, drawn
    assert not any(re.search(r"\b(red|green)\b", text, re.IGNORECASE) for text in drawn), drawn
    small = build_app(size=(800, 500), clock=FixedClock())
    small.change_settings(palette=Palette.COLOURBLIND.value)
    narrow = LifeScene(small, [BLINKER], ai_time_limit=None)
    small.push(narrow)
    small.run_frames(1)
    _take_hint(small, narrow)
    drawn = _drawn_texts(small, monkeypatch)
    assert "3 wrong cells, crossed in orange" in drawn and "Hint: the blue ring with a dot" in drawn, "whole words"
