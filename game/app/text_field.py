"""An editable line of text with a cursor, and its drawing over one or several wrapped lines.

:class:`TextField` holds the text and the cursor (Left/Right, Home/End, typing and pasting insert at the
cursor, Backspace deletes before it, Delete after it) and whether the whole text is selected (a default
text the player has not typed, or after Ctrl+A: typing or pasting replaces it, Backspace or Delete
erases it, a cursor key ends the selection); :func:`wrap_chars` breaks a text that may have no
spaces (JSON, a level code) into lines that fit a width, and :func:`draw_field` draws the lines that hold
the cursor, with the caret where it is.

>>> f = TextField("classc", max_len=20)
>>> f.handle(Act.LEFT), f.insert("i"), f.text, f.cursor
(True, None, 'classic', 6)
>>> f.handle(Act.FIRST_FRAME), f.handle(Act.DELETE), f.text, f.cursor
(True, True, 'lassic', 0)
>>> g = TextField("Untitled", selected=True)
>>> g.insert("W"), g.text, g.cursor, g.selected
(None, 'W', 1, False)
>>> g.handle(Act.SELECT_ALL), g.handle(Act.CLEAR), g.text
(True, True, '')
"""

from __future__ import annotations

import pygame

from game.app import hud
from game.app.input import Act

#: Field background, caret and selection colours.
FIELD_FILL = (10, 8, 20)
CARET = (250, 210, 90)
SELECTION = (70, 80, 150)
#: Select all, as the footers of the text boxes name it.
SELECT_ALL_KEY = ("Ctrl+A", "select all")
#: The row of the F1 pages that names the keys every text box has besides typing and the cursor keys.
TEXT_BOX_KEYS = ("Ctrl+A / Ctrl+V", "in a text box: select all / paste")


class TextField:
    """``text`` with a ``cursor`` (an index from 0 to ``len(text)``), at most ``max_len`` characters;
    ``selected``: the whole text is selected (the next edit replaces it)."""

    def __init__(self, text: str, *, max_len: int = 60, selected: bool = False) -> None:
        self.max_len = max_len
        self.text = text[:max_len]
        self.cursor = len(self.text)
        self.selected = selected and bool(self.text)

    def set(self, text: str) -> None:
        """Replace the text (cut to ``max_len``), the cursor after it, nothing selected."""
        self.text, self.selected = text[: self.max_len], False
        self.cursor = len(self.text)

    def _drop_selection(self) -> None:
        """Erase the selected text, if any."""
        if self.selected:
            self.set("")

    def at(self) -> int:
        """The cursor, kept within the text (the text may have been set directly)."""
        self.cursor = max(0, min(len(self.text), self.cursor))
        return self.cursor

    def insert(self, s: str) -> None:
        """Insert ``s`` at the cursor (what fits under ``max_len``; in place of the selection, if any) and
        move the cursor after it."""
        if s:
            self._drop_selection()
        at = self.at()
        s = s[: max(0, self.max_len - len(self.text))]
        self.text = self.text[:at] + s + self.text[at:]
        self.cursor = at + len(s)

    def handle(self, kind: Act) -> bool:
        """Move the cursor, delete a character or the selection, or select all (Ctrl+A) for ``kind``;
        False when ``kind`` is no editing key."""
        if kind == Act.SELECT_ALL:
            self.selected, self.cursor = bool(self.text), len(self.text)
            return True
        if self.selected and kind in (Act.CLEAR, Act.DELETE):
            self._drop_selection()
            return True
        if self.selected and kind in (Act.LEFT, Act.RIGHT):  # the cursor goes to that end of the selection
            self.selected, self.cursor = False, 0 if kind == Act.LEFT else len(self.text)
            return True
        at = self.at()
        if kind == Act.LEFT:
            self.cursor = max(0, at - 1)
        elif kind == Act.RIGHT:
            self.cursor = min(len(self.text), at + 1)
        elif kind == Act.FIRST_FRAME:  # Home
            self.cursor = 0
        elif kind == Act.LAST_FRAME:  # End
            self.cursor = len(self.text)
        elif kind == Act.CLEAR:  # Backspace
            if at:
                self.text, self.cursor = self.text[:at - 1] + self.text[at:], at - 1
        elif kind == Act.DELETE:
            self.text = self.text[:at] + self.text[at + 1:]
        else:
            return False
        self.selected = False
        return True


