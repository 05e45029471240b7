"""The play scene: place bricks, release the lemmings, watch (and scrub) the run.

The run for the current bricks is precomputed by the reference simulator
(:func:`game.core.simulation.simulate`, via :class:`~game.core.session.PlaySession`); the playback model
(:class:`game.core.playback.Playback`: pure, no pygame) only moves a playhead ``t`` (in frames) over it, so
stepping back is exact and movement between frame ``i`` and ``i+1`` is interpolated.  The scene turns
what the playhead passed (:class:`game.core.playback.Beat`) into sounds, attempts and wins.

States: ``placing`` (editing, lemmings waiting) -> ``running`` <-> ``paused`` -> ``won`` / ``lost``
(at the last frame).  Editing the bricks at any time returns to ``placing``.

Keys: the arrows move a brick cursor while placing (Shift+arrows at any time) and Enter / B use it;
Left/Right step frames once the lemmings are out, "," / "." in every state.  Esc closes the message
and opens the pause menu (:mod:`game.app.scenes.pause`).  A lost run explains each missed lemming
(:func:`game.core.outcome.explain`); sounds go through ``app.sound``; the bricks on the board are kept in
``app.resume`` and preview / speed in ``app.settings``.  Drawing the HUD and panels is in
:mod:`game.app.scenes.play_draw`.

Extending (e.g. the assistant, registered by the composition root :mod:`game.app.compose`): the factories
in ``app.registry.play_extensions`` are called once with every new play scene and return a
:class:`~game.app.play_extension.PlayExtension` (kept in ``scene.extensions`` by name, after the built-in
timeline, :class:`~game.app.scenes.timeline.TimelineBar`).  An extension sees every action first, is
updated every frame, shows ghost bricks, coloured cells, status lines and footer keys through its
:meth:`~game.app.play_extension.PlayExtension.marks` (read when the scene draws) and paints the rest in
the scene's one draw pass.  ``scene.apply_bricks(bricks)`` puts a brick set on the undo chain;
``scene.current_view()`` is the :class:`~game.app.render.FrameView` on screen.
"""

from __future__ import annotations

from typing import Callable, Sequence

import pygame

from game.core.errors import GameError
from game.core.level import Brick, Level
from game.core.outcome import LemmingFailure, explain
from game.core.playback import BASE_FPS, Beat, Playback, PlayState
from game.core.settings import SPEEDS, Palette
from game.core.simulation import Run
from game.app import hud
from game.app.app import App, Scene
from game.core.catalog import LevelEntry, entry_badge
from game.app.input import Act, Action
from game.app.par import ParFinder
from game.app.play_extension import BoardView, Marks, PlayExtension, merge_marks
from game.app.render import COLOURBLIND_PATH_COLORS, PATH_COLORS, BoardLayout, FrameView, LevelRenderer
from game.app.scenes import play_draw
from game.app.scenes.play_draw import INTRO_SECONDS, STATUS_STRIP
from game.app.scenes.timeline import TIMELINE_H, TimelineBar
from game.core.session import EditKind, EditResult, PlaySession
from game.app.sound import Sfx

__all__ = ["SPEEDS", "BASE_FPS", "PlayScene", "PlayState"]
#: How long the "no" cue lasts, in seconds.
DENY_SECONDS = 0.5
#: Fade-in when a level opens, in seconds.
FADE_IN_SECONDS = 0.25
#: The bricks on the board are saved at most this often while the player edits (and on leaving).
RESUME_SAVE_SECONDS = 1.0


Handler = Callable[[Action], None]

#: Width of the row/column ruler around the board (when on).
RULER = 22
#: The sound of each beat of the playback.
BEAT_SOUNDS = {Beat.RELEASED: Sfx.RELEASE, Beat.EXIT: Sfx.EXIT, Beat.LAND: Sfx.LAND, Beat.TURN: Sfx.TURN,
               Beat.WON: Sfx.WIN, Beat.LOST: Sfx.LOSE}


