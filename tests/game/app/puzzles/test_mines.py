"""The Minesweeper screen, driven headless by posted events: the timer on the app's clock, the records
saved across launches, the assistant's guesses explained, the first click's area and the layout at
800x500."""

from __future__ import annotations

from fractions import Fraction
from typing import Iterator

import pygame
import pytest

from game.app import hud
from game.app.app import App
from game.app.display import FixedClock
from game.app.compose import build_app
from game.app.jobs import Execution
from ai.facade import mines_first_click
from game.app.puzzles.mines import MinesScene
from game.app.puzzles.mines_text import CUSTOM_KEYS
from game.app.puzzles.mines_view import (
    BAND_LINES, BAND_SIZE, COLOURBLIND_MARKS, ENDGAME_LEGEND, HIDDEN, ODDS_LEGEND, ODDS_ON, RULE, SHADE_LEGEND, compute_layout,
    number_size, odds_legend, odds_size, percent, shade, where,
)
from game.core.puzzles.mines import Difficulty, FirstClick, MinesBoard, MinesStatus, neighbours
from game.core.puzzles.mines_records import BoardRecord, format_time
from game.core.settings import Palette
from tests.game.app.conftest import click, press

#: Seconds of one frame of the test clock.
FRAME = 1 / 60


def on(app: App, difficulty: Difficulty = Difficulty.BEGINNER, seed: int = 11) -> MinesScene:
    scene = app.push(MinesScene(app, difficulty, seed=seed, execution=Execution.THREAD))
    assert isinstance(scene, MinesScene)
    app.run_frames(1)
    return scene


def click_cell(scene: MinesScene, cell: tuple[int, int], button: int = 1) -> None:
    click(scene.app, scene.layout(scene.app.screen.get_size()).cell_rect(*cell).center, button=button)


def start_on(app: App, board: MinesBoard, first: tuple[int, int]) -> MinesScene:
    """The screen on ``board`` after the player's first click on ``first``."""
    scene = on(app)
    scene.set_board(board)
    click_cell(scene, first)
    return scene


def key_and_wait(scene: MinesScene, key: str) -> None:
    """Press ``key``, wait for the analysis it asks for, then draw a frame."""
    press(scene.app, getattr(pygame, f"K_{key}"), unicode=key)
    scene.wait()
    scene.app.run_frames(1)


def corner_board() -> MinesBoard:
    """5x5 with one mine in the bottom-right corner: (3, 3) shows a 1, (0, 0) opens every safe cell."""
    return MinesBoard.with_mines(5, 5, {(4, 4)})


@pytest.fixture
def small_app(data_home: object) -> Iterator[App]:
    application = build_app(size=(800, 500), clock=FixedClock(), sound=False)
    pygame.event.clear()
    yield application
    application.jobs.shutdown()
    pygame.event.clear()


# ---- the timer ------------------------------------------------------------------------------------
def test_the_timer_starts_at_the_first_click_and_stops_at_the_win(app: App) -> None:
    scene = on(app)
    scene.set_board(corner_board())
    app.run_frames(30)
    assert scene.elapsed() == 0.0, "no click yet: the timer waits"
    click_cell(scene, (3, 3))  # a 1: the game goes on
    assert scene.board.status == MinesStatus.PLAYING and scene.board.revealed == {(3, 3)}
    app.run_frames(89)
    assert scene.elapsed() == pytest.approx(90 * FRAME)
    click_cell(scene, (0, 0))  # opens every safe cell
    assert len(scene.board.revealed) == 24 and scene.finished_at is not None
    took = scene.elapsed()
    assert took == pytest.approx(90 * FRAME), "a click counts at the start of its frame"
    app.run_frames(120)
    assert scene.elapsed() == took, "the timer stopped at the win"
    assert scene.message == "Cleared in 1.5 s: a new best time! R starts a new board."


