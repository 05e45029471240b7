"""The AI learns from the player's runs: releases are stored, the screen shows what was learned,
and the learned solver is offered once the rules are exact (headless, posted events)."""

from __future__ import annotations

import dataclasses
import threading
import time
from pathlib import Path
import numpy as np
import pygame
import pytest

from ai import facade
from ai.kernel.base import SolveStatus
from ai.learning.dataset import many_lemming_maps
from ai.learning.player import RulePicture, load_runs, offered_solvers, record_run, runs_path
from game.core.catalog import pack_entries
from game.core.level import Level
from game.core.storage import user_data_dir
from game.app import hud
from game.app.app import App
from game.app.display import FixedClock
from game.app.compose import build_app
from game.app.jobs import Execution
from game.app.scenes import learned
from game.app.assistant import assistant_of
from game.app.assistant.tasks import PLAYER_RULES_SOLVER
from game.app.assistant.state import solver_label
from game.app.scenes.learned import MENU_LABEL, MIN_CELL, LearnedScene
from game.app.scenes.menu import MenuScene
from game.app.scenes.play import PlayScene, PlayState
from game.core.physics_views import same_behaviour
from tests.conftest import ORIGINAL_INDEX, ORIGINAL_PACK, ORIGINAL_SOLUTIONS
from tests.game.app.conftest import leave_level, press, run_until


def rich_level(seed: int = 1) -> Level:
    """A 10x10 map with many targets in unusual places (as in the many-lemming regime)."""
    walls, targets, _ = many_lemming_maps(np.random.default_rng(seed), 1)
    rows = ["".join("X" if walls[0, r, c] else ("T" if targets[0, r, c] else " ") for c in range(10))
            for r in range(10)]
    r, c = next((r, c) for r in range(10) for c in range(10) if rows[r][c] == " ")
    rows[r] = rows[r][:c] + ">" + rows[r][c + 1 :]
    return Level.from_rows(rows, frames=20, budget=2)


def release(app: App, level: Level, bricks: list[tuple[int, int]]) -> None:
    scene = app.push(PlayScene(app, level))
    assert isinstance(scene, PlayScene)
    scene.apply_bricks(bricks, assisted=False)  # the player's own bricks
    app.run_frames(1)
    press(app, pygame.K_SPACE, unicode=" ")
    assert scene.state != PlayState.PLACING
    app.run_frames(2)
    leave_level(app)


def choose_learned_screen(app: App) -> LearnedScene:
    """Move the title menu's cursor to "What the AI has learned" and press Enter: the screen, learning."""
    menu = app.top
    assert isinstance(menu, MenuScene)
    index = [label for label, _ in menu.items()].index(MENU_LABEL)
    for _ in range((index - menu.cursor) % len(menu.items())):
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    screen = app.top
    assert isinstance(screen, LearnedScene)
    return screen


def open_screen(app: App) -> LearnedScene:
    screen = choose_learned_screen(app)
    screen.wait()
    app.run_frames(2)  # draws the result
    return screen


def test_learning_from_the_players_runs(app: App, data_home: Path) -> None:
    app.push(MenuScene(app))
    original = Level.load(ORIGINAL_PACK)
    release(app, original, [(2, 1), (5, 4), (6, 6)])
    release(app, original, [(2, 1), (5, 4), (6, 6)])  # the same run again: stored once
    assert len(load_runs(user_data_dir())) == 1 and runs_path(user_data_dir()).exists()
    screen = open_screen(app)
    k = screen.knowledge
    # the engine's run of the pack level (the player's lemmings and ghosts) already pins classic down
    assert k is not None and k.runs == 1 and k.right <= k.configurations and k.physics is not None
    assert k.pictures and all(len(p.cells) == 3 for p in k.pictures)
    assert k.exact == same_behaviour(k.physics, original.physics) and (k.right == k.configurations) == k.exact
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.top, MenuScene)
    # a run on a map with targets in unusual places: the rules are (still) exact
    release(app, rich_level(), [])
    screen = open_screen(app)
    k = screen.knowledge
    assert k is not None and k.runs == 2 and k.exact and k.right == k.configurations
    # a right-facing lemming's learned moves include falling, walking and turning
    moves = {(p.move, p.new_direction) for p in k.pictures if p.direction == 1}
    assert {((1, 0), 1), ((0, 1), 1), ((0, 0), -1)} <= moves
    offers = offered_solvers(user_data_dir())
    assert [label for label, _, _ in offers] == ["learned from your runs"]
    _, name, options = offers[0]
    result = facade.solve(original, solver=facade.get_solver(name, **options), mode="all")
    assert result.status == SolveStatus.OPTIMAL and result.complete and set(result.solutions) == ORIGINAL_SOLUTIONS
    # the assistant of the next level offers them in its Tab cycle, as the player sees them
    press(app, pygame.K_ESCAPE)
    scene = app.push(PlayScene(app, original))
    assistant = assistant_of(scene)
    assert assistant is not None and PLAYER_RULES_SOLVER in assistant.solver_names
    assert solver_label(PLAYER_RULES_SOLVER) == "Learned from your runs"
    mine = facade.solve(original, solver=assistant.custom_solvers[PLAYER_RULES_SOLVER], mode="all")
    assert mine.complete and set(mine.solutions) == ORIGINAL_SOLUTIONS