def wrap_chars(text: str, size: int, width: int) -> list[int]:
    """Where each line starts when ``text`` is broken (anywhere, after a space when one is near) into lines
    at most ``width`` pixels wide at text size ``size``; always at least one line.

    >>> import pygame; _ = pygame.font.init()
    >>> wrap_chars("", 20, 100), wrap_chars("abc", 20, 1000)
    ([0], [0])
    >>> starts = wrap_chars("x" * 200, 20, 100)
    >>> len(starts) > 5 and all(hud.text("x" * (b - a), 20, shadow=False).get_width() <= 100
    ...                         for a, b in zip(starts, starts[1:]))
    True
    """
    f = hud.font(size)
    starts = [0]
    while True:
        start = starts[-1]
        lo, hi = start + 1, len(text)  # the longest line from ``start`` that fits: text[start:lo] fits
        if f.size(text[start:hi])[0] <= width:
            return starts
        while lo < hi - 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if f.size(text[start:mid])[0] <= width else (lo, mid)
        space = text.rfind(" ", start, lo)
        starts.append(space + 1 if space >= 0 and lo - space < 24 and space + 1 > start else lo)


def draw_selection(surface: pygame.Surface, line: str, at: tuple[int, int], size: int) -> None:
    """The shade of a selected ``line`` of text drawn with its top left at ``at`` (draw it over the shade)."""
    width, height = hud.text(line, size, shadow=False).get_size()
    pygame.draw.rect(surface, SELECTION, (at[0] - 2, at[1] - 2, width + 4, height + 4), border_radius=3)


def draw_field(surface: pygame.Surface, field: TextField, rect: pygame.Rect, size: int, *, lines: int,
               caret_on: bool) -> None:
    """``field`` in ``rect``: its text wrapped to the rect, the ``lines`` lines around the cursor shown, a
    caret at the cursor (when ``caret_on``), the selection shaded, and "more above/below" marks when some
    lines are hidden."""
    pygame.draw.rect(surface, FIELD_FILL, rect, border_radius=6)
    pygame.draw.rect(surface, hud.PANEL_EDGE, rect, 2, border_radius=6)
    inner = rect.width - 24
    text, at = field.text, field.at()
    starts = wrap_chars(text, size, inner)
    row = max(k for k, s in enumerate(starts) if s <= at)
    first = max(0, min(row - lines // 2, len(starts) - lines))
    line_h = size + 6
    top = rect.top + (rect.height - min(lines, len(starts)) * line_h) // 2
    for k in range(first, min(len(starts), first + lines)):
        end = starts[k + 1] if k + 1 < len(starts) else len(text)
        y = top + (k - first) * line_h
        if field.selected:
            draw_selection(surface, text[starts[k]:end], (rect.left + 12, y), size)
        hud.blit_text(surface, text[starts[k]:end], (rect.left + 12, y), size, hud.WHITE)
        if k == row and caret_on:
            x = rect.left + 12 + hud.text_width(text[starts[k]:at], size, shadow=False)
            pygame.draw.line(surface, CARET, (x, y + 2), (x, y + size), 2)
    if first > 0:
        hud.blit_text(surface, "more above", (rect.right - 8, rect.top + 2), 16, hud.MUTED, anchor="topright")
    if first + lines < len(starts):
        hud.blit_text(surface, "more below", (rect.right - 8, rect.bottom - 2), 16, hud.MUTED, anchor="bottomright")


__all__ = ["SELECTION", "SELECT_ALL_KEY", "TEXT_BOX_KEYS", "TextField", "draw_field", "draw_selection", "wrap_chars"]