def test_the_timer_stops_while_the_help_hides_the_board(app: App) -> None:
    scene = on(app)
    scene.set_board(corner_board())
    click_cell(scene, (3, 3))  # the timer runs
    app.run_frames(59)
    before = scene.elapsed()
    assert before == pytest.approx(60 * FRAME)
    press(app, pygame.K_F1)
    assert app.top is not scene
    app.run_frames(600)  # ten seconds with the help over the board
    assert scene.elapsed() == before
    press(app, pygame.K_ESCAPE)  # the help closes: the timer goes on from where it was
    assert app.top is scene and scene.elapsed() == pytest.approx(before + FRAME)


def test_a_new_board_resets_the_timer(app: App) -> None:
    scene = on(app)
    click_cell(scene, (4, 4))
    app.run_frames(60)
    assert scene.elapsed() > 0.9
    press(app, pygame.K_r, unicode="r")
    assert scene.elapsed() == 0.0 and scene.board.status == MinesStatus.READY


# ---- the records ----------------------------------------------------------------------------------
def test_wins_losses_and_the_best_time_are_saved_and_read_by_a_new_app(app: App) -> None:
    scene = on(app)
    scene.set_board(corner_board())
    click_cell(scene, (3, 3))
    app.run_frames(59)
    click_cell(scene, (0, 0))  # won in a second
    scene.set_board(corner_board())
    click_cell(scene, (3, 3))
    app.run_frames(119)
    click_cell(scene, (0, 0))  # won in two seconds: not a best time
    assert scene.message == "Cleared in 2.0 s. R starts a new board."
    scene.set_board(corner_board())
    click_cell(scene, (4, 4))  # the mine
    assert scene.board.status == MinesStatus.LOST
    assert scene.message.startswith("You opened a mine after ")
    app.jobs.shutdown()

    later = build_app(size=(1280, 800), clock=FixedClock(), sound=False)
    try:
        again = later.push(MinesScene(later, Difficulty.BEGINNER, seed=1, execution=Execution.THREAD))
        assert isinstance(again, MinesScene)
        record = again.records.get(5, 5, 1)
        assert (record.wins, record.losses) == (2, 1)
        assert record.best_seconds == pytest.approx(1.0)
        again.set_board(corner_board())
        assert again.records_line() == "This board: best time 1.0 s, 2 won, 1 lost"
        assert again.records.get(9, 9, 10) == BoardRecord()
    finally:
        later.jobs.shutdown()


def test_a_win_with_the_assistant_counts_but_is_not_a_best_time(app: App) -> None:
    scene = start_on(app, corner_board(), (3, 3))
    key_and_wait(scene, "s")
    assert scene.board.status == MinesStatus.WON and scene.assisted
    assert scene.message == ("Cleared in 0.0 s: you made 1 move, the assistant 1 (best times count only games "
                             "without it). R starts a new board.")
    assert scene.title() == "Minesweeper: Beginner 5x5, 1 mine: won in 0.0 s, assisted"
    assert scene.records.get(5, 5, 1) == BoardRecord(wins=1, losses=0, best_seconds=None)


def test_a_game_the_assistant_played_by_itself_says_so_and_times_the_whole_game(app: App) -> None:
    scene = on(app, seed=3)
    app.run_frames(30)
    press(app, pygame.K_a, unicode="a")  # auto-play from the first click on
    start = app.time - FRAME
    for _ in range(200):
        scene.wait()
        app.run_frames(20)
        if scene.board.status != MinesStatus.PLAYING:
            break
    assert scene.board.status == MinesStatus.WON and scene.started_at == pytest.approx(start)
    assert scene.played.player == 0 and scene.played.assistant >= 2
    assert scene.finished_at is not None and scene.elapsed() == pytest.approx(scene.finished_at - start)
    assert scene.elapsed() >= 19 * FRAME, "the timer ran over the assistant's frames"
    took = format_time(scene.elapsed())
    assert scene.title() == f"Minesweeper: Beginner 9x9, 10 mines: the assistant won in {took}"
    assert scene.message == (f"The assistant played this board by itself: cleared in {took}, "
                             f"{scene.played.assistant} moves (not counted in your record). R starts a new board.")
    assert scene.records.get(9, 9, 10) == BoardRecord(), "the player's record counts only games they played"


