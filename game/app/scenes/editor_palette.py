"""The level editor's palette, the column on the left: the tool buttons, the map's size with N and B (each a
label with -/+ buttons), the physics, and the action buttons.  :func:`palette_buttons` lays the buttons out for
both clicking and drawing; :func:`draw_palette` draws them.  :func:`panel_widths` sizes the palette and the
right panel together.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, Protocol

import pygame

from game.app import hud
from game.app.sprites import Sprites
from game.app.scenes.editor_help import footer_height
from game.app.scenes.editor_host import EditorHost
from game.core.editor_draft import Edge
from game.core.editor_model import Tool


class PaletteHost(EditorHost, Protocol):
    """What the palette reads of the editor scene, and the actions its buttons call."""

    @property
    def tool(self) -> Tool: ...
    @property
    def analysing(self) -> bool: ...
    def analyse(self) -> None: ...
    def change_budget(self, delta: int) -> None: ...
    def change_frames(self, delta: int) -> None: ...
    def cycle_physics(self, step: int = 1) -> None: ...
    def new_level(self) -> None: ...
    def open_picker(self) -> None: ...
    def play_test(self) -> None: ...
    def resize(self, edge: Edge, delta: int) -> None: ...
    def save(self, then: Callable[[], None] | None = None) -> None: ...
    def set_tool(self, tool: Tool) -> None: ...
    def tighten(self) -> None: ...
    def write_physics(self) -> None: ...


#: Palette and analysis panel widths (pixels) on a wide window.
LEFT_W, RIGHT_W = 232, 290
#: Rows of action buttons on a short window (seven actions, two a row).
COMPACT_ACTION_ROWS = 4

TOOL_COLORS: dict[Tool, tuple[int, int, int]] = {
    Tool.WALL: (190, 170, 230),
    Tool.ERASE: (255, 110, 110),
    Tool.LEMMING: (120, 230, 120),
    Tool.TARGET: (255, 214, 90),
}


def panel_widths(width: int) -> tuple[int, int]:
    """The palette's and the right panel's widths for a window ``width`` wide (0: no right panel)."""
    if width >= 1100:
        return LEFT_W, RIGHT_W
    if width >= 800:
        return 200, 230
    return 168, 0


@dataclass
class Button:
    """A clickable palette button."""

    rect: pygame.Rect
    label: str
    run: Callable[[], None]
    key: str = ""
    active: bool = False
    enabled: bool = True
    color: tuple[int, int, int] | None = None
    icon: str = ""


#: Tool buttons at least this wide stand one a row, with their key badge at the right; narrower ones stand two a
#: row, without it (the footer says "1-4 tool").
ONE_TOOL_A_ROW = 120


def tool_label_layout(b: Button) -> tuple[int, int]:
    """Where a tool button's label starts (x) and its font size: the label ends inside the button (a narrow
    button, two tools a row, takes a smaller font rather than running over its edge)."""
    icon_right = b.rect.left + 6 + b.rect.height - 8
    if b.rect.width >= ONE_TOOL_A_ROW:
        return icon_right + 10, 26
    x = icon_right + 6
    size = 20
    while size > 12 and hud.text_width(b.label, size) > b.rect.right - 4 - x:
        size -= 1
    return x, size


def _compact_row_height(size: tuple[int, int], top: int, tight: bool) -> int:
    """The palette's row height on a short window, so that every row under ``top`` (the four -/+ pairs,
    physics, the actions two by two) ends above the footer."""
    room = size[1] - footer_height(size[0]) - 8 - top - (4 if tight else 10)
    return max(24, min(31 if tight else 36, room // (5 + COMPACT_ACTION_ROWS)))


def palette_buttons(scene: PaletteHost, size: tuple[int, int]) -> list[Button]:
    """The palette's buttons for a window of ``size`` (rebuilt per call; cheap).

    Rows, columns, N and B each get a label with -/+ buttons on one line; on short
    windows the action buttons go in two columns.
    """
    left, _ = panel_widths(size[0])
    x, w = 14, left - 8
    compact = size[1] < 700
    tight = size[1] < 640  # (800x500, 1024x600: tools two by two, every row a little lower, so all fits above the footer)
    out, y = _tool_buttons(scene, x, w, hud.TOP_BAR + 38, compact, tight)
    y += 24 if tight else 28
    row_h = _compact_row_height(size, y, tight) if compact else 36
    y = _map_buttons(scene, out, (x, y, w), row_h)
    y += 4 if tight else 10
    out += _action_buttons(scene, (x, y, w), row_h if compact else 0)
    return out


def _tool_buttons(scene: PaletteHost, x: int, w: int, y: int, compact: bool,
                  tight: bool) -> tuple[list[Button], int]:
    """One button per tool from ``y`` down (two a row on a ``tight`` window), and the ``y`` under them."""
    out: list[Button] = []
    tool_h = 34 if tight else 36 if compact else 40
    tool_w = (w - 6) // 2 if tight else w
    for k, tool in enumerate(Tool):
        col = k % 2 if tight else 0
        out.append(Button(pygame.Rect(x + col * (tool_w + 6), y, tool_w, tool_h - 4), tool.label,
                          functools.partial(scene.set_tool, tool), key=str(tool.value), active=scene.tool == tool,
                          color=TOOL_COLORS[tool], icon=tool.name))
        if not tight or col == 1:
            y += tool_h
    return out, y


def _map_buttons(scene: PaletteHost, out: list[Button], at: tuple[int, int, int], row_h: int) -> int:
    """Append the -/+ pairs of rows, columns, N and B, then the physics button, to ``out``, one a row from
    ``at`` (x, y, width); returns the ``y`` under them."""
    x, y, w = at
    bw = 34

    def pair(value: str, minus: Callable[[], None], plus: Callable[[], None], keys: tuple[str, str]) -> None:
        nonlocal y
        out.append(Button(pygame.Rect(x + w - 2 * bw - 6, y, bw, row_h - 4), "\u2212", minus, key=keys[0],
                          icon=value))
        out.append(Button(pygame.Rect(x + w - bw, y, bw, row_h - 4), "+", plus, key=keys[1]))
        y += row_h

    d = scene.draft
    pair(f"rows {d.height}", lambda: scene.resize(Edge.BOTTOM, -1), lambda: scene.resize(Edge.BOTTOM, 1),
         ("Up", "Down"))
    pair(f"cols {d.width}", lambda: scene.resize(Edge.RIGHT, -1), lambda: scene.resize(Edge.RIGHT, 1),
         ("Left", "Right"))
    pair(f"frames {d.frames}", lambda: scene.change_frames(-1), lambda: scene.change_frames(1), ("-", "+"))
    pair(f"budget {d.budget}", lambda: scene.change_budget(-1), lambda: scene.change_budget(1), ("[", "]"))
    out.append(Button(pygame.Rect(x, y, w, row_h - 4), f"physics: {scene.model.physics.name}"[:22],
                      scene.cycle_physics, key="K"))
    return y + row_h


def _action_buttons(scene: PaletteHost, at: tuple[int, int, int], compact_row_h: int) -> list[Button]:
    """The action buttons from ``at`` (x, y, width): one a row with its key, or two a row without it, rows
    ``compact_row_h`` apart, when that is not 0."""
    x, y, w = at
    valid = scene.model.valid
    actions: list[tuple[str, str, Callable[[], None], bool]] = [
        ("Play-test", "Space", scene.play_test, valid),
        ("Cancel" if scene.analysing else "Analyse", "A", scene.analyse, valid),
        ("Tighten", "T", scene.tighten, valid),
        ("Save", "Ctrl+S", scene.save, valid),
        ("Open", "Ctrl+O", scene.open_picker, True),
        ("New", "N", scene.new_level, True),
        ("Physics JSON", "J", scene.write_physics, True),
    ]
    out: list[Button] = []
    if compact_row_h:
        half = (w - 6) // 2
        for k, (label, key, run, enabled) in enumerate(actions):
            col, row = k % 2, k // 2
            out.append(Button(pygame.Rect(x + col * (half + 6), y + row * compact_row_h, half, compact_row_h - 5),
                              label, run, enabled=enabled))
    else:
        for label, key, run, enabled in actions:
            out.append(Button(pygame.Rect(x, y, w, 32), label, run, key=key, enabled=enabled))
            y += 37
    return out


def draw_palette(surface: pygame.Surface, scene: PaletteHost, sprites: Sprites) -> None:
    """The palette's panel, its headings and every button of :func:`palette_buttons`."""
    size = surface.get_size()
    left, _ = panel_widths(size[0])
    buttons = palette_buttons(scene, size)
    panel_rect = pygame.Rect(6, hud.TOP_BAR + 8, left + 4, buttons[-1].rect.bottom - hud.TOP_BAR + 4)
    hud.panel(surface, panel_rect, alpha=215)
    hud.blit_text(surface, "TOOLS", (18, hud.TOP_BAR + 15), 20, hud.MUTED)
    hud.blit_text(surface, "wheel: next tool", (left + 2, hud.TOP_BAR + 16), 17, hud.MUTED, anchor="topright")
    first_pair = True
    for b in buttons:
        if b.icon in Tool.__members__:
            _draw_tool_button(surface, b, sprites)
            continue
        if b.label == "\u2212":
            if first_pair:
                hud.blit_text(surface, "MAP", (18, b.rect.top - 22), 20, hud.MUTED)
                first_pair = False
            hud.blit_text(surface, b.icon, (18, b.rect.centery), 24, hud.WHITE, anchor="midleft")
        _draw_plain_button(surface, b, scene.app.mouse_pos)