def test_an_ai_solution_played_as_it_was_is_not_one_of_your_runs(app: App, data_home: Path) -> None:
    """S, Enter, Space: the AI's solution runs, and nothing is stored for "learned from your runs"; once the
    player moves one of its bricks, the release is theirs and is stored."""
    scene = app.push(PlayScene(app, playlist=pack_entries(), index=ORIGINAL_INDEX))
    assert isinstance(scene, PlayScene)
    app.run_frames(1)
    press(app, pygame.K_s, unicode="s")
    run_until(app, lambda: assistant_of(scene).shown is not None, "the AI's solution")
    press(app, pygame.K_SPACE, unicode=" ")  # applies the solution on screen and releases the lemmings
    assert scene.state != PlayState.PLACING and scene.bricks in ORIGINAL_SOLUTIONS
    app.run_frames(2)
    assert load_runs(user_data_dir()) == []
    press(app, pygame.K_r, unicode="r")  # back to placing, the AI's bricks still on the board
    scene.click_cell(scene.bricks[0])  # the player takes one away: the bricks are theirs now
    press(app, pygame.K_SPACE, unicode=" ")
    assert scene.state != PlayState.PLACING
    app.run_frames(2)
    assert len(load_runs(user_data_dir())) == 1


def test_damaged_runs_file_is_kept_aside(app: App, data_home: Path) -> None:
    path = runs_path(user_data_dir())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json")
    assert record_run(user_data_dir(), Level.load(ORIGINAL_PACK), []) == 1
    app.push(MenuScene(app))
    (aside,) = path.parent.glob(path.name + ".corrupt-*")
    assert aside.read_text() == "{not json"
    screen = open_screen(app)
    assert screen.knowledge is not None and screen.knowledge.runs == 1, screen.error