# ---- the assistant's guesses ----------------------------------------------------------------------
def guess_board() -> MinesBoard:
    """3x2 with one mine at the top right: after (1, 0) the last two cells are a 50/50, and the assistant's
    pick (the first of the equal cells) is the mine."""
    return MinesBoard.with_mines(3, 2, {(0, 2)})


def test_auto_play_losing_on_a_guess_says_what_happened(small_app: App) -> None:
    scene = on(small_app)
    scene.set_board(guess_board())
    click_cell(scene, (1, 0))
    press(small_app, pygame.K_a, unicode="a")
    for _ in range(20):
        scene.wait()
        small_app.run_frames(20)
        if scene.board.status != MinesStatus.PLAYING:
            break
    assert scene.board.status == MinesStatus.LOST and scene.board.exploded == (0, 2)
    assert scene.message.startswith(
        "Auto-play had to guess: no safe cell was proved; it opened (row 0, column 2), its best guess at 50% "
        "mine chance, and it was a mine.")
    assert scene.records.get(3, 2, 1).losses == 1
    assert scene.title().endswith(f"lost after {format_time(scene.elapsed())}, assisted")
    band = scene.band(800)
    assert len(band) <= BAND_LINES and not any(line.endswith("\u2026") for line, _ in band)
    assert " ".join(line for line, colour in band if colour == hud.WHITE) == scene.message


def test_one_step_that_guesses_wrong_names_the_assistant(app: App) -> None:
    scene = start_on(app, guess_board(), (1, 0))
    key_and_wait(scene, "s")
    assert scene.board.status == MinesStatus.LOST
    assert scene.message.startswith("The assistant had to guess: no safe cell was proved; it opened (row 0, column 2)")


def test_an_endgame_guess_says_its_chance_to_win(app: App) -> None:
    scene = start_on(app, guess_board(), (1, 0))
    key_and_wait(scene, "h")
    assert scene.moves is not None and scene.moves.win == Fraction(1, 2)
    legend = " ".join(line for line, colour in scene.band(800) if colour == hud.MUTED)
    assert legend == f"{ODDS_LEGEND} {ENDGAME_LEGEND.format('50%')}"
    press(app, pygame.K_s, unicode="s")
    app.run_frames(1)
    assert "Searching every arrangement left, this guess gave the best chance to win: 50%." in scene.message


def test_a_guess_that_clears_the_board_says_the_game_is_won(small_app: App) -> None:
    # the mine under the 50/50 pair: the assistant's pick (the first of the equal cells) is safe and wins
    scene = on(small_app)
    scene.set_board(MinesBoard.with_mines(3, 2, {(1, 2)}))
    click_cell(scene, (1, 0))
    key_and_wait(scene, "s")
    assert scene.board.status == MinesStatus.WON
    assert scene.message.startswith("The assistant had to guess: it opened (row 0, column 2) at 50% mine chance, "
                                    "and it was safe.")
    assert scene.message.endswith(f"It cleared the board in {format_time(scene.elapsed())}. R starts a new board.")
    band = scene.band(800)
    assert len(band) <= BAND_LINES and not any(line.endswith("\u2026") for line, _ in band)
    assert " ".join(line for line, colour in band if colour == hud.WHITE) == scene.message


def test_the_gold_guess_is_the_cell_played_at_the_chance_shown(app: App) -> None:
    scene = on(app, Difficulty.EXPERT, seed=4)  # a board that needs a guess after two steps
    press(app, pygame.K_h, unicode="h")
    press(app, pygame.K_s, unicode="s")  # the first click
    for _ in range(200):  # steps until the assistant has to guess
        scene.wait()
        if scene.best_guess() is not None or scene.board.status != MinesStatus.PLAYING:
            break
        press(app, pygame.K_s, unicode="s")
    best = scene.best_guess()
    assert best is not None and scene.analysis is not None and scene.moves is not None
    shown = scene.analysis.probability[best]
    assert 0 < shown < 1 and scene.moves.risk == shown
    press(app, pygame.K_s, unicode="s")
    app.run_frames(1)
    assert best in scene.board.revealed or scene.board.exploded == best
    assert f"opened {where(best)}" in scene.message and f"at {percent(shown)} mine chance" in scene.message