def _resumed_session(app: App, level: Level, key: str | None) -> PlaySession:
    """The session of ``level`` with the bricks the player left on it (also across relaunches)."""
    session = PlaySession(level)
    if key is not None:
        try:
            session = PlaySession(level, app.resume.bricks_for(key, level.puzzle_hash))
        except GameError:
            pass
        app.resume.remember(key, level.puzzle_hash, session.bricks)
    return session


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
        watching: bool = False,
    ) -> None:
        super().__init__(app)
        self.back_label = back_label  #: where Esc goes, for the hint bar ("levels", "editor")
        #: only watching a saved run (a replay): no editing, no add-ons (hints), no "Level complete!"
        self.watching = watching
        self.playlist = list(playlist)
        self.index = index
        if level is None:
            entry = self.playlist[index]
            level, key = entry.level, entry.key if key is None else key
        self.level: Level = level
        self.key = key
        self.title = title if title is not None else (level.title or "Untitled level")
        self.session = _resumed_session(app, level, key)
        self.renderer = renderer if renderer is not None else LevelRenderer()
        settings = app.settings
        #: The playhead over the run (the pure model: state, frame, speed).
        self.playback = Playback(self.session,
                                 speed_index=SPEEDS.index(settings.speed) if settings.speed in SPEEDS else 0)
        self.preview = settings.preview
        self.ruler = settings.ruler
        self.cursor: Brick | None = None  #: the keyboard cursor (None: hidden, the mouse is in use)
        self.assisted = False  #: an AI solution was applied on this visit (the win counts as AI-helped)
        self.failures: list[LemmingFailure] = []  #: after a lost run: who missed, why and when
        self._par: ParFinder | None = None  #: the background par search
        self._resume_timer = 0.0
        self.anim = 0.0
        self.hover: Brick | None = None
        self.deny: tuple[Brick, float] | None = None
        self.message = ""           #: one line under the HUD (e.g. why a click was refused)
        self.message_time = 0.0
        self.new_best = False
        self.best_before: int | None = None
        #: what leaving this level unsolved ends (e.g. an Endless streak): the pause menu asks first
        self.leave_warning: Callable[[], str] = lambda: ""
        #: a short note among the top bar's counters (e.g. an Endless streak), kept on narrow windows
        self.note = ""
        #: left for the title menu without giving the level up (like closing the window): see :meth:`suspend`
        self.suspended = False
        self.bindings: dict[Act, Handler] = self._key_bindings()
        self._reported: list[str] = list(self.app.progress.messages)
        if self.key is not None:
            self.best_before = self.app.progress.status(self.key, level).best_bricks
        #: The extensions by name, in the order they see actions and draw: the timeline, then the add-ons.
        self.extensions: dict[str, PlayExtension] = {}
        self.timeline = self.add_extension(TimelineBar(self))
        for make in () if watching else app.registry.play_extensions:
            extension = make(self)
            if extension is not None:
                self.add_extension(extension)

    def _key_bindings(self) -> dict[Act, Handler]:
        """What each action does when no extension used it (watching a replay: no editing)."""
        if self.watching:
            return self._watch_bindings()
        return {
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
        }

    def _watch_bindings(self) -> dict[Act, Handler]:
        """The keys while watching a replay: play, step, speed, seek; nothing edits the bricks."""
        return {
            Act.TOGGLE_RUN: lambda a: self.toggle_run(),
            Act.RIGHT: lambda a: self.step_frames(1),
            Act.LEFT: lambda a: self.step_frames(-1),
            Act.STEP_FORWARD: lambda a: self.step_frames(1),
            Act.STEP_BACK: lambda a: self.step_frames(-1),
            Act.RULER: lambda a: self.toggle_ruler(),
            Act.SPEED_UP: lambda a: self.change_speed(1),
            Act.SPEED_DOWN: lambda a: self.change_speed(-1),
            Act.RESTART: lambda a: self.restart(),
            Act.PREVIEW: lambda a: self.toggle_preview(),
            Act.BACK: lambda a: self.escape(),
            Act.CONFIRM: lambda a: self.back() if self.playback.ended else None,
            Act.FIRST_FRAME: lambda a: self.seek(0),
            Act.LAST_FRAME: lambda a: self.seek(self.last_frame),
        }

    def add_extension(self, extension: PlayExtension) -> PlayExtension:
        """Register ``extension`` (once, by its name) and return it."""
        self.extensions[extension.name] = extension
        return extension

    # ------------------------------------------------------------------ queries
    @property
    def bricks(self) -> tuple[Brick, ...]:
        """The bricks placed now."""
        return self.session.bricks

    @property
    def run(self) -> Run:
        """The precomputed run (:class:`game.core.simulation.Run`) for the current bricks."""
        return self.session.run

    @property
    def state(self) -> PlayState:
        """Where the playback is (placing, running, paused, won, lost)."""
        return self.playback.state

    @property
    def t(self) -> float:
        """The playhead, in frames."""
        return self.playback.t

    @property
    def frame(self) -> int:
        """The current whole frame (0..N-1)."""
        return self.playback.frame

    @property
    def last_frame(self) -> int:
        """N-1."""
        return self.playback.last_frame

    @property
    def speed(self) -> int:
        """The playback speed multiplier."""
        return self.playback.speed

    @property
    def speed_index(self) -> int:
        """The speed's index in :data:`SPEEDS`."""
        return self.playback.speed_index

    @speed_index.setter
    def speed_index(self, index: int) -> None:
        self.playback.speed_index = max(0, min(len(SPEEDS) - 1, index))

    @property
    def scrubbing(self) -> bool:
        """True while the timeline is dragged."""
        assert isinstance(self.timeline, TimelineBar)
        return self.timeline.scrubbing

    def screen_size(self) -> tuple[int, int]:
        """The window's size now."""
        return self.app.screen.get_size()

    def marks(self) -> Marks:
        """What the extensions show now (ghost bricks, coloured cells, status lines, footer keys)."""
        shown = []
        for extension in self.extensions.values():
            shown.append(extension.marks())
        return merge_marks(shown)

    @property
    def ghost_bricks(self) -> tuple[Brick, ...]:
        """The extensions' ghost bricks (e.g. an AI solution)."""
        return self.marks().ghost_bricks

    @property
    def highlights(self) -> tuple[tuple[Brick, tuple[int, int, int, int]], ...]:
        """The extensions' coloured cells."""
        return self.marks().highlights

    @property
    def status_lines(self) -> tuple[str, ...]:
        """The extensions' status lines."""
        return self.marks().status_lines

    @property
    def extra_hints(self) -> tuple[tuple[str, str], ...]:
        """The extensions' footer keys."""
        return self.marks().footer_hints

    @property
    def strip_left(self) -> int:
        """Where the status strip may start: right of an extension's badge (0 without one)."""
        return self.marks().strip_left

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

    def current_view(self, marks: Marks | None = None) -> FrameView:
        """What the board shows now (``marks``: the extensions' marks, when already read)."""
        marks = marks if marks is not None else self.marks()
        released = self.state != PlayState.PLACING
        hover_ok = self.hover is not None and self.session.cell_problem(self.hover) is None
        lost = self.state == PlayState.LOST
        preview = self.preview and not marks.hide_preview
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
            ghost_bricks=marks.ghost_bricks,
            highlights=marks.highlights,
            preview=preview or lost,
            dim=0.0 if marks.claims_board else (0.6 if self.state == PlayState.WON else (0.25 if lost else 0.0)),
            path_colors=self.path_colors(),
            tags=(preview or lost) and len(self.level.lemmings) > 1,
            cursor=self.cursor,
        )

    def board_claimed(self) -> bool:
        """True while an extension shows something on the board (e.g. AI solutions): no win/lose panel then."""
        return self.marks().claims_board

    def path_colors(self) -> tuple[tuple[int, int, int], ...]:
        """The lemming/path colours of the chosen palette."""
        return COLOURBLIND_PATH_COLORS if self.app.settings.palette == Palette.COLOURBLIND else PATH_COLORS

    # ------------------------------------------------------------------ actions
    def handle_event(self, action: Action) -> None:
        """Offer ``action`` to the extensions (the timeline's drags, the assistant's H/S/A/Tab/F/G/[/],
        Enter/Space/Esc), then dispatch it through :attr:`bindings`."""
        for extension in list(self.extensions.values()):
            if extension.handle_event(action):
                return
        handler = self.bindings.get(action.kind)
        if handler is not None:
            handler(action)

    def toggle_run(self) -> None:
        """Space: release the lemmings, pause, resume, or replay after the end."""
        self._beats(self.playback.toggle())

    def step_frames(self, delta: int) -> None:
        """. / , (and Right/Left once released): pause and move one frame forward/back (exact)."""
        self._beats(self.playback.step(delta))

    def seek(self, frame: int) -> None:
        """The timeline, Home / End: pause at ``frame`` (0..N-1; releases the lemmings if waiting)."""
        self._beats(self.playback.seek(frame))

    def change_speed(self, delta: int) -> None:
        """+/-: next/previous speed in :data:`SPEEDS` for this visit (the next level of the playlist
        keeps it); the saved default speed is the Settings screen's alone."""
        self.say(f"speed {self.playback.change_speed(delta)}x")

    def restart(self) -> None:
        """R: back to frame 0, lemmings waiting, bricks kept."""
        self.playback.restart()
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
        """Leaving the level: save where the player was, tell the extensions (the assistant stops its
        background solve), stop the par search."""
        if self.app.resume.dirty:
            self.app.resume.save()
        for extension in list(self.extensions.values()):
            extension.on_leave()
        if self._par is not None:
            self._par.shutdown()

    def escape(self) -> None:
        """Esc: close the message on screen and open the pause menu (one press, whatever the messages)."""
        self.message, self.message_time = "", 0.0
        self.playback.pause()
        self.app.open("pause", self)

    def back(self) -> None:
        """Leave the level (back to the scene below: level select or editor)."""
        self.app.pop()

    def suspend(self) -> None:
        """Quitting to the title menu: the level is put aside, not given up (what leaving it would end,
        e.g. an Endless streak, is kept, as when the window is closed)."""
        self.suspended = True

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
        cell = self.layout().cell_at(action.pos)
        if cell is not None:
            self.click_cell(cell)

    def _on_hover(self, action: Action) -> None:
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
        for extension in list(self.extensions.values()):
            extension.on_edit()

    def _beats(self, beats: list[Beat]) -> None:
        """What the playhead passed: sounds, the attempt when the lemmings leave, the win or the loss."""
        for beat in beats:
            self.app.sound.play(BEAT_SOUNDS[beat])
            if beat == Beat.RELEASED and self.key is not None:
                self.app.progress.record_attempt(self.key)
            elif beat == Beat.WON and self.key is not None:
                self.new_best = self.app.progress.record_win(self.key, self.level, self.bricks,
                                                             assisted=self.assisted)
                for msg in self.app.progress.messages[len(self._reported):]:
                    self.app.toast(msg, 5.0)
                self._reported = list(self.app.progress.messages)
                self._start_par_search()
            elif beat == Beat.LOST:
                self.failures = explain(self.run)

    def _start_par_search(self) -> None:
        """After the player's own win: find the level's minimum in the background if unknown."""
        if self.assisted or self.key is None or self.app.progress.par(self.key, self.level) is not None:
            return
        if self._par is None:
            self._par = ParFinder(self.app.jobs, self, self.app.progress, self.key, self.level)
        self._par.start()

    def par(self) -> int | None:
        """The level's minimum brick count, when known."""
        return None if self.key is None else self.app.progress.par(self.key, self.level)

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
        self._beats(self.playback.advance(dt))
        for extension in list(self.extensions.values()):
            extension.update(dt)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """One pass: backdrop, board (with the extensions' marks), the extensions (the timeline, the
        assistant's overlay), HUD, hints, and the win/lose panel."""
        self.renderer.draw_background(surface)
        area = self.board_area(surface.get_size())
        marks = self.marks()
        view = self.current_view(marks)
        layout = self.renderer.draw(surface, view, area)
        if self.ruler:
            play_draw.draw_ruler(self, surface, layout)
        board = BoardView(layout, view)
        for extension in self.extensions.values():
            extension.draw(surface, board)
        if self.state == PlayState.LOST and not marks.claims_board:
            play_draw.draw_failure_marks(self, surface, layout)
        play_draw.draw_hud(self, surface)
        if self.state in (PlayState.WON, PlayState.LOST) and not marks.claims_board:
            play_draw.draw_result(self, surface, layout)
        if self.anim < INTRO_SECONDS and self.state == PlayState.PLACING:
            play_draw.draw_intro(self, surface, layout)
        if self.anim < FADE_IN_SECONDS:  # fade in when the level opens
            veil = pygame.Surface(surface.get_size())
            veil.set_alpha(int(255 * (1.0 - self.anim / FADE_IN_SECONDS)))
            surface.blit(veil, (0, 0))

    @property
    def entry(self) -> LevelEntry | None:
        """The playlist's entry of the level played (None: a play-test, a code, a replay)."""
        if self.playlist and self.playlist[self.index].level == self.level and not self.watching:
            return self.playlist[self.index]
        return None

    def badge_label(self) -> str:
        """The level's short label in the top bar: the same as on its level select card."""
        return entry_badge(self.playlist, self.index) if self.playlist else ""

    def status_strip_lines(self) -> list[str]:
        """The lines of the strip under the top bar (:func:`play_draw.status_strip_lines`)."""
        return play_draw.status_strip_lines(self)

    def _hints(self) -> list[tuple[str, str]]:
        """The footer's keys for the current state (:func:`play_draw.footer_hints`)."""
        return play_draw.footer_hints(self)
