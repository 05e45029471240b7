"""The peg-solitaire screen, driven headless by posted events."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import threading  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, Callable, Iterator  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

import game.app.puzzles.pegs as pegs_module  # noqa: E402
from game.core.puzzles.pegs import Board, Jump, Refusal  # noqa: E402
from game.core.puzzles.pegs_boards import parse_board  # noqa: E402
from game.core.puzzles.pegs_openings import CLASS_EXPLANATION, CLASS_SHORT, FRENCH_GOAL, FRENCH_HOLE  # noqa: E402
from game.app import hud  # noqa: E402
from game.app.display import FixedClock  # noqa: E402
from game.app.compose import build_app  # noqa: E402
from game.app.jobs import Execution  # noqa: E402
from game.app.puzzles.pegs import PegsAsk, PegsScene  # noqa: E402
from game.app.puzzles.pegs_view import draw_panel, explanation_lines, message_lines, position_message  # noqa: E402
from game.cli.main import main  # noqa: E402


@pytest.fixture
def scene(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[PegsScene]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    app = build_app(size=(1280, 800), clock=FixedClock(), sound=False)
    pygame.event.clear()
    pegs = PegsScene(app)
    app.push(pegs)
    app.run_frames(1)
    yield pegs
    app.jobs.shutdown()
    pygame.event.clear()


def _key(scene: PegsScene, key: int, mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0))
    scene.app.run_frames(1)


def _centre(scene: PegsScene, cell: tuple[int, int]) -> tuple[int, int]:
    centre = scene.layout().rect(cell).center
    return (int(centre[0]), int(centre[1]))


def _click(scene: PegsScene, cell: tuple[int, int]) -> None:
    pos = _centre(scene, cell)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=pos))
    scene.app.run_frames(1)


def test_click_peg_then_hole_jumps_and_undo_redo(scene: PegsScene) -> None:
    _click(scene, (5, 3))
    assert scene.selected == (5, 3)
    _click(scene, (3, 3))
    assert scene.pegs_left == 31 and scene.history == [Jump((5, 3), (4, 3), (3, 3))]
    _key(scene, pygame.K_z)
    assert scene.pegs_left == 32 and scene.position == scene.start
    _key(scene, pygame.K_y)
    assert scene.pegs_left == 31


def test_drag_a_peg_onto_a_hole(scene: PegsScene) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=_centre(scene, (3, 1))))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=_centre(scene, (3, 3)), rel=(0, 0),
                                         buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=_centre(scene, (3, 3))))
    scene.app.run_frames(1)  # the button is up by the frame's update: the peg is dropped where it was dragged
    assert scene.history == [Jump((3, 1), (3, 2), (3, 3))] and not scene.dragging


def _drag(scene: PegsScene, start: tuple[int, int], end: tuple[int, int] | None) -> None:
    """Press on ``start``, move to ``end`` (``None``: just outside the board's frame) and let go."""
    to = _centre(scene, end) if end is not None else (scene.layout().left - scene.layout().cell, 200)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=_centre(scene, start)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=to, rel=(0, 0), buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=to))
    scene.app.run_frames(1)


def test_illegal_drop_is_refused_with_a_message(scene: PegsScene) -> None:
    _click(scene, (0, 2))
    _click(scene, (3, 3))
    assert scene.pegs_left == 32 and "jumps over" in scene.message and scene.selected is None
    assert Refusal.NOT_IN_LINE.value in scene.message


@pytest.mark.parametrize(("start", "end", "refusal"), [
    ((0, 2), (3, 3), Refusal.NOT_IN_LINE),
    ((0, 2), (2, 2), Refusal.LANDING_FULL),
    ((6, 3), (4, 3), Refusal.NOTHING_OVER),
    ((3, 1), None, Refusal.OFF_BOARD),
    ((0, 0), None, Refusal.OFF_BOARD),  # a corner of the frame: no hole there, so nothing is picked up
])
def test_each_illegal_drag_says_why(scene: PegsScene, start: tuple[int, int], end: tuple[int, int] | None,
                                    refusal: Refusal) -> None:
    scene.jump(Jump((5, 3), (4, 3), (3, 3)))  # (5, 3) and (4, 3) empty now
    before = scene.position
    if start == (0, 0):
        _click(scene, (3, 1))
        pos = _centre(scene, (0, 0))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=pos))
        scene.app.run_frames(1)
    else:
        _drag(scene, start, end)
    assert scene.position == before and scene.selected is None and not scene.dragging
    assert scene.message.startswith(f"Cannot jump: {refusal.value}.")


