"""How the level editor looks: the board with its grid, the palette's buttons, the analysis and file
panel, the top bar.  :class:`EditorView` draws an :class:`~game.app.scenes.editor.EditorScene` and only
reads it (it keeps its own caches of the terrain and the grid); :func:`palette_buttons` lays out the
buttons for both drawing and clicking.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, Protocol

import pygame

from ai.facade import Analysis, AnalysisStatus
from game.core.editor_draft import Draft, Edge
from game.core.editor_model import EditorModel, Tool
from game.core.level import Brick, Level
from game.core.level_text import LEMMING_LEFT, LEMMING_RIGHT, TARGET
from game.app import hud
from game.app.app import App
from game.app.render import BoardLayout, LevelRenderer, fit_layout, paint_terrain
from game.app.scenes.editor_analysis import EditorAnalysis
from game.app.scenes.editor_help import draw_footer, footer_height


class EditorSceneView(Protocol):
    """What the editor's view reads of the editor scene, and the actions its buttons call (the view never
    changes the scene itself)."""

    @property
    def app(self) -> App: ...
    @property
    def model(self) -> EditorModel: ...
    @property
    def renderer(self) -> LevelRenderer: ...
    @property
    def analyser(self) -> EditorAnalysis: ...
    @property
    def draft(self) -> Draft: ...
    @property
    def tool(self) -> Tool: ...
    @property
    def hover(self) -> Brick | None: ...
    @property
    def grid_on(self) -> bool: ...
    @property
    def show_solution(self) -> bool: ...
    @property
    def panel_scroll(self) -> int: ...
    def shown_solution(self) -> tuple[Brick, ...]: ...
    def solution_label(self) -> str: ...
    @property
    def anim(self) -> float: ...
    @property
    def message(self) -> str: ...
    @property
    def message_color(self) -> tuple[int, int, int]: ...
    @property
    def analysis(self) -> Analysis | None: ...
    @property
    def analysing(self) -> bool: ...
    @property
    def analysis_error(self) -> str: ...
    def analysis_current(self) -> bool: ...
    def analysis_stale(self) -> bool: ...
    def status_now(self) -> AnalysisStatus | None: ...
    def board_area(self, size: tuple[int, int]) -> pygame.Rect: ...
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
#: Text size of the rating lines in the analysis panel.
RATING_SIZE = 18
#: Rows of action buttons on a short window (seven actions, two a row).
COMPACT_ACTION_ROWS = 4
#: The colour of an analysis of the level as it was before a change.
STALE = (120, 112, 140)

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


Line = tuple[str, int, tuple[int, int, int]]


def line_advance(size: int) -> int:
    """Pixels from one line of the right panel to the next for text of ``size``."""
    return size + 8


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
    while size > 12 and hud.text(b.label, size).get_width() > b.rect.right - 4 - x:
        size -= 1
    return x, size


def _compact_row_height(size: tuple[int, int], top: int, tight: bool) -> int:
    """The palette's row height on a short window, so that every row under ``top`` (the four -/+ pairs,
    physics, the actions two by two) ends above the footer."""
    room = size[1] - footer_height(size[0]) - 8 - top - (4 if tight else 10)
    return max(24, min(31 if tight else 36, room // (5 + COMPACT_ACTION_ROWS)))


def palette_buttons(scene: EditorSceneView, size: tuple[int, int]) -> list[Button]:
    """The palette's buttons for a window of ``size`` (rebuilt per call; cheap).

    Rows, columns, N and B each get a label with -/+ buttons on one line; on short
    windows the action buttons go in two columns.
    """
    left, _ = panel_widths(size[0])
    x, w = 14, left - 8
    compact = size[1] < 700
    tight = size[1] < 640  # (800x500, 1024x600: tools two by two, every row a little lower, so all fits above the footer)
    y = hud.TOP_BAR + 38
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
    y += 24 if tight else 28
    bw = 34
    row_h = _compact_row_height(size, y, tight) if compact else 36

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
    y += row_h + (4 if tight else 10)
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
    if compact:
        half = (w - 6) // 2
        for k, (label, key, run, enabled) in enumerate(actions):
            col, row = k % 2, k // 2
            out.append(Button(pygame.Rect(x + col * (half + 6), y + row * row_h, half, row_h - 5), label, run,
                              enabled=enabled))
    else:
        for label, key, run, enabled in actions:
            out.append(Button(pygame.Rect(x, y, w, 32), label, run, key=key, enabled=enabled))
            y += 37
    return out


def direction_arrow(rect: pygame.Rect, right: bool) -> list[tuple[int, int]]:
    """The corners of the arrow drawn on a lemming in ``rect``: a triangle at the top of the cell on the
    side it walks to, pointing that way."""
    size = max(5, rect.width // 3)
    tip_x = rect.right - 2 if right else rect.left + 2
    base_x = tip_x - size if right else tip_x + size
    cy = rect.top + size // 2 + 2
    return [(tip_x, cy), (base_x, cy - size // 2), (base_x, cy + size // 2)]


def draw_direction(surface: pygame.Surface, rect: pygame.Rect, *, right: bool) -> None:
    """The arrow of :func:`direction_arrow`, gold with a dark edge."""
    points = direction_arrow(rect, right)
    pygame.draw.polygon(surface, hud.GOLD, points)
    pygame.draw.polygon(surface, (16, 12, 24), points, 1)


class EditorView:
    """Draws one editor scene (see the module docstring)."""

    def __init__(self, scene: EditorSceneView) -> None:
        self.scene = scene
        self.sprites = scene.renderer.sprites
        self._terrain: tuple[tuple[object, ...], pygame.Surface] | None = None
        self._grid_overlay: tuple[tuple[int, int, int], pygame.Surface] | None = None

    def draw(self, surface: pygame.Surface) -> None:
        """Backdrop, board, palette, analysis panel, top bar, hints."""
        scene = self.scene
        scene.renderer.draw_background(surface)
        size = surface.get_size()
        layout = fit_layout(scene.draft.height, scene.draft.width, scene.board_area(size), max_cell=64)
        self._draw_board(surface, layout)
        self._draw_directions(surface, layout)
        self._draw_palette(surface)
        self._draw_side(surface)
        self._draw_top(surface)
        draw_footer(surface)

    def _terrain_surface(self, d: Draft, cell: int) -> pygame.Surface:
        key = (d.grid, cell)
        if self._terrain is None or self._terrain[0] != key:
            self._terrain = (key, paint_terrain(d.grid, cell, self.sprites))
        return self._terrain[1]

    def _grid_surface(self, rows: int, cols: int, cell: int) -> pygame.Surface:
        key = (rows, cols, cell)
        if self._grid_overlay is not None and self._grid_overlay[0] == key:
            return self._grid_overlay[1]
        surf = pygame.Surface((cols * cell, rows * cell), pygame.SRCALPHA)
        for c in range(1, cols):
            strong = c % 5 == 0
            pygame.draw.line(surf, (255, 255, 255, 70 if strong else 34), (c * cell, 0), (c * cell, rows * cell))
        for r in range(1, rows):
            strong = r % 5 == 0
            pygame.draw.line(surf, (255, 255, 255, 70 if strong else 34), (0, r * cell), (cols * cell, r * cell))
        self._grid_overlay = (key, surf)
        return surf

    def _draw_board(self, surface: pygame.Surface, layout: BoardLayout) -> None:
        d = self.scene.draft
        cell = layout.cell
        board = layout.rect
        pygame.draw.rect(surface, (8, 6, 14), board.inflate(12, 12).move(4, 6), border_radius=6)
        pygame.draw.rect(surface, (16, 12, 26), board.inflate(8, 8), border_radius=4)
        surface.blit(self._terrain_surface(d, cell), layout.origin)
        door = self.sprites.get(f"target_{int(self.scene.anim * 4) % 2}", cell)
        bob = int(self.scene.anim * 2) % 2
        for r, row in enumerate(d.grid):
            for c, ch in enumerate(row):
                if ch == TARGET:
                    surface.blit(door, layout.cell_rect(r, c))
                elif ch in (LEMMING_LEFT, LEMMING_RIGHT):
                    name = f"lem_walk_{'r' if ch == LEMMING_RIGHT else 'l'}_{bob}"
                    surface.blit(self.sprites.get(name, cell), layout.cell_rect(r, c))
        shown = self.scene.shown_solution()
        if shown:
            ghost = self.sprites.get("brick", cell).copy()
            ghost.set_alpha(150)
            for r, c in shown:
                surface.blit(ghost, layout.cell_rect(r, c))
        if self.scene.grid_on and cell >= 6:
            surface.blit(self._grid_surface(d.height, d.width, cell), layout.origin)
        # coordinates along the edges
        if self.scene.grid_on and cell >= 18:
            for c in range(d.width):
                if c % 5 == 0 or d.width <= 16:
                    hud.blit_text(surface, str(c), (layout.cell_rect(0, c).centerx, board.top - 6), 18, hud.MUTED,
                                  anchor="midbottom")
            for r in range(d.height):
                if r % 5 == 0 or d.height <= 16:
                    hud.blit_text(surface, str(r), (board.left - 8, layout.cell_rect(r, 0).centery), 18, hud.MUTED,
                                  anchor="midright")
        if self.scene.hover is not None and self.scene.model.in_bounds(self.scene.hover):
            self._draw_hover(surface, layout, self.scene.hover)

    def _draw_directions(self, surface: pygame.Surface, layout: BoardLayout) -> None:
        """An arrow on each lemming, the way it walks; over a lemming the Lemming tool turns round, a
        note says so."""
        d = self.scene.draft
        for r, row in enumerate(d.grid):
            for c, ch in enumerate(row):
                if ch in (LEMMING_LEFT, LEMMING_RIGHT):
                    draw_direction(surface, layout.cell_rect(r, c), right=ch == LEMMING_RIGHT)
        hover = self.scene.hover
        if (hover is not None and self.scene.tool == Tool.LEMMING and self.scene.model.in_bounds(hover)
                and d.char_at(hover) in (LEMMING_LEFT, LEMMING_RIGHT)):
            rect = layout.cell_rect(*hover)
            tip = hud.text("click: turn round", 20, hud.WHITE)
            box = tip.get_rect(midbottom=(rect.centerx, rect.top - 6)).inflate(12, 6)
            box.clamp_ip(self.scene.board_area(surface.get_size()).inflate(24, 40))  # clear of the panels
            hud.panel(surface, box, alpha=235)
            surface.blit(tip, tip.get_rect(center=box.center))

    def _draw_hover(self, surface: pygame.Surface, layout: BoardLayout, cell: Brick) -> None:
        rect = layout.cell_rect(*cell)
        color = TOOL_COLORS[self.scene.tool]
        if self.scene.tool == Tool.WALL:
            ghost = self.sprites.get("wall_top_0", layout.cell).copy()
        elif self.scene.tool == Tool.TARGET:
            ghost = self.sprites.get("target_0", layout.cell).copy()
        elif self.scene.tool == Tool.LEMMING:
            here = self.scene.draft.char_at(cell)
            facing = "l" if here == LEMMING_RIGHT else "r"
            ghost = self.sprites.get(f"lem_walk_{facing}_0", layout.cell).copy()
        else:
            ghost = None
        if ghost is not None:
            ghost.set_alpha(140)
            surface.blit(ghost, rect)
        else:
            veil = pygame.Surface(rect.size, pygame.SRCALPHA)
            veil.fill((255, 60, 60, 70))
            surface.blit(veil, rect)
        pygame.draw.rect(surface, color, rect, max(2, layout.cell // 14))

    # ---------------------------------------------------------------- panels
    def _draw_palette(self, surface: pygame.Surface) -> None:
        size = surface.get_size()
        left, _ = panel_widths(size[0])
        buttons = palette_buttons(self.scene, size)
        panel_rect = pygame.Rect(6, hud.TOP_BAR + 8, left + 4, buttons[-1].rect.bottom - hud.TOP_BAR + 4)
        hud.panel(surface, panel_rect, alpha=215)
        hud.blit_text(surface, "TOOLS", (18, hud.TOP_BAR + 15), 20, hud.MUTED)
        hud.blit_text(surface, "wheel: next tool", (left + 2, hud.TOP_BAR + 16), 17, hud.MUTED, anchor="topright")
        first_pair = True
        for b in buttons:
            if b.icon in Tool.__members__:
                self._draw_tool_button(surface, b)
                continue
            if b.label == "\u2212":
                if first_pair:
                    hud.blit_text(surface, "MAP", (18, b.rect.top - 22), 20, hud.MUTED)
                    first_pair = False
                hud.blit_text(surface, b.icon, (18, b.rect.centery), 24, hud.WHITE, anchor="midleft")
            self._draw_plain_button(surface, b)

    def _draw_tool_button(self, surface: pygame.Surface, b: Button) -> None:
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
            surface.blit(self.sprites.get("bg_0", icon_size), icon_rect)
            surface.blit(self.sprites.get(names[tool], icon_size), icon_rect)
        else:
            surface.blit(self.sprites.get("bg_0", icon_size), icon_rect)
            pygame.draw.line(surface, hud.RED, icon_rect.topleft, icon_rect.bottomright, 3)
            pygame.draw.line(surface, hud.RED, icon_rect.bottomleft, icon_rect.topright, 3)
        x, size = tool_label_layout(b)
        hud.blit_text(surface, b.label, (x, b.rect.centery), size, hud.WHITE if b.active else hud.MUTED,
                      anchor="midleft")
        if b.rect.width >= ONE_TOOL_A_ROW:
            hud.badge(surface, b.key, (b.rect.right - 8, b.rect.centery), (210, 200, 240), anchor="midright",
                      size=18)

    def _draw_plain_button(self, surface: pygame.Surface, b: Button) -> None:
        hovered = self.scene.app.mouse_pos is not None and b.rect.collidepoint(self.scene.app.mouse_pos)
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

    def side_panel(self, size: tuple[int, int]) -> tuple[pygame.Rect, list[Line]]:
        """The right panel's rectangle and every line it holds, in a window of ``size``."""
        w, h = size
        _, right = panel_widths(w)
        if right == 0:  # narrow window: an overlay with the analysis alone
            return pygame.Rect(w - 250, h - footer_height(w) - 150, 240, 140), self.analysis_lines(240)
        lines = self.side_lines(right)
        rect = pygame.Rect(w - right - 8, hud.TOP_BAR + 8, right, 0)
        rect.height = min(24 + sum(line_advance(size) for _, size, _ in lines),
                          h - hud.TOP_BAR - footer_height(w) - 16)
        return rect, lines

    def visible_side_lines(self, size: tuple[int, int]) -> tuple[list[Line], bool, bool]:
        """The panel's lines shown from the scene's ``panel_scroll`` on: (lines, more above, more below)."""
        rect, lines = self.side_panel(size)
        room = rect.height - 24
        last_start = len(lines)  # the first line from which the rest fits: scrolling stops there
        while last_start > 0 and sum(line_advance(z) for _, z, _ in lines[last_start - 1:]) <= room - 18:
            last_start -= 1
        first = max(0, min(self.scene.panel_scroll, last_start))
        shown: list[Line] = []
        used = 0
        for line in lines[first:]:
            if used + line_advance(line[1]) > room - (18 if first else 0):
                break
            shown.append(line)
            used += line_advance(line[1])
        return shown, first > 0, first + len(shown) < len(lines)

    def _draw_side(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        _, right = panel_widths(w)
        if right == 0 and self.scene.analysis is None and not self.scene.analysing and not self.scene.analysis_error \
                and self.scene.model.valid:
            return  # narrow window: the overlay only when there is something to say
        rect, _ = self.side_panel((w, h))
        shown, above, below = self.visible_side_lines((w, h))
        hud.panel(surface, rect, alpha=215)
        y = rect.top + 12
        if above:
            hud.blit_text(surface, "more above (wheel)", (rect.right - 10, rect.top + 4), 16, hud.MUTED,
                          anchor="topright")
            y += 18
        for text, size, color in shown:
            if text:
                hud.blit_text(surface, text, (rect.left + 14, y), size, color)
            y += line_advance(size)
        if below:
            hud.blit_text(surface, "more below: scroll here", (rect.right - 10, rect.bottom - 4), 16, hud.GOLD,
                          anchor="bottomright")

    def side_lines(self, panel_width: int = RIGHT_W) -> list[tuple[str, int, tuple[int, int, int]]]:
        """The right panel's lines (for a panel ``panel_width`` wide): the analysis, the rating, then the file."""
        rating = self.rating_lines(panel_width)
        gap: list[tuple[str, int, tuple[int, int, int]]] = [("", 4, hud.MUTED)]
        return self.analysis_lines(panel_width) + (gap + rating if rating else []) + gap + self.file_lines()

    def rating_lines(self, panel_width: int = RIGHT_W) -> list[tuple[str, int, tuple[int, int, int]]]:
        """The rating of the analysed level (:meth:`ai.facade.Rating.lines`), wrapped to the panel."""
        analyser = self.scene.analyser
        if self.scene.analysing or not self.scene.analysis_current():
            return []
        if analyser.rating is None:
            return [(analyser.rating_note, RATING_SIZE, hud.MUTED)] if analyser.rating_note else []
        width = max(120, panel_width - 28)
        out: list[tuple[str, int, tuple[int, int, int]]] = [("RATING", 20, hud.MUTED)]
        for k, line in enumerate(analyser.rating.lines()):
            color = hud.GOLD if k == 0 else hud.WHITE
            out += [(part, RATING_SIZE, color) for part in hud.wrap_text(line, RATING_SIZE, width, max_lines=3)]
        return out

    def file_lines(self) -> list[tuple[str, int, tuple[int, int, int]]]:
        out: list[tuple[str, int, tuple[int, int, int]]] = [("FILE", 20, hud.MUTED)]
        m = self.scene.model
        if m.path is not None:
            out.append((m.path.name[:30], 22, hud.WHITE))
            out.append(("unsaved changes" if m.dirty else "saved", 21, hud.GOLD if m.dirty else hud.GREEN))
        else:
            if m.source:
                out.append((f"from {m.source}"[:32], 21, hud.WHITE))
                out.append(("Ctrl+S saves a copy", 21, hud.MUTED))
            else:
                out.append(("new level, not saved yet", 21, hud.WHITE))
            out.append(("in your levels folder", 21, hud.MUTED))
        return out

    def analysis_lines(self, panel_width: int = RIGHT_W) -> list[tuple[str, int, tuple[int, int, int]]]:
        """The analysis part of the right panel: progress, the verdict and its figures, why a level has no
        solution; an analysis of the level as it was before a change is greyed under a note."""
        out: list[tuple[str, int, tuple[int, int, int]]] = [("ANALYSIS", 20, hud.MUTED)]
        problems = self.scene.model.problems()
        if problems:
            out.append(("Not playable yet:", 24, hud.RED))
            out += [("\u2022 " + p.split(" (")[0], 21, hud.WHITE) for p in problems]
            return out
        if self.scene.analysing:
            dots = "." * (1 + int(self.scene.anim * 3) % 3)
            secs = self.scene.analyser.elapsed
            out.append((f"analysing{dots}", 26, hud.BLUE))
            out.append((f"{secs:.1f} s \u2014 A cancels", 21, hud.MUTED))
            progress = self.scene.analyser.progress
            if progress:
                out.append((progress, 20, hud.MUTED))
            return out
        if self.scene.analysis_error:
            out.append(("analysis failed", 26, hud.RED))
            out.append(("details in errors.log", 20, hud.MUTED))
            return out
        a = self.scene.analysis
        if a is None:
            out.append(("press A to analyse", 24, hud.WHITE))
            out.append(("min bricks, solutions,", 21, hud.MUTED))
            out.append(("fewest frames", 21, hud.MUTED))
            return out
        width = max(120, panel_width - 28)
        if not self.scene.analysis_current():
            out.append(("changed since analysis:", 22, hud.GOLD))
            out.append(("press A", 22, hud.GOLD))
            out += [(text, size, STALE) for text, size, _ in self.result_lines(a, a.level, width, stale=True)]
        else:
            out += self.result_lines(a, self.scene.draft, width)
        return [(part, size, color) for text, size, color in out
                for part in hud.wrap_text(text, size, width, max_lines=3)]

    def result_lines(self, a: Analysis, d: Draft | Level, width: int,
                     stale: bool = False) -> list[tuple[str, int, tuple[int, int, int]]]:
        """The verdict and figures of ``a`` for the level ``d`` (N, B) it is about, wrapped to ``width``."""
        out: list[tuple[str, int, tuple[int, int, int]]] = []
        status = a.status if a.min_bricks is None else (
            AnalysisStatus.OK if a.min_bricks <= d.budget else AnalysisStatus.OVER_BUDGET)
        if status == AnalysisStatus.OK:
            out.append(("SOLVABLE", 30, hud.GREEN))
            out.append((f"within budget B = {d.budget}", 22, hud.WHITE))
        elif status == AnalysisStatus.OVER_BUDGET:
            out.append(("UNSOLVABLE", 30, hud.RED))
            out.append((f"within budget B = {d.budget}", 22, hud.RED))
        elif status == AnalysisStatus.UNSOLVABLE:
            out.append(("UNSOLVABLE", 30, hud.RED))
            out.append((f"in N = {d.frames} frames, any budget", 22, hud.RED))
            for reason in a.reasons[:3]:
                out.append(("\u2022 " + reason, 20, hud.WHITE))
        else:
            out.append((a.headline(), 24, hud.GOLD))
        if a.min_bricks is not None:
            out.append((f"minimum bricks: {a.min_bricks}", 24, hud.WHITE))
            if a.complete:
                kind = "unique" if a.solution_count == 1 else "not unique"
                out.append((f"optimal solutions: {a.solution_count}", 24, hud.WHITE))
                out.append((f"({kind})", 21, hud.GREEN if a.solution_count == 1 else hud.MUTED))
            else:
                out.append((f"optimal solutions: \u2265 {a.solution_count}", 24, hud.WHITE))
            ff = "?" if a.fewest_frames is None else str(a.fewest_frames)
            bound = "" if a.frames_proved else "\u2264 "
            out.append((f"fewest frames: {bound}{ff}", 24, hud.WHITE))
            if not stale:
                tight = a.fewest_frames == d.frames and a.min_bricks == d.budget
                out.append(("tight" if tight else "T: tighten to N=%s, B=%d" % (ff, a.min_bricks), 21,
                            hud.GREEN if tight else hud.GOLD))
                several = len(a.solutions) > 1
                if self.scene.show_solution:
                    out.append((self.scene.solution_label() + ", V hides it", 21, hud.BLUE))
                    out += [("the , and . keys show the others", 20, hud.MUTED)] if several else []
                else:
                    out.append(("V: show a solution" + (" (then , and . the others)" if several else ""), 21,
                                hud.MUTED))
        out.append((f"{a.seconds:.2f} s", 20, hud.MUTED))
        return out

    def _draw_top(self, surface: pygame.Surface) -> None:
        w = surface.get_width()
        bar = hud.top_bar(surface)
        d = self.scene.draft
        label, color = self.badge()
        badge = hud.badge(surface, label, (w - 14, bar.centery), color, anchor="midright", size=24)
        stats = [(f"{d.height} x {d.width}", hud.MUTED), (f"N {d.frames}", hud.WHITE), (f"B {d.budget}", hud.GOLD),
                 (f"{d.count(LEMMING_LEFT + LEMMING_RIGHT)} lem \u00b7 {d.count(TARGET)} exit", hud.GREEN)]
        rx = badge.left - 18
        x = 14
        hud.badge(surface, "EDITOR", (x, bar.centery), hud.BLUE, anchor="midleft", size=24)
        x += 100
        for label, color in stats:
            width = hud.text(label, 26).get_width()
            if rx - width < x + 160:
                break
            r = hud.blit_text(surface, label, (rx, bar.centery), 26, color, anchor="midright")
            rx = r.left - 20
        title = (d.title or "Untitled") + (" *" if self.scene.model.dirty else "")
        while len(title) > 3 and hud.text(title, 34).get_width() > rx - x:
            title = title[:-3] + "\u2026"
        hud.blit_text(surface, title, (x, bar.centery), 34, hud.WHITE, anchor="midleft")
        if self.scene.message:
            area = self.scene.board_area(surface.get_size())
            parts = hud.wrap_text(self.scene.message, 24, max(160, area.width - 10), max_lines=3)
            texts = [hud.text(part, 24, self.scene.message_color) for part in parts]
            rect = pygame.Rect(0, 0, max(t.get_width() for t in texts), sum(t.get_height() for t in texts))
            rect.midtop = (area.centerx, hud.TOP_BAR + 6)
            hud.panel(surface, rect.inflate(20, 8), alpha=235)
            y = rect.top
            for t in texts:
                surface.blit(t, t.get_rect(midtop=(rect.centerx, y)))
                y += t.get_height()

    def badge(self) -> tuple[str, tuple[int, int, int]]:
        """The top bar's badge: DRAFT (not playable yet), UNSOLVABLE (known to have no solution within its
        limits), READY (analysed and solvable within them), else UNCHECKED."""
        scene = self.scene
        if not scene.model.valid:
            return "DRAFT", hud.GOLD
        status = scene.status_now()
        if status in (AnalysisStatus.UNSOLVABLE, AnalysisStatus.OVER_BUDGET):
            return "UNSOLVABLE", hud.RED
        if status == AnalysisStatus.OK:
            return "READY", hud.GREEN
        return "UNCHECKED", hud.GOLD


__all__ = ["Button", "direction_arrow", "draw_direction", "EditorView", "TOOL_COLORS", "palette_buttons", "panel_widths",
           "tool_label_layout"]
