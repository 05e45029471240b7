"""Settings -> Keys: rebind the game's letter keys (hint, solve, restart, undo, ...).

Up/Down choose an action, Left/Right go to the other column; Enter (or a click) waits for the new key
(Esc cancels); Backspace puts the action's default key back.  A key already used by another action swaps with it, so no key
ever does two things; the note under the list says so.  Saved at once in ``settings.json`` (``"keys"``, validated on load by
:mod:`game.core.settings`) and applied through :func:`game.app.input.rebind`.
"""

from __future__ import annotations

import pygame

from game.core.settings import DEFAULT_KEYS, KEY_NAMES
from game.app import hud
from game.app.app import App, Scene
from game.app.input import KEY_NAMES_OF, Act, Action, key_label
from game.app.sound import Sfx

#: What each rebindable action does, in the order shown.
ACTION_NAMES: dict[str, str] = {
    "hint": "Hint", "solve": "Solve", "all_solutions": "All solutions", "cycle_solver": "Next solver",
    "forced": "Deductions", "export_gif": "Export a GIF", "restart": "Restart", "preview": "Trajectory preview",
    "place": "Brick at the cursor", "ruler": "Row / column ruler", "undo": "Undo", "redo": "Redo",
    "mute": "Sound on / off", "step_back": "One frame back", "step_forward": "One frame forward",
    "prev_item": "Previous solution", "next_item": "Next solution",
}

#: The narrowest column of actions (the longest name and its key at the largest text size).
MIN_COLUMN = 300


def rebound(keys: dict[str, str], act: str, key: str) -> dict[str, str]:
    """``keys`` (the full map) with ``act`` on ``key``; the action that had ``key`` takes ``act``'s old key.

    >>> m = rebound({"hint": "h", "solve": "s"}, "hint", "s")
    >>> m["hint"], m["solve"]
    ('s', 'h')
    """
    out = dict(keys)
    old = out[act]
    for other, k in keys.items():
        if k == key and other != act:
            out[other] = old
    out[act] = key
    return out


