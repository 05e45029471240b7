"""The pause menu (Esc while playing) and the help screen listing every key (F1).

The pause menu is drawn over the play scene: Resume, Restart, Levels (or "Back to editor"
for a play-test), Edit level (the editor over the level; not in a play-test), Share level code, Settings,
Quit to menu.  Quit asks to confirm (Enter / Y: yes, Esc / N: no);
so does leaving an unsolved level that ends something (``play.leave_warning``, e.g. an Endless
streak).  Quitting to the menu puts the level aside without ending anything, as closing the window does.  Esc in the pause menu resumes.
"""

from __future__ import annotations

import enum
from typing import Callable, Protocol

import pygame

from game.core.catalog import LevelEntry
from game.core.level import Level
from game.app import hud
from game.app.app import App, HelpPage, Scene
from game.app.input import Act, Action, display_key
from game.app.play_state import PlayState
from game.app.play_reload import reopen_saved
from game.app.sound import Sfx
from game.app.text_field import TEXT_BOX_KEYS


class PausedPlay(Protocol):
    """What the pause menu uses of the play scene it pauses (the play scene satisfies it)."""

    @property
    def level(self) -> Level:
        """The level played."""

    @property
    def state(self) -> PlayState:
        """Where the playback is."""

    @property
    def back_label(self) -> str:
        """Where "Levels" goes ("levels", "editor", ...)."""

    @property
    def entry(self) -> LevelEntry | None:
        """The level's catalog entry (None when it has none, e.g. a code)."""

    @property
    def leave_warning(self) -> Callable[[], str]:
        """What leaving the level unsolved ends ('' when nothing)."""

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the play scene (under the menu)."""

    def restart(self) -> None:
        """Restart the level."""

    def back(self) -> None:
        """Leave the level."""

    def suspend(self) -> None:
        """Put the level aside for the title menu (not given up)."""


class PauseChoice(str, enum.Enum):
    """The pause menu's entries."""

    RESUME = "Resume"
    RESTART = "Restart"
    LEVELS = "Levels"
    EDIT = "Edit level"
    SHARE = "Share level code"
    SETTINGS = "Settings"
    QUIT = "Quit to menu"


#: Where "Levels" goes -> how the pause menu names it when that is a mode of the game (a proper name).
MODE_NAMES = {"endless": "Endless"}

_veils: dict[tuple[tuple[int, int], int], pygame.Surface] = {}


def _veil(surface: pygame.Surface, alpha: int = 150) -> None:
    """Darken the scene below; blank its hint bar (this scene draws its own)."""
    key = (surface.get_size(), alpha)
    veil = _veils.get(key)
    if veil is None:
        _veils.clear()
        veil = _veils[key] = pygame.Surface(surface.get_size())
        veil.fill((6, 4, 16))
        veil.set_alpha(alpha)
    surface.blit(veil, (0, 0))
    w, h = surface.get_size()
    surface.fill((10, 7, 20), pygame.Rect(0, h - hud.BOTTOM_BAR, w, hud.BOTTOM_BAR))


