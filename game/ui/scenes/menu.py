"""The title menu.  Other features add entries to :data:`MENU_ENTRIES` (e.g. "Editor", "Endless")."""

from __future__ import annotations

import math
from typing import Callable

import pygame

from game.ui import hud
from game.ui.app import App, Scene
from game.ui.input import Act, Action
from game.ui.render import LevelRenderer

#: ``(label, factory)``: the factory builds the scene to push (or returns None to do nothing).
#: "Play" and "Quit" are always there; entries added here go between them, e.g.
#: ``MENU_ENTRIES.append(("Editor", lambda app: EditorScene(app)))``.
MENU_ENTRIES: list[tuple[str, Callable[[App], Scene | None]]] = []


def _play(app: App) -> Scene:
    from game.ui.scenes.select import LevelSelectScene

    return LevelSelectScene(app)


class MenuScene(Scene):
    """Title screen with a vertical menu."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.cursor = 0
        self.anim = 0.0
        self.renderer = LevelRenderer()

    def items(self) -> list[tuple[str, Callable[[App], Scene | None] | None]]:
        """The menu entries in order (a None factory quits)."""
        return [("Play", _play), *MENU_ENTRIES, ("Quit", None)]

    def _item_rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        w, h = size
        n = len(self.items())
        y0 = max(int(h * 0.48), int(h * 0.2) + 200)
        return [pygame.Rect(w // 2 - 140, y0 + i * 62, 280, 50) for i in range(n)]

    def activate(self, i: int) -> None:
        """Run menu entry ``i``."""
        items = self.items()
        if not 0 <= i < len(items):
            return
        factory = items[i][1]
        if factory is None:
            self.app.quit()
            return
        scene = factory(self.app)
        if scene is not None:
            self.app.push(scene)

    def handle_event(self, action: Action) -> None:
        """Up/Down, Enter, click, Esc (quit)."""
        n = len(self.items())
        k = action.kind
        if k == Act.UP:
            self.cursor = (self.cursor - 1) % n
        elif k == Act.DOWN:
            self.cursor = (self.cursor + 1) % n
        elif k in (Act.CONFIRM, Act.TOGGLE_RUN):
            self.activate(self.cursor)
        elif k == Act.BACK:
            self.app.quit()
        elif k in (Act.CLICK, Act.HOVER) and action.pos is not None:
            for i, rect in enumerate(self._item_rects(self.app.screen.get_size())):
                if rect.collidepoint(action.pos):
                    self.cursor = i
                    if k == Act.CLICK:
                        self.activate(i)

    def update(self, dt: float) -> None:
        """Animate the marching lemmings."""
        self.anim += dt

    def draw(self, surface: pygame.Surface) -> None:
        """Logo, menu, a parade of lemmings."""
        self.renderer.draw_background(surface)
        w, h = surface.get_size()
        sp = self.renderer.sprites
        # the logo: a row of bricks under the title
        title_y = int(h * 0.2)
        hud.blit_text(surface, "LEMMING BRICKS", (w // 2, title_y), 96, hud.GOLD, anchor="center")
        hud.blit_text(surface, "place the bricks, save the lemmings", (w // 2, title_y + 62), 30, hud.MUTED,
                      anchor="center")
        bsize = 40
        n = 9
        bx0 = w // 2 - n * bsize // 2
        by = title_y + 140
        for i in range(n):
            surface.blit(sp.get("brick", bsize), (bx0 + i * bsize, by))
        walker_x = bx0 + int((self.anim * 50) % (n * bsize - bsize))
        surface.blit(sp.get(f"lem_walk_r_{int(self.anim * 8) % 4}", bsize), (walker_x, by - bsize))
        cell = 48
        ground_y = h - hud.BOTTOM_BAR - cell
        for gx in range(0, w + cell, cell):
            surface.blit(sp.get(f"wall_top_{(gx // cell) % 4}", cell), (gx, ground_y))
        for k in range(4):
            x = ((self.anim * 60 + k * w / 4) % (w + cell)) - cell  # float
            frame = int(self.anim * 8 + k) % 4
            surface.blit(sp.get(f"lem_walk_r_{frame}", cell), (int(x), ground_y - cell))
        door = sp.get(f"target_{int(self.anim * 4) % 2}", cell)
        surface.blit(door, (w - cell * 2, ground_y - cell))
        for i, (rect, (label, _)) in enumerate(zip(self._item_rects((w, h)), self.items())):
            sel = i == self.cursor
            hud.panel(surface, rect, alpha=240 if sel else 190, edge=hud.GOLD if sel else hud.PANEL_EDGE)
            hud.blit_text(surface, label, rect.center, 36, hud.GOLD if sel else hud.WHITE, anchor="center")
            if sel:
                bob = int(math.sin(self.anim * 6) * 3)
                surface.blit(sp.get("lem_walk_r_0", 40), (rect.left - 48 + bob, rect.centery - 20))
        hud.hint_bar(surface, [("Up/Down", "choose"), ("Enter", "select"), ("Esc", "quit")])