class KeysScene(Scene):
    """The list of rebindable actions and their keys."""

    text_entry = True  # every key is for this screen (M does not mute while choosing)

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.acts = list(ACTION_NAMES)
        self.cursor = 0
        self.waiting = False  #: the next key pressed becomes the chosen action's key
        self.note = ""

    def keys(self) -> dict[str, str]:
        """The current full key map."""
        return self.app.settings.key_map()

    def assign(self, act: str, key: str, shown: str = "") -> bool:
        """Put ``act`` on ``key`` (swapping with the action that had it, which the note says); False for a
        key not allowed (``shown``: how the refused key is named)."""
        if key not in KEY_NAMES:
            self.note = (f"{shown or (key_label(key) if key else 'That key')} cannot be chosen. "
                         "Choose a letter, Tab, or one of , . / ; ' [ ] `")
            return False
        before = self.keys()
        full = rebound(before, act, key)
        self.app.change_settings(keys={a: k for a, k in full.items() if k != DEFAULT_KEYS[a]})
        self.note = f"{ACTION_NAMES[act]}: {key_label(key)}"
        swapped = [other for other, k in before.items() if k == key and other != act]
        if swapped:  # the swap is said, never silent
            self.note += f"  \u00b7  {ACTION_NAMES.get(swapped[0], swapped[0])} moved to {key_label(before[act])}"
        self.app.sound.play(Sfx.CLICK)
        return True

    def sideways(self, step: int) -> None:
        """Left/Right (``step`` -1 / +1): the row beside the chosen one in the other column (the last row
        of a shorter column when there is none beside it)."""
        rects, _ = self.layout(self.app.screen.get_size())
        here = rects[self.cursor]
        beside = [i for i, r in enumerate(rects) if (r.left - here.left) * step > 0]
        if beside:
            column = min(abs(rects[i].left - here.left) for i in beside)
            near = [i for i in beside if abs(rects[i].left - here.left) == column]
            self.cursor = min(near, key=lambda i: (abs(rects[i].top - here.top), -i))

    def handle_event(self, action: Action) -> None:
        """Up/Down, Left/Right, Enter or a click (then a key), Backspace (default), Esc."""
        k = action.kind
        if self.waiting:
            if k == Act.BACK:
                self.waiting, self.note = False, ""
            elif action.key:  # the first action of the key press (a bound key also sends TEXT after it)
                shown = pygame.key.name(action.key).capitalize()
                self.waiting = not self.assign(self.acts[self.cursor], KEY_NAMES_OF.get(action.key, ""), shown)
            return
        if k == Act.BACK:
            self.app.pop()
        elif k == Act.UP:
            self.cursor = max(0, self.cursor - 1)
        elif k == Act.DOWN:
            self.cursor = min(len(self.acts) - 1, self.cursor + 1)
        elif k in (Act.LEFT, Act.RIGHT):
            self.sideways(1 if k == Act.RIGHT else -1)
        elif k == Act.CONFIRM:
            self.waiting, self.note = True, ""
        elif k in (Act.CLICK, Act.HOVER) and action.pos is not None:
            self._point(action.pos, k == Act.CLICK)
        elif k == Act.CLEAR:
            act = self.acts[self.cursor]
            self.assign(act, DEFAULT_KEYS[act])

    def _point(self, pos: tuple[int, int], clicked: bool) -> None:
        """The pointer over a row chooses it; a click there waits for its new key."""
        rects, _ = self.layout(self.app.screen.get_size())
        for i, rect in enumerate(rects):
            if rect.collidepoint(pos):
                self.cursor = i
                if clicked:
                    self.waiting, self.note = True, ""

    def layout(self, size: tuple[int, int]) -> tuple[list[pygame.Rect], int]:
        """Each action's row and the text size, in a window of ``size``: two columns when each is
        :data:`MIN_COLUMN` wide (one column of every action leaves rows too low for their text)."""
        w, h = size
        cols = 2 if (w - 40) // 2 >= MIN_COLUMN else 1
        per_col = -(-len(self.acts) // cols)
        top, bottom = hud.TOP_BAR + 14, h - hud.BOTTOM_BAR - 40
        pitch = max(18, min(40, (bottom - top) // per_col))
        col_w = (w - 40) // cols
        rects = [pygame.Rect(20 + (i // per_col) * col_w, top + (i % per_col) * pitch, col_w - 12, pitch - 4)
                 for i in range(len(self.acts))]
        return rects, max(14, min(24, pitch - 12))

    def draw(self, surface: pygame.Surface) -> None:
        """The actions in two columns when there is room."""
        surface.fill((18, 14, 34))
        w, h = surface.get_size()
        bar = hud.top_bar(surface)
        hud.blit_text(surface, "Keys", (16, bar.centery), 36, hud.WHITE, anchor="midleft")
        keys = self.keys()
        rects, size = self.layout((w, h))
        for i, (act, rect) in enumerate(zip(self.acts, rects)):
            sel = i == self.cursor
            hud.panel(surface, rect, alpha=235 if sel else 180, edge=hud.GOLD if sel else hud.PANEL_EDGE)
            hud.blit_text(surface, ACTION_NAMES[act], (rect.left + 12, rect.centery), size,
                          hud.GOLD if sel else hud.WHITE, anchor="midleft")
            shown = "press a key..." if sel and self.waiting else key_label(keys[act])
            hud.blit_text(surface, shown, (rect.right - 12, rect.centery), size, hud.BLUE if sel and self.waiting
                          else hud.WHITE, anchor="midright")
        if self.note:
            hud.blit_text(surface, hud.fit_text(self.note, 22, w - 40), (w // 2, h - hud.BOTTOM_BAR - 30), 22,
                          hud.MUTED, anchor="midtop")
        if self.waiting:
            hud.hint_bar(surface, [("any key", "new key"), ("Esc", "cancel")])
        else:
            hud.hint_bar(surface, [("Arrows", "choose"), ("Enter", "rebind"), ("Backspace", "default"),
                                   ("Esc", "back")])


__all__ = ["ACTION_NAMES", "KeysScene", "rebound"]