def test_the_assistants_first_click_is_the_benchs_opening_click(app: App) -> None:
    scene = on(app, Difficulty.EXPERT, seed=5)
    press(app, pygame.K_s, unicode="s")
    width, height, _ = Difficulty.EXPERT.size
    first = mines_first_click(width, height, FirstClick.AREA)
    assert first == (3, 3) and {first, *neighbours(width, height, *first)} <= scene.board.revealed


# ---- the first click ------------------------------------------------------------------------------
def test_the_first_click_always_opens_an_area(app: App) -> None:
    scene = on(app, Difficulty.INTERMEDIATE, seed=100)
    width, height, _ = Difficulty.INTERMEDIATE.size
    for game in range(40):
        first = (game * 5 % height, game * 7 % width)
        click_cell(scene, first)
        area = {first, *neighbours(width, height, *first)}
        assert area <= scene.board.revealed and area.isdisjoint(scene.board.mine_set)
        assert scene.board.status in (MinesStatus.PLAYING, MinesStatus.WON)
        press(app, pygame.K_r, unicode="r")  # a new board (the next seed)


def test_the_rule_is_stated_under_the_board_and_the_legend_follows_the_overlay(app: App) -> None:
    scene = on(app)
    assert [line for line, _ in scene.band(1280)] == [RULE]
    assert "first click always opens an area" in RULE
    click_cell(scene, (4, 4))
    press(app, pygame.K_h, unicode="h")
    scene.wait()
    app.run_frames(1)
    assert scene.board.status == MinesStatus.PLAYING
    assert [line for line, _ in scene.band(1280)] == [ODDS_LEGEND]


def test_the_colour_blind_palette_marks_proved_cells_without_red_or_green(app: App) -> None:
    scene = on(app)
    scene.set_board(MinesBoard.with_mines(5, 5, {(4, 2), (4, 4)}))
    click_cell(scene, (0, 0))  # leaves (4, 2) and (4, 4) proved mines, (4, 3) proved safe
    key_and_wait(scene, "h")
    analysis = scene.shown_analysis()
    assert analysis is not None and [analysis.probability[(4, c)] for c in (2, 3, 4)] == [1, 0, 1]
    lay = scene.layout(app.screen.get_size())
    safe, mine = lay.cell_rect(4, 3), lay.cell_rect(4, 2)

    def border(rect: pygame.Rect) -> tuple[int, ...]:
        return tuple(app.screen.get_at((rect.x + 3, rect.centery)))[:3]

    assert (border(safe), border(mine)) == (hud.GREEN, hud.RED)
    assert "Green: safe. Red: mine." in scene.legend()
    app.change_settings(palette=Palette.COLOURBLIND.value)
    app.run_frames(1)
    assert (border(safe), border(mine)) == (COLOURBLIND_MARKS.safe, COLOURBLIND_MARKS.mine)
    assert tuple(app.screen.get_at(mine.center))[:3] == COLOURBLIND_MARKS.mine, "a cross on a proved mine"
    assert tuple(app.screen.get_at(safe.center))[:3] != COLOURBLIND_MARKS.mine
    legend = [line for line, _ in scene.band(1280)]
    assert legend == [odds_legend(lay.cell, None, Palette.COLOURBLIND)]
    assert "Blue: safe. Orange with a cross: mine." in legend[0] and "Green" not in legend[0] and "Red" not in legend[0]


