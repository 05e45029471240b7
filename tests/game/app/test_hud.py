"""Toasts wrap to the window: a long message takes up to three lines, never wider than the window."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.app import hud
from game.app.app import App
from game.app.display import FixedClock
from game.app.compose import build_app
from game.app.scenes.menu import MenuScene

LONG = ("progress.json unusable (not valid JSON (line 1, column 2)); moved to "
        "progress.json.corrupt-20261122-161200, starting fresh with every level unsolved")


@pytest.fixture
def small_app(data_home: Path) -> App:
    application = build_app(size=(640, 400), clock=FixedClock())
    pygame.event.clear()
    return application


def test_long_toast_wraps_within_640_pixels(small_app: App) -> None:
    lines = hud.toast_lines(LONG, 640)
    assert 2 <= len(lines) <= hud.TOAST_LINES
    assert all(hud.text(line, hud.TOAST_SIZE).get_width() <= 640 - 60 for line in lines)
    assert " ".join(lines) == LONG  # nothing lost when it fits in three lines


def test_very_long_toast_stops_at_three_lines_with_an_ellipsis() -> None:
    lines = hud.toast_lines("word " * 200, 640)
    assert len(lines) == hud.TOAST_LINES and lines[-1].endswith("\u2026")
    assert all(hud.text(line, hud.TOAST_SIZE).get_width() <= 580 for line in lines)
    (one,) = hud.toast_lines("x" * 300, 640)  # one unbreakable word: cut, not overflowing
    assert one.endswith("\u2026") and hud.text(one, hud.TOAST_SIZE).get_width() <= 580


def test_drawn_toasts_stay_inside_the_window(small_app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    panels: list[pygame.Rect] = []
    real_panel = hud.panel

    def spy(surface: pygame.Surface, rect: pygame.Rect, *args: object, **kwargs: object) -> None:
        panels.append(pygame.Rect(rect))
        real_panel(surface, rect, *args, **kwargs)  # type: ignore[arg-type]

    surface = pygame.Surface((640, 400))
    monkeypatch.setattr(hud, "panel", spy)
    hud.draw_toasts(surface, [LONG, "short note", "x" * 300])
    window = surface.get_rect()
    assert len(panels) == 3 and all(window.contains(p) for p in panels)
    assert panels[-1].height > 2 * panels[1].height  # the long one (drawn last, highest) spans several lines
    tall = panels[-1].height
    panels.clear()
    small_app.push(MenuScene(small_app))
    small_app.toast(LONG, 5.0)
    small_app.run_frames(2)  # and through the app, on its 640x400 window
    toast_panels = [p for p in panels if p.height == tall]
    assert toast_panels and all(p.left >= 0 and p.right <= 640 and p.bottom <= 400 for p in toast_panels)


@settings(max_examples=200, deadline=None)
@given(st.text(st.characters(min_codepoint=32, max_codepoint=0x24F), max_size=60), st.sampled_from([14, 17, 22, 34]),
       st.booleans())
def test_text_width_is_the_rendered_width(s: str, size: int, shadow: bool) -> None:
    pygame.font.init()
    assert hud.text_width(s, size, shadow) == hud.text(s, size, shadow=shadow).get_width()


def test_wrapping_renders_only_the_lines_it_returns() -> None:
    pygame.font.init()
    hud._text_cache.clear()
    lines = hud.wrap_text(LONG, 22, 300)
    assert len(lines) == 3 and all(hud.text_width(line, 22) <= 300 for line in lines)
    assert len(hud._text_cache) == 0  # measured, not rendered: the cache keeps what is drawn
