"""The level editor's keys: its help page (F1) and its footer, which wraps to two lines where one is too
narrow (the editor lays its board and palette out above :func:`footer_height`).

The editor's letter commands (A, T, V, ...) are typed letters, so rebinding the game's keys does not
move them; the keys it shares with play (undo, redo, [ ], B, comma and period) move with the player's bindings.
"""

from __future__ import annotations

from typing import Sequence

import pygame

from game.app import hud
from game.app.app import HelpPage
from game.app.input import display_key
from game.app.text_field import TEXT_BOX_KEYS

#: Footer labels that follow the player's key bindings (the others are the editor's own keys).
REBINDABLE = frozenset({"Z/Y", "Z / Y", "[ ]", "[ / ]", "B", "Shift+arrows, B", ", / ."})

#: The editor's help page: (section, [(key, what it does), ...]).
EDITOR_HELP_SECTIONS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("Painting", (
        ("1 2 3 4", "tool: wall, erase, lemming, target"),
        ("Mouse wheel", "next / previous tool (over the panel: scroll it)"),
        ("Click or drag", "paint with the tool"),
        ("Right-click or drag", "erase"),
        ("Click a lemming", "turn it round (Lemming tool)"),
        ("Shift+arrows", "move the cell cursor"),
        ("B", "paint the cursor's cell"),
        ("Z / Y", "undo / redo (Ctrl+Z, Ctrl+Y too)"),
    )),
    ("Map size", (
        ("Up / Down", "remove / add a row at the bottom"),
        ("Left / Right", "remove / add a column at the right"),
        ("Ctrl+arrows", "the same at the top and left"),
        ("G", "grid on / off"),
    )),
    ("Limits and physics", (
        ("+ / -", "more / fewer frames (N)"),
        ("[ / ]", "budget B down / up"),
        ("K", "next physics"),
        ("J", "type a physics (name or JSON)"),
    )),
    ("Trying the level", (
        ("Space or P", "play-test (Esc, then Back to editor, returns here)"),
        ("A", "analyse (again: cancel)"),
        ("V", "show / hide an optimal solution"),
        (", / .", "the previous / next optimal solution"),
        ("T", "tighten N and B to the minimum"),
    )),
    ("Files", (
        ("Ctrl+S", "save to your levels"),
        ("Ctrl+Shift+S", "save a copy under a new title"),
        ("I", "title, author, description, hint"),
        ("Ctrl+O", "open a level"),
        ("N", "new level"),
        ("Esc", "leave the editor"),
    )),
    ("Anywhere", (
        ("M", "sound on / off"),
        ("F1", "this help"),
        ("F12", "screenshot"),
        TEXT_BOX_KEYS,
    )),
)

#: The footer's hints, most important first; where two lines cannot hold them all, the last go
#: (the help page, F1, lists every key).
EDITOR_FOOTER: tuple[tuple[str, str], ...] = (
    ("1-4", "tool"), ("Click", "paint"), ("R-click", "erase"), ("Shift+arrows, B", "paint by keys"),
    ("Z/Y", "undo/redo"), ("Arrows", "rows/cols"), ("+/-", "frames N"), ("[ ]", "budget B"),
    ("Space/P", "play-test"), ("A", "analyse"), ("V", "solution"), ("T", "tighten"), ("Esc", "exit"),
    ("Ctrl+S", "save"), ("K/J", "physics"), ("Wheel", "tool"), ("Ctrl+arrows", "top/left"), ("G", "grid"),
    ("Ctrl+O", "open"), ("N", "new"),
)
#: Always shown, last.
HELP_HINT = ("F1", "all keys")
#: Footer font sizes, largest first.
FOOTER_SIZES = (20, 18, 17, 16)
#: Height of one footer line.
FOOTER_LINE = 24
#: Most footer lines.
FOOTER_LINES = 2


def shown_key(key: str) -> str:
    """How a key label reads: the player's binding for the keys shared with play, else as written."""
    return display_key(key) if key in REBINDABLE else key


def editor_help_page() -> HelpPage:
    """The editor's help page, with the keys as the player bound them."""
    sections = tuple((title, tuple((shown_key(key), what) for key, what in keys))
                     for title, keys in EDITOR_HELP_SECTIONS)
    return HelpPage("Editor keys", sections, as_bound=False)


def _hint_width(key: str, what: str, size: int) -> int:
    return hud.text_width(shown_key(key), size, shadow=False) + 14 + hud.text_width(what, size, shadow=False) + 16


def _wrap(hints: Sequence[tuple[str, str]], size: int, width: int) -> list[list[tuple[str, str]]]:
    """``hints`` in lines no wider than ``width`` (in order)."""
    lines: list[list[tuple[str, str]]] = [[]]
    used = 0
    for hint in hints:
        need = _hint_width(*hint, size)
        if lines[-1] and used + need > width:
            lines.append([])
            used = 0
        lines[-1].append(hint)
        used += need
    return lines


def footer_lines(width: int) -> tuple[list[list[tuple[str, str]]], int]:
    """The footer's lines of hints on a window ``width`` wide and their font size: every hint on one or
    two lines at the largest size that holds them, else as many as fit (most important first), with F1."""
    room = width - 24
    for size in FOOTER_SIZES:
        lines = _wrap([*EDITOR_FOOTER, HELP_HINT], size, room)
        if len(lines) <= FOOTER_LINES:
            return lines, size
    size = FOOTER_SIZES[-1]
    hints = list(EDITOR_FOOTER)
    while hints and len(_wrap([*hints, HELP_HINT], size, room)) > FOOTER_LINES:
        hints.pop()
    return _wrap([*hints, HELP_HINT], size, room), size


def footer_height(width: int) -> int:
    """The footer's height on a window ``width`` wide."""
    lines, _ = footer_lines(width)
    return max(hud.BOTTOM_BAR, len(lines) * FOOTER_LINE + 8)


def draw_footer(surface: pygame.Surface) -> pygame.Rect:
    """The footer: its lines of key hints at the bottom of ``surface``; returns its rect."""
    w, h = surface.get_size()
    lines, size = footer_lines(w)
    rect = pygame.Rect(0, h - footer_height(w), w, footer_height(w))
    bar = pygame.Surface(rect.size, pygame.SRCALPHA)
    bar.fill((12, 8, 24, 210))
    surface.blit(bar, rect)
    cy = rect.top + (rect.height - len(lines) * FOOTER_LINE) // 2 + FOOTER_LINE // 2
    for line in lines:
        x = 12
        for key, what in line:
            k = hud.text(shown_key(key), size, (16, 12, 24), shadow=False)
            d = hud.text(what, size, hud.MUTED, shadow=False)
            krect = pygame.Rect(x, cy - 10, k.get_width() + 10, 20)
            pygame.draw.rect(surface, (210, 200, 240), krect, border_radius=4)
            surface.blit(k, k.get_rect(center=krect.center))
            surface.blit(d, (krect.right + 4, cy - d.get_height() // 2))
            x += _hint_width(key, what, size)
        cy += FOOTER_LINE
    return rect


__all__ = ["EDITOR_FOOTER", "EDITOR_HELP_SECTIONS", "draw_footer", "editor_help_page", "footer_height",
           "footer_lines", "shown_key"]
