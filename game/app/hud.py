"""Text, panels, the HUD bars and toasts (cached text rendering with pygame's default font)."""

from __future__ import annotations

from typing import Sequence

import pygame

from game.app.input import display_key

WHITE = (244, 240, 255)
MUTED = (170, 160, 200)
GOLD = (255, 214, 90)
RED = (255, 96, 96)
GREEN = (120, 230, 120)
BLUE = (120, 180, 255)
PANEL = (20, 16, 36)
PANEL_EDGE = (90, 74, 140)

#: Colour of each play state's badge.
STATE_COLORS: dict[str, tuple[int, int, int]] = {
    "placing": BLUE,
    "running": GREEN,
    "paused": GOLD,
    "won": GOLD,
    "lost": RED,
}

#: Heights of the top HUD bar and the bottom hint bar, in pixels.
TOP_BAR = 56
BOTTOM_BAR = 34

def plural(n: int, word: str) -> str:
    """``"1 brick"``, ``"3 bricks"``.

    >>> plural(1, "brick"), plural(0, "lemming"), plural(2, "frame")
    ('1 brick', '0 lemmings', '2 frames')
    """
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


_fonts: dict[int, pygame.font.Font] = {}
_text_cache: dict[tuple[str, int, tuple[int, int, int], bool], pygame.Surface] = {}


def font(size: int) -> pygame.font.Font:
    """pygame's default font at ``size`` points (cached)."""
    f = _fonts.get(size)
    if f is None:
        if not pygame.font.get_init():
            pygame.font.init()
        f = _fonts[size] = pygame.font.Font(None, size)
    return f


def text(s: str, size: int = 24, color: tuple[int, int, int] = WHITE, shadow: bool = True) -> pygame.Surface:
    """Rendered text (anti-aliased, with a drop shadow), cached."""
    key = (s, size, color, shadow)
    surf = _text_cache.get(key)
    if surf is None:
        body = font(size).render(s, True, color)
        if shadow:
            surf = pygame.Surface((body.get_width() + 2, body.get_height() + 2), pygame.SRCALPHA)
            surf.blit(font(size).render(s, True, (8, 6, 16)), (2, 2))
            surf.blit(body, (0, 0))
        else:
            surf = body
        if len(_text_cache) > 1500:
            _text_cache.clear()
        _text_cache[key] = surf
    return surf


def text_width(s: str, size: int = 24, shadow: bool = True) -> int:
    """The width of :func:`text` ``(s, size)`` in pixels, measured without rendering it (layout loops measure
    many candidate strings; rendering each one would cost a surface apiece and churn the text cache)."""
    return int(font(size).size(s)[0]) + (2 if shadow else 0)


def blit_text(surface: pygame.Surface, s: str, pos: tuple[int, int], size: int = 24,
              color: tuple[int, int, int] = WHITE, anchor: str = "topleft") -> pygame.Rect:
    """Draw text with its ``anchor`` (a pygame.Rect attribute name) at ``pos``; returns its rect."""
    surf = text(s, size, color)
    rect = surf.get_rect(**{anchor: pos})
    surface.blit(surf, rect)
    return rect


_panel_cache: dict[tuple[tuple[int, int], int, tuple[int, int, int]], pygame.Surface] = {}


def panel(surface: pygame.Surface, rect: pygame.Rect, alpha: int = 235, edge: tuple[int, int, int] = PANEL_EDGE) -> None:
    """A rounded translucent panel with a border (cached per size and colour)."""
    key = ((rect.width, rect.height), alpha, edge)
    box = _panel_cache.get(key)
    if box is None:
        box = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(box, PANEL + (alpha,), box.get_rect(), border_radius=10)
        pygame.draw.rect(box, edge + (255,), box.get_rect(), 2, border_radius=10)
        if len(_panel_cache) > 300:
            _panel_cache.clear()
        _panel_cache[key] = box
    surface.blit(box, rect)


def _bar(width: int, height: int) -> pygame.Surface:
    key = ((width, height), -1, (0, 0, 0))
    bar = _panel_cache.get(key)
    if bar is None:
        bar = pygame.Surface((width, height), pygame.SRCALPHA)
        bar.fill((12, 8, 24, 210))
        _panel_cache[key] = bar
    return bar


