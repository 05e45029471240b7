"""Headless pygame for every UI test: SDL's dummy drivers, a fake clock, a temporary data folder."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from pathlib import Path  # noqa: E402
from typing import Iterator  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.app.app import App, FixedClock  # noqa: E402
from game.app.compose import build_app  # noqa: E402


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every UI test writes its progress under a fresh ``XDG_DATA_HOME``."""
    home = tmp_path / "xdg"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))  # settings.json
    return home


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