def _draw_tool_button(surface: pygame.Surface, b: Button, sprites: Sprites) -> None:
    color = b.color or hud.WHITE
    box = pygame.Surface(b.rect.size, pygame.SRCALPHA)
    pygame.draw.rect(box, (color + (70,)) if b.active else (255, 255, 255, 14), box.get_rect(), border_radius=8)
    surface.blit(box, b.rect)
    pygame.draw.rect(surface, color if b.active else hud.PANEL_EDGE, b.rect, 2, border_radius=8)
    icon_size = b.rect.height - 8
    tool = Tool[b.icon]
    names = {Tool.WALL: "wall_top_1", Tool.TARGET: "target_0", Tool.LEMMING: "lem_walk_r_0"}
    icon_rect = pygame.Rect(b.rect.left + 6, b.rect.top + 4, icon_size, icon_size)
    if tool in names:
        surface.blit(sprites.get("bg_0", icon_size), icon_rect)
        surface.blit(sprites.get(names[tool], icon_size), icon_rect)
    else:
        surface.blit(sprites.get("bg_0", icon_size), icon_rect)
        pygame.draw.line(surface, hud.RED, icon_rect.topleft, icon_rect.bottomright, 3)
        pygame.draw.line(surface, hud.RED, icon_rect.bottomleft, icon_rect.topright, 3)
    x, size = tool_label_layout(b)
    hud.blit_text(surface, b.label, (x, b.rect.centery), size, hud.WHITE if b.active else hud.MUTED,
                  anchor="midleft")
    if b.rect.width >= ONE_TOOL_A_ROW:
        hud.badge(surface, b.key, (b.rect.right - 8, b.rect.centery), (210, 200, 240), anchor="midright",
                  size=18)