def test_the_hint_bar_offers_paging_only_when_there_are_pages(app: App, data_home: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[list[str]] = []
    real = hud.hint_bar

    def recording(surface: pygame.Surface, items: list[tuple[str, str]], **options: object) -> object:
        shown.append([key for key, _ in items])
        return real(surface, items, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(hud, "hint_bar", recording)
    app.push(MenuScene(app))
    screen = open_screen(app)
    assert screen.knowledge is not None and screen.knowledge.runs == 0
    assert shown[-1] == ["Esc"]  # nothing to page through yet
    press(app, pygame.K_ESCAPE)
    release(app, Level.load(ORIGINAL_PACK), [(2, 1), (5, 4), (6, 6)])
    screen = open_screen(app)
    k = screen.knowledge
    assert k is not None and k.runs == 1
    assert len(k.pictures) == 3 and shown[-1] == ["Esc"]  # classic's three moves fit on one page
    screen.knowledge = dataclasses.replace(k, pictures=k.pictures * 3)  # nine moves: two pages
    app.run_frames(1)
    assert shown[-1] == ["Esc", "Left/Right"]
    press(app, pygame.K_RIGHT)
    assert screen.page == 1


def drawn_texts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the screen draws from now on (hud.blit_text recorded)."""
    texts: list[str] = []
    real = hud.blit_text

    def recording(surface: pygame.Surface, s: str, *args: object, **options: object) -> pygame.Rect:
        texts.append(s)
        return real(surface, s, *args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(hud, "blit_text", recording)
    return texts


@pytest.mark.parametrize("size", [(1280, 800), (800, 500)])
def test_the_rules_are_sentences_and_the_pictures_readable(data_home: Path, monkeypatch: pytest.MonkeyPatch,
                                                           size: tuple[int, int]) -> None:
    record_run(user_data_dir(), Level.load(ORIGINAL_PACK), [(2, 1), (5, 4), (6, 6)])
    cells: list[int] = []
    real_picture = LearnedScene._draw_picture

    def picture(self: LearnedScene, surface: pygame.Surface, pic: RulePicture, x: int, y: int, cell: int) -> None:
        cells.append(cell)
        assert 0 <= x and x + 7 * cell + 4 <= surface.get_width() and 0 <= y
        assert y + 3 * cell <= surface.get_height() - hud.BOTTOM_BAR
        real_picture(self, surface, pic, x, y, cell)

    monkeypatch.setattr(LearnedScene, "_draw_picture", picture)
    app = build_app(size=size, clock=FixedClock())
    app.push(MenuScene(app))
    texts = drawn_texts(monkeypatch)
    screen = open_screen(app)
    assert screen.knowledge is not None and screen.knowledge.exact
    shown = " ".join(texts)
    assert "{" not in shown and "}" not in shown and '"rules"' not in shown and "targets_stop" not in shown
    assert " right in " not in shown  # no "move a lemming right" (the words are ahead and behind)
    assert cells and min(cells) >= MIN_CELL
    for _ in range(screen._pages()):  # every rule is shown on some page, as a sentence (lines in a row)
        press(app, pygame.K_RIGHT)
    shown = " ".join(texts)
    assert "{" not in shown and "}" not in shown
    for words in ("When nothing is below it, a lemming falls.",
                  "Otherwise, when the cell ahead is empty, it walks ahead.", "Otherwise it turns around."):
        assert words in shown


def test_the_learning_shows_its_progress(app: App, data_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    release_learner = threading.Event()

    def blocking_learner(ctx: facade.SolveContext) -> facade.Knowledge:
        ctx.report("Watching your run 3 of 12")
        assert release_learner.wait(30)
        return facade.knowledge(user_data_dir(), ctx=ctx)

    monkeypatch.setattr(learned, "_learn_from_runs", blocking_learner)
    app.jobs.execution = Execution.THREAD  # the test double's event is shared with a thread, not a child
    app.push(MenuScene(app))
    texts = drawn_texts(monkeypatch)
    screen = choose_learned_screen(app)
    for _ in range(600):
        app.run_frames(1)
        if any(t.startswith("Watching your run 3 of 12") for t in texts):
            break
        time.sleep(0.005)
    assert any(t.startswith("Watching your run 3 of 12") for t in texts)
    assert screen.knowledge is None and screen.progress == "Watching your run 3 of 12"
    release_learner.set()
    screen.wait()
    texts.clear()
    app.run_frames(1)
    assert screen.knowledge is not None and screen.knowledge.runs == 0
    assert not any(t.startswith(("Learning from your runs", "Watching")) for t in texts)


def test_the_summary_tells_the_situations_seen_from_the_rules_checked_against_the_game(
        data_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    timid = next(e for e in pack_entries() if e.key.startswith("041_")).level  # one run of timid lemmings
    record_run(user_data_dir(), timid, [])
    app = build_app(size=(800, 500), clock=FixedClock())
    app.push(MenuScene(app))
    texts = drawn_texts(monkeypatch)
    screen = open_screen(app)
    k = screen.knowledge
    # the rules are right everywhere (the check against the game), yet the runs showed few situations
    assert k is not None and k.exact and k.right == k.configurations and k.examples < k.configurations and k.unsure
    shown = " ".join(texts)
    assert not any(t.endswith("\u2026") for t in texts)  # nothing cut at 800x500
    assert f"It has seen {k.examples} of the {k.configurations} situations a lemming can be in." in shown
    assert f"Checked against the game, its rules are correct in all {k.configurations} situations, its " \
           f"{k.configurations - k.examples} guesses included." in shown
    assert "your runs never showed one (its guess there is right, the check says)." in shown
    wrong = " ".join(line for line, _ in learned.summary_lines(dataclasses.replace(k, right=240, exact=False)))
    assert f"correct in 240 of the 256 situations (it guesses {256 - k.examples} of them)." in wrong
    assert "never showed one, so it guesses there." in wrong
    every = " ".join(line for line, _ in learned.summary_lines(dataclasses.replace(k, examples=256, unsure=[])))
    assert "It has seen all 256 situations" in every and "guess" not in every
    while app.scenes:
        app.pop()