def test_clicking_an_empty_hole_says_there_is_no_peg(scene: PegsScene) -> None:
    _click(scene, (3, 3))
    assert scene.message.startswith(f"Cannot jump: {Refusal.NO_PEG.value}.") and scene.selected is None
    _drag(scene, (3, 3), (3, 1))
    assert scene.message.startswith(f"Cannot jump: {Refusal.NO_PEG.value}.") and scene.pegs_left == 32


@pytest.mark.parametrize("size", [(1280, 800), (800, 500)])
def test_every_refusal_fits_the_message_band(scene: PegsScene, size: tuple[int, int]) -> None:
    for refusal in Refusal:
        scene._refuse(refusal)
        assert " ".join(message_lines(scene.message, size[0])) == scene.message


def test_keyboard_jump(scene: PegsScene) -> None:
    for key in (pygame.K_DOWN, pygame.K_DOWN, pygame.K_RETURN, pygame.K_UP, pygame.K_UP, pygame.K_RETURN):
        _key(scene, key)
    assert scene.history == [Jump((5, 3), (4, 3), (3, 3))]


@pytest.mark.parametrize("size", [(1280, 800), (800, 500)])
@pytest.mark.parametrize("board", ["english", "french-centre"])
def test_the_footer_names_the_keyboards_way_to_jump_and_it_fits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 size: tuple[int, int], board: str) -> None:
    """Arrows and Enter play the game from the keyboard: the footer says so beside "drag", on both sizes,
    with every other key still shown (N too, on a start that cannot be won)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    drawn: list[list[tuple[str, str]]] = []
    monkeypatch.setattr(hud, "hint_bar", lambda surface, hints, **kw: drawn.append(list(hints)))
    app = build_app(size=size, clock=FixedClock(), sound=False)
    pegs = PegsScene(app, board)
    app.push(pegs)
    app.run_frames(1)
    shown, _ = hud.fit_hints(drawn[-1], size[0])
    assert shown == drawn[-1]  # nothing dropped
    keys = [key for key, _ in shown]
    assert keys[:2] == ["drag", "Arrows+Enter"] and dict(shown)["Arrows+Enter"] == "jump"
    assert ("N" in keys) == pegs.explain and {"Z", "H", "S", "Tab", "R", "Esc"} <= set(keys)
    before = pegs.pegs_left
    for key in (pygame.K_DOWN, pygame.K_DOWN, pygame.K_RETURN, pygame.K_UP, pygame.K_UP, pygame.K_RETURN):
        _key(pegs, key)
    assert pegs.pegs_left == before - 1  # what the footer says: a jump from the keyboard
    app.jobs.shutdown()


def test_tab_switches_to_the_french_boards_and_back(scene: PegsScene) -> None:
    _key(scene, pygame.K_TAB)
    assert scene.board_name == "french" and scene.pegs_left == 36
    _key(scene, pygame.K_TAB)
    assert scene.board_name == "french-centre" and scene.pegs_left == 36
    _key(scene, pygame.K_TAB)
    assert scene.board_name == "english"


def test_the_board_chosen_last_opens_again_on_the_next_launch(scene: PegsScene) -> None:
    _key(scene, pygame.K_TAB)
    assert scene.board_name == "french"
    scene.app.jobs.shutdown()
    later = build_app(size=(800, 500), clock=FixedClock(), sound=False)
    assert PegsScene(later).board_name == "french"
    later.change_settings(pegs_board="english")
    assert PegsScene(later, "french-centre").board_name == "french-centre"  # a board asked for by name
    assert PegsScene(build_app(size=(800, 500), clock=FixedClock(), sound=False)).board_name == "french-centre"


def test_french_opens_on_a_start_the_colours_allow(scene: PegsScene) -> None:
    _key(scene, pygame.K_TAB)
    assert scene.board_name == "french" and not scene.explain and scene.layout().panel is None
    assert not scene.board.has_peg(scene.position, FRENCH_HOLE) and scene.opening.goal_cell == FRENCH_GOAL
    assert scene.board.class_allows(scene.position, scene.goal)
    assert "cannot be won" not in scene.message and "ringed hole" in scene.message


def _open_classic(scene: PegsScene) -> None:
    _key(scene, pygame.K_TAB)
    _key(scene, pygame.K_TAB)
    assert scene.board_name == "french-centre"


def test_the_centre_french_start_says_it_cannot_be_won_and_n_opens_a_winnable_one(scene: PegsScene) -> None:
    _open_classic(scene)
    assert scene.explain and scene.message.startswith(f"This start cannot be won: {CLASS_SHORT}")
    assert "Press N" in scene.message
    _key(scene, pygame.K_n)
    assert scene.board_name == "english" and not scene.explain


def test_the_words_under_the_board_name_the_keys_as_bound(scene: PegsScene) -> None:
    scene.app.change_settings(keys={"ruler": "j", "undo": "k", "restart": "u"})
    try:
        _open_classic(scene)
        assert "Press J for a winnable start." in scene.message  # N (the ruler's key) moved to J
        assert position_message(scene.board, 0, scene.goal).endswith("K undoes, U restarts.")  # no jump left
        _key(scene, pygame.K_j)
        assert scene.board_name == "english"  # the key named opens the winnable start
    finally:
        scene.app.change_settings(keys={})


@pytest.mark.parametrize("size", [(1280, 800), (800, 500)])
def test_the_explanation_shows_and_fits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        size: tuple[int, int]) -> None:
    pegs = _open_sized(tmp_path, monkeypatch, size, "french-centre")
    app = pegs.app
    layout = pegs.layout()
    panel = layout.panel
    assert panel is not None and panel.right <= size[0] and panel.bottom <= size[1]
    board_right = layout.left + layout.cell * pegs.board.width
    assert layout.left >= 0 and board_right <= panel.left and layout.cell >= 30
    lines = explanation_lines(panel.width)
    assert " ".join(lines) == CLASS_EXPLANATION  # nothing cut
    bottom = draw_panel(app.screen, panel, pegs.board, pegs.position, pegs.goal, pegs.opening.conflict)
    assert bottom <= panel.bottom  # the title, the whole explanation and the two rows of counts
    assert " ".join(message_lines(pegs.message, size[0])) == pegs.message
    assert app.screen.get_at(panel.center) != app.screen.get_at((2, size[1] // 2))
    app.jobs.shutdown()


def test_hint_through_the_job_runner(scene: PegsScene) -> None:
    scene.execution = Execution.THREAD  # the same job in a thread (no fork inside pytest)
    _key(scene, pygame.K_h)
    assert scene.pending == PegsAsk.HINT
    assert scene.job is not None and scene.job.wait(timeout=120)
    scene.app.run_frames(1)
    assert scene.hint_jump is not None and scene.hint_jump in scene.board.legal_jumps(scene.position)
    assert scene.message.startswith("Hint:")


def test_solve_plays_the_solution(scene: PegsScene) -> None:
    scene.execution = Execution.THREAD
    _key(scene, pygame.K_s)
    assert scene.job is not None and scene.job.wait(timeout=120)
    scene.app.run_frames(1)
    assert len(scene.playing) == 31
    scene.app.run_frames(40, dt=0.5)
    assert scene.position == scene.goal and scene.message.startswith("Solved")


def test_escape_stops_the_solution_being_played_and_stays_on_the_board(scene: PegsScene) -> None:
    scene.execution = Execution.THREAD
    _key(scene, pygame.K_s)
    assert scene.job is not None and scene.job.wait(timeout=120)
    scene.app.run_frames(1)
    scene.app.run_frames(3, dt=pegs_module.PLAY_STEP)  # three of the AI's jumps
    assert scene.message == "Solution: 31 jumps, 3 played (Esc stops, Z undoes them)."
    _key(scene, pygame.K_ESCAPE)
    assert scene.app.top is scene and scene.playing == [] and len(scene.history) == 3
    assert scene.message == "Stopped: 29 pegs left. Z undoes the AI's jumps."
    scene.app.run_frames(10, dt=pegs_module.PLAY_STEP)
    assert len(scene.history) == 3, "nothing more is played after Esc"
    _key(scene, pygame.K_ESCAPE)
    assert scene.app.top is None


def test_french_centre_solve_says_impossible_in_a_players_words(scene: PegsScene) -> None:
    scene.execution = Execution.THREAD
    _open_classic(scene)
    _key(scene, pygame.K_s)
    assert scene.job is not None and scene.job.wait(timeout=120)
    scene.app.run_frames(1)
    assert scene.message == f"No jump can still finish: {CLASS_SHORT} (see the right)."
    assert "position class" not in scene.message


@pytest.mark.slow
def test_the_french_hint_aims_at_the_ringed_hole(scene: PegsScene) -> None:
    scene.execution = Execution.THREAD
    _key(scene, pygame.K_TAB)
    for jump in (Jump((3, 3), (2, 3), (1, 3)), Jump((5, 3), (4, 3), (3, 3))):
        assert scene.jump(jump)
    _key(scene, pygame.K_h)  # towards the centre this position is lost by the colours; towards the ring it is not
    assert scene.job is not None and scene.job.wait(timeout=300)
    scene.app.run_frames(1)
    assert CLASS_SHORT not in scene.message


def test_escape_goes_back(scene: PegsScene) -> None:
    app = scene.app
    _key(scene, pygame.K_ESCAPE)
    assert app.top is None


def test_hint_in_a_child_process(scene: PegsScene) -> None:
    assert scene.app.jobs.execution == Execution.CHILD_PROCESS or not hasattr(os, "fork")
    _click(scene, (5, 3))
    _click(scene, (3, 3))
    _key(scene, pygame.K_h)
    assert scene.job is not None and scene.job.wait(timeout=120)
    scene.app.run_frames(1)
    assert scene.hint_jump is not None and scene.hint_jump in scene.board.legal_jumps(scene.position)


def test_a_board_of_ones_own_without_centre(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    board, start = parse_board("oo.o")
    pegs = _open_sized(tmp_path, monkeypatch, (1280, 800), extra=("line.txt", board, start))
    app = pegs.app
    assert pegs.board_names[0] == "line.txt" and pegs.goal is None
    _click(pegs, (0, 0))
    _click(pegs, (0, 2))
    _click(pegs, (0, 3))
    _click(pegs, (0, 1))
    assert pegs.pegs_left == 1 and pegs.message == "Solved: one peg left!"
    _key(pegs, pygame.K_TAB)
    assert pegs.board_name == "english"
    app.jobs.shutdown()


def test_a_board_of_ones_own_named_as_a_shipped_opening_is_kept(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    board, start = parse_board("oo.o")
    pegs = _open_sized(tmp_path, monkeypatch, (1280, 800), extra=("english", board, start))
    app = pegs.app
    assert pegs.board_names == ["english (yours)", "english", "french", "french-centre"]
    assert pegs.board is board and pegs.opening.title == "english (yours)"
    for _ in range(3):
        _key(pegs, pygame.K_TAB)
    assert pegs.board_name == "french-centre"
    _key(pegs, pygame.K_TAB)
    assert pegs.board_name == "english (yours)" and pegs.board is board and pegs.pegs_left == 3
    _key(pegs, pygame.K_TAB)
    assert pegs.board_name == "english" and pegs.pegs_left == 32
    assert app.settings.pegs_board == "english"
    app.jobs.shutdown()


def test_pegs_play_command_runs_headless(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    path = tmp_path / "cross.txt"
    path.write_text(" o\nooo\n o\n", encoding="utf-8")
    shot = tmp_path / "shot.png"
    assert main(["pegs", "play", str(path), "--frames", "31", "--screenshot", str(shot)]) == 0
    assert shot.stat().st_size > 0


def test_escape_stops_the_thinking_and_a_move_cancels_it(scene: PegsScene, monkeypatch: pytest.MonkeyPatch) -> None:
    started = threading.Event()

    def blocking_job(board: Any, position: int, goal: int | None, what: PegsAsk) -> Callable[[Any], Any]:
        def job(ctx: Any) -> Any:
            started.set()
            ctx.cancel_events[0].wait(60)  # a test double: blocks until cancelled
            return None
        return job

    monkeypatch.setattr(pegs_module, "solve_job", blocking_job)
    scene.execution = Execution.THREAD
    _key(scene, pygame.K_h)
    assert started.wait(10) and scene.pending == PegsAsk.HINT and scene.job is not None and scene.job.running
    _key(scene, pygame.K_ESCAPE)
    assert scene.pending is None and scene.message == "Stopped." and scene.app.top is scene
    assert scene.job is not None and scene.job.wait(timeout=10)
    started.clear()
    _key(scene, pygame.K_s)
    assert started.wait(10) and scene.pending == PegsAsk.SOLVE
    _click(scene, (5, 3))
    _click(scene, (3, 3))  # a move: the answer would be about another position
    assert scene.pending is None and scene.pegs_left == 31
    assert scene.job is not None and scene.job.wait(timeout=10)


def test_a_hint_on_a_position_a_pagoda_function_rules_out_says_so_in_a_players_words(scene: PegsScene) -> None:
    scene.execution = Execution.THREAD
    scene.position = scene.board.position_of([(2, 4), (4, 1), (4, 4), (4, 6), (5, 2), (6, 2), (6, 3), (6, 4)])
    _key(scene, pygame.K_h)
    assert scene.job is not None and scene.job.wait(timeout=120)
    scene.app.run_frames(1)
    assert scene.hint_jump is None
    assert scene.message == ("No jump can still finish: a weighting of the holes that no jump can raise puts the "
                             "goal out of reach.")


def test_following_a_hint_the_next_hint_and_the_solution_come_at_once(scene: PegsScene) -> None:
    scene.execution = Execution.THREAD
    _key(scene, pygame.K_h)
    asked = scene.job
    assert asked is not None and asked.wait(timeout=120)
    scene.app.run_frames(1)
    first = scene.hint_jump
    _key(scene, pygame.K_r)  # the same game again: its answers are kept
    _key(scene, pygame.K_h)
    assert scene.job is asked and scene.hint_jump == first
    assert first is not None and scene.jump(first)
    _key(scene, pygame.K_h)  # on the line the first answer solved: no new job
    assert scene.job is asked and scene.pending is None
    assert scene.hint_jump is not None and scene.hint_jump in scene.board.legal_jumps(scene.position)
    assert scene.message == "Hint: jump ({},{}) to ({},{})".format(*scene.hint_jump.start, *scene.hint_jump.end)
    _key(scene, pygame.K_s)
    assert scene.job is asked and len(scene.playing) == 30 and scene.playing[0] == scene.hint_jump
    scene.app.run_frames(40, dt=0.5)
    assert scene.position == scene.goal and scene.message.startswith("Solved")


def test_a_position_reached_from_one_proved_lost_is_lost_at_once(scene: PegsScene) -> None:
    scene.execution = Execution.THREAD
    scene.position = scene.board.position_of([(2, 4), (4, 1), (4, 4), (4, 6), (5, 2), (6, 2), (6, 3), (6, 4)])
    _key(scene, pygame.K_h)
    asked = scene.job
    assert asked is not None and asked.wait(timeout=120)
    scene.app.run_frames(1)
    lost = "No jump can still finish: a weighting of the holes that no jump can raise puts the goal out of reach."
    assert scene.message == lost
    assert scene.jump(scene.board.legal_jumps(scene.position)[0])
    _key(scene, pygame.K_h)
    assert scene.job is asked and scene.pending is None and scene.hint_jump is None
    assert scene.message == lost[:-1] + " (already lost 1 jump ago)."
    _key(scene, pygame.K_z)
    _key(scene, pygame.K_s)
    assert scene.job is asked and scene.message == lost and scene.playing == []


#: Jumps (start, end) on the English board that lose the game by hand: the first eight still leave a finish,
#: the ninth does not (the table of winnable positions says so), the last two are played on the lost game.
LOSING_WALK = [((1, 3), (3, 3)), ((2, 1), (2, 3)), ((2, 4), (2, 2)), ((2, 6), (2, 4)), ((4, 3), (2, 3)),
               ((2, 3), (2, 5)), ((3, 1), (3, 3)), ((4, 1), (4, 3)), ((3, 4), (3, 2)), ((4, 4), (4, 2)),
               ((0, 4), (2, 4))]


def _open_sized(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int],
                board: str = "english", extra: tuple[str, Board, int] | None = None) -> PegsScene:
    """The screen on ``board`` (or the player's own ``extra``) in a window of ``size``, with its own data and
    config folders."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    app = build_app(size=size, clock=FixedClock(), sound=False)
    scene = PegsScene(app, board, extra=extra)
    app.push(scene)
    app.run_frames(1)
    return scene


def _answer(scene: PegsScene) -> None:
    """H, and the AI's answer when it thinks (a thread of the job runner)."""
    before = scene.job
    _key(scene, pygame.K_h)
    if scene.job is not before:
        assert scene.job is not None and scene.job.wait(timeout=120)
        scene.app.run_frames(1)


@pytest.mark.parametrize("size", [(1280, 800), (800, 500)])
def test_a_game_lost_by_hand_says_how_far_to_undo_and_a_hint_after_the_undo_plays_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    """Bad jumps, H: lost. Two more jumps, H: the message says how many jumps to take back to a position
    that can still finish (a hint was asked there), in full on the window; that many Z bring it back, and H
    there hints a jump of a solution at once."""
    scene = _open_sized(tmp_path, monkeypatch, size)
    scene.execution = Execution.THREAD
    app = scene.app
    for start, end in LOSING_WALK[:8]:
        _click(scene, start)
        _click(scene, end)
    assert len(scene.history) == 8
    _answer(scene)
    assert scene.message.startswith("Hint:")
    winnable = scene.position
    for start, end in LOSING_WALK[8:9]:
        _click(scene, start)
        _click(scene, end)
    _answer(scene)
    assert scene.message == "No jump can still finish: the table of winnable positions says so (undo 1 jump to " \
                            "reach a position that can finish)."
    for start, end in LOSING_WALK[9:]:
        _click(scene, start)
        _click(scene, end)
    assert len(scene.history) == 11
    _answer(scene)
    assert scene.message == "No jump can still finish: the table of winnable positions says so (undo 3 jumps to " \
                            "reach a position that can finish)."
    assert " ".join(message_lines(scene.message, size[0])) == scene.message  # nothing cut
    asked = scene.job
    for _ in range(3):
        _key(scene, pygame.K_z)
    assert scene.position == winnable and scene.pegs_left == 24
    _answer(scene)
    assert scene.job is asked and scene.hint_jump is not None and scene.message.startswith("Hint:")
    assert scene.jump(scene.hint_jump)
    app.jobs.shutdown()


@pytest.mark.parametrize("size", [(1280, 800), (800, 500)])
def test_a_game_lost_without_an_earlier_hint_still_says_how_far_to_undo(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    """Bad jumps, no hint asked on the way, H: lost. The AI then finds, as a job of the runner, how many jumps
    to take back to a position that can still finish; the message says it, in full on the window, and that
    many Z bring the game there, where H hints at once."""
    scene = _open_sized(tmp_path, monkeypatch, size)
    scene.execution = Execution.THREAD
    app = scene.app
    for start, end in LOSING_WALK:
        _click(scene, start)
        _click(scene, end)
    _key(scene, pygame.K_h)
    asked = scene.job
    assert asked is not None and asked.wait(timeout=120)
    scene.app.run_frames(1)
    lost = "No jump can still finish: the table of winnable positions says so"
    assert scene.pending == PegsAsk.BACK and scene.job is not asked  # the search for how far back
    assert scene.message == lost + ". Finding how many jumps to undo..."
    assert scene.job is not None and scene.job.wait(timeout=120)
    scene.app.run_frames(1)
    assert scene.pending is None
    assert scene.message == lost + " (undo 3 jumps to reach a position that can finish)."
    assert " ".join(message_lines(scene.message, size[0])) == scene.message  # nothing cut
    searched = scene.job
    for _ in range(3):
        _key(scene, pygame.K_z)
    assert scene.pegs_left == 24
    _key(scene, pygame.K_h)
    assert scene.job is searched and scene.hint_jump is not None and scene.message.startswith("Hint:")
    app.jobs.shutdown()


def test_escape_stops_the_search_for_how_far_to_undo_and_keeps_the_lost_message(
        scene: PegsScene, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()

    def blocking_back(board: Any, positions: Any, goal: Any) -> Callable[[Any], Any]:
        def job(ctx: Any) -> Any:
            release.wait(10)
            return None
        return job

    monkeypatch.setattr(pegs_module, "back_job", blocking_back)
    scene.execution = Execution.THREAD
    for start, end in LOSING_WALK:
        _click(scene, start)
        _click(scene, end)
    _key(scene, pygame.K_h)
    assert scene.job is not None and scene.job.wait(timeout=120)
    scene.app.run_frames(1)
    assert scene.pending == PegsAsk.BACK and scene.message.endswith("Finding how many jumps to undo...")
    _key(scene, pygame.K_ESCAPE)
    release.set()
    assert scene.pending is None and scene is scene.app.top
    assert scene.message == "No jump can still finish: the table of winnable positions says so."
