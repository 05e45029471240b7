"""The play scene: place bricks, release the lemmings, watch (and scrub) the run.

The run for the current bricks is precomputed by the reference simulator
(:func:`game.simulation.simulate`, via :class:`~game.session.PlaySession`); playback only
moves a playhead ``t`` (in frames) over it, so stepping back is exact and movement between
frame ``i`` and ``i+1`` is interpolated.

States: ``placing`` (editing, lemmings waiting) -> ``running`` <-> ``paused`` -> ``won`` / ``lost``
(at the last frame).  Editing the bricks at any time returns to ``placing``.

Extending (e.g. the assistant, installed by :mod:`game.ui.scenes`): functions in
:data:`PLAY_SCENE_EXTENSIONS` are called with every new play scene; they can see every action first
through ``scene.interceptors`` (return True to consume it), add key handlers to ``scene.bindings``,
draw on the board through ``scene.overlays``, show ``scene.ghost_bricks`` / ``scene.highlights``, move the
win/lose panel out of the way while they show something (``scene.board_claims``), add ``scene.status_lines`` and
``scene.extra_hints`` (footer keys; they replace the scene's own hint for the same key), get per-frame
time with ``scene.updaters``, hear of edits and of leaving through ``scene.on_edit`` / ``scene.on_leave``,
and register themselves by name in ``scene.extensions``.  ``scene.apply_bricks(bricks)`` puts a brick set on
the undo chain; ``scene.current_view()`` is the :class:`~game.ui.render.FrameView` on screen.
"""

from __future__ import annotations

import enum
import math
from typing import Callable, Sequence

import pygame

from game.level import Brick, Level
from game.simulation import Run
from game.ui import hud
from game.ui.app import App, Scene
from game.catalog import LevelEntry
from game.ui.input import Act, Action
from game.ui.render import BoardLayout, FrameView, LevelRenderer
from game.session import EditResult, PlaySession

#: Playback speeds (multipliers of :data:`BASE_FPS`).
SPEEDS: tuple[int, ...] = (1, 2, 4, 8)
#: Simulation frames shown per second at 1x.
BASE_FPS = 5.0
#: How long the "no" cue lasts, in seconds.
DENY_SECONDS = 0.5
#: Fade-in when a level opens, in seconds.
FADE_IN_SECONDS = 0.25
#: How long the level's title card shows when it opens, in seconds.
INTRO_SECONDS = 1.8


class PlayState(str, enum.Enum):
    """Where the play scene is."""

    PLACING = "placing"
    RUNNING = "running"
    PAUSED = "paused"
    WON = "won"
    LOST = "lost"


def _without_keys(hints: list[tuple[str, str]], claimed: set[str]) -> list[tuple[str, str]]:
    """The footer ``hints`` without the keys an add-on claims (``Enter/R`` loses ``Enter``).

    >>> _without_keys([("Enter/R", "try again"), ("Esc", "levels"), ("P", "preview")], {"Enter", "Esc"})
    [('R', 'try again'), ('P', 'preview')]
    """
    out = []
    for key, label in hints:
        keys = [k for k in key.split("/") if k not in claimed] if key != "+/-" else [key]
        if keys:
            out.append(("/".join(keys), label))
    return out


#: Called with every new :class:`PlayScene` (hooks for the assistant and other add-ons).
PLAY_SCENE_EXTENSIONS: list[Callable[["PlayScene"], object]] = []

Handler = Callable[[Action], None]

#: Height of the strip between the top bar and the board (AI badge, status messages).
STATUS_STRIP = 50


