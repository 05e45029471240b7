"""The settings screen: every setting of :class:`game.core.settings.Settings`, changed with the keys
or the mouse and saved at once (``$XDG_CONFIG_HOME/lemming-bricks/settings.json``).

Up/Down choose a row; Left/Right (or right-click / click) change it; Enter toggles or
cycles; Esc goes back.  Changes apply at once (volumes, mute, window, palette).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pygame

from game.core.settings import SPEEDS, WINDOW_SIZES, Palette, Settings
from game.app import hud
from game.app.app import App, Scene
from game.app.input import Act, Action, display_key
from game.app.render import LevelRenderer
from game.app.sound import Sfx


@dataclass(frozen=True)
class SettingRow:
    """One line of the screen: its label, how it shows its value, and how it changes."""

    label: str  #: a key in brackets, e.g. ``(M)``, is the default key: shown as the player bound it
    show: Callable[[Settings], str]
    change: Callable[[Settings, int], dict[str, object]]  #: (settings, +1/-1) -> changes


def _volume(name: str) -> Callable[[Settings, int], dict[str, object]]:
    def change(s: Settings, d: int) -> dict[str, object]:
        value = round(max(0.0, min(1.0, float(getattr(s, name)) + 0.1 * d)), 2)
        return {name: value}
    return change


def _flag(name: str) -> Callable[[Settings, int], dict[str, object]]:
    return lambda s, d: {name: not getattr(s, name)}


def _cycle(values: list[object], name: str) -> Callable[[Settings, int], dict[str, object]]:
    def change(s: Settings, d: int) -> dict[str, object]:
        current = getattr(s, name)
        i = values.index(current) if current in values else 0
        return {name: values[(i + d) % len(values)]}
    return change


def _on(flag: bool) -> str:
    return "on" if flag else "off"


#: The saved window size (the screen adds the window's real size when that differs).
WINDOW_SIZE_ROW = SettingRow("Window size", lambda s: f"{s.window_size[0]} x {s.window_size[1]}",
                             _cycle(list(WINDOW_SIZES), "window_size"))

ROWS: list[SettingRow] = [
    SettingRow("Music volume", lambda s: f"{round(s.music_volume * 100)}%", _volume("music_volume")),
    SettingRow("Effects volume", lambda s: f"{round(s.effects_volume * 100)}%", _volume("effects_volume")),
    SettingRow("Mute (M)", lambda s: _on(s.muted), _flag("muted")),
    SettingRow("Fullscreen", lambda s: _on(s.fullscreen), _flag("fullscreen")),
    WINDOW_SIZE_ROW,
    SettingRow("Trajectory preview at start", lambda s: _on(s.preview), _flag("preview")),
    SettingRow("Preview in mystery worlds", lambda s: "after the first release" if s.mystery_preview else "always off",
               _flag("mystery_preview")),
    SettingRow("Default speed", lambda s: f"{s.speed}x", _cycle(list(SPEEDS), "speed")),
    SettingRow("Colours", lambda s: "colour-blind safe" if s.palette == Palette.COLOURBLIND else "standard",
               _cycle(list(Palette), "palette")),
    SettingRow("Reduced motion (no confetti)", lambda s: _on(s.reduced_motion), _flag("reduced_motion")),
    SettingRow("Row / column ruler (N)", lambda s: _on(s.ruler), _flag("ruler")),
    SettingRow("Keys", lambda s: f"{len(s.keys)} changed" if s.keys else "defaults", lambda s, d: {}),
]
#: The row that opens the key rebinding screen (Enter / click) instead of changing a value.
KEYS_ROW = len(ROWS) - 1


def row_label(row: SettingRow) -> str:
    """The label of ``row`` with the key in brackets as the player bound it (``Mute (K)`` once the sound
    key moved from M to K)."""
    head, bracket, tail = row.label.partition(" (")
    key = tail[:-1]
    if not bracket or not tail.endswith(")") or " " in key:  # "(no confetti)" names no key
        return row.label
    return f"{head} ({display_key(key)})"


def _short(path: Path) -> str:
    """``path`` with the home folder written ``~``."""
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except ValueError:
        return str(path)


class SettingsScene(Scene):
    """Change and save the settings."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.cursor = 0
        self.renderer = LevelRenderer()
        #: after a key press the mouse only takes the cursor back once it really moves: a window
        #: resize (Window size, Fullscreen) puts the resting pointer over another row
        self._keys_in_use = False
        self._pointer_at: tuple[int, int] | None = None

    def change(self, row: int, delta: int) -> None:
        """Change row ``row`` one step (``delta`` +1 / -1); saved and applied at once.  The Keys row
        opens the key rebinding screen."""
        if row == KEYS_ROW:
            self.app.open("keys")
            return
        changes = ROWS[row].change(self.app.settings, delta)
        self.app.change_settings(**changes)
        self.app.sound.play(Sfx.CLICK)

    def _rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        w, h = size
        top = hud.TOP_BAR + 16
        bottom = h - hud.BOTTOM_BAR - 10
        pitch = min(52, (bottom - top) // len(ROWS))
        width = min(760, w - 40)
        return [pygame.Rect(w // 2 - width // 2, top + i * pitch, width, pitch - 6) for i in range(len(ROWS))]

    def handle_event(self, action: Action) -> None:
        """Up/Down, Left/Right, Enter, clicks, Esc."""
        k = action.kind
        n = len(ROWS)
        if k in (Act.UP, Act.DOWN, Act.LEFT, Act.RIGHT, Act.CONFIRM, Act.TOGGLE_RUN):
            self._keys_in_use, self._pointer_at = True, self.app.mouse_pos
        elif k == Act.RESIZE:  # the rows moved under the pointer: its next report only says where it is
            self._keys_in_use, self._pointer_at = True, None
        if k == Act.HOVER and action.pos is not None and self._keys_in_use:
            if self._pointer_at is None:  # the first report after the keys (or a resize): where it rests
                self._pointer_at = action.pos
                return
            dx, dy = action.pos[0] - self._pointer_at[0], action.pos[1] - self._pointer_at[1]
            if dx * dx + dy * dy < 16:
                return
            self._keys_in_use = False
        if k == Act.BACK:
            self.app.pop()
        elif k == Act.UP:
            self.cursor = (self.cursor - 1) % n
        elif k == Act.DOWN:
            self.cursor = (self.cursor + 1) % n
        elif k in (Act.RIGHT, Act.CONFIRM, Act.TOGGLE_RUN):
            self.change(self.cursor, 1)
        elif k == Act.LEFT:
            self.change(self.cursor, -1)
        elif k in (Act.CLICK, Act.RIGHT_CLICK, Act.HOVER) and action.pos is not None:
            for i, rect in enumerate(self._rects(self.app.screen.get_size())):
                if rect.collidepoint(action.pos):
                    self.cursor = i
                    if k != Act.HOVER:
                        self.change(i, 1 if k == Act.CLICK else -1)

    def value_text(self, row: SettingRow) -> str:
        """What ``row`` shows: its value; for the window size also the window's real size when it
        differs (the window was fitted to a smaller desktop, or resized by hand)."""
        settings = self.app.settings
        value = row.show(settings)
        real = self.app.screen.get_size()
        if row is WINDOW_SIZE_ROW and not settings.fullscreen and real != tuple(settings.window_size):
            value += f" (now {real[0]} x {real[1]})"
        return value

    def row_texts(self, i: int, rect: pygame.Rect) -> tuple[str, str, int]:
        """Row ``i``'s label and value as drawn in ``rect`` (each cut to fit beside the other; the
        chosen row's value between arrows) and their text size."""
        size = max(18, min(28, rect.height - 16))
        label = hud.fit_text(row_label(ROWS[i]), size, rect.width // 2 + 40)
        value = self.value_text(ROWS[i])
        shown = f"<  {value}  >" if i == self.cursor else value
        room = rect.width - 48 - hud.text_width(label, size)
        return label, hud.fit_text(shown, size, room), size

    def draw(self, surface: pygame.Surface) -> None:
        """The rows, the file's place, the hints."""
        self.renderer.draw_background(surface)
        w, h = surface.get_size()
        bar = hud.top_bar(surface)
        hud.blit_text(surface, "Settings", (16, bar.centery), 36, hud.WHITE, anchor="midleft")
        path = self.app.settings_store.path
        if path is not None and w > 700:
            hud.blit_text(surface, hud.fit_text(f"saved in {_short(path)}", 20, w // 2), (w - 16, bar.centery), 20,
                          hud.MUTED, anchor="midright")
        for i, rect in enumerate(self._rects((w, h))):
            sel = i == self.cursor
            hud.panel(surface, rect, alpha=240 if sel else 190, edge=hud.GOLD if sel else hud.PANEL_EDGE)
            label, shown, size = self.row_texts(i, rect)
            hud.blit_text(surface, label, (rect.left + 16, rect.centery), size, hud.GOLD if sel else hud.WHITE,
                          anchor="midleft")
            hud.blit_text(surface, shown, (rect.right - 16, rect.centery), size, hud.WHITE, anchor="midright")
        hud.hint_bar(surface, [("Up/Down", "choose"), ("Left/Right", "change"), ("Enter", "change"),
                               ("Esc", "back")])
