"""F1 over each side puzzle shows that screen's keys, not the brick game's."""

from __future__ import annotations

import pygame
import pytest

from game.app.app import App
from game.app.scenes.pause import HelpScene, help_layout
from tests.game.app.conftest import press


@pytest.mark.parametrize(("name", "title", "row"), [
    ("life", "Reverse Life keys", ("S", "the AI's start (undoable)")),
    ("pegs", "Peg solitaire keys", ("H", "a jump that can finish")),
    ("mines", "Minesweeper keys", ("A", "assistant plays on")),
])
def test_f1_over_a_side_puzzle_lists_its_own_keys(app: App, name: str, title: str, row: tuple[str, str]) -> None:
    scene = app.open(name)
    app.run_frames(1)
    press(app, pygame.K_F1)
    help_scene = app.top
    assert isinstance(help_scene, HelpScene)
    rows = [r for _, keys in help_scene.page.sections for r in keys]
    assert help_scene.page.title == title and row in rows
    assert all(section != "Placing bricks" for section, _ in help_scene.page.sections)
    assert help_layout(help_scene.page, (800, 500))[0] >= 20  # a short page in a large font on a small window
    press(app, pygame.K_ESCAPE)  # closes the help, back on the puzzle
    assert app.top is scene
