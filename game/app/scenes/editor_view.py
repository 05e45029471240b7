"""How the level editor looks: the board with its grid, the top bar, and the whole frame.
:class:`EditorView` draws an :class:`~game.app.scenes.editor.EditorScene` and only reads it (it keeps its own
caches of the terrain and the grid); the palette on the left is drawn by
:mod:`game.app.scenes.editor_palette`, the analysis and file panel on the right by
:class:`~game.app.scenes.editor_panel.SidePanel`.
"""

from __future__ import annotations

from typing import Protocol

import pygame

from ai.facade import AnalysisStatus
from game.core.editor_draft import Draft
from game.core.editor_model import Tool
from game.core.level import Brick
from game.core.level_text import LEMMING_LEFT, LEMMING_RIGHT, TARGET
from game.app import hud
from game.app.render import BoardLayout, LevelRenderer, fit_layout, paint_terrain
from game.app.scenes.editor_help import draw_footer
from game.app.scenes.editor_palette import TOOL_COLORS, PaletteHost, draw_palette
from game.app.scenes.editor_panel import PanelHost, SidePanel


class EditorSceneView(PaletteHost, PanelHost, Protocol):
    """What the editor's view reads of the editor scene, and the actions its buttons call (the view never
    changes the scene itself)."""

    @property
    def renderer(self) -> LevelRenderer: ...
    @property
    def hover(self) -> Brick | None: ...
    @property
    def grid_on(self) -> bool: ...
    @property
    def message(self) -> str: ...
    @property
    def message_color(self) -> tuple[int, int, int]: ...
    def status_now(self) -> AnalysisStatus | None: ...
    def board_area(self, size: tuple[int, int]) -> pygame.Rect: ...


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
        self.panel = SidePanel(scene)  #: the right panel (analysis, rating, file)

    def draw(self, surface: pygame.Surface) -> None:
        """Backdrop, board, palette, analysis panel, top bar, hints."""
        scene = self.scene
        scene.renderer.draw_background(surface)
        size = surface.get_size()
        layout = fit_layout(scene.draft.height, scene.draft.width, scene.board_area(size), max_cell=64)
        self._draw_board(surface, layout)
        self._draw_directions(surface, layout)
        draw_palette(surface, scene, self.sprites)
        self.panel.draw(surface)
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
        shown = self.scene.solutions.shown()
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
        while len(title) > 3 and hud.text_width(title, 34) > rx - x:
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


__all__ = ["direction_arrow", "draw_direction", "EditorView"]