class PlayScene(Scene):
    """Play one level.  ``playlist`` + ``index`` give the level and what Enter opens after a win.

    ``key`` is the progress key (None: wins are not recorded, e.g. an editor play-test).
    """

    def __init__(
        self,
        app: App,
        level: Level | None = None,
        *,
        playlist: Sequence[LevelEntry] = (),
        index: int = 0,
        key: str | None = None,
        title: str | None = None,
        renderer: LevelRenderer | None = None,
        back_label: str = "levels",
    ) -> None:
        super().__init__(app)
        self.back_label = back_label  #: where Esc goes, for the hint bar ("levels", "editor")
        self.playlist = list(playlist)
        self.index = index
        if level is None:
            entry = self.playlist[index]
            level, key = entry.level, entry.key if key is None else key
        self.level: Level = level
        self.key = key
        self.title = title if title is not None else (level.title or "Untitled level")
        self.session = PlaySession(level)
        self.renderer = renderer if renderer is not None else LevelRenderer()
        self.state = PlayState.PLACING
        self.t = 0.0
        self.speed_index = 0
        self.preview = False
        self.anim = 0.0
        self.hover: Brick | None = None
        self.deny: tuple[Brick, float] | None = None
        self.message = ""           #: one line under the HUD (e.g. why a click was refused)
        self.message_time = 0.0
        self.new_best = False
        self.best_before: int | None = None
        # ---- hooks for add-ons
        self.ghost_bricks: list[Brick] = []
        self.highlights: list[tuple[Brick, tuple[int, int, int, int]]] = []
        self.status_lines: list[str] = []
        self.extra_hints: list[tuple[str, str]] = []
        self.overlays: list[Callable[[pygame.Surface, BoardLayout], None]] = []
        self.updaters: list[Callable[[float], None]] = []
        self.on_edit: list[Callable[[], None]] = []  #: called after every brick change
        self.on_leave: list[Callable[[], None]] = []  #: called when the scene is left
        self.interceptors: list[Callable[[Action], bool]] = []  #: see every action first; True consumes it
        self.extensions: dict[str, object] = {}  #: installed add-ons by name (e.g. "assistant")
        #: True from any of these: an add-on shows something on the board, the win/lose panel steps aside
        self.board_claims: list[Callable[[], bool]] = []
        self.bindings: dict[Act, Handler] = {
            Act.CLICK: self._on_click,
            Act.HOVER: self._on_hover,
            Act.TOGGLE_RUN: lambda a: self.toggle_run(),
            Act.RIGHT: lambda a: self.step_frames(1),
            Act.LEFT: lambda a: self.step_frames(-1),
            Act.SPEED_UP: lambda a: self.change_speed(1),
            Act.SPEED_DOWN: lambda a: self.change_speed(-1),
            Act.RESTART: lambda a: self.restart(),
            Act.CLEAR: lambda a: self._edit(self.session.clear()),
            Act.UNDO: lambda a: self._edit(self.session.undo()),
            Act.REDO: lambda a: self._edit(self.session.redo()),
            Act.PREVIEW: lambda a: self.toggle_preview(),
            Act.BACK: lambda a: self.back(),
            Act.CONFIRM: lambda a: self.confirm(),
        }
        self._reported: list[str] = list(self.app.progress.messages)
        if self.key is not None:
            self.best_before = self.app.progress.status(self.key, level).best_bricks
        for extend in PLAY_SCENE_EXTENSIONS:
            extend(self)

    # ------------------------------------------------------------------ queries
    @property
    def bricks(self) -> tuple[Brick, ...]:
        """The bricks placed now."""
        return self.session.bricks

    @property
    def run(self) -> Run:
        """The precomputed run (:class:`game.simulation.Run`) for the current bricks."""
        return self.session.run

    @property
    def frame(self) -> int:
        """The current whole frame (0..N-1)."""
        return int(math.floor(self.t + 1e-9))

    @property
    def last_frame(self) -> int:
        """N-1."""
        return self.level.frames - 1

    @property
    def speed(self) -> int:
        """The playback speed multiplier."""
        return SPEEDS[self.speed_index]

    def board_area(self, size: tuple[int, int]) -> pygame.Rect:
        """The rectangle the board is fitted into, for a window of ``size``."""
        w, h = size
        top = hud.TOP_BAR + STATUS_STRIP  # the strip holds the AI badge and status lines
        return pygame.Rect(16, top, max(1, w - 32), max(1, h - top - hud.BOTTOM_BAR - 14))

    def layout(self, size: tuple[int, int] | None = None) -> BoardLayout:
        """The board layout on the app's screen (or a screen of ``size``)."""
        return self.renderer.layout(self.level, self.board_area(size or self.app.screen.get_size()))

    def current_view(self) -> FrameView:
        """What the board shows now."""
        released = self.state != PlayState.PLACING
        hover_ok = self.hover is not None and self.session.cell_problem(self.hover) is None
        return FrameView(
            level=self.level,
            bricks=self.bricks,
            run=self.run,
            t=self.t,
            anim=self.anim,
            released=released,
            hover=self.hover,
            hover_ok=hover_ok,
            deny=(self.deny[0], self.deny[1] / DENY_SECONDS) if self.deny else None,
            ghost_bricks=tuple(self.ghost_bricks),
            highlights=tuple(self.highlights),
            preview=self.preview,
            dim=0.6 if self.state in (PlayState.WON, PlayState.LOST) and not self.board_claimed() else 0.0,
        )

    def board_claimed(self) -> bool:
        """True while an add-on shows something on the board (e.g. AI solutions): no win/lose panel then."""
        return any(claim() for claim in self.board_claims)

    # ------------------------------------------------------------------ actions
    def handle_event(self, action: Action) -> None:
        """Dispatch through :attr:`bindings`."""
        for intercept in list(self.interceptors):  # e.g. the assistant: H/S/A/Tab/F/G/[/], Enter/Space/Esc
            if intercept(action):
                return
        handler = self.bindings.get(action.kind)
        if handler is not None:
            handler(action)

    def toggle_run(self) -> None:
        """Space: release the lemmings, pause, resume, or replay after the end."""
        if self.state == PlayState.PLACING:
            self.state = PlayState.RUNNING
            self.t = 0.0
            if self.level.frames == 1:
                self._finish()
        elif self.state == PlayState.RUNNING:
            self.state = PlayState.PAUSED
        elif self.state == PlayState.PAUSED:
            if self.t >= self.last_frame:
                self._finish()
            else:
                self.state = PlayState.RUNNING
        else:  # won / lost: replay from the start
            self.t = 0.0
            self.state = PlayState.RUNNING

    def step_frames(self, delta: int) -> None:
        """Right/Left: pause and move one frame forward/back (exact: the run is precomputed)."""
        if delta > 0:
            target = min(self.frame + delta, self.last_frame)
        else:
            base = math.ceil(self.t - 1e-9)
            target = max(base + delta, 0)
        self.t = float(target)
        self.state = PlayState.PAUSED
        if delta > 0 and self.t >= self.last_frame:
            self._finish()

    def change_speed(self, delta: int) -> None:
        """+/-: next/previous speed in :data:`SPEEDS`."""
        self.speed_index = max(0, min(len(SPEEDS) - 1, self.speed_index + delta))
        self.say(f"speed {self.speed}x")

    def restart(self) -> None:
        """R: back to frame 0, lemmings waiting, bricks kept."""
        self.state = PlayState.PLACING
        self.t = 0.0
        self.new_best = False

    def toggle_preview(self) -> None:
        """P: show/hide the ghost paths of the current bricks."""
        self.preview = not self.preview
        self.say("trajectory preview on" if self.preview else "trajectory preview off")

    def on_exit(self) -> None:
        """Leaving the level: tell the add-ons (the assistant stops its background solve)."""
        for callback in list(self.on_leave):
            callback()

    def back(self) -> None:
        """Esc: leave the level (back to the scene below: level select or editor)."""
        self.app.pop()

    def confirm(self) -> None:
        """Enter: after a win, the next level; after a loss, try again."""
        if self.state == PlayState.WON:
            self.next_level()
        elif self.state == PlayState.LOST:
            self.restart()

    def next_level(self) -> None:
        """Open the next level of the playlist (or go back when there is none)."""
        nxt = self.index + 1
        if nxt < len(self.playlist):
            self.app.replace(PlayScene(self.app, playlist=self.playlist, index=nxt, renderer=self.renderer))
        else:
            self.app.pop()

    def click_cell(self, cell: Brick) -> EditResult:
        """Place or remove a brick at ``cell`` (refused cells get the "no" cue)."""
        result = self.session.toggle(cell)
        if result.ok:
            self._edited()
        else:
            self.deny = (cell, DENY_SECONDS)
            self.say(result.reason)
        return result

    def apply_bricks(self, bricks: Sequence[Brick]) -> bool:
        """Replace the brick set (on the undo chain), e.g. an AI solution; back to placing."""
        changed = self.session.set_bricks(bricks)
        if changed:
            self._edited()
        return changed

    def say(self, message: str, seconds: float = 2.5) -> None:
        """Show a one-line message under the HUD."""
        self.message = message
        self.message_time = seconds

    # ------------------------------------------------------------------ internals
    def _on_click(self, action: Action) -> None:
        cell = self.layout().cell_at(action.pos)
        if cell is not None:
            self.click_cell(cell)

    def _on_hover(self, action: Action) -> None:
        self.hover = self.layout().cell_at(action.pos)

    def _edit(self, changed: bool) -> None:
        if changed:
            self._edited()

    def _edited(self) -> None:
        if self.state != PlayState.PLACING:
            self.restart()
        for callback in list(self.on_edit):
            callback()

    def _finish(self) -> None:
        self.t = float(self.last_frame)
        if self.run.won:
            self.state = PlayState.WON
            if self.key is not None:
                self.new_best = self.app.progress.record_win(self.key, self.level, self.bricks)
                for msg in self.app.progress.messages[len(self._reported):]:
                    self.app.toast(msg, 5.0)
                self._reported = list(self.app.progress.messages)
        else:
            self.state = PlayState.LOST

    def update(self, dt: float) -> None:
        """Advance the playhead when running, and the animations."""
        self.anim += dt
        if self.deny is not None:
            left = self.deny[1] - dt
            self.deny = (self.deny[0], left) if left > 0 else None
        if self.message_time > 0:
            self.message_time -= dt
            if self.message_time <= 0:
                self.message = ""
        if self.state == PlayState.RUNNING:
            self.t += dt * BASE_FPS * self.speed
            if self.t >= self.last_frame:
                self._finish()
        for updater in list(self.updaters):
            updater(dt)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """Backdrop, board, HUD, hints, and the win/lose panel."""
        self.renderer.draw_background(surface)
        area = self.board_area(surface.get_size())
        layout = self.renderer.draw(surface, self.current_view(), area)
        for overlay in self.overlays:
            overlay(surface, layout)
        self._draw_hud(surface)
        if self.state in (PlayState.WON, PlayState.LOST) and not self.board_claimed():
            self._draw_result(surface, layout)
        if self.anim < INTRO_SECONDS and self.state == PlayState.PLACING:
            self._draw_intro(surface, layout)
        if self.anim < FADE_IN_SECONDS:  # fade in when the level opens
            veil = pygame.Surface(surface.get_size())
            veil.set_alpha(int(255 * (1.0 - self.anim / FADE_IN_SECONDS)))
            surface.blit(veil, (0, 0))

    def _draw_hud(self, surface: pygame.Surface) -> None:
        w = surface.get_width()
        bar = hud.top_bar(surface)
        x = 14
        if self.playlist:
            num = hud.badge(surface, str(self.index + 1), (x, bar.centery), hud.GOLD, anchor="midleft", size=26)
            x = num.right + 10
        state_rect = hud.badge(surface, self.state.value.upper(), (w - 14, bar.centery),
                               hud.STATE_COLORS[self.state.value], anchor="midright", size=24)
        # stats, right-aligned before the state badge
        used = len(self.bricks)
        home = self.run.arrived_by(self.frame) if self.state != PlayState.PLACING else 0
        # stats in visual order (left to right) with a priority (0 = keep longest on narrow windows)
        stats = [
            (f"bricks {used} / {self.level.budget}", hud.GOLD, 0),
            (f"home {home} / {len(self.level.lemmings)}", hud.GREEN, 2),
            (f"frame {self.frame} / {self.level.frames}", hud.WHITE, 1),
            (f"{self.speed}x", hud.MUTED, 3),
        ]
        room = state_rect.left - 18 - (x + 120)
        while stats and sum(hud.text(lbl, 26).get_width() + 22 for lbl, _, _ in stats) > room:
            stats.remove(max(stats, key=lambda item: item[2]))
        rx = state_rect.left - 18
        for label, color, _ in reversed(stats):
            r = hud.blit_text(surface, label, (rx, bar.centery), 26, color, anchor="midright")
            rx = r.left - 22
        title = self.title
        while len(title) > 3 and hud.text(title, 34).get_width() > rx - x:
            title = title[:-2] + "\u2026" if title.endswith("\u2026") else title[:-1] + "\u2026"
        hud.blit_text(surface, title, (x, bar.centery), 34, hud.WHITE, anchor="midleft")
        # progress bar of the run under the top bar
        frac = self.t / self.last_frame if self.last_frame > 0 else 1.0
        pygame.draw.rect(surface, (40, 32, 64), (0, hud.TOP_BAR, w, 4))
        pygame.draw.rect(surface, hud.STATE_COLORS[self.state.value], (0, hud.TOP_BAR, int(w * frac), 4))
        lines = ([self.message] if self.message else []) + list(self.status_lines)
        tip = self.level.meta_value("hint")
        if tip and self.state == PlayState.PLACING and not self.bricks and not lines:
            lines = [tip]
        y = hud.TOP_BAR + 12
        for line in lines:
            t = hud.text(line, 24)
            rect = t.get_rect(midtop=(w // 2, y))
            hud.panel(surface, rect.inflate(20, 10), alpha=225)
            surface.blit(t, rect)
            y = rect.bottom + 12
        hud.hint_bar(surface, self._hints())

    def _hints(self) -> list[tuple[str, str]]:
        s = self.state
        if s == PlayState.PLACING:
            hints = [("Click", "place/remove brick"), ("Space", "release"), ("P", "preview"),
                     ("Z/Y", "undo/redo"), ("Bksp", "clear"), ("Right", "step"), ("Esc", self.back_label)]
        elif s in (PlayState.RUNNING, PlayState.PAUSED):
            hints = [("Space", "pause" if s == PlayState.RUNNING else "resume"), ("Left/Right", "step"),
                     ("+/-", "speed"), ("R", "restart"), ("P", "preview"), ("Click", "edit"), ("Esc", self.back_label)]
        elif s == PlayState.WON:
            hints = [("Enter", "next level"), ("Space", "replay"), ("R", "restart"), ("Esc", self.back_label)]
        else:
            hints = [("Enter/R", "try again"), ("Left", "step back"), ("P", "preview"), ("Esc", self.back_label)]
        return _without_keys(hints, {key for key, _ in self.extra_hints}) + list(self.extra_hints)

    def _draw_result(self, surface: pygame.Surface, layout: BoardLayout) -> None:
        won = self.state == PlayState.WON
        w, h = surface.get_size()
        box = pygame.Rect(0, 0, min(520, w - 40), 190)
        box.midtop = (w // 2, max(hud.TOP_BAR + 20, layout.rect.top + layout.rect.height // 6))
        if won:
            self._draw_confetti(surface, box)
        hud.panel(surface, box, edge=hud.GOLD if won else hud.RED)
        n = len(self.level.lemmings)
        home = self.run.arrived_by(self.last_frame)
        if won:
            head = "Level complete!"
            used = len(self.bricks)
            detail = f"{used} brick{'s' if used != 1 else ''} used"
            if self.new_best and self.best_before is not None:
                detail += f" \u2014 new best (was {self.best_before})!"
            elif self.best_before is not None:
                detail += f" \u2014 your best: {min(self.best_before, used)}"
            more = "Enter: next level" if self.index + 1 < len(self.playlist) else f"Enter: back to the {self.back_label}"
        else:
            head = "Not quite\u2026"
            detail = f"{home} of {n} lemming{'s' if n != 1 else ''} reached the exit"
            more = "Enter or R: try again   Left: step back"
        hud.blit_text(surface, head, (box.centerx, box.top + 26), 56, hud.GOLD if won else hud.RED, anchor="midtop")
        hud.blit_text(surface, detail, (box.centerx, box.top + 92), 28, hud.WHITE, anchor="midtop")
        hud.blit_text(surface, more, (box.centerx, box.top + 136), 24, hud.MUTED, anchor="midtop")

    def _draw_confetti(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        """Falling confetti around the win panel (a pure function of the animation clock)."""
        colors = ((255, 214, 90), (120, 230, 120), (120, 180, 255), (255, 120, 200), (255, 255, 255))
        w, h = surface.get_size()
        for k in range(48):
            seed = (k * 2654435761) % 1000003
            x0 = (seed % 1000) / 1000.0 * w
            speed = 70 + seed % 90
            y = ((seed % 777) + self.anim * speed) % (h + 40) - 20
            x = x0 + math.sin(self.anim * 2 + k) * 18
            size = 8 + seed % 5
            flip = abs(math.cos(self.anim * 5 + k))
            rect = pygame.Rect(0, 0, max(2, int(size * flip)), size // 2 + 3)
            rect.center = (int(x), int(y))
            pygame.draw.rect(surface, colors[k % len(colors)], rect)

    def _draw_intro(self, surface: pygame.Surface, layout: BoardLayout) -> None:
        """The level's title card, fading out as the level opens."""
        fade = min(1.0, max(0.0, (INTRO_SECONDS - self.anim) / 0.6))
        lv = self.level
        head = f"Level {self.index + 1}" if self.playlist else "Play-test"
        sub = (f"{len(lv.lemmings)} lemming{'s' if len(lv.lemmings) != 1 else ''} \u00b7 "
               f"{lv.budget} brick{'s' if lv.budget != 1 else ''} \u00b7 {lv.frames} frames")
        card = pygame.Surface((min(560, surface.get_width() - 40), 150), pygame.SRCALPHA)
        hud.panel(card, card.get_rect(), alpha=235, edge=hud.GOLD)
        hud.blit_text(card, head, (card.get_width() // 2, 16), 28, hud.MUTED, anchor="midtop")
        hud.blit_text(card, self.title, (card.get_width() // 2, 46), 52, hud.GOLD, anchor="midtop")
        hud.blit_text(card, sub, (card.get_width() // 2, 106), 24, hud.WHITE, anchor="midtop")
        card.set_alpha(int(255 * fade))
        surface.blit(card, card.get_rect(center=layout.rect.center))
