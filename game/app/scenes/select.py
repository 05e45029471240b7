"""The level select screen: the pack's worlds (and the player's levels) as cards with progress marks.

Cards are grouped under a header per world (``World 2 · Rising Ground  4/10 solved``) and
one for the player's own levels.  A world opens once most of the previous one is solved
(:func:`game.app.world_unlock.locked_entries`); a locked world's cards are dimmed with a
padlock, and opening one says what is left to do.  Each card shows the level number,
title, a thumbnail of the map, a solved mark, the best brick count and a "changed" mark
when the level file no longer matches the one solved.  The cursor starts on the first
unsolved level of an open world, so Enter opens it.  E opens the editor on the chosen level (a pack
level is saved as a copy among the player's levels; the list is read again when the editor closes),
and U moves the cursor to the player's own levels.
"""

from __future__ import annotations

import math
from typing import Callable

import pygame

from game.core.pack import UNLOCK_FRACTION, group_worlds, migrate_keys, world_name
from game.core.progress import LevelStatus
from game.core.resume import continue_index
from game.app import hud
from game.app.app import App, Scene
from game.core.catalog import LevelEntry, Section, all_entries, entry_badge, user_levels_stamp
from game.app.input import Act, Action
from game.app.render import LevelRenderer
from game.app.world_unlock import locked_entries, world_label
from game.app.scenes.select_cards import (CARD_H, CARD_W, GAP, THUMB_SIZE, draw_card, draw_lock, solved_count,
                                          thumbnail)

#: Height of a world's header band above its cards.
HEADER_H = 34
#: Header of the player's own levels.
USER_GROUP = "Your levels"


def entry_groups(entries: list[LevelEntry]) -> list[tuple[str, int, int]]:
    """``(name, first, count)`` per group of cards: the pack's worlds in order, then the player's levels."""
    names = [world_name(e.level) if e.section == "pack" else USER_GROUP for e in entries]
    return group_worlds(names)


def first_unsolved(entries: list[LevelEntry], statuses: list[LevelStatus], locked: list[bool] | None = None) -> int:
    """Index of the first open level not solved (or changed since), else 0."""
    for i, st in enumerate(statuses):
        if (not st.solved or st.changed) and not (locked and locked[i]):
            return i
    return 0


#: The footer's keys.
FOOTER = [("Arrows", "choose"), ("Enter", "play"), ("E", "edit"), ("U", "your levels"), ("W", "replays"),
          ("C", "level code"), ("Esc", "menu")]
#: The top bar's title.
TITLE = "Choose a level"
#: What the cards' marks mean, right of the footer's keys when there is room.
LEGEND = "check: solved   AI: solved with AI help   P: par (fewest bricks)"


