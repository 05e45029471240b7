"""The editor's analysis panel says what a level lacks: the bricks beyond its budget, in the words of
``check --solve``, and that a level won without bricks has no solution to show."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pygame
import pytest

import game.cli.main as cli
from game.app.app import App
from game.app.scenes.editor import EditorScene
from game.app.scenes.menu import MenuScene
from game.core.editor_model import EditorModel
from game.core.level import Level
from tests.conftest import ORIGINAL_PACK
from tests.game.app.conftest import press, wait_for_analysis

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
