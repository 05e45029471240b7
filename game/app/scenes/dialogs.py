"""Dialogs drawn over the scene below: a text entry, a question with keyed choices, a level picker.

Each is a transparent :class:`~game.app.app.Scene` pushed on the app's stack; it calls back and pops
itself.  Used by the level editor (save, new, unsaved changes, open) and free for any other scene.
"""

from __future__ import annotations

from typing import Any, Callable

import pygame

from game.core.catalog import LevelEntry, Section, all_entries
from game.app import hud
from game.app.app import App, Scene
from game.app.input import Act, Action
from game.app.text_field import SELECT_ALL_KEY, SELECTION, TextField, draw_field

#: Text size and most lines of a text prompt's preview (e.g. why a physics is refused).
PREVIEW_SIZE = 20
PREVIEW_LINES = 4
#: Text size and line height of a dialog's footer (its keys).
FOOT_SIZE = 20
FOOT_LINE = 24

def clipboard_text() -> str:
    """The text on the system clipboard ("" when there is none or no clipboard is available)."""
    try:  # (pygame imports its scrap module itself; where it is missing, using it raises NotImplementedError)
        if not pygame.scrap.get_init():
            pygame.scrap.init()
        return str(pygame.scrap.get_text() or "")
    except (pygame.error, AttributeError, NotImplementedError):
        return ""


def foot_lines(parts: list[str], width: int) -> list[str]:
    """A footer's ``parts`` ("Enter: OK", ...) in order, as few to a line as keep each line within ``width``
    pixels at :data:`FOOT_SIZE`."""
    lines: list[str] = []
    for part in parts:
        joined = f"{lines[-1]}    {part}" if lines else part
        if lines and hud.text_width(joined, FOOT_SIZE) <= width:
            lines[-1] = joined
        else:
            lines.append(part)
    return lines


def key_hint(hint: tuple[str, str]) -> str:
    """A footer's ``(key, what)`` as the dialogs write it: ``"Ctrl+A: select all"``."""
    return f"{hint[0]}: {hint[1]}"