def test_the_colour_blind_palette_tells_the_mine_that_went_off_by_its_shape(app: App) -> None:
    scene = start_on(app, MinesBoard.with_mines(5, 5, {(0, 4), (2, 3), (4, 4)}), (2, 0))
    click_cell(scene, (4, 4))
    assert scene.board.status == MinesStatus.LOST and scene.board.exploded == (4, 4)
    lay = scene.layout(app.screen.get_size())
    went_off, other = lay.cell_rect(4, 4), lay.cell_rect(0, 4)

    def at(rect: pygame.Rect, dx: float, dy: float) -> tuple[int, ...]:
        return tuple(app.screen.get_at((rect.centerx + round(dx * rect.width), rect.centery + round(dy * rect.width))))[:3]

    assert at(went_off, 0, 0) == hud.RED and at(went_off, 0.4, 0) == at(other, 0.4, 0) == HIDDEN
    app.change_settings(palette=Palette.COLOURBLIND.value)
    app.run_frames(1)
    assert at(went_off, 0, 0) == COLOURBLIND_MARKS.mine and at(other, 0, 0) != COLOURBLIND_MARKS.mine
    spikes = [at(went_off, 0.4 * dx, 0.4 * dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    spikes += [at(went_off, 0.28 * dx, 0.28 * dy) for dx, dy in ((1, 1), (-1, -1), (1, -1), (-1, 1))]
    assert spikes == [COLOURBLIND_MARKS.mine] * 8, "a burst round the mine that went off"
    assert at(other, 0.4, 0) == at(other, 0, 0.4) == HIDDEN, "no burst round the other mines"


def test_a_new_board_with_the_odds_left_on_says_so_before_the_first_click(small_app: App) -> None:
    scene = on(small_app)
    scene.set_board(corner_board())
    press(small_app, pygame.K_h, unicode="h")
    click_cell(scene, (0, 0))  # opens every safe cell: won, with the odds on
    press(small_app, pygame.K_r, unicode="r")  # a new board: the odds are still on, and nothing shows them yet
    assert scene.show_assistant and scene.board.status == MinesStatus.READY
    band = scene.band(800)
    assert " ".join(line for line, _ in band) == f"{RULE} {ODDS_ON.format(hint='H')}" and len(band) <= BAND_LINES
    press(small_app, pygame.K_h, unicode="h")  # off: the next game is the player's own
    assert [line for line, _ in scene.band(800)] == [RULE]
    click_cell(scene, (4, 4))
    assert not scene.assisted


def test_a_finished_game_states_its_outcome_and_time_and_drops_the_first_click_rule(app: App) -> None:
    scene = on(app)
    scene.set_board(corner_board())
    click_cell(scene, (3, 3))
    app.run_frames(59)
    assert scene.title().endswith("(1 unflagged)") and [line for line, _ in scene.band(1280)] == [RULE]
    click_cell(scene, (0, 0))  # every safe cell opens: won
    assert scene.board.status == MinesStatus.WON
    assert scene.title() == "Minesweeper: Beginner 5x5, 1 mine: won in 1.0 s"
    assert RULE not in [line for line, _ in scene.band(1280)]
    app.run_frames(60)
    assert scene.title().endswith("won in 1.0 s"), "the time stays that of the win"
    press(app, pygame.K_r, unicode="r")
    scene.set_board(corner_board())
    click_cell(scene, (3, 3))
    click_cell(scene, (4, 4))  # the mine
    assert scene.board.status == MinesStatus.LOST
    assert scene.title() == "Minesweeper: Beginner 5x5, 1 mine: lost after 0.0 s"
    assert RULE not in [line for line, _ in scene.band(1280)]


# ---- the layout -----------------------------------------------------------------------------------
@pytest.mark.parametrize("difficulty", list(Difficulty))
@pytest.mark.parametrize("size", [(800, 500), (1280, 800)])
def test_every_board_fits_and_its_text_is_readable(difficulty: Difficulty, size: tuple[int, int]) -> None:
    width, height, _ = difficulty.size
    lay = compute_layout(size, width, height)
    w, h = size
    assert lay.left >= 0 and lay.left + lay.cell * width <= w
    assert lay.top >= hud.TOP_BAR and lay.band_top + BAND_LINES * lay.line_height <= h - hud.BOTTOM_BAR
    odds = odds_size(lay.cell)
    assert odds == 0 or hud.text("88", odds, shadow=False).get_bounding_rect().height >= 11, "readable or shaded"
    assert odds or size == (800, 500), "every board shows its percentages at 1280x800"
    assert hud.font(number_size(lay.cell)).size("8")[1] >= 12
    for text in (RULE, ODDS_LEGEND, SHADE_LEGEND, odds_legend(40, None, Palette.COLOURBLIND),
                 odds_legend(8, None, Palette.COLOURBLIND)):
        assert hud.text(text, BAND_SIZE).get_width() <= w - 40, "the legend takes one line, uncut"


def test_cells_too_small_for_percentages_are_shaded_and_the_cursor_cell_is_told_in_figures(small_app: App) -> None:
    scene = on(small_app, Difficulty.EXPERT, seed=4)
    press(small_app, pygame.K_h, unicode="h")
    key_and_wait(scene, "s")  # the first click, then the odds of what is left
    analysis = scene.shown_analysis()
    assert analysis is not None and odds_size(scene.layout((800, 500)).cell) == 0
    unsure = sorted(p for p, chance in analysis.probability.items() if 0 < chance < 1)
    assert len(unsure) >= 2
    for cell in (unsure[0], unsure[-1]):
        rect = scene.layout((800, 500)).cell_rect(*cell)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=rect.center, rel=(0, 0), buttons=(0, 0, 0)))
        small_app.run_frames(1)
        chance = analysis.probability[cell]
        band = scene.band(800)
        assert band[0] == (f"Cursor {where(cell)}: {percent(chance)} mine chance.", hud.GOLD)
        assert len(band) <= BAND_LINES and (SHADE_LEGEND, hud.MUTED) in band
        assert small_app.screen.get_at(rect.center)[:3] == shade(chance)
    opened = scene.layout((800, 500)).cell_rect(*min(scene.board.revealed))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=opened.center, rel=(0, 0), buttons=(0, 0, 0)))
    small_app.run_frames(1)
    assert scene.band(800)[0][1] != hud.GOLD, "a revealed cell has no chance to tell"