class PauseScene(Scene):
    """Esc while playing: a menu over the frozen level.

    The level does not move under the menu, so it is drawn once (darkened) into a cached
    picture and reused every frame; coming back from Settings redraws it (e.g. a new palette).
    """

    def __init__(self, app: App, play: PausedPlay) -> None:
        super().__init__(app)
        self.play = play
        self.cursor = 0
        #: the entry whose question is shown ("Quit to the menu?", "Leave this level?"), or None
        self.asking: PauseChoice | None = None
        #: every entry ("Edit level" only for a level that is not already a play-test of the editor)
        self.choices = [c for c in PauseChoice if c != PauseChoice.EDIT or play.back_label != "editor"]
        self._below: pygame.Surface | None = None

    def on_enter(self) -> None:
        """(Re)entering: the frozen picture of the level may be stale."""
        self._below = None

    def _frozen_level(self, size: tuple[int, int]) -> pygame.Surface:
        """The level as it stands, darkened (a cache: drawing it changes no game state)."""
        if self._below is None or self._below.get_size() != size:
            below = pygame.Surface(size)
            self.play.draw(below)
            _veil(below)
            self._below = below
        return self._below

    def label(self, choice: PauseChoice) -> str:
        """The text of an entry (Levels reads "Back to editor" for a play-test, "Back to Endless" in the
        Endless mode, its name capitalised as on the title menu)."""
        if choice == PauseChoice.LEVELS:
            place = self.play.back_label
            return "Level select" if place == "levels" else f"Back to {MODE_NAMES.get(place, place)}"
        return str(choice.value)

    def choose(self, choice: PauseChoice) -> None:
        """Run one entry."""
        self.app.sound.play(Sfx.CLICK)
        if choice == PauseChoice.RESUME:
            self.app.pop()
        elif choice == PauseChoice.RESTART:
            self.app.pop()
            self.play.restart()
        elif choice == PauseChoice.LEVELS and self.warning() and self.asking is None:
            self.asking = PauseChoice.LEVELS
        elif choice == PauseChoice.LEVELS:
            self.asking = None
            self.app.pop()
            self.play.back()
        elif choice == PauseChoice.EDIT:
            self.edit()
        elif choice == PauseChoice.SHARE:
            self.app.open("share_code", self.play.level)
        elif choice == PauseChoice.SETTINGS:
            self.app.open("settings")
        elif choice == PauseChoice.QUIT:
            self.asking = PauseChoice.QUIT

    def edit(self) -> None:
        """Open the editor on the level (over it: leaving the editor comes back here); a level that is
        not one of the player's own is saved as a copy in their levels."""
        self.app.pop()  # this menu
        editor = self.app.open("editor")
        entry = self.play.entry
        if entry is not None:
            editor.load_entry(entry)
            play = self.play
            if isinstance(play, Scene):  # a file of the player's may be saved: then played as saved
                editor.on_close = lambda: reopen_saved(self.app, play, entry)
        else:
            editor.load(self.play.level, source="the level you played")

    @property
    def confirming(self) -> bool:
        """True while a question is shown."""
        return self.asking is not None

    def warning(self) -> str:
        """What leaving the level unsolved ends (e.g. "your Endless streak of 3 ends"), or ""."""
        if self.play.state == PlayState.WON:
            return ""
        return self.play.leave_warning()

    def quit_to_menu(self) -> None:
        """Leave the level for the title menu (the bricks stay remembered; the level is put aside, not
        given up, as when the window is closed)."""
        self.play.suspend()
        self.app.pop()  # this menu
        while self.app.scenes and not self.app.showing("menu"):
            self.app.pop()
        if not self.app.scenes:  # started without a menu below: open one
            self.app.running = True
            self.app.open("menu")

    def _rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        box = self._box(size)
        return hud.menu_rects(size, len(self.choices), box.top + 60, box.bottom - 10, width=box.width - 40)

    @staticmethod
    def _box(size: tuple[int, int]) -> pygame.Rect:
        w, h = size
        box = pygame.Rect(0, 0, min(380, w - 40), min(400, h - hud.TOP_BAR - hud.BOTTOM_BAR - 10))
        box.center = (w // 2, (hud.TOP_BAR + h - hud.BOTTOM_BAR) // 2)
        return box

    def handle_event(self, action: Action) -> None:
        """Up/Down, Enter, click; Esc resumes (or cancels the quit question)."""
        k = action.kind
        if self.asking is not None:
            if k == Act.CONFIRM or (k == Act.TEXT and action.text.lower() == "y"):
                if self.asking == PauseChoice.QUIT:
                    self.quit_to_menu()
                else:
                    self.choose(self.asking)
            elif k == Act.BACK or (k == Act.TEXT and action.text.lower() == "n"):
                self.asking = None
            return
        n = len(self.choices)
        if k == Act.BACK or k == Act.TOGGLE_RUN:
            self.choose(PauseChoice.RESUME)
        elif k == Act.UP:
            self.cursor = (self.cursor - 1) % n
        elif k == Act.DOWN:
            self.cursor = (self.cursor + 1) % n
        elif k == Act.CONFIRM:
            self.choose(self.choices[self.cursor])
        elif k in (Act.CLICK, Act.HOVER) and action.pos is not None:
            for i, rect in enumerate(self._rects(self.app.screen.get_size())):
                if rect.collidepoint(action.pos):
                    self.cursor = i
                    if k == Act.CLICK:
                        self.choose(self.choices[i])

    def draw(self, surface: pygame.Surface) -> None:
        """The frozen level, the menu box, and the confirmation question."""
        size = surface.get_size()
        surface.blit(self._frozen_level(size), (0, 0))
        box = self._box(size)
        hud.panel(surface, box, alpha=245, edge=hud.GOLD)
        hud.blit_text(surface, "Paused", (box.centerx, box.top + 14), 44, hud.GOLD, anchor="midtop")
        rects = hud.menu_rects(size, len(self.choices), box.top + 60, box.bottom - 10, width=box.width - 40)
        hud.menu_list(surface, [self.label(c) for c in self.choices], -1 if self.confirming else self.cursor,
                      box.top + 60, box.bottom - 10, width=box.width - 40)
        if self.asking is not None:
            quitting = self.asking == PauseChoice.QUIT
            ask = pygame.Rect(0, 0, min(520, size[0] - 30), 120)
            ask.center = rects[self.choices.index(self.asking)].center if rects else box.center
            ask.clamp_ip(surface.get_rect())
            hud.panel(surface, ask, alpha=250, edge=hud.RED)
            question = "Quit to the menu?" if quitting else "Leave this level?"
            hud.blit_text(surface, question, (ask.centerx, ask.top + 14), 36, hud.WHITE, anchor="midtop")
            warning = "" if quitting else self.warning()  # quitting puts the level aside: nothing ends
            note = warning or "your bricks on this level are kept"
            hud.blit_text(surface, hud.fit_text(note, 22, ask.width - 20), (ask.centerx, ask.top + 52), 22,
                          hud.RED if warning else hud.MUTED, anchor="midtop")
            verb = "quit" if quitting else "leave"
            hud.blit_text(surface, f"Enter / Y: {verb}     Esc / N: stay", (ask.centerx, ask.top + 84), 22, hud.GOLD,
                          anchor="midtop")
            hud.hint_bar(surface, [("Enter/Y", "quit to menu" if quitting else "leave"), ("Esc/N", "stay")])
        else:
            hud.hint_bar(surface, [("Up/Down", "choose"), ("Enter", "select"), ("Esc", "resume"), ("F1", "all keys")])


#: Every key of the game, for the help screen: (section, [(key, what), ...]).
HELP_SECTIONS: list[tuple[str, list[tuple[str, str]]]] = [
    ("Placing bricks", [
        ("Click / Right-click", "place or remove a brick"),
        ("Arrows", "move the brick cursor"),
        ("Shift+Arrows", "cursor, any time (editor too)"),
        ("Enter or B", "brick at the cursor (editor: B)"),
        ("Z / Y", "undo / redo"),
        ("Backspace", "remove every brick"),
    ]),
    ("Running", [
        ("Space", "release / pause / resume"),
        (", and .", "one frame back / forward"),
        ("Left / Right", "step, once released"),
        ("+ / -", "speed"),
        ("R", "back to the start, bricks kept"),
        ("Timeline / Home End", "drag to any frame / ends"),
        ("P", "trajectory preview"),
        ("N", "row / column ruler"),
    ]),
    ("Assistant", [
        ("H", "hint"), ("S", "solve"), ("A", "all solutions"), ("Tab", "next solver"),
        ("F", "deductions"), ("G", "export a GIF"), ("[ / ]", "browse solutions"),
    ]),
    ("Level select", [
        ("W", "watch your winning runs"), ("C", "the level's code"),
        ("E", "edit the level"), ("U", "your levels (title menu too)"),
    ]),
    ("Anywhere", [
        ("Esc", "close a message / pause menu"),
        ("M", "sound on / off"),
        ("F1", "this help"),
        ("F12", "screenshot"),
        TEXT_BOX_KEYS,
    ]),
]


#: The game's own help page (F1 anywhere but where a scene has its own, e.g. the editor).
GAME_HELP = HelpPage("Keys", tuple((section, tuple(keys)) for section, keys in HELP_SECTIONS))
#: The help's font sizes, largest first: the largest at which the page fits is used.
HELP_SIZES = (22, 20, 18, 17, 16, 15, 14)
#: Where the help's sections start (under the title).
HELP_TOP = 52


def help_layout(page: HelpPage, size: tuple[int, int]) -> tuple[int, int, list[int]]:
    """``(font size, columns, column of each section)`` for ``page`` on a window of ``size``: the largest
    size at which every row fits above the footer and every row's text fits its column."""
    w, h = size
    rows = [len(keys) + 1 for _, keys in page.sections]
    for columns in ((2, 1) if w >= 600 else (1,)):
        col_w = (w - 40) // columns
        for font_size in HELP_SIZES:
            placed = _columns_of(rows, columns, font_size, h)
            if placed is not None and _widths_fit(page, font_size, col_w):
                return font_size, columns, placed
    columns = 2 if w >= 600 else 1
    return HELP_SIZES[-1], columns, _balanced(rows, columns)


def _balanced(rows: list[int], columns: int) -> list[int]:
    """Sections over ``columns`` columns in order, each column about as tall as the others."""
    per_column = -(-sum(rows) // columns)
    out: list[int] = []
    col = used = 0
    for n in rows:
        if used and used + n // 2 > per_column and col + 1 < columns:
            col, used = col + 1, 0
        used += n
        out.append(col)
    return out


def _columns_of(rows: list[int], columns: int, font_size: int, height: int) -> list[int] | None:
    """The balanced columns of the sections when every column fits above the footer, else None."""
    placed = _balanced(rows, columns)
    line = font_size + 4
    for col in range(columns):
        used = [n for n, c in zip(rows, placed) if c == col]
        if HELP_TOP + sum(n * line + 10 for n in used) > height - hud.BOTTOM_BAR - 4:
            return None
    return placed


def _widths_fit(page: HelpPage, font_size: int, col_w: int) -> bool:
    key_w = _key_width(page, font_size, col_w)
    return all(hud.text_width(what, font_size) <= col_w - key_w - 20
               for _, keys in page.sections for _, what in keys)


def _key_width(page: HelpPage, font_size: int, col_w: int) -> int:
    """The width of the keys' column (the widest key, at most half the column)."""
    shown = display_key if page.as_bound else str
    widest = max(hud.text_width(shown(key), font_size) for _, keys in page.sections for key, _ in keys)
    return min(widest + 26, col_w // 2)


class HelpScene(Scene):
    """A help page of keys (default: every key of the game, as the player bound it,
    :func:`game.app.input.display_key`), in columns; any key closes it."""

    transparent = True

    def __init__(self, app: App, page: HelpPage | None = None) -> None:
        super().__init__(app)
        self.page = page if page is not None else GAME_HELP

    def handle_event(self, action: Action) -> None:
        """Esc, Enter, F1, click or Space closes."""
        if action.kind in (Act.BACK, Act.CONFIRM, Act.HELP, Act.CLICK, Act.TOGGLE_RUN):
            self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        """The key table, in two columns on windows wide enough, at the largest size that fits."""
        _veil(surface, 245)
        w, h = surface.get_size()
        page = self.page
        size, columns, placed = help_layout(page, (w, h))
        line = size + 4
        col_w = (w - 40) // columns
        key_w = _key_width(page, size, col_w)
        shown = display_key if page.as_bound else str
        hud.blit_text(surface, page.title, (w // 2, 10), 40, hud.GOLD, anchor="midtop")
        tops = [HELP_TOP] * columns
        for (section, keys), col in zip(page.sections, placed):
            x, y = 20 + col * col_w, tops[col]
            hud.blit_text(surface, section, (x, y), size + 2, hud.GOLD)
            y += line + 2
            for key, what in keys:
                hud.blit_text(surface, shown(key), (x + 10, y), size, hud.WHITE)  # as the player bound it
                hud.blit_text(surface, hud.fit_text(what, size, col_w - key_w - 20), (x + key_w, y), size, hud.MUTED)
                y += line
            tops[col] = y + 8
        hud.hint_bar(surface, [("Esc", "close")])
