"""The title menu: Continue, Levels, the entries of the app's registry, Settings and Quit.

The entries after "Levels" (e.g. "Editor", "Endless") are ``app.registry.menu_entries``, filled by the
composition root (:mod:`game.app.compose`); each opens a scene by name.  "Continue"
opens the level the player was on (remembered across relaunches, with its bricks), or the
next unsolved one, in an open world only; it opens it as the level select does, so leaving the level lands
there.  U opens the
level select at the player's own levels.
"""

from __future__ import annotations

import math
from typing import Callable

import pygame

from game.core.resume import continue_index
from game.app import hud
from game.app.app import App, Scene
from game.core.catalog import LevelEntry, all_entries, entry_badge
from game.app.input import Act, Action
from game.app.render import LevelRenderer
from game.app.world_unlock import locked_entries
from game.app.sound import Sfx


def _opens(name: str) -> Callable[[App], Scene | None]:
    """The entry action that builds the scene registered as ``name``."""
    def build(app: App) -> Scene | None:
        scene: Scene = app.make(name)
        return scene
    return build


class MenuScene(Scene):
    """Title screen with a vertical menu."""

    def __init__(self, app: App, entries: list[LevelEntry] | None = None) -> None:
        super().__init__(app)
        self.cursor = 0
        self.anim = 0.0
        self.renderer = LevelRenderer()
        self._entries = entries
        self.continue_to: int | None = None  #: index in :meth:`level_entries` that Continue opens
        self._continue_label = ""
        self.confirming = False  #: showing "Quit Lemming Bricks?"
        self.on_enter()

    def level_entries(self) -> list[LevelEntry]:
        """The levels Continue chooses from (loaded once)."""
        if self._entries is None:
            self._entries = all_entries()
        return self._entries

    def on_enter(self) -> None:
        """Work out what Continue opens (progress may have changed)."""
        entries = self.level_entries()
        solved = [self.app.progress.is_solved(e.key, e.level) for e in entries]
        locked = locked_entries(entries, solved)  # Continue opens only what the level select would
        self.continue_to = continue_index([e.key for e in entries], solved, self.app.resume.last_key, locked)
        if self.continue_to is not None:
            entry = entries[self.continue_to]
            self._continue_label = f"{entry_badge(entries, self.continue_to)}  {entry.title}"
        self.app.sound.start_music()

    def items(self) -> list[tuple[str, Callable[[App], Scene | None] | None]]:
        """The menu entries in order (a None factory quits)."""
        head: list[tuple[str, Callable[[App], Scene | None] | None]] = []
        if self.continue_to is not None:
            head.append(("Continue", self._continue))
        added = [(entry.label, _opens(entry.scene)) for entry in self.app.registry.menu_entries]
        return [*head, ("Levels", _opens("select")), *added, ("Settings", _opens("settings")), ("Quit", None)]

    def _continue(self, app: App) -> Scene | None:
        entries = self.level_entries()
        if self.continue_to is None:
            return None
        select = app.open("select")
        key = entries[self.continue_to].key
        if key in (e.key for e in select.entries):
            select.played_from_here(key)  # back from the level: the level played last in focus
            select.open(select.cursor)  # as a click on its card: the playlist holds the open levels only
        return None

    def _layout(self, size: tuple[int, int]) -> tuple[int, int, int]:
        """(title y, title font size, top of the buttons) for a window of ``size``."""
        w, h = size
        if h < 450:  # the smallest windows: a smaller title, so that every entry fits above the parade
            return int(h * 0.08), 48, int(h * 0.08) + 50
        compact = h < 700
        title_size = 96 if not compact else 64
        title_y = int(h * 0.12) if compact else int(h * 0.2)
        top = title_y + (90 if compact else 200)
        return title_y, title_size, top

    @staticmethod
    def _parade_cell(height: int) -> int:
        """Cell size of the ground and the marching lemmings (smaller on short windows)."""
        return 48 if height >= 700 else 32

    def _item_rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        _, _, top = self._layout(size)
        bottom = size[1] - hud.BOTTOM_BAR - 2 * self._parade_cell(size[1]) - 6  # above the parade
        return hud.menu_rects(size, len(self.items()), top, bottom, width=300)

    def activate(self, i: int) -> None:
        """Run menu entry ``i``."""
        items = self.items()
        if not 0 <= i < len(items):
            return
        self.app.sound.play(Sfx.CLICK)
        factory = items[i][1]
        if factory is None:  # Quit: asks first
            self.cursor = i
            self.confirming = True
            return
        scene = factory(self.app)
        if scene is not None:
            self.app.push(scene)

    def handle_event(self, action: Action) -> None:
        """Up/Down (no wrapping: Up on the first entry never lands on Quit), Enter, click; Esc or
        Quit ask "Quit Lemming Bricks?" (Enter / Y: quit, Esc / N: stay)."""
        n = len(self.items())
        k = action.kind
        if self.confirming:
            if k == Act.CONFIRM or (k == Act.TEXT and action.text.lower() == "y"):
                self.app.quit()
            elif k == Act.BACK or (k == Act.TEXT and action.text.lower() == "n"):
                self.confirming = False
            return
        if k == Act.UP:
            self.cursor = max(0, self.cursor - 1)
        elif k == Act.DOWN:
            self.cursor = min(n - 1, self.cursor + 1)
        elif k in (Act.CONFIRM, Act.TOGGLE_RUN):
            self.activate(self.cursor)
        elif k == Act.BACK:
            self.confirming = True
        elif k == Act.TEXT and action.text.lower() == "u":
            self.app.sound.play(Sfx.CLICK)
            self.app.open("select").show_user_levels()
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
        title_y, title_size, top = self._layout((w, h))
        hud.blit_text(surface, "LEMMING BRICKS", (w // 2, title_y), title_size, hud.GOLD, anchor="center")
        compact = title_size < 96
        if not compact:
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
        cell = self._parade_cell(h)
        ground_y = h - hud.BOTTOM_BAR - cell
        for gx in range(0, w + cell, cell):
            surface.blit(sp.get(f"wall_top_{(gx // cell) % 4}", cell), (gx, ground_y))
        for k in range(4):
            x = ((self.anim * 60 + k * w / 4) % (w + cell)) - cell  # float
            frame = int(self.anim * 8 + k) % 4
            surface.blit(sp.get(f"lem_walk_r_{frame}", cell), (int(x), ground_y - cell))
        door = sp.get(f"target_{int(self.anim * 4) % 2}", cell)
        surface.blit(door, (w - cell * 2, ground_y - cell))
        labels = [label for label, _ in self.items()]
        rects = hud.menu_list(surface, labels, self.cursor, top, h - hud.BOTTOM_BAR - 2 * cell - 6, width=300)
        if rects and 0 <= self.cursor < len(rects):
            rect = rects[self.cursor]
            bob = int(math.sin(self.anim * 6) * 3)
            icon = min(40, rect.height)
            surface.blit(sp.get("lem_walk_r_0", icon), (rect.left - icon - 8 + bob, rect.centery - icon // 2))
            if labels[self.cursor] == "Continue" and self._continue_label:
                hud.blit_text(surface, hud.fit_text(self._continue_label, 22, w // 2 - rect.width // 2 - 20),
                              (rect.right + 12, rect.centery), 22, hud.MUTED, anchor="midleft")
        if self.confirming:
            ask = pygame.Rect(0, 0, min(460, w - 30), 110)
            ask.center = (w // 2, h // 2)
            hud.panel(surface, ask, alpha=250, edge=hud.RED)
            hud.blit_text(surface, "Quit Lemming Bricks?", (ask.centerx, ask.top + 14), 36, hud.WHITE, anchor="midtop")
            hud.blit_text(surface, "Enter / Y: quit     Esc / N: stay", (ask.centerx, ask.top + 64), 22, hud.GOLD,
                          anchor="midtop")
            hud.hint_bar(surface, [("Enter/Y", "quit"), ("Esc/N", "stay")])
            return
        hud.hint_bar(surface, [("Up/Down", "choose"), ("Enter", "select"), ("U", "your levels"), ("M", "sound"),
                               ("Esc", "quit")])