def _draw_plain_button(surface: pygame.Surface, b: Button, pointer: tuple[int, int] | None) -> None:
    hovered = pointer is not None and b.rect.collidepoint(pointer)
    fill = (60, 50, 96) if hovered and b.enabled else (38, 30, 62)
    pygame.draw.rect(surface, fill, b.rect, border_radius=6)
    edge = hud.GOLD if hovered and b.enabled else hud.PANEL_EDGE
    pygame.draw.rect(surface, edge, b.rect, 1, border_radius=6)
    color = hud.WHITE if b.enabled else (110, 100, 130)
    if b.label in ("\u2212", "+"):
        hud.blit_text(surface, b.label, b.rect.center, 30, color, anchor="center")
        return
    hud.blit_text(surface, b.label, (b.rect.left + 10, b.rect.centery), 24, color, anchor="midleft")
    if b.key:
        t = hud.text(b.key, 18, hud.MUTED if b.enabled else (100, 90, 120), shadow=False)
        surface.blit(t, t.get_rect(midright=(b.rect.right - 8, b.rect.centery)))


__all__ = ["Button", "COMPACT_ACTION_ROWS", "LEFT_W", "ONE_TOOL_A_ROW", "PaletteHost", "RIGHT_W", "TOOL_COLORS",
           "draw_palette", "palette_buttons", "panel_widths", "tool_label_layout"]
