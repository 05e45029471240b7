"""The play scene: place bricks, release the lemmings, watch (and scrub) the run.

The run for the current bricks is precomputed by the reference simulator
(:func:`game.simulation.simulate`, via :class:`~game.session.PlaySession`); playback only
moves a playhead ``t`` (in frames) over it, so stepping back is exact and movement between
frame ``i`` and ``i+1`` is interpolated.

States: ``placing`` (editing, lemmings waiting) -> ``running`` <-> ``paused`` -> ``won`` / ``lost``
(at the last frame).  Editing the bricks at any time returns to ``placing``.

Keys: the arrows move a brick cursor while placing (Shift+arrows at any time) and Enter / B use it;
Left/Right step frames once the lemmings are out, "," / "." in every state.  Esc closes the message
and opens the pause menu (:mod:`game.ui.scenes.pause`).  A lost run explains each missed lemming
(:func:`game.outcome.explain`); sounds go through ``app.sound``; the bricks on the board are kept in
``app.resume`` and preview / speed in ``app.settings``.  Drawing the HUD and panels is in
:mod:`game.ui.scenes.play_draw`.

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

import math
from typing import Callable, Sequence

import pygame

from game.errors import GameError
from game.level import Brick, Level
from game.outcome import LemmingFailure, explain
from game.settings import SPEEDS, Palette
from game.simulation import Run
from game.ui import hud, router
from game.ui.app import App, Scene
from game.ui.play_state import PlayState
from game.catalog import LevelEntry, entry_badge
from game.ui.input import Act, Action
from game.ui.render import COLOURBLIND_PATH_COLORS, PATH_COLORS, BoardLayout, FrameView, LevelRenderer
from game.ui.scenes import play_draw
from game.ui.scenes.play_draw import INTRO_SECONDS, STATUS_STRIP
from game.ui.scenes.timeline import TIMELINE_H, TimelineArt, draw_timeline, frame_at, timeline_rect
from game.session import EditKind, EditResult, PlaySession
from game.ui.sound import Sfx

__all__ = ["SPEEDS", "BASE_FPS", "PlayScene", "PlayState", "PLAY_SCENE_EXTENSIONS"]
#: Simulation frames shown per second at 1x.
BASE_FPS = 5.0
#: How long the "no" cue lasts, in seconds.
DENY_SECONDS = 0.5
#: Fade-in when a level opens, in seconds.
FADE_IN_SECONDS = 0.25
#: The bricks on the board are saved at most this often while the player edits (and on leaving).
RESUME_SAVE_SECONDS = 1.0


#: Called with every new :class:`PlayScene` (hooks for the assistant and other add-ons); the list
#: lives in :mod:`game.ui.router` so that add-ons never import this module.
PLAY_SCENE_EXTENSIONS = router.PLAY_SCENE_EXTENSIONS

Handler = Callable[[Action], None]

#: Width of the row/column ruler around the board (when on).
RULER = 22


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
        if key is not None:  # the bricks the player left on this level (also across relaunches)
            try:
                self.session = PlaySession(level, app.resume.bricks_for(key, level.puzzle_hash))
            except GameError:
                pass
            app.resume.remember(key, level.puzzle_hash, self.session.bricks)
        self.renderer = renderer if renderer is not None else LevelRenderer()
        self.state = PlayState.PLACING
        self.t = 0.0
        settings = app.settings
        self.speed_index = SPEEDS.index(settings.speed) if settings.speed in SPEEDS else 0
        self.preview = settings.preview
        self.ruler = settings.ruler
        self.cursor: Brick | None = None  #: the keyboard cursor (None: hidden, the mouse is in use)
        self.assisted = False  #: an AI solution was applied on this visit (the win counts as AI-helped)
        self.failures: list[LemmingFailure] = []  #: after a lost run: who missed, why and when
        self.par_found: int | None = None
        self._par: object | None = None  #: the background par search (game.ui.par.ParFinder)
        self._sound_frame = 0
        self._resume_timer = 0.0
        self.anim = 0.0
        self.hover: Brick | None = None
        self.deny: tuple[Brick, float] | None = None
        self.message = ""           #: one line under the HUD (e.g. why a click was refused)
        self.message_time = 0.0
        self.new_best = False
        self.best_before: int | None = None
        self.timeline_art = TimelineArt()  #: the timeline's still parts, drawn once per run
        self.scrubbing = False  #: the left button went down on the timeline and is held
        #: what leaving this level unsolved ends (e.g. an Endless streak): the pause menu asks first
        self.leave_warning: Callable[[], str] = lambda: ""
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
            Act.RIGHT: lambda a: self._arrow(0, 1, a),
            Act.LEFT: lambda a: self._arrow(0, -1, a),
            Act.UP: lambda a: self.move_cursor(-1, 0),
            Act.DOWN: lambda a: self.move_cursor(1, 0),
            Act.PLACE: self._on_place,
            Act.STEP_FORWARD: lambda a: self.step_frames(1),
            Act.STEP_BACK: lambda a: self.step_frames(-1),
            Act.RULER: lambda a: self.toggle_ruler(),
            Act.RIGHT_CLICK: self._on_click,
            Act.SPEED_UP: lambda a: self.change_speed(1),
            Act.SPEED_DOWN: lambda a: self.change_speed(-1),
            Act.RESTART: lambda a: self.restart(),
            Act.CLEAR: lambda a: self._edit(self.session.clear()),
            Act.UNDO: lambda a: self._edit(self.session.undo()),
            Act.REDO: lambda a: self._edit(self.session.redo()),
            Act.PREVIEW: lambda a: self.toggle_preview(),
            Act.BACK: lambda a: self.escape(),
            Act.CONFIRM: lambda a: self.confirm(),
            Act.FIRST_FRAME: lambda a: self.seek(0),
            Act.LAST_FRAME: lambda a: self.seek(self.last_frame),
            Act.MOUSE_UP: lambda a: setattr(self, "scrubbing", False),
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
        top = hud.TOP_BAR + STATUS_STRIP  # the strip holds the status lines
        ruler = RULER if self.ruler else 0
        bottom = hud.BOTTOM_BAR + TIMELINE_H + 14  # the timeline sits under the map
        return pygame.Rect(16 + ruler, top + ruler, max(1, w - 32 - ruler), max(1, h - top - ruler - bottom - 6))

    def layout(self, size: tuple[int, int] | None = None) -> BoardLayout:
        """The board layout on the app's screen (or a screen of ``size``)."""
        return self.renderer.layout(self.level, self.board_area(size or self.app.screen.get_size()))

    def current_view(self) -> FrameView:
        """What the board shows now."""
        released = self.state != PlayState.PLACING
        hover_ok = self.hover is not None and self.session.cell_problem(self.hover) is None
        lost = self.state == PlayState.LOST
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
            preview=self.preview or lost,
            dim=0.0 if self.board_claimed() else (0.6 if self.state == PlayState.WON else (0.25 if lost else 0.0)),
            path_colors=self.path_colors(),
            tags=(self.preview or lost) and len(self.level.lemmings) > 1,
            cursor=self.cursor,
        )

    def board_claimed(self) -> bool:
        """True while an add-on shows something on the board (e.g. AI solutions): no win/lose panel then."""
        return any(claim() for claim in self.board_claims)

    def path_colors(self) -> tuple[tuple[int, int, int], ...]:
        """The lemming/path colours of the chosen palette."""
        return COLOURBLIND_PATH_COLORS if self.app.settings.palette == Palette.COLOURBLIND else PATH_COLORS

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
            self._release()
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
            self._sound_frame = 0
            self.state = PlayState.RUNNING

    def step_frames(self, delta: int) -> None:
        """. / , (and Right/Left once released): pause and move one frame forward/back (exact)."""
        if self.state == PlayState.PLACING and delta > 0:
            self._release()
        if delta > 0:
            target = min(self.frame + delta, self.last_frame)
        else:
            base = math.ceil(self.t - 1e-9)
            target = max(base + delta, 0)
        self.t = float(target)
        self._sound_frame = target
        self.state = PlayState.PAUSED
        if delta > 0 and self.t >= self.last_frame:
            self._finish()

    def seek(self, frame: int) -> None:
        """The timeline, Home / End: pause at ``frame`` (0..N-1; releases the lemmings if waiting)."""
        if self.state == PlayState.PLACING:
            self._release()
        self.t = float(max(0, min(self.last_frame, frame)))
        self._sound_frame = self.frame
        self.state = PlayState.PAUSED
        if self.frame >= self.last_frame:
            self._finish()

    def change_speed(self, delta: int) -> None:
        """+/-: next/previous speed in :data:`SPEEDS` for this visit (the next level of the playlist
        keeps it); the saved default speed is the Settings screen's alone."""
        self.speed_index = max(0, min(len(SPEEDS) - 1, self.speed_index + delta))
        self.say(f"speed {self.speed}x")

    def restart(self) -> None:
        """R: back to frame 0, lemmings waiting, bricks kept."""
        self.state = PlayState.PLACING
        self.t = 0.0
        self.new_best = False
        self.failures = []

    def toggle_preview(self) -> None:
        """P: show/hide the ghost paths of the current bricks (remembered for the next levels)."""
        self.preview = not self.preview
        self.app.change_settings(preview=self.preview)
        self.say("trajectory preview on" if self.preview else "trajectory preview off")

    def toggle_ruler(self) -> None:
        """N: row/column numbers around the board (remembered)."""
        self.ruler = not self.ruler
        self.app.change_settings(ruler=self.ruler)
        self.say("ruler on" if self.ruler else "ruler off")

    def on_exit(self) -> None:
        """Leaving the level: save where the player was, tell the add-ons (the assistant stops its
        background solve), stop the par search."""
        if self.app.resume.dirty:
            self.app.resume.save()
        for callback in list(self.on_leave):
            callback()
        if self._par is not None:
            self._par.shutdown()  # type: ignore[attr-defined]

    def escape(self) -> None:
        """Esc: close the message on screen and open the pause menu (one press, whatever the messages)."""
        self.message, self.message_time = "", 0.0
        if self.state == PlayState.RUNNING:
            self.state = PlayState.PAUSED
        self.app.open("pause", self)

    def back(self) -> None:
        """Leave the level (back to the scene below: level select or editor)."""
        self.app.pop()

    # ------------------------------------------------------------------ keyboard cursor
    def _arrow(self, drow: int, dcol: int, action: Action) -> None:
        """Left/Right: move the cursor while placing (Shift: always); step frames once the lemmings are out."""
        if self.state == PlayState.PLACING or action.mod & pygame.KMOD_SHIFT:
            self.move_cursor(drow, dcol)
        else:
            self.step_frames(dcol)

    def move_cursor(self, drow: int, dcol: int) -> None:
        """Arrows: show / move the brick cursor (clamped to the board)."""
        if self.cursor is None:
            self.cursor = self.hover if self.hover is not None else self._cursor_home()
            self.hover = None
            return
        r, c = self.cursor
        self.cursor = (max(0, min(self.level.height - 1, r + drow)), max(0, min(self.level.width - 1, c + dcol)))

    def _on_place(self, action: Action) -> None:
        self.place_at_cursor()

    def _cursor_home(self) -> Brick:
        """Where the cursor first appears: below the first lemming's start, else the middle."""
        if self.level.lemmings:
            lem = self.level.lemmings[0]
            return (min(self.level.height - 1, lem.row + 1), lem.col)
        return (self.level.height // 2, self.level.width // 2)

    def place_at_cursor(self) -> EditResult | None:
        """Enter / B: place or remove a brick at the cursor (shows the cursor first if hidden)."""
        if self.cursor is None:
            self.move_cursor(0, 0)
            return None
        return self.click_cell(self.cursor)

    def confirm(self) -> None:
        """Enter: after a win, the next level; after a loss, try again; while placing, the cursor's brick."""
        if self.state == PlayState.WON:
            self.next_level()
        elif self.state == PlayState.LOST:
            self.restart()
        elif self.state == PlayState.PLACING and self.cursor is not None:
            self.place_at_cursor()

    def next_level(self) -> None:
        """Open the next level of the playlist (or go back when there is none)."""
        nxt = self.index + 1
        if nxt < len(self.playlist):
            scene = self.app.make("play", playlist=self.playlist, index=nxt, renderer=self.renderer)
            scene.speed_index = self.speed_index
            self.app.replace(scene)
        else:
            self.app.pop()

    def click_cell(self, cell: Brick) -> EditResult:
        """Place or remove a brick at ``cell`` (refused cells get the "no" cue)."""
        result = self.session.toggle(cell)
        if result.ok:
            self.app.sound.play(Sfx.PLACE if result.kind == EditKind.PLACED else Sfx.REMOVE)
            self._edited()
        else:
            self.deny = (cell, DENY_SECONDS)
            self.say(result.reason)
        return result

    def apply_bricks(self, bricks: Sequence[Brick], *, assisted: bool = True) -> bool:
        """Replace the brick set (on the undo chain), e.g. an AI solution; back to placing.

        ``assisted`` (default): the bricks come from the AI, so a win is marked as AI-helped.
        """
        changed = self.session.set_bricks(bricks)
        if changed:
            self.assisted = self.assisted or assisted
            self._edited()
        return changed

    def say(self, message: str, seconds: float = 2.5) -> None:
        """Show a one-line message under the HUD."""
        self.message = message
        self.message_time = seconds

    # ------------------------------------------------------------------ internals
    def _on_click(self, action: Action) -> None:
        size = self.app.screen.get_size()
        if action.kind == Act.CLICK and action.pos is not None and timeline_rect(size).collidepoint(action.pos):
            self.scrubbing = True  # drag to any frame while the button is held
            self.seek(frame_at(size, self.level.frames, action.pos[0]))
            return
        cell = self.layout().cell_at(action.pos)
        if cell is not None:
            self.click_cell(cell)

    def _on_hover(self, action: Action) -> None:
        if self.scrubbing and action.pos is not None:
            if action.value:
                self.seek(frame_at(self.app.screen.get_size(), self.level.frames, action.pos[0]))
                return
            self.scrubbing = False
        self.hover = self.layout().cell_at(action.pos)
        if self.hover is not None:
            self.cursor = None  # the mouse took over

    def _edit(self, changed: bool) -> None:
        if changed:
            self._edited()

    def _edited(self) -> None:
        if self.state != PlayState.PLACING:
            self.restart()
        if self.key is not None:  # saved within a second (update), on leaving, and when the game closes
            self.app.resume.remember(self.key, self.level.puzzle_hash, self.bricks, save=False)
        for callback in list(self.on_edit):
            callback()

    def _release(self) -> None:
        """The lemmings leave their hatches: count an attempt, play the release sound."""
        self.app.sound.play(Sfx.RELEASE)
        self._sound_frame = 0
        if self.key is not None:
            self.app.progress.record_attempt(self.key)

    def _finish(self) -> None:
        self.t = float(self.last_frame)
        self._frame_sounds(self.last_frame)
        if self.run.won:
            self.state = PlayState.WON
            self.app.sound.play(Sfx.WIN)
            if self.key is not None:
                self.new_best = self.app.progress.record_win(self.key, self.level, self.bricks,
                                                             assisted=self.assisted)
                for msg in self.app.progress.messages[len(self._reported):]:
                    self.app.toast(msg, 5.0)
                self._reported = list(self.app.progress.messages)
                self._start_par_search()
        else:
            self.state = PlayState.LOST
            self.app.sound.play(Sfx.LOSE)
            self.failures = explain(self.run)

    def _start_par_search(self) -> None:
        """After the player's own win: find the level's minimum in the background if unknown."""
        if self.assisted or self.key is None or self.app.progress.par(self.key, self.level) is not None:
            return
        if self._par is None:
            from game.ui.par import ParFinder

            self._par = ParFinder(self.app.jobs, self, self.app.progress, self.key, self.level,
                                  on_found=lambda found: setattr(self, "par_found", found))
        self._par.start()  # type: ignore[attr-defined]

    def par(self) -> int | None:
        """The level's minimum brick count, when known."""
        return None if self.key is None else self.app.progress.par(self.key, self.level)

    def _frame_sounds(self, upto: int) -> None:
        """Land / turn / exit sounds for the frames the playhead passed (one of each per step)."""
        start, self._sound_frame = self._sound_frame, max(self._sound_frame, upto)
        if upto <= start:
            return
        kinds: set[Sfx] = set()
        for track in self.run.tracks:
            path = track.path
            for f in range(start + 1, min(upto, len(path) - 1) + 1):
                (r0, c0, d0), (r1, c1, d1) = path[f - 1], path[f]
                if track.reached_at == f:
                    kinds.add(Sfx.EXIT)
                elif r1 == r0 and c1 == c0 and d1 != d0:
                    kinds.add(Sfx.TURN)
                elif f >= 2 and r0 > path[f - 2][0] and r1 == r0:
                    kinds.add(Sfx.LAND)
        for kind in (Sfx.EXIT, Sfx.LAND, Sfx.TURN):
            if kind in kinds:
                self.app.sound.play(kind)

    def update(self, dt: float) -> None:
        """Advance the playhead when running, and the animations."""
        self.anim += dt
        self._resume_timer += dt
        if self.app.resume.dirty and self._resume_timer >= RESUME_SAVE_SECONDS:
            self._resume_timer = 0.0
            self.app.resume.save()
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
            else:
                self._frame_sounds(self.frame)
        for updater in list(self.updaters):
            updater(dt)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """Backdrop, board, HUD, hints, and the win/lose panel."""
        self.renderer.draw_background(surface)
        area = self.board_area(surface.get_size())
        layout = self.renderer.draw(surface, self.current_view(), area)
        if self.ruler:
            play_draw.draw_ruler(self, surface, layout)
        for overlay in self.overlays:
            overlay(surface, layout)
        draw_timeline(surface, self.timeline_art, self.run, self.level.frames, self.t,
                      hud.STATE_COLORS[self.state.value], self.state != PlayState.PLACING)
        if self.state == PlayState.LOST and not self.board_claimed():
            play_draw.draw_failure_marks(self, surface, layout)
        play_draw.draw_hud(self, surface)
        if self.state in (PlayState.WON, PlayState.LOST) and not self.board_claimed():
            play_draw.draw_result(self, surface, layout)
        if self.anim < INTRO_SECONDS and self.state == PlayState.PLACING:
            play_draw.draw_intro(self, surface, layout)
        if self.anim < FADE_IN_SECONDS:  # fade in when the level opens
            veil = pygame.Surface(surface.get_size())
            veil.set_alpha(int(255 * (1.0 - self.anim / FADE_IN_SECONDS)))
            surface.blit(veil, (0, 0))

    def badge_label(self) -> str:
        """The level's short label in the top bar: the same as on its level select card."""
        return entry_badge(self.playlist, self.index) if self.playlist else ""

    def status_strip_lines(self) -> list[str]:
        """The lines of the strip under the top bar (:func:`play_draw.status_strip_lines`)."""
        return play_draw.status_strip_lines(self)

    def _hints(self) -> list[tuple[str, str]]:
        """The footer's keys for the current state (:func:`play_draw.footer_hints`)."""
        return play_draw.footer_hints(self)
