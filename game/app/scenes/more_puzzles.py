"""The "More puzzles" screen: the side puzzles of the app's registry (``app.registry.puzzles``).

Up/Down (or the mouse) choose, Enter or a click opens the puzzle (by its key, ``app.open("pegs")``),
Esc goes back.  The title menu's "More puzzles" entry (:data:`MENU_LABEL`) is registered by the
composition root (:mod:`game.app.compose`).
"""

from __future__ import annotations

import pygame

from game.app import hud
from game.app.app import App, PuzzleEntry, Scene
from game.app.input import Act, Action
from game.app.render import LevelRenderer

#: The title-menu label.
MENU_LABEL = "More puzzles"


class MorePuzzlesScene(Scene):
    """A list of puzzles with a blurb under the chosen one (``entries``: default, the registry's)."""

    def __init__(self, app: App, entries: tuple[PuzzleEntry, ...] | None = None) -> None:
        super().__init__(app)
        self.puzzles: tuple[PuzzleEntry, ...] = entries if entries is not None else app.registry.puzzles
        self.cursor = 0
        self.renderer = LevelRenderer()

    def _rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        top = hud.TOP_BAR + 40
        bottom = size[1] - hud.BOTTOM_BAR - 90
        return hud.menu_rects(size, len(self.puzzles), top, bottom, width=420)

    def open(self, i: int) -> None:
        """Open puzzle ``i``."""
        if 0 <= i < len(self.puzzles):
            self.app.open(self.puzzles[i].key)

    def handle_event(self, action: Action) -> None:
        """Up/Down, Enter, click, Esc."""
        k = action.kind
        n = len(self.puzzles)
        if k == Act.BACK:
            self.app.pop()
        elif n and k == Act.UP:
            self.cursor = (self.cursor - 1) % n
        elif n and k == Act.DOWN:
            self.cursor = (self.cursor + 1) % n
        elif n and k in (Act.CONFIRM, Act.TOGGLE_RUN):
            self.open(self.cursor)
        elif k in (Act.CLICK, Act.HOVER) and action.pos is not None:
            for i, rect in enumerate(self._rects(self.app.screen.get_size())):
                if rect.collidepoint(action.pos):
                    self.cursor = i
                    if k == Act.CLICK:
                        self.open(i)

    def draw(self, surface: pygame.Surface) -> None:
        """Title, the list, the chosen puzzle's blurb."""
        self.renderer.draw_background(surface)
        w, h = surface.get_size()
        hud.top_bar(surface)
        hud.blit_text(surface, MENU_LABEL, (20, hud.TOP_BAR // 2), 36, hud.GOLD, anchor="midleft")
        if not self.puzzles:
            hud.blit_text(surface, "No puzzles are installed.", (w // 2, h // 2), 30, hud.WHITE, anchor="center")
        else:
            labels = [entry.title for entry in self.puzzles]
            hud.menu_list(surface, labels, self.cursor, hud.TOP_BAR + 40, h - hud.BOTTOM_BAR - 90, width=420)
            blurb = self.puzzles[self.cursor].blurb
            for i, line in enumerate(hud.wrap_text(blurb, 24, w - 80, 2)):
                hud.blit_text(surface, line, (w // 2, h - hud.BOTTOM_BAR - 74 + 28 * i), 24, hud.MUTED,
                              anchor="midtop")
        hud.hint_bar(surface, [("Up/Down", "choose"), ("Enter", "play"), ("Esc", "back")])
