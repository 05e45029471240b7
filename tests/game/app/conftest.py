"""The app of every UI test (built by the composition root, headless, a fake clock) and posted input."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pygame
import pytest

from game.app.app import App, FixedClock
from game.app.compose import build_app


@pytest.fixture
def app(data_home: Path) -> Iterator[App]:
    """A real App, built by the game's composition root, on the dummy video driver with a fixed 1/60 s clock."""
    application = build_app(size=(1280, 800), clock=FixedClock())
    pygame.event.clear()
    yield application
    pygame.event.clear()


def press(app: App, key: int, mod: int = 0, unicode: str = "", frames: int = 1) -> None:
    """Post a key press and step the app."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode, scancode=0))
    app.run_frames(frames)


def click(app: App, pos: tuple[int, int], button: int = 1, frames: int = 1) -> None:
    """Post a mouse click at ``pos`` and step the app."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=button, pos=pos))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=button, pos=pos))
    app.run_frames(frames)


def move(app: App, pos: tuple[int, int], frames: int = 1) -> None:
    """Post a mouse motion to ``pos`` and step the app."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.run_frames(frames)


def leave_level(app: App) -> None:
    """Leave the play scene the way a player does: Esc opens the pause menu, then "Levels"."""
    from game.app.scenes.pause import PauseChoice, PauseScene

    for _ in range(3):  # Esc may first hide what the assistant shows (a solution on the board)
        press(app, pygame.K_ESCAPE)
        if isinstance(app.top, PauseScene):
            break
    pause = app.top
    assert isinstance(pause, PauseScene), f"Esc did not open the pause menu ({pause})"
    for _ in range(pause.choices.index(PauseChoice.LEVELS)):
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    if app.top is pause and pause.asking == PauseChoice.LEVELS:  # e.g. an Endless streak: "Leave this level?"
        press(app, pygame.K_RETURN)
