"""Sharing levels in the game: the code of a level in a box (copied to the clipboard where there is
one), and a box to paste (or type) a code and play the level it holds.

Codes come from :mod:`game.core.share`.  :class:`ShareCodeScene` is a dialog over the scene that opened
it (the pause menu, level select with C); :class:`PasteCodeScene` is the title menu's "Play a code"
(:data:`MENU_LABEL`, registered by :mod:`game.app.compose`): Ctrl+V pastes, Enter plays, a bad code gets its one message in red.  The level
opened from a code records its wins under ``code:<puzzle hash>``.
"""

from __future__ import annotations

from typing import Callable

import pygame

from game.core.catalog import LevelEntry, Section
from game.core.errors import GameError
from game.core.level import Level
from game.core.share import decode, encode
from game.app import hud
from game.app.app import App, Scene
from game.app.input import Act, Action
from game.app.text_field import SELECT_ALL_KEY, TextField, draw_selection, wrap_chars
from game.app.sound import Sfx

#: The title menu entry of :class:`PasteCodeScene`.
MENU_LABEL = "Play a code"
#: Longest text the paste box keeps (far above any pack level's code).
MAX_TYPED = 4000
#: Most lines of a code the share box shows at once (a longer code scrolls).
MAX_CODE_LINES = 8


def copy_to_clipboard(text: str) -> bool:
    """Put ``text`` on the system clipboard; False where there is none (e.g. headless)."""
    try:
        pygame.scrap.put_text(text)  # SDL's clipboard (pygame-ce 2.2+: no init needed)
        return bool(pygame.scrap.has_text()) and pygame.scrap.get_text() == text
    except (pygame.error, AttributeError, NotImplementedError):
        return False


def paste_from_clipboard() -> str:
    """The clipboard's text, or "" where there is none."""
    try:
        return str(pygame.scrap.get_text() or "") if pygame.scrap.has_text() else ""
    except (pygame.error, AttributeError, NotImplementedError):
        return ""


def code_entry(level: Level) -> LevelEntry:
    """The playlist entry of a level opened from a code (wins kept under ``code:<hash>``)."""
    return LevelEntry(f"code:{level.puzzle_hash[:16]}", None, level, Section.FILE)