def test_cells_large_enough_show_the_percentages_and_no_cursor_line(app: App) -> None:
    scene = on(app, Difficulty.EXPERT, seed=4)
    press(app, pygame.K_h, unicode="h")
    key_and_wait(scene, "s")
    assert scene.shown_analysis() is not None and odds_size(scene.layout((1280, 800)).cell) >= 22
    assert [line for line, _ in scene.band(1280)] == [ODDS_LEGEND]


@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_the_top_bar_fits_at_800x500(small_app: App, difficulty: Difficulty) -> None:
    scene = on(small_app, difficulty)
    timer = hud.text("Time 59:59.9", 28).get_width()
    assert hud.text(scene.title(), 24).get_width() <= 800 - 16 - 16 - timer - 40
    for ending in ("lost after 59:59.9, assisted", "the assistant lost after 59:59.9"):  # the longest endings
        finished = f"{scene.title().split(' (')[0]}: {ending}"  # the title once the game is over
        assert hud.text(finished, 24).get_width() <= 800 - 16 - 16 - timer - 40, finished
    assert hud.text(scene.records_line().replace("no best time yet", "best time 59:59.9") + ", 999 won, 999 lost",
                    BAND_SIZE).get_width() <= 800 - 32


def test_esc_stops_auto_play_first_then_leaves(app: App) -> None:
    scene = on(app, Difficulty.EXPERT)
    press(app, pygame.K_a, unicode="a")
    assert scene.auto_play
    press(app, pygame.K_ESCAPE)
    assert app.top is scene and not scene.auto_play and not scene.step_pending and scene.message == "Stopped."
    moves = len(scene.board.revealed)
    scene.wait()
    app.run_frames(10)
    assert len(scene.board.revealed) == moves  # no move after the stop
    press(app, pygame.K_ESCAPE)
    assert scene not in app.scenes


