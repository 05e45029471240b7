"""The window and the frame clock: what the app needs of the display, apart from the scenes.

:func:`open_window` opens the resizable (or full-screen) window with its minimum size
(:func:`open_game_window` with the game's caption and icon), and :func:`reopen_window` opens it again
after a change of size or mode; :func:`fit_to_desktop` makes a saved size one the screen shows whole.  A :class:`Clock`
paces the frames: pygame's, or :class:`FixedClock` to step deterministically (tests, benchmarks).
:func:`headless_env` selects SDL's dummy drivers.  Screenshots: :func:`default_screenshot_path` is where F12
saves, :func:`png_bytes` the image written, :class:`Screenshots` the one armed for a later frame and the flash.
"""

from __future__ import annotations

import io
import os
import time
import warnings
from pathlib import Path
from typing import Protocol

import pygame

from game.core.settings import MIN_WINDOW
from game.core.storage import free_path, user_data_dir
from game.core.writing import atomic_write_bytes
from game.app.sprites import shared_sprites

#: Default window size.
DEFAULT_SIZE = (1280, 800)
#: Smallest window size the layout supports (the window cannot be made smaller).
MIN_SIZE = MIN_WINDOW
#: Target frame rate.
FPS = 60
#: How long the white flash after a screenshot lasts, in seconds.
FLASH_SECONDS = 0.25


class Clock(Protocol):
    """What the app needs from a clock: ``tick(fps)`` sleeps as needed and returns elapsed ms."""

    def tick(self, framerate: float = 0) -> int | float:
        """Wait for the next frame and return the milliseconds since the previous call."""
        ...


class FixedClock:
    """A fake clock for tests and benchmarks: every tick lasts ``dt`` seconds, instantly."""

    def __init__(self, dt: float = 1.0 / FPS) -> None:
        self.dt = dt

    def tick(self, framerate: float = 0) -> float:
        """Return ``dt`` in milliseconds without sleeping."""
        return self.dt * 1000.0


def open_window(size: tuple[int, int], fullscreen: bool) -> pygame.Surface:
    """Open the window (full screen, or resizable at ``size``, never smaller than :data:`MIN_SIZE`)."""
    if fullscreen:
        screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
    else:
        screen = pygame.display.set_mode(size, pygame.RESIZABLE)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            pygame.Window.from_display_module().minimum_size = MIN_SIZE
    except (pygame.error, AttributeError):
        pass
    return screen


def fit_to_desktop(size: tuple[int, int]) -> tuple[int, int]:
    """``size``, no larger than the desktop (a saved size from a bigger screen would open a window the screen
    shows only part of), and never smaller than :data:`MIN_SIZE`."""
    pygame.display.init()
    desktops = pygame.display.get_desktop_sizes()
    if not desktops:
        return size
    return (max(MIN_SIZE[0], min(size[0], desktops[0][0])), max(MIN_SIZE[1], min(size[1], desktops[0][1])))


def open_game_window(size: tuple[int, int], fullscreen: bool, title: str) -> pygame.Surface:
    """Open the game's window (:func:`open_window`) with its caption ``title`` and its icon."""
    pygame.display.set_caption(title)
    screen = open_window(size, fullscreen)
    try:
        pygame.display.set_icon(shared_sprites().get("lem_cheer_0", 32))
    except (pygame.error, KeyError):
        pass
    return screen


def reopen_window(size: tuple[int, int], fullscreen: bool, *, new_display: bool) -> pygame.Surface:
    """The window after a change of size or mode (:func:`open_window`).  ``new_display``: start the display
    over first, keeping the caption (switching to or from full screen: without a window manager an existing
    window cannot move to fill the screen)."""
    if new_display:
        caption = pygame.display.get_caption()[0] if pygame.display.get_init() else "Lemming Bricks"
        pygame.display.quit()
        pygame.display.init()
        pygame.display.set_caption(caption)
    return open_window(size, fullscreen)


class Screenshots:
    """An app's screenshots: the one armed for a later frame (``--screenshot``), and the white flash after
    one is saved."""

    def __init__(self) -> None:
        self._at: int | None = None
        self._path: Path | None = None
        self.flash = 0.0  #: seconds left of the white flash

    def arm(self, frames: int, path: Path) -> None:
        """Take a screenshot at ``path`` once ``frames`` frames have been stepped."""
        self._at = frames
        self._path = Path(path)

    def due(self, frame_count: int) -> Path | None:
        """Where the armed screenshot goes, once ``frame_count`` frames have been stepped (then disarmed)."""
        if self._at is None or frame_count < self._at:
            return None
        assert self._path is not None
        self._at = None
        return self._path

    def save(self, surface: pygame.Surface, path: Path) -> Path:
        """Save ``surface`` as a PNG at ``path`` and return the path (never half a file; an I/O error is one
        message)."""
        path = Path(path)
        atomic_write_bytes(path, png_bytes(surface))
        return path

    def tick(self, dt: float) -> None:
        """Advance the flash by ``dt`` seconds."""
        self.flash = max(0.0, self.flash - dt)

    def draw_flash(self, surface: pygame.Surface) -> None:
        """The white flash over ``surface`` (nothing once it is over)."""
        if self.flash > 0:
            veil = pygame.Surface(surface.get_size())
            veil.fill((255, 255, 255))
            veil.set_alpha(int(160 * self.flash / FLASH_SECONDS))
            surface.blit(veil, (0, 0))


def png_bytes(surface: pygame.Surface) -> bytes:
    """``surface`` as a PNG file's bytes."""
    image = io.BytesIO()
    pygame.image.save(surface, image, "screenshot.png")
    return image.getvalue()


def default_screenshot_path() -> Path:
    """Where F12 saves screenshots: the user's data folder, timestamped (never an existing file: two in the
    same second are ``...-HHMMSS.png`` and ``...-HHMMSS-2.png``)."""
    return free_path(user_data_dir() / "screenshots", f"lemming-bricks-{time.strftime('%Y%m%d-%H%M%S')}", ".png")


def headless_env() -> None:
    """Select SDL's dummy video and audio drivers (for tests, benchmarks and GIF export)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