def legend_at(size: tuple[int, int], solved: str) -> tuple[tuple[int, int], str, int] | None:
    """Where :data:`LEGEND` goes on a window of ``size``: its position, anchor and font size.  Right of
    the footer's keys, else in the top bar between the title and the ``solved`` count; None when there
    is room in neither."""
    w, h = size
    shown, keys_size = hud.fit_hints(FOOTER, w)
    keys_end = 12 + hud.hints_width(shown, keys_size)
    left, right = 16 + hud.text_width(TITLE, 36), w - 16 - hud.text_width(solved, 28)
    for font in (18, 16):
        need = hud.text_width(LEGEND, font) + 24
        if keys_end + need <= w:
            return (w - 12, h - hud.BOTTOM_BAR // 2), "midright", font
        if need <= right - left:
            return ((left + right) // 2, hud.TOP_BAR // 2), "center", font
    return None


class LevelSelectScene(Scene):
    """Pick a level.  Arrows move, Enter/click opens, Esc goes back."""

    def __init__(self, app: App, entries: list[LevelEntry] | None = None,
                 entries_source: Callable[[], list[LevelEntry]] = all_entries) -> None:
        super().__init__(app)
        #: where the list is read again after the editor (None: a fixed list was given)
        self._source = entries_source if entries is None else None
        #: the player's level files as last read (saved from the editor anywhere: the list is read again)
        self._stamp = user_levels_stamp()
        self.statuses: list[LevelStatus] = []
        self.cursor = 0
        self.scroll = 0.0
        self.anim = 0.0
        self.renderer = LevelRenderer()
        self._thumbs: dict[str, pygame.Surface] = {}
        if migrate_keys(self.app.progress.records):  # progress saved before the pack was renumbered
            try:
                self.app.progress.save()
            except OSError:
                pass
        self.set_entries(entries if entries is not None else entries_source())
        self.cursor = self.next_unsolved()
        self._follow = True  #: keep the cursor's card in view (off while the wheel scrolls)
        self._played = False  #: a level was opened from here (coming back focuses the one played last)
        self._edited: str | None = None  #: the key of the level opened in the editor from here

    def set_entries(self, entries: list[LevelEntry]) -> None:
        """Show ``entries`` (grouped into worlds, then the player's levels)."""
        self.entries = entries
        self.groups = entry_groups(self.entries)
        self.group_of = [g for g, (_, first, count) in enumerate(self.groups) for _ in range(count)]
        self._thumbs.clear()
        self.refresh()  # (sets which worlds are open and which cards locked)

    def next_unsolved(self) -> int:
        """Where the cursor opens: the level played last while unsolved, else the next unsolved one
        after it (as Continue), within the open worlds; else the first unsolved open level."""
        solved = [st.solved_now for st in self.statuses]
        i = continue_index([e.key for e in self.entries], solved, self.app.resume.last_key, self.locked)
        if i is not None and not solved[i]:
            return i
        return first_unsolved(self.entries, self.statuses, self.locked)

    def max_scroll(self, size: tuple[int, int]) -> float:
        """How far the list scrolls: the last card's bottom reaches the bottom of the view."""
        if not self.entries:
            return 0.0
        bottom = self.card_rect(len(self.entries) - 1, size).bottom + int(self.scroll)
        return float(max(0, bottom - (size[1] - hud.BOTTOM_BAR - 16)))

    def refresh(self) -> None:
        """Re-read the progress marks and which worlds are open."""
        self.statuses = [self.app.progress.status(e.key, e.level) for e in self.entries]
        self.locked: list[bool] = locked_entries(self.entries, [st.solved_now for st in self.statuses])
        self.group_open: list[bool] = [not self.locked[first] for _, first, _ in self.groups]

    def solved_in(self, group: int) -> int:
        """Levels of ``group`` solved (and not changed since)."""
        _, first, count = self.groups[group]
        return sum(1 for st in self.statuses[first:first + count] if st.solved_now)

    def world_label(self, group: int) -> str:
        """The header of ``group``, e.g. ``World 2 · Rising Ground``."""
        name, first, _ = self.groups[group]
        if self.entries[first].section != "pack":
            return name
        number = sum(1 for g in range(group + 1) if self.entries[self.groups[g][1]].section == "pack")
        return world_label(number, name)

    def need_before(self, group: int) -> int:
        """Levels of the world before ``group`` to solve for ``group`` to open."""
        return math.ceil(UNLOCK_FRACTION * self.groups[group - 1][2]) if group > 0 else 0

    def unlock_note(self, group: int, *, short: bool = False) -> str:
        """What is left to open the locked ``group``: how many more levels of the world before it to solve
        (``solve 3 more levels of World 1 · First Steps``; ``short``: the world's number only, as in the
        header).  When enough are solved but that world is itself locked, it is the one to open first."""
        before = self.world_label(group - 1)
        if short:
            before = before.split(" \u00b7 ")[0]
        more = self.need_before(group) - self.solved_in(group - 1)
        return f"solve {hud.plural(more, 'more level')} of {before}" if more > 0 else f"open {before} first"

    def lock_message(self, group: int) -> str:
        """What opens a locked world (the toast of a click on one of its levels)."""
        return f"{self.world_label(group)} is locked: {self.unlock_note(group)}"

    def on_enter(self) -> None:
        """Coming back from a level: refresh the marks and focus the level played last (the playlist
        may have moved on to later levels since this screen opened one)."""
        if self._edited is not None:  # back from the editor: a level may have been saved
            self._reload(self._edited)
        elif self._source is not None and user_levels_stamp() != self._stamp:  # saved from a level's editor
            self._reload(self.entries[self.cursor].key if self.entries else "")
        self.refresh()
        if self._played:
            keys = [e.key for e in self.entries]
            if self.app.resume.last_key in keys:
                self.cursor, self._follow = keys.index(self.app.resume.last_key), True

    # ----------------------------------------------------------------- layout
    def _columns(self, width: int) -> int:
        return max(1, (width - 2 * GAP) // (CARD_W + GAP))

    def grid_pos(self, i: int, cols: int) -> tuple[int, int, int]:
        """``(row, column, headers above)`` of card ``i``: each group starts a new row under its header."""
        row = 0
        for g, (_, first, count) in enumerate(self.groups):
            if i < first + count:
                r, c = divmod(i - first, cols)
                return row + r, c, g + 1
            row += -(-count // cols)
        return row, 0, len(self.groups)

    def card_rect(self, i: int, size: tuple[int, int]) -> pygame.Rect:
        """Where card ``i`` is drawn (scrolled)."""
        cols = self._columns(size[0])
        total_w = cols * CARD_W + (cols - 1) * GAP
        x0 = (size[0] - total_w) // 2
        y0 = hud.TOP_BAR + 16
        r, c, headers = self.grid_pos(i, cols)
        return pygame.Rect(x0 + c * (CARD_W + GAP), y0 + headers * HEADER_H + r * (CARD_H + GAP) - int(self.scroll),
                           CARD_W, CARD_H)

    def header_rect(self, group: int, size: tuple[int, int]) -> pygame.Rect:
        """The header band above ``group``'s first card."""
        card = self.card_rect(self.groups[group][1], size)
        cols = self._columns(size[0])
        width = cols * CARD_W + (cols - 1) * GAP
        return pygame.Rect(card.left, card.top - HEADER_H, width, HEADER_H - 4)

    def vertical(self, i: int, step: int, cols: int) -> int:
        """The card one row up (``step`` -1) or down (+1) from ``i``, nearest column; ``i`` at an edge."""
        row, col, _ = self.grid_pos(i, cols)
        same_row = [j for j in range(len(self.entries)) if self.grid_pos(j, cols)[0] == row + step]
        if not same_row:
            return i
        return min(same_row, key=lambda j: abs(self.grid_pos(j, cols)[1] - col))

    def _card_at(self, pos: tuple[int, int] | None) -> int | None:
        if pos is None:
            return None
        size = self.app.screen.get_size()
        for i in range(len(self.entries)):
            if self.card_rect(i, size).collidepoint(pos):
                return i
        return None

    # ----------------------------------------------------------------- actions
    def open(self, i: int) -> None:
        """Play level ``i``."""
        if 0 <= i < len(self.entries):
            self.cursor = i
            if self.locked[i]:
                self.app.toast(self.lock_message(self.group_of[i]), 3.0)
                return
            playable = [e for e, locked in zip(self.entries, self.locked) if not locked]
            self._played = True
            self.app.open("play", playlist=playable, index=playable.index(self.entries[i]))

    def edit(self, i: int) -> None:
        """E: open the editor on level ``i`` (a pack level is saved as a copy in the player's levels)."""
        if 0 <= i < len(self.entries):
            self._edited = self.entries[i].key
            editor = self.app.open("editor")
            editor.load_entry(self.entries[i])

    def _reload(self, key: str) -> None:
        """Read the list again, the cursor on ``key`` (or on the player's newest level when one was added)."""
        self._edited = None
        if self._source is None:
            return
        self._stamp = user_levels_stamp()
        before = {e.key for e in self.entries}
        self.set_entries(self._source())
        keys = [e.key for e in self.entries]
        added = [i for i, k in enumerate(keys) if k not in before]
        self.cursor = added[-1] if added else keys.index(key) if key in keys else min(self.cursor, len(keys) - 1)
        self.cursor, self._follow = max(0, self.cursor), True

    def played_from_here(self, key: str) -> None:
        """The cursor on level ``key``, opened over this screen by another (Continue): coming back
        focuses the level played last, as after a level opened from here."""
        keys = [e.key for e in self.entries]
        if key in keys:
            self.cursor, self._follow = keys.index(key), True
        self._played = True

    def show_user_levels(self) -> None:
        """U: the cursor on the first of the player's own levels (a note when there are none yet)."""
        mine = [i for i, e in enumerate(self.entries) if e.section == Section.USER]
        if not mine:
            self.app.toast("No levels of your own yet: press E to edit this one, or open the Editor", 4.0)
            return
        self.cursor, self._follow = mine[0], True

    def handle_event(self, action: Action) -> None:
        """Arrows, Enter, click, wheel, E (edit), U (your levels), Esc."""
        n = len(self.entries)
        cols = self._columns(self.app.screen.get_width())
        k = action.kind
        if k in (Act.LEFT, Act.RIGHT, Act.UP, Act.DOWN):
            self._follow = True
        if k == Act.BACK:
            self.app.pop()
        elif k == Act.CONFIRM and n:
            self.open(self.cursor)
        elif k == Act.LEFT and n:
            self.cursor = max(0, self.cursor - 1)
        elif k == Act.RIGHT and n:
            self.cursor = min(n - 1, self.cursor + 1)
        elif k == Act.UP and n:
            self.cursor = self.vertical(self.cursor, -1, cols)
        elif k == Act.DOWN and n:
            self.cursor = self.vertical(self.cursor, 1, cols)
        elif k == Act.CLICK:
            i = self._card_at(action.pos)
            if i is not None:
                self.open(i)
        elif k == Act.HOVER:
            i = self._card_at(action.pos)
            if i is not None:
                self.cursor = i
        elif (k == Act.COPY or (k == Act.TEXT and action.text.lower() == "c")) and n:
            self.app.open("share_code", self.entries[self.cursor].level)
        elif k == Act.TEXT and action.text.lower() == "w" and n:
            locked = self.lock_message(self.group_of[self.cursor]) if self.locked[self.cursor] else ""
            self.app.open("replays", self.entries[self.cursor], locked=locked)
        elif k == Act.TEXT and action.text.lower() == "e" and n:
            self.edit(self.cursor)
        elif k == Act.TEXT and action.text.lower() == "u":
            self.show_user_levels()
        elif k == Act.SCROLL:
            self._follow = False  # the wheel scrolls every world; the cursor may leave the view
            limit = self.max_scroll(self.app.screen.get_size())
            self.scroll = max(0.0, min(limit, self.scroll - action.value * (CARD_H + GAP) / 2))

    def update(self, dt: float) -> None:
        """Animate and keep the cursor's card in view."""
        self.anim += dt
        if not self.entries or not self._follow:
            return
        h = self.app.screen.get_height()
        rect = self.card_rect(self.cursor, self.app.screen.get_size())
        top, bottom = hud.TOP_BAR + 16 + HEADER_H, h - hud.BOTTOM_BAR - 16
        if rect.top < top:
            self.scroll -= top - rect.top
        elif rect.bottom > bottom:
            self.scroll += rect.bottom - bottom
        self.scroll = max(0.0, self.scroll)

    # ----------------------------------------------------------------- drawing
    def draw(self, surface: pygame.Surface) -> None:
        """Cards, header, hints."""
        self.renderer.draw_background(surface)
        size = surface.get_size()
        previous_clip = surface.get_clip()
        surface.set_clip(pygame.Rect(0, hud.TOP_BAR, size[0], max(0, size[1] - hud.TOP_BAR - hud.BOTTOM_BAR)))
        for g in range(len(self.groups)):
            head = self.header_rect(g, size)
            if hud.TOP_BAR - HEADER_H < head.top < size[1]:
                self._draw_header(surface, g, head)
        for i, entry in enumerate(self.entries):
            rect = self.card_rect(i, size)
            if rect.bottom < hud.TOP_BAR or rect.top > size[1]:
                continue
            thumb = self._thumbs.get(entry.key)
            if thumb is None:
                thumb = self._thumbs[entry.key] = thumbnail(entry.level, THUMB_SIZE)
            draw_card(surface, rect, entry, self.statuses[i], label=entry_badge(self.entries, i),
                      selected=i == self.cursor, thumb=thumb)
            if self.locked[i]:
                draw_lock(surface, rect)
        surface.set_clip(previous_clip)
        bar = hud.top_bar(surface)
        hud.blit_text(surface, TITLE, (16, bar.centery), 36, hud.WHITE, anchor="midleft")
        solved = solved_count(self.entries, self.statuses)  # the pack's (your levels: in their header)
        hud.blit_text(surface, solved, (size[0] - 16, bar.centery), 28, hud.GOLD, anchor="midright")
        hud.hint_bar(surface, FOOTER)
        legend = legend_at(size, solved)
        if legend is not None:
            at, anchor, font = legend
            hud.blit_text(surface, LEGEND, at, font, hud.MUTED, anchor=anchor)

    def _draw_header(self, surface: pygame.Surface, group: int, rect: pygame.Rect) -> None:
        """A world's name, its solved count, and a padlock line when it is locked."""
        _, _, count = self.groups[group]
        is_open = self.group_open[group]
        hud.blit_text(surface, self.world_label(group), (rect.left + 4, rect.centery), 28,
                      hud.GOLD if is_open else hud.MUTED, anchor="midleft")
        if is_open:
            note, color = f"{self.solved_in(group)} / {count} solved", hud.WHITE
        else:
            note, color = f"locked: {self.unlock_note(group, short=True)}", hud.MUTED
        hud.blit_text(surface, note, (rect.right - 4, rect.centery), 22, color, anchor="midright")
        pygame.draw.line(surface, hud.PANEL_EDGE, (rect.left, rect.bottom), (rect.right, rect.bottom), 1)