def test_the_assistant_keys_say_why_nothing_shows_yet_or_any_more(app: App) -> None:
    scene = on(app)
    press(app, pygame.K_h, unicode="h")  # before the first click there are no odds to show
    assert scene.show_assistant and any("from your first click on" in str(text) for text, _ in app.toasts)
    app.toasts.clear()
    scene.set_board(corner_board())
    click_cell(scene, (0, 0))  # opens every safe cell: won
    assert scene.board.status == MinesStatus.WON
    for key in ("h", "s", "a"):
        app.toasts.clear()
        press(app, getattr(pygame, f"K_{key}"), unicode=key)
        assert [str(text) for text, _ in app.toasts] == ["This game is over: R starts a new board."]
    assert not scene.auto_play


def test_the_end_of_a_game_names_the_restart_key_as_bound(app: App) -> None:
    app.change_settings(keys={"restart": "u"})
    try:
        scene = on(app)
        scene.set_board(corner_board())
        click_cell(scene, (0, 0))
        assert scene.board.status == MinesStatus.WON and scene.message.endswith("U starts a new board.")
        press(app, pygame.K_h, unicode="h")
        assert [str(text) for text, _ in app.toasts][-1] == "This game is over: U starts a new board."
        press(app, pygame.K_u, unicode="u")
        assert scene.board.status != MinesStatus.WON  # the key named starts the new board
    finally:
        app.change_settings(keys={})


def test_the_custom_boards_footer_says_how_to_change_it(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[list[tuple[str, str]]] = []
    monkeypatch.setattr(hud, "hint_bar", lambda surface, hints, **kw: shown.append(list(hints)))
    scene = on(app)
    scene.draw(app.screen)
    assert ("+/-", "size") not in shown[-1]  # a fixed board: nothing to size
    press(app, pygame.K_4, unicode="4")
    assert scene.difficulty is None
    scene.draw(app.screen)
    assert ("+/-", "size") in shown[-1] and ("[ ]", "mines") in shown[-1]
    width = scene.board.width
    press(app, pygame.K_PLUS, unicode="+")  # the key the footer names does what it says
    assert scene.board.width == width + 1


def test_the_board_chosen_last_opens_again_on_the_next_launch(app: App) -> None:
    first = app.push(MinesScene(app, execution=Execution.THREAD))
    assert isinstance(first, MinesScene) and first.difficulty == Difficulty.BEGINNER  # a fresh profile
    app.run_frames(1)
    press(app, pygame.K_4, unicode="4")  # the custom board, one size up
    press(app, pygame.K_PLUS, unicode="+")
    chosen = (first.board.width, first.board.height, first.board.mines)
    press(app, pygame.K_ESCAPE)
    later = build_app(size=(800, 500), clock=FixedClock(), sound=False)
    again = MinesScene(later, execution=Execution.THREAD)
    assert again.difficulty is None and (again.board.width, again.board.height, again.board.mines) == chosen
    later.push(again)
    later.run_frames(1)
    press(later, pygame.K_3, unicode="3")
    assert MinesScene(build_app(size=(800, 500), clock=FixedClock(), sound=False)).difficulty == Difficulty.EXPERT


def test_the_custom_keys_on_a_fixed_board_say_how_to_get_to_the_custom_board(app: App) -> None:
    scene = on(app)
    click_cell(scene, (4, 4))  # a game in progress
    board = scene.board
    for key, char in ((pygame.K_PLUS, "+"), (pygame.K_MINUS, "-"), (pygame.K_LEFTBRACKET, "["),
                      (pygame.K_RIGHTBRACKET, "]")):
        app.toasts.clear()
        press(app, key, unicode=char)
        assert [str(text) for text, _ in app.toasts] == [CUSTOM_KEYS]
        assert scene.board is board and scene.difficulty == Difficulty.BEGINNER, "the game goes on"
    assert "press 4" in CUSTOM_KEYS
    press(app, pygame.K_4, unicode="4")
    app.toasts.clear()
    mines = scene.board.mines
    press(app, pygame.K_RIGHTBRACKET, unicode="]")
    assert scene.board.mines == mines + 1 and not app.toasts
