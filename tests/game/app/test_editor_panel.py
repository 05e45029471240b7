"""The editor's analysis panel says what a level lacks: the bricks beyond its budget, in the words of
``check --solve``, and that a level won without bricks has no solution to show."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pygame
import pytest

import game.cli.main as cli
from game.app.app import App
from game.app.compose import build_app
from game.app.display import FixedClock
from game.app.scenes.dialogs import ConfirmPrompt
from game.app.scenes.editor import EditorScene
from game.app.scenes.menu import MenuScene
from game.core.editor_model import EditorModel
from game.core.level import Level
from game.core.storage import user_levels_dir
from tests.conftest import ORIGINAL_PACK
from tests.game.app.conftest import CTRL, move, press, press_save, type_text, wait_for_analysis

#: The lemming walks straight onto the target: no brick is needed.
STRAIGHT = ["XXXXXXXX", "X>    TX", "XXXXXXXX"]


def open_editor(app: App, level: Level) -> EditorScene:
    app.push(MenuScene(app))
    editor = app.push(EditorScene(app, EditorModel.from_level(level)))
    assert isinstance(editor, EditorScene)
    app.run_frames(1)
    return editor


def letter(app: App, ch: str) -> None:
    press(app, getattr(pygame, f"K_{ch}"), unicode=ch)


def panel_lines(editor: EditorScene) -> list[str]:
    return [text for text, _, _ in editor.view.panel.analysis_lines(600)]


@pytest.fixture(autouse=True)
def close_scenes(app: App) -> Iterator[None]:
    """Pop every scene after a test, so analysis workers stop."""
    yield
    while app.scenes:
        app.pop()


def test_over_budget_the_panel_says_how_many_more_bricks_as_check_does(
        app: App, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    level = Level.load(ORIGINAL_PACK).with_limits(budget=1)  # its minimum is 3 bricks
    path = tmp_path / "short.json"
    level.save(path)
    assert cli.main(["check", "--solve", str(path)]) == 1
    checked = [line.strip() for line in capsys.readouterr().out.splitlines()]
    assert "needs 2 more bricks than the budget" in checked
    editor = open_editor(app, level)
    letter(app, "a")
    wait_for_analysis(app, editor)
    assert editor.status_now() == "over_budget"
    assert "needs 2 more bricks than the budget" in panel_lines(editor)


def test_a_level_won_without_bricks_offers_no_solution_to_show(app: App) -> None:
    editor = open_editor(app, Level.from_rows(STRAIGHT, frames=10, budget=2))
    letter(app, "a")
    wait_for_analysis(app, editor)
    assert editor.analysis is not None and editor.analysis.min_bricks == 0 and editor.status_now() == "ok"
    shown = " ".join(panel_lines(editor))
    assert "won without bricks" in shown and "V: show" not in shown
    letter(app, "v")
    assert not editor.solutions.visible and "won without bricks" in editor.message
    assert "won without bricks" in " ".join(panel_lines(editor)) and "V hides" not in " ".join(panel_lines(editor))


def test_a_level_that_needs_bricks_still_offers_v(app: App) -> None:
    editor = open_editor(app, Level.load(ORIGINAL_PACK))
    letter(app, "a")
    wait_for_analysis(app, editor)
    assert any(line.startswith("V: show a solution") for line in panel_lines(editor))
    assert "won without bricks" not in " ".join(panel_lines(editor))
    letter(app, "v")
    assert editor.solutions.visible and len(editor.solutions.shown()) == 3


def test_the_wheel_scrolls_the_panel_back_from_the_line_it_shows(data_home: Path) -> None:
    """Scrolled to the bottom at 800x500, then the level changes: fewer lines, still more than fit.  Each
    click of the wheel back up moves what the panel shows (two clicks reach its first line), and scrolling
    down stops at the last line."""
    size = (800, 500)
    app = build_app(size=size, clock=FixedClock())
    editor = open_editor(app, Level.load(ORIGINAL_PACK))
    letter(app, "a")
    wait_for_analysis(app, editor)
    panel = editor.view.panel
    rect, lines = panel.side_panel(size)
    move(app, rect.center)

    def wheel(y: int) -> tuple[str, ...]:
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y))
        app.run_frames(1)
        return tuple(text for text, _, _ in panel.visible_side_lines(size)[0])

    bottom = [wheel(-1) for _ in range(len(lines) * 2)]
    assert len(set(bottom[len(lines):])) == 1 and not panel.visible_side_lines(size)[2]  # the last line shows
    press(app, pygame.K_PLUS, unicode="+")  # the analysis is out of date: fewer lines, still more than fit
    before = tuple(text for text, _, _ in panel.visible_side_lines(size)[0])
    assert panel.visible_side_lines(size)[1]
    assert wheel(1) != before  # the first click back up shows more above at once
    wheel(1)
    shown, above, below = panel.visible_side_lines(size)
    assert not above and below and shown[0][0] == "ANALYSIS"
    while app.scenes:
        app.pop()


def test_saving_without_analysing_warns_of_no_solution_the_quick_check_cannot_see(app: App) -> None:
    """Under careful physics the Original has no solution, though every lemming has a way to a target: the check
    before saving solves the level and asks; with a brick too few for a solvable level it says how many it needs."""
    original = Level.load(ORIGINAL_PACK)
    careful = Level.from_rows(original.grid, original.frames, original.budget, title="Careful",
                              meta=[("physics", "careful")])
    editor = open_editor(app, careful)
    press_save(app, CTRL)
    prompt = app.top
    assert isinstance(prompt, ConfirmPrompt) and prompt.title == "No solution"
    assert prompt.question == ("This level has no solution: the lemming cannot get home within 20 frames, "
                               "whatever the bricks. Save anyway?")
    type_text(app, "n")
    assert app.top is editor and not list(user_levels_dir().glob("*.txt"))
    short = open_editor(app, Level.load(ORIGINAL_PACK).with_limits(budget=2))
    press_save(app, CTRL)
    prompt = app.top
    assert isinstance(prompt, ConfirmPrompt)
    assert prompt.question == "This level has no solution: it needs 3 bricks but the budget B is 2. Save anyway?"
    type_text(app, "n")
    assert app.top is short and not list(user_levels_dir().glob("*.txt"))