def badge(surface: pygame.Surface, label: str, pos: tuple[int, int], color: tuple[int, int, int],
          anchor: str = "midright", size: int = 22) -> pygame.Rect:
    """A small coloured pill with a label."""
    t = text(label, size, (16, 12, 24), shadow=False)
    rect = t.get_rect()
    rect.inflate_ip(18, 8)
    setattr(rect, anchor, pos)
    pygame.draw.rect(surface, color, rect, border_radius=rect.height // 2)
    surface.blit(t, t.get_rect(center=rect.center))
    return rect


def top_bar(surface: pygame.Surface) -> pygame.Rect:
    """Paint the top bar background; returns its rect."""
    rect = pygame.Rect(0, 0, surface.get_width(), TOP_BAR)
    surface.blit(_bar(rect.width, rect.height), rect)
    pygame.draw.line(surface, PANEL_EDGE, (0, TOP_BAR - 1), (rect.width, TOP_BAR - 1))
    return rect


#: The hint that is always shown last when the bar is too narrow for every hint.
HELP_HINT = ("F1", "all keys")


#: The footer's font size when its keys do not fit at the normal size.
SMALL_HINT_SIZE = 17


def hints_width(hints: Sequence[tuple[str, str]], size: int) -> int:
    """How wide the footer's ``hints`` are at font ``size``, in pixels (their keys as the player bound them)."""
    return sum(text(display_key(k), size, (16, 12, 24), shadow=False).get_width() + 10 + 4
               + text_width(d, size, shadow=False) + 16 for k, d in hints)


def fit_hints(hints: Sequence[tuple[str, str]], width: int, *,
              keep: Sequence[tuple[str, str]] = ()) -> tuple[list[tuple[str, str]], int]:
    """The footer hints shown on a window ``width`` wide and their font size (see :func:`hint_bar`)."""
    size = 20
    shown = [hint for hint in hints if hint not in keep]
    tail = list(keep)
    if hints_width(shown + tail, size) > width - 20:
        size = SMALL_HINT_SIZE
    if hints_width(shown + tail, size) <= width - 20:  # everything fits: in the order given
        return list(hints), size
    if not any(key == "F1" for key, _ in tail):
        tail.append(HELP_HINT)
    while shown and hints_width(shown + tail, size) > width - 20:
        shown.pop()
    return shown + tail, size


#: Footers drawn once per window width, hints and key bindings (the play scene draws one every frame).
_footer_cache: dict[tuple[object, ...], pygame.Surface] = {}
#: Most footers kept.
FOOTER_CACHE_SIZE = 32


def hint_bar(surface: pygame.Surface, hints: Sequence[tuple[str, str]], *,
             keep: Sequence[tuple[str, str]] = ()) -> pygame.Rect:
    """The bottom bar of key hints: ``[(key, what), ...]``, left to right.

    On a narrow window the font shrinks; hints that still do not fit are dropped from the
    end and replaced by "F1 all keys" (the help screen lists every key).  ``keep``: hints that
    stay on any width (e.g. the assistant's keys, and F1), shown after the others.  Each footer is
    drawn once (per width, hints and the player's key bindings) and reused.
    """
    w, h = surface.get_size()
    rect = pygame.Rect(0, h - BOTTOM_BAR, w, BOTTOM_BAR)
    hints, keep = tuple(hints), tuple(keep)
    key = (w, hints, keep, tuple(display_key(k) for k, _ in hints + keep))
    bar = _footer_cache.get(key)
    if bar is None:
        if len(_footer_cache) >= FOOTER_CACHE_SIZE:
            _footer_cache.clear()
        bar = _footer_cache[key] = _draw_footer(w, hints, keep)
    surface.blit(bar, rect)
    return rect


def _draw_footer(width: int, hints: Sequence[tuple[str, str]], keep: Sequence[tuple[str, str]]) -> pygame.Surface:
    """The footer of :func:`hint_bar` on a surface of its own."""
    bar = _bar(width, BOTTOM_BAR).copy()
    shown, size = fit_hints(hints, width, keep=keep)
    x = 12
    cy = BOTTOM_BAR // 2
    for key, what in shown:
        k = text(display_key(key), size, (16, 12, 24), shadow=False)  # as the player bound it
        d = text(what, size, MUTED, shadow=False)
        need = k.get_width() + 10 + 4 + d.get_width() + 16
        if x + need > width - 4:
            break
        krect = pygame.Rect(x, cy - 10, k.get_width() + 10, 20)
        pygame.draw.rect(bar, (210, 200, 240), krect, border_radius=4)
        bar.blit(k, k.get_rect(center=krect.center))
        bar.blit(d, (krect.right + 4, cy - d.get_height() // 2))
        x += need
    return bar


def fit_text(s: str, size: int, width: int) -> str:
    """``s`` cut with an ellipsis so that it renders within ``width`` pixels."""
    if text_width(s, size) <= width:
        return s
    while len(s) > 1 and text_width(s + "\u2026", size) > width:
        s = s[:-1]
    return s.rstrip() + "\u2026"


def menu_list(surface: pygame.Surface, labels: Sequence[str], cursor: int, top: int, bottom: int,
              *, width: int = 320) -> list[pygame.Rect]:
    """Draw a vertical list of buttons between ``top`` and ``bottom`` (shrinking to fit); their rects."""
    rects = menu_rects(surface.get_size(), len(labels), top, bottom, width=width)
    for i, (rect, label) in enumerate(zip(rects, labels)):
        sel = i == cursor
        panel(surface, rect, alpha=240 if sel else 190, edge=GOLD if sel else PANEL_EDGE)
        fsize = max(20, min(36, rect.height - 14))
        blit_text(surface, fit_text(label, fsize, rect.width - 16), rect.center, fsize, GOLD if sel else WHITE,
                  anchor="center")
    return rects


def menu_rects(size: tuple[int, int], n: int, top: int, bottom: int, *, width: int = 320) -> list[pygame.Rect]:
    """The button rects :func:`menu_list` uses: up to 50 px high, 12 px apart, fitted to the space."""
    w = size[0]
    space = max(1, bottom - top)
    pitch = min(62, space // max(n, 1))
    height = max(22, pitch - max(4, pitch // 5))
    bw = min(width, w - 40)
    y0 = top + max(0, (space - pitch * n) // 2)
    return [pygame.Rect(w // 2 - bw // 2, y0 + i * pitch, bw, height) for i in range(n)]


def wrap_text(s: str, size: int, width: int, max_lines: int = 3) -> list[str]:
    """``s`` broken at spaces into lines that render within ``width`` pixels, at most ``max_lines``.

    A word longer than a line is cut; text left over after ``max_lines`` ends the last line
    with an ellipsis.  Joining the lines with spaces gives ``s`` back when nothing was cut.
    """
    lines: list[str] = []
    words = s.split()
    i = 0
    while i < len(words) and len(lines) < max_lines:
        line = words[i]
        i += 1
        while i < len(words) and text_width(f"{line} {words[i]}", size) <= width:
            line = f"{line} {words[i]}"
            i += 1
        lines.append(fit_text(line, size, width))
    if i < len(words) and lines:
        last = lines[-1]
        while last and text_width(last + "\u2026", size) > width:
            last = last[:-1]
        lines[-1] = last.rstrip() + "\u2026"
    return lines


#: Most lines one toast takes (longer messages end with an ellipsis).
TOAST_LINES = 3
#: Text size of toasts.
TOAST_SIZE = 22


def toast_lines(message: str, window_width: int) -> list[str]:
    """The lines a toast of ``message`` shows in a window ``window_width`` wide (at most :data:`TOAST_LINES`)."""
    return wrap_text(message, TOAST_SIZE, max(40, window_width - 60), TOAST_LINES)


def draw_toasts(surface: pygame.Surface, messages: Sequence[str]) -> None:
    """Messages stacked above the bottom bar, each wrapped to the window (never wider than it)."""
    w, h = surface.get_size()
    y = h - BOTTOM_BAR - 12
    for msg in reversed(list(messages)[-3:]):
        rendered = [text(line, TOAST_SIZE, WHITE) for line in toast_lines(msg, w)]
        if not rendered:
            continue
        block_h = sum(t.get_height() for t in rendered) + 2 * (len(rendered) - 1)
        block_w = max(t.get_width() for t in rendered)
        block = pygame.Rect(0, 0, block_w, block_h)
        block.midbottom = (w // 2, y)
        if block.top < TOP_BAR:
            break  # no room left above: older toasts wait
        panel(surface, block.inflate(24, 14), alpha=230)
        ty = block.top
        for t in rendered:
            surface.blit(t, t.get_rect(midtop=(w // 2, ty)))
            ty += t.get_height() + 2
        y = block.top - 18
