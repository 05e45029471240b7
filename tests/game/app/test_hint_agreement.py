"""The game's H and ``main.py hint`` give the same answer: one plan for the same level and bricks."""

from __future__ import annotations

import json

import pygame
import pytest

from game.app.app import App
from game.app.assistant import assistant_of
from game.app.scenes.play import PlayScene
from game.cli.main import main
from game.core.catalog import pack_entries
from tests.game.app.conftest import press, run_until


def test_h_and_the_command_lines_hint_name_the_same_bricks(app: App, capsys: pytest.CaptureFixture[str]) -> None:
    """The Relay with a brick in no minimum solution: H (played here) and ``main.py hint`` lead to the same set."""
    entries = pack_entries()
    index = next(i for i, entry in enumerate(entries)
                 if entry.path is not None and entry.path.name == "038_the_relay.txt")
    scene = PlayScene(app, playlist=entries, index=index)
    app.push(scene)
    app.run_frames(1)
    scene.click_cell((7, 2))
    assert scene.bricks == ((7, 2),)
    assistant = assistant_of(scene)
    press(app, pygame.K_h, unicode="h")
    run_until(app, lambda: assistant.state.hint is not None, "the hint", 60)
    view = assistant.state.hint
    assert main(["hint", str(entries[index].path), "--bricks", "7,2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert view is not None and [[s.kind.value, list(s.cell)] for s in view.steps] == data["steps"]
    assert data["steps"][:1] == [["remove", [7, 2]]] and view.hint.solution is not None
    assert data["solution"] == [list(cell) for cell in view.hint.solution]
