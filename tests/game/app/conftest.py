"""The app of every UI test (built by the composition root, headless, a fake clock) and posted input."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Iterator

import pygame
import pytest

from game.app.app import App
from game.app.display import FixedClock
from game.app.compose import build_app
from game.app.scenes.editor import EditorScene
from game.app.scenes.pause import PauseChoice, PauseScene


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


#: The Ctrl modifier of posted key presses.
CTRL = pygame.KMOD_CTRL
#: Keys posted for the characters that are not letters or digits (others post key 0 with their character).
_CHAR_KEYS = {" ": pygame.K_SPACE, "-": pygame.K_MINUS}


def type_text(app: App, text: str) -> None:
    """Post one key press per character of ``text`` (its key and its character), then step the app."""
    for ch in text:
        key = ord(ch.lower()) if ch.isascii() and ch.isalnum() else _CHAR_KEYS.get(ch, 0)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=ch, scancode=0))
    app.run_frames(1)


def run_until(app: App, done: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    """Step the app until ``done()``, then one frame more (``timeout``: a bound for a slow machine, never a
    check of speed)."""
    end = time.monotonic() + timeout
    while not done() and time.monotonic() < end:
        app.run_frames(1)
        time.sleep(0.01)
    app.run_frames(1)
    assert done(), f"{what} did not finish"


def press_save(app: App, mod: int) -> None:
    """Post the editor's save keys (Ctrl+S, with ``mod``) and step until its check before saving has ended."""
    press(app, pygame.K_s, mod=mod)
    after_save_check(app)


def after_save_check(app: App) -> None:
    """Step until the editor's check before saving (a job) has ended and its answer was acted on."""
    run_until(app, lambda: not app.jobs.running(lane="save-check"), "the check before saving")


def wait_for_analysis(app: App, editor: EditorScene, timeout: float = 60.0) -> None:
    """Step the app until the editor's analysis has ended."""
    run_until(app, lambda: not editor.analysing, "analysis", timeout)


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