class TextPrompt(Scene):
    """A text entry over the scene below: Enter accepts, Esc cancels.

    The text has a cursor (Left/Right, Home/End; typing and Ctrl+V insert there, Backspace and Delete
    delete around it: :class:`~game.app.text_field.TextField`).  The initial text starts selected, as
    Ctrl+A selects it all: the first character typed replaces it, Backspace erases it.  ``lines`` > 1 shows a field that
    many lines high, the text wrapped in it (for long entries such as a physics' JSON).  ``preview`` gives
    a line shown under the field, computed from the text, wrapped to the box (up to :data:`PREVIEW_LINES`).
    ``check`` (optional) judges the text on Enter: a message keeps the prompt open and is shown in red
    under the field (until the text changes); None accepts.
    """

    transparent = True
    text_entry = True  # typed letters are text, not commands (e.g. M does not mute)

    def __init__(self, app: App, title: str, label: str, initial: str, on_done: Callable[[str], None], *,
                 note: str = "", max_len: int = 60, preview: Callable[[str], str] | None = None,
                 lines: int = 1, check: Callable[[str], str | None] | None = None) -> None:
        super().__init__(app)
        self.title, self.label = title, label
        self.field = TextField(initial, max_len=max_len, selected=True)
        self.on_done, self.note, self.max_len = on_done, note, max_len
        self.preview = preview  #: a line shown under the field, computed from the text
        self.lines = max(1, lines)
        self.check = check
        self.error = ""  #: why Enter did not accept the text ('' once it changes)
        self.anim = 0.0

    @property
    def text(self) -> str:
        """The text typed so far."""
        return self.field.text

    @text.setter
    def text(self, value: str) -> None:
        self.field.set(value)

    def handle_event(self, action: Action) -> None:
        """Typed characters, the cursor keys, Backspace, Delete, Ctrl+A, Ctrl+V, Enter, Esc."""
        k = action.kind
        before = self.text
        if k == Act.TEXT:
            self.field.insert(action.text)
        elif k == Act.PASTE:
            self.field.insert(" ".join(clipboard_text().split()))  # one line: newlines and tabs become spaces
        elif k == Act.CONFIRM:
            self.error = (self.check(self.text) or "") if self.check is not None else ""
            if not self.error:
                self.app.pop()
                self.on_done(self.text)
        elif k == Act.BACK:
            self.app.pop()
        else:
            self.field.handle(k)
        if self.text != before:
            self.error = ""

    def update(self, dt: float) -> None:
        """Blink the caret."""
        self.anim += dt

    def preview_lines(self, width: int) -> list[str]:
        """The error of the last Enter, else the preview, wrapped to ``width`` pixels."""
        shown = self.error or (self.preview(self.text) if self.preview is not None else "")
        return hud.wrap_text(shown, PREVIEW_SIZE, width, max_lines=PREVIEW_LINES) if shown else []

    def foot(self, width: int) -> list[str]:
        """The footer's keys (and the note), in lines within ``width`` pixels."""
        parts = ["Enter: OK", "Esc: cancel", key_hint(SELECT_ALL_KEY)]
        parts += ["Left/Right, Home/End: move"] if self.lines > 1 else []
        parts += [f"({self.note})"] if self.note else []
        return foot_lines(parts, width)

    def box(self, size: tuple[int, int]) -> pygame.Rect:
        """The dialog's rectangle in a window of ``size``."""
        w, h = size
        width = min(640 if self.lines > 1 else 600, w - 40)
        preview = len(self.preview_lines(width - 48))
        feet = len(self.foot(width - 30))
        height = 176 + self._field_height() + preview * (PREVIEW_SIZE + 4) + (feet - 1) * FOOT_LINE
        box = pygame.Rect(0, 0, width, min(height, h - 20))
        box.center = (w // 2, h // 2)
        return box

    def _field_size(self) -> int:
        return 30 if self.lines == 1 else 22

    def _field_height(self) -> int:
        return 40 if self.lines == 1 else self.lines * (self._field_size() + 6) + 12

    def draw(self, surface: pygame.Surface) -> None:
        """A dimmed backdrop and the entry box."""
        _dim(surface)
        box = self.box(surface.get_size())
        hud.panel(surface, box, edge=hud.GOLD)
        hud.blit_text(surface, self.title, (box.centerx, box.top + 14), 40, hud.GOLD, anchor="midtop")
        hud.blit_text(surface, hud.fit_text(self.label, 24, box.width - 48), (box.left + 24, box.top + 62), 24,
                      hud.MUTED)
        field = pygame.Rect(box.left + 24, box.top + 92, box.width - 48, self._field_height())
        draw_field(surface, self.field, field, self._field_size(), lines=self.lines,
                   caret_on=int(self.anim * 2) % 2 == 0)
        for row, line in enumerate(self.preview_lines(box.width - 48)):
            hud.blit_text(surface, line, (field.left + 2, field.bottom + 8 + row * (PREVIEW_SIZE + 4)),
                          PREVIEW_SIZE, hud.RED if self.error else hud.BLUE)
        foot = self.foot(box.width - 30)
        for row, line in enumerate(foot):
            hud.blit_text(surface, hud.fit_text(line, FOOT_SIZE, box.width - 30),
                          (box.centerx, box.bottom - 28 - (len(foot) - 1 - row) * FOOT_LINE), FOOT_SIZE, hud.MUTED,
                          anchor="midtop")


class ConfirmPrompt(Scene):
    """A question with keyed choices: ``[(key label, text, callback or None), ...]``.

    Enter picks the first choice, Esc the last, a letter key the choice whose key is that letter.
    """

    transparent = True

    def __init__(self, app: App, title: str, question: str,
                 choices: list[tuple[str, str, Callable[[], None] | None]]) -> None:
        super().__init__(app)
        self.title, self.question, self.choices = title, question, choices

    def choose(self, i: int) -> None:
        """Close the prompt and run choice ``i``."""
        self.app.pop()
        run = self.choices[i][2]
        if run is not None:
            run()

    def handle_event(self, action: Action) -> None:
        """Enter, Esc, letters, clicks on the choices."""
        k = action.kind
        if k == Act.CONFIRM:
            self.choose(0)
        elif k == Act.BACK:
            self.choose(len(self.choices) - 1)
        elif k == Act.TEXT:
            for i, (key, _, _) in enumerate(self.choices):
                if len(key) == 1 and key.lower() == action.text.lower():
                    self.choose(i)
                    return
        elif k == Act.CLICK and action.pos is not None:
            for i, rect in enumerate(self._choice_rects(self.app.screen.get_size())):
                if rect.collidepoint(action.pos):
                    self.choose(i)
                    return

    def _question_lines(self, size: tuple[int, int]) -> list[str]:
        """The question wrapped to the box (at most four lines)."""
        return hud.wrap_text(self.question, 24, min(600, size[0] - 40) - 40, max_lines=4)

    def _box(self, size: tuple[int, int]) -> pygame.Rect:
        extra = 30 * (len(self._question_lines(size)) - 1)
        box = pygame.Rect(0, 0, min(600, size[0] - 40), min(210 + extra, size[1] - 20))
        box.center = (size[0] // 2, size[1] // 2)
        return box

    def _choice_rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        box = self._box(size)
        n = len(self.choices)
        bw = (box.width - 40 - (n - 1) * 12) // n
        return [pygame.Rect(box.left + 20 + i * (bw + 12), box.bottom - 64, bw, 44) for i in range(n)]

    def draw(self, surface: pygame.Surface) -> None:
        """A dimmed backdrop, the question and the choices."""
        _dim(surface)
        box = self._box(surface.get_size())
        hud.panel(surface, box, edge=hud.GOLD)
        hud.blit_text(surface, self.title, (box.centerx, box.top + 18), 40, hud.GOLD, anchor="midtop")
        for row, line in enumerate(self._question_lines(surface.get_size())):
            hud.blit_text(surface, line, (box.centerx, box.top + 70 + 30 * row), 24, hud.WHITE, anchor="midtop")
        for rect, (key, text, _) in zip(self._choice_rects(surface.get_size()), self.choices):
            pygame.draw.rect(surface, (38, 30, 62), rect, border_radius=8)
            pygame.draw.rect(surface, hud.PANEL_EDGE, rect, 2, border_radius=8)
            k = hud.badge(surface, key, (rect.left + 10, rect.centery), (210, 200, 240), anchor="midleft", size=20)
            hud.blit_text(surface, text, (k.right + 8, rect.centery), 24, hud.WHITE, anchor="midleft")


def matches(entry: LevelEntry, query: str) -> bool:
    r"""True when every word of ``query`` is in the level's title or file name (any case).

    >>> from pathlib import Path
    >>> from game.core.level import Level
    >>> e = LevelEntry("k", Path("007_drop.txt"), Level.from_text("# title: The Drop\n9\n0\nXXX\nX<T\nXXX\n"))
    >>> matches(e, "drop"), matches(e, "the 007"), matches(e, "stairs")
    (True, True, False)
    """
    haystack = f"{entry.title} {entry.path.name if entry.path is not None else ''}".lower()
    return all(word in haystack for word in query.lower().split())


class OpenPrompt(Scene):
    """Pick a level to edit: the player's levels first, then the pack's, as a scrolling list; typing
    filters it (Backspace deletes, Ctrl+A selects the search so the next key replaces it, Esc clears the
    search, then cancels)."""

    transparent = True
    text_entry = True  # typed letters search (M does not mute)
    ROW = 34
    #: Where the rows start under the box's top (under the title and the search line).
    ROWS_TOP = 100

    def __init__(self, app: App, on_pick: Callable[[Any], None]) -> None:
        super().__init__(app)
        #: every level, the player's own first
        self.every_level = sorted(all_entries(), key=lambda e: e.section != Section.USER)
        self.field = TextField("", max_len=40)  #: the search (Ctrl+A selects it: the next key replaces it)
        self.entries = self.every_level  #: the levels the search keeps
        self.cursor = 0
        self.on_pick = on_pick
        self.top_index = 0

    @property
    def query(self) -> str:
        """The search typed so far."""
        return self.field.text

    def search(self, query: str) -> None:
        """Keep the levels matching ``query`` (the cursor goes to the first)."""
        if query != self.query:
            self.field.set(query)
        self.entries = [e for e in self.every_level if matches(e, query)]
        self.cursor = self.top_index = 0

    def _box(self, size: tuple[int, int]) -> pygame.Rect:
        box = pygame.Rect(0, 0, min(640, size[0] - 40), min(560, size[1] - 80))
        box.center = (size[0] // 2, size[1] // 2)
        return box

    def _visible(self, size: tuple[int, int]) -> int:
        return max(1, (self._box(size).height - self.ROWS_TOP - 60) // self.ROW)

    def _row_rect(self, i: int, size: tuple[int, int]) -> pygame.Rect:
        box = self._box(size)
        return pygame.Rect(box.left + 16, box.top + self.ROWS_TOP + (i - self.top_index) * self.ROW, box.width - 32,
                           self.ROW - 4)

    def pick(self, i: int) -> None:
        """Close the list and open entry ``i`` (of the levels the search keeps)."""
        if 0 <= i < len(self.entries):
            self.app.pop()
            self.on_pick(self.entries[i])

    def handle_event(self, action: Action) -> None:
        """Typing (search), Backspace, Ctrl+A, Up/Down, wheel, Enter, click, Esc."""
        k = action.kind
        n = len(self.entries)
        if k == Act.BACK:
            if self.query:
                self.search("")
            else:
                self.app.pop()
        elif k == Act.TEXT and action.text.isprintable():
            self.field.insert(action.text)
            self.search(self.query)
        elif k == Act.CLEAR:
            self.field.handle(k)
            self.search(self.query)
        elif k == Act.SELECT_ALL:
            self.field.handle(k)
        elif k == Act.CONFIRM:
            self.pick(self.cursor)
        elif k == Act.UP and n:
            self.cursor = (self.cursor - 1) % n
        elif k == Act.DOWN and n:
            self.cursor = (self.cursor + 1) % n
        elif k == Act.SCROLL and n:
            self.cursor = max(0, min(n - 1, self.cursor - action.value))
        elif k in (Act.CLICK, Act.HOVER) and action.pos is not None:
            size = self.app.screen.get_size()
            for i in range(self.top_index, min(n, self.top_index + self._visible(size))):
                if self._row_rect(i, size).collidepoint(action.pos):
                    self.cursor = i
                    if k == Act.CLICK:
                        self.pick(i)
                    return

    def update(self, dt: float) -> None:
        """Keep the cursor in view."""
        vis = self._visible(self.app.screen.get_size())
        if self.cursor < self.top_index:
            self.top_index = self.cursor
        elif self.cursor >= self.top_index + vis:
            self.top_index = self.cursor - vis + 1

    def draw(self, surface: pygame.Surface) -> None:
        """The search line and the list of levels."""
        _dim(surface)
        size = surface.get_size()
        box = self._box(size)
        hud.panel(surface, box, edge=hud.GOLD)
        hud.blit_text(surface, "Open a level", (box.centerx, box.top + 14), 40, hud.GOLD, anchor="midtop")
        field = pygame.Rect(box.left + 16, box.top + 56, box.width - 32, 32)
        pygame.draw.rect(surface, (10, 8, 20), field, border_radius=6)
        pygame.draw.rect(surface, hud.PANEL_EDGE, field, 1, border_radius=6)
        if self.query:
            shown = hud.fit_text(f"search: {self.query}" + ("" if self.field.selected else "|"), 24, field.width - 20)
            if self.field.selected:
                start = hud.text("search: ", 24).get_width()
                w, h = hud.text(shown, 24).get_size()
                pygame.draw.rect(surface, SELECTION, (field.left + 8 + start, field.centery - h // 2, w - start + 4, h),
                                 border_radius=3)
            hud.blit_text(surface, shown, (field.left + 10, field.centery), 24, hud.WHITE, anchor="midleft")
        else:
            hud.blit_text(surface, "type to search", (field.left + 10, field.centery), 22, hud.MUTED,
                          anchor="midleft")
        if not self.entries:
            hud.blit_text(surface, "no level matches" if self.query else "no levels found",
                          (box.centerx, box.top + self.ROWS_TOP + 40), 28, hud.MUTED, anchor="center")
        for i in range(self.top_index, min(len(self.entries), self.top_index + self._visible(size))):
            self._draw_row(surface, i, self._row_rect(i, size))
        foot = "Up/Down: choose   Enter: open   " + (f"{key_hint(SELECT_ALL_KEY)}   Esc: clear the search"
                                                      if self.query else "Esc: cancel")
        hud.blit_text(surface, hud.fit_text(foot, 20, box.width - 20), (box.centerx, box.bottom - 52), 20,
                      hud.MUTED, anchor="midtop")
        hud.blit_text(surface, "a pack level is saved as a copy in your levels", (box.centerx, box.bottom - 28),
                      20, hud.MUTED, anchor="midtop")

    def _draw_row(self, surface: pygame.Surface, i: int, rect: pygame.Rect) -> None:
        e = self.entries[i]
        if i == self.cursor:
            pygame.draw.rect(surface, (60, 50, 96), rect, border_radius=6)
            pygame.draw.rect(surface, hud.GOLD, rect, 1, border_radius=6)
        pack = e.section == Section.PACK
        b = hud.badge(surface, "pack" if pack else "yours" if e.section == Section.USER else e.section.value,
                      (rect.left + 6, rect.centery), hud.GOLD if pack else hud.BLUE, anchor="midleft", size=18)
        lv = e.level
        info = hud.blit_text(surface, f"{lv.height}x{lv.width}  N {lv.frames}  B {lv.budget}",
                             (rect.right - 8, rect.centery), 20, hud.MUTED, anchor="midright")
        hud.blit_text(surface, hud.fit_text(e.title, 26, info.left - b.right - 24), (b.right + 10, rect.centery), 26,
                      hud.WHITE, anchor="midleft")


def _dim(surface: pygame.Surface) -> None:
    veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    veil.fill((6, 4, 16, 150))
    surface.blit(veil, (0, 0))


__all__ = ["ConfirmPrompt", "OpenPrompt", "TextPrompt", "matches"]
