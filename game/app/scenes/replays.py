"""The replay browser: the winning runs saved for a level (:class:`game.core.progress_records.Replay`), to watch.

Opened from level select with W on a card.  Each row shows the bricks used, whose run it was (yours
or an AI solution) and when it was saved; Enter (or a click) plays it in a play scene that only
watches (``watching=True``: it records nothing, offers no editing nor hints) and starts at once, so
the timeline can be dragged through it.  Replays saved on an older version of the
level file are listed greyed out: their bricks may not win any more.
"""

from __future__ import annotations

import time
from typing import Any

import pygame

from game.core.catalog import LevelEntry
from game.core.progress_records import Replay
from game.app import hud
from game.app.app import App, Scene
from game.app.input import Act, Action


def replay_who(replay: Replay) -> str:
    """Whose run it was: ``"AI solution"`` or ``"your run"``."""
    return "AI solution" if replay.assisted else "your run"


def replay_label(replay: Replay, current: bool) -> str:
    """One row: ``3 bricks  ·  your run  ·  saved 2026-11-23 21:05`` (``older version`` when it no longer
    matches).

    >>> replay_label(Replay("h", ((1, 2), (3, 4)), 0.0), True)
    '2 bricks  ·  your run  ·  saved earlier'
    >>> replay_label(Replay("h", ((1, 2),), 0.0, assisted=True), True)
    '1 brick  ·  AI solution  ·  saved earlier'
    """
    saved = time.strftime("%Y-%m-%d %H:%M", time.localtime(replay.saved_at)) if replay.saved_at else "earlier"
    text = f"{hud.plural(len(replay.bricks), 'brick')}  \u00b7  {replay_who(replay)}  \u00b7  saved {saved}"
    return text if current else text + "  (older version of the level)"


class ReplayScene(Scene):
    """The saved winning runs of one level; Enter watches one."""

    def __init__(self, app: App, entry: LevelEntry, locked: str = "") -> None:
        super().__init__(app)
        self.entry = entry
        self.locked = locked  #: what opens the level's world, when it is locked (the level select's words)
        record = app.progress.records.get(entry.key)
        self.replays: list[Replay] = list(record.replays) if record is not None else []
        self.cursor = 0

    def current(self, replay: Replay) -> bool:
        """True when ``replay`` was saved on the level as it is now."""
        return replay.level_hash == self.entry.level.puzzle_hash

    def watch(self, i: int) -> Any:
        """Play replay ``i`` (nothing is recorded); None when it is from an older version (which is said)."""
        if not 0 <= i < len(self.replays):
            return None
        if not self.current(self.replays[i]):
            self.app.toast("This run was won on an older version of the level: it cannot be watched", 3.0)
            return None
        replay = self.replays[i]
        title = f"Replay ({replay_who(replay)}) \u00b7 {self.entry.title}"
        scene = self.app.open("play", self.entry.level, key=None, title=title, back_label="replays", watching=True)
        scene.apply_bricks(replay.bricks, assisted=replay.assisted)
        scene.toggle_run()
        return scene

    def _rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        return hud.menu_rects(size, max(1, len(self.replays)), hud.TOP_BAR + 70, size[1] - hud.BOTTOM_BAR - 20,
                              width=min(640, size[0] - 40))

    def handle_event(self, action: Action) -> None:
        """Up/Down, Enter, click, Esc."""
        k = action.kind
        n = len(self.replays)
        if k == Act.BACK:
            self.app.pop()
        elif k == Act.UP and n:
            self.cursor = max(0, self.cursor - 1)
        elif k == Act.DOWN and n:
            self.cursor = min(n - 1, self.cursor + 1)
        elif k in (Act.CONFIRM, Act.TOGGLE_RUN):
            self.watch(self.cursor)
        elif k in (Act.CLICK, Act.HOVER) and action.pos is not None and n:
            for i, rect in enumerate(self._rects(self.app.screen.get_size())):
                if rect.collidepoint(action.pos):
                    self.cursor = i
                    if k == Act.CLICK:
                        self.watch(i)

    def draw(self, surface: pygame.Surface) -> None:
        """The list of replays."""
        surface.fill((18, 14, 34))
        w, h = surface.get_size()
        bar = hud.top_bar(surface)
        hud.blit_text(surface, hud.fit_text(f"Replays \u00b7 {self.entry.title}", 36, w - 32), (16, bar.centery), 36,
                      hud.WHITE, anchor="midleft")
        if not self.replays:
            lines = [line for part in self.empty_text() for line in hud.wrap_text(part, 26, w - 48)]
            for k, line in enumerate(lines):
                hud.blit_text(surface, line, (w // 2, h // 2 + 34 * (2 * k + 1 - len(lines)) // 2), 26, hud.MUTED,
                              anchor="center")
        else:
            hud.blit_text(surface, "winning runs (yours and AI solutions), fewest bricks first", (w // 2, hud.TOP_BAR + 24), 24,
                          hud.MUTED, anchor="midtop")
            rects = self._rects((w, h))
            for i, (rect, replay) in enumerate(zip(rects, self.replays)):
                sel = i == self.cursor
                hud.panel(surface, rect, alpha=240 if sel else 190, edge=hud.GOLD if sel else hud.PANEL_EDGE)
                color = (hud.GOLD if sel else hud.WHITE) if self.current(replay) else hud.MUTED
                size = max(16, min(24, rect.height - 12))
                hud.blit_text(surface, hud.fit_text(replay_label(replay, self.current(replay)), size, rect.width - 20),
                              rect.center, size, color, anchor="center")
        hud.hint_bar(surface, self.hints())

    def empty_text(self) -> list[str]:
        """What the screen says with no run saved: a locked level cannot be won yet, so what opens it."""
        if self.locked:
            return [f"{self.locked} to play this level.", "Its winning runs are kept here."]
        return ["No saved winning runs yet: win this level and it is kept here."]

    def hints(self) -> list[tuple[str, str]]:
        """The footer's keys (with no run saved, only Esc does something)."""
        return ([("Up/Down", "choose"), ("Enter", "watch")] if self.replays else []) + [("Esc", "levels")]


__all__ = ["ReplayScene", "replay_label", "replay_who"]