def _box(surface: pygame.Surface, height: int) -> pygame.Rect:
    w, h = surface.get_size()
    box = pygame.Rect(0, 0, min(760, w - 30), height)
    box.center = (w // 2, (hud.TOP_BAR + h - hud.BOTTOM_BAR) // 2)
    return box


def _code_lines(code: str, size: int, width: int) -> list[str]:
    """The code cut into lines that fit ``width`` (a code has no spaces to break at)."""
    if not code:
        return []
    starts = wrap_chars(code, size, width)
    return [code[a:b] for a, b in zip(starts, starts[1:] + [len(code)])]


class ShareCodeScene(Scene):
    """A dialog with the code of ``level``, copied to the clipboard when there is one."""

    transparent = True

    def __init__(self, app: App, level: Level) -> None:
        super().__init__(app)
        self.level = level
        self.code = encode(level)
        self.copied = copy_to_clipboard(self.code)
        self.first = 0  #: the first line of the code shown (a long code scrolls)
        self._lines_for: tuple[int, int] = (0, 0)
        self._lines: list[str] = []

    def code_view(self, size: tuple[int, int]) -> tuple[list[str], int, int]:
        """(every line of the code, the text size, how many lines the box shows) in a window of ``size``."""
        w, h = size
        text_size = 26 if w >= 900 else 20
        width = min(760, w - 30) - 60
        if self._lines_for != (text_size, width):  # the code does not change: wrap it once per window size
            self._lines_for, self._lines = (text_size, width), _code_lines(self.code, text_size, width)
        lines = self._lines
        room = (h - hud.TOP_BAR - hud.BOTTOM_BAR - 200) // (text_size + 6)
        return lines, text_size, max(2, min(MAX_CODE_LINES, room, len(lines)))

    def scroll(self, lines: int) -> None:
        """Move the shown part of the code ``lines`` lines down (negative: up), within the code."""
        every, _, shown = self.code_view(self.app.screen.get_size())
        self.first = max(0, min(len(every) - shown, self.first + lines))

    def handle_event(self, action: Action) -> None:
        """C copies again; Up/Down and the wheel scroll a long code; Esc, Enter or a click closes."""
        if action.kind in (Act.BACK, Act.CONFIRM, Act.CLICK, Act.TOGGLE_RUN):
            self.app.pop()
        elif action.kind in (Act.UP, Act.DOWN):
            self.scroll(-1 if action.kind == Act.UP else 1)
        elif action.kind == Act.SCROLL:
            self.scroll(-action.value)
        elif action.kind == Act.COPY or (action.kind == Act.TEXT and action.text.lower() == "c"):
            self.copied = copy_to_clipboard(self.code)
            self.app.sound.play(Sfx.CLICK)

    def draw(self, surface: pygame.Surface) -> None:
        """The code in a text box, what it holds, whether it was copied."""
        veil = pygame.Surface(surface.get_size())
        veil.fill((6, 4, 16))
        veil.set_alpha(170)
        surface.blit(veil, (0, 0))
        w, h = surface.get_size()
        surface.fill((10, 7, 20), pygame.Rect(0, h - hud.BOTTOM_BAR, w, hud.BOTTOM_BAR))  # only this footer
        every, size, shown = self.code_view(surface.get_size())
        self.first = max(0, min(len(every) - shown, self.first))
        lines = every[self.first:self.first + shown]
        box = _box(surface, 170 + len(lines) * (size + 6))
        hud.panel(surface, box, alpha=250, edge=hud.GOLD)
        hud.blit_text(surface, "Level code", (box.centerx, box.top + 12), 40, hud.GOLD, anchor="midtop")
        title = self.level.title or "Untitled level"
        hud.blit_text(surface, hud.fit_text(f"{title}  \u00b7  {self.level.height}x{self.level.width}  \u00b7  "
                                            f"{hud.plural(self.level.budget, 'brick')}", 22, box.width - 30),
                      (box.centerx, box.top + 56), 22, hud.WHITE, anchor="midtop")
        field = pygame.Rect(box.left + 20, box.top + 90, box.width - 40, len(lines) * (size + 6) + 14)
        pygame.draw.rect(surface, (16, 12, 30), field, border_radius=6)
        pygame.draw.rect(surface, hud.PANEL_EDGE, field, 2, border_radius=6)
        for i, line in enumerate(lines):
            hud.blit_text(surface, line, (field.left + 10, field.top + 7 + i * (size + 6)), size, hud.WHITE)
        note = ("copied to the clipboard: paste it anywhere" if self.copied
                else "no clipboard here: copy the code from this box")
        if shown < len(every):
            note = f"lines {self.first + 1}-{self.first + shown} of {len(every)}  \u00b7  {note}"
        hud.blit_text(surface, hud.fit_text(note, 22, box.width - 30), (box.centerx, field.bottom + 12), 22,
                      hud.GREEN if self.copied else hud.MUTED, anchor="midtop")
        scrolls = [("Up/Down", "scroll")] if shown < len(every) else []
        hud.hint_bar(surface, [("C", "copy again"), *scrolls, ("Esc", "close")])


class PasteCodeScene(Scene):
    """Paste (Ctrl+V) or type a level code; Enter plays the level it holds.  Ctrl+A selects the code in
    the box, so a paste or a key replaces it (Backspace clears it)."""

    text_entry = True

    def __init__(self, app: App, play: Callable[[App, Level], Scene] | None = None) -> None:
        super().__init__(app)
        self.field = TextField("", max_len=MAX_TYPED)  #: the code typed (Ctrl+A selects it: the next key replaces it)
        self.error = ""
        self.anim = 0.0
        self._play = play

    @property
    def typed(self) -> str:
        """The code in the box."""
        return self.field.text

    def paste(self, text: str) -> None:
        """Add ``text`` (spaces and line breaks dropped) to the box (in place of the selection, if any)."""
        self.field.insert("".join(text.split()))
        self.error = ""

    def submit(self) -> Level | None:
        """Enter: decode the box; play the level, or show why the code is wrong."""
        try:
            level = decode(self.typed)
        except GameError as exc:
            self.error = str(exc)
            self.app.sound.play(Sfx.LOSE)
            return None
        self.error = ""
        if self._play is not None:
            self.app.push(self._play(self.app, level))
        else:
            self.app.open("play", playlist=[code_entry(level)], index=0, back_label="code box")
        return level

    def handle_event(self, action: Action) -> None:
        """Typing, Backspace, Ctrl+A, Ctrl+V, Enter, Esc."""
        k = action.kind
        if k == Act.BACK:
            self.app.pop()
        elif k == Act.CONFIRM:
            self.submit()
        elif k == Act.PASTE:
            pasted = paste_from_clipboard()
            if pasted:
                self.paste(pasted)
            else:
                self.error = "the clipboard is empty (or there is none here): type the code"
        elif k == Act.CLEAR:
            self.field.handle(k)
            self.error = ""
        elif k == Act.SELECT_ALL:
            self.field.handle(k)
        elif k == Act.TEXT and action.text.strip():
            self.paste(action.text)

    def update(self, dt: float) -> None:
        """Blink the caret."""
        self.anim += dt

    def draw(self, surface: pygame.Surface) -> None:
        """The box, the typed code, the error."""
        surface.fill((18, 14, 34))
        bar = hud.top_bar(surface)
        hud.blit_text(surface, MENU_LABEL, (16, bar.centery), 36, hud.WHITE, anchor="midleft")
        size = 26 if surface.get_width() >= 900 else 20
        inner = min(760, surface.get_width() - 30) - 40
        caret = "|" if int(self.anim * 2) % 2 == 0 and not self.field.selected else " "
        lines = _code_lines(self.typed + caret, size, inner - 20)[-6:] or [caret]
        box = _box(surface, 190 + len(lines) * (size + 6))
        hud.panel(surface, box, alpha=250, edge=hud.GOLD)
        hud.blit_text(surface, "Paste a level code", (box.centerx, box.top + 12), 40, hud.GOLD, anchor="midtop")
        hud.blit_text(surface, "a code starts with LB; Ctrl+V pastes, Enter plays", (box.centerx, box.top + 56), 22,
                      hud.MUTED, anchor="midtop")
        field = pygame.Rect(box.left + 20, box.top + 90, box.width - 40, len(lines) * (size + 6) + 14)
        pygame.draw.rect(surface, (16, 12, 30), field, border_radius=6)
        pygame.draw.rect(surface, hud.GOLD, field, 2, border_radius=6)
        for i, line in enumerate(lines):
            at = (field.left + 10, field.top + 7 + i * (size + 6))
            if self.field.selected:
                draw_selection(surface, line, at, size)
            hud.blit_text(surface, line, at, size, hud.WHITE)
        if self.error:
            for i, line in enumerate(hud.wrap_text(self.error, 22, box.width - 30, 2)):
                hud.blit_text(surface, line, (box.centerx, field.bottom + 10 + 26 * i), 22, hud.RED, anchor="midtop")
        hud.hint_bar(surface, [("Ctrl+V", "paste"), SELECT_ALL_KEY, ("Enter", "play"), ("Backspace", "delete"),
                               ("Esc", "back")])


__all__ = ["MENU_LABEL", "PasteCodeScene", "ShareCodeScene", "code_entry", "copy_to_clipboard",
           "paste_from_clipboard"]
