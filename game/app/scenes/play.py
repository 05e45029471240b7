"""The play scene: place bricks, release the lemmings, watch (and scrub) the run.

The run for the current bricks is precomputed by the reference simulator
(:func:`game.core.simulation.simulate`, via :class:`~game.core.session.PlaySession`); the playback model
(:class:`game.core.playback.Playback`: pure, no pygame) only moves a playhead ``t`` (in frames) over it, so
stepping back is exact and movement between frame ``i`` and ``i+1`` is interpolated.  The scene turns
what the playhead passed (:class:`game.core.playback.Beat`) into sounds, attempts and wins.

States: ``placing`` (editing, lemmings waiting) -> ``running`` <-> ``paused`` -> ``won`` / ``lost``
(at the last frame).  Editing the bricks at any time returns to ``placing``.

The scene's parts: the keys and the mouse (:mod:`~game.app.scenes.play_keys`; Esc opens the pause menu,
:mod:`game.app.scenes.pause`), what the beats do (:mod:`~game.app.scenes.play_beats`: sounds, attempts,
wins, the par search, a lost run explained), the bricks kept in ``app.resume``
(:mod:`~game.app.scenes.play_resume`), the board's place and frame view (:mod:`~game.app.scenes.play_board`)
and the HUD and panels (:mod:`~game.app.scenes.play_draw`, placed by
:mod:`~game.app.scenes.play_panels`).

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

from game.core.level import Brick, Level
from game.core.outcome import LemmingFailure
from game.core.playback import BASE_FPS, Playback, PlayState
from game.core.settings import SPEEDS
from game.core.simulation import Run
from game.app.app import App, Scene
from game.core.catalog import LevelEntry, entry_badge
from game.app.input import Act, Action
from game.app.play_extension import BoardView, Holds, Marks, PlayExtension, Tie, merge_marks
from game.app.render import BoardLayout, FrameView, LevelRenderer
from game.app.scenes import play_board, play_draw
from game.app.scenes.play_beats import BeatEffects
from game.app.scenes.play_message import age_message
from game.app.scenes.play_board import DENY_SECONDS
from game.app.scenes.play_resume import LevelResume
from game.app.scenes.play_keys import Handler, placing_bindings, watching_bindings
from game.app.scenes.timeline import TimelineBar
from game.core.session import EditKind, EditResult
from game.app.sound import Sfx

__all__ = ["SPEEDS", "BASE_FPS", "PlayScene", "PlayState"]


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
        #: The bricks the player left on this level (kept across visits and relaunches).
        self.resume = LevelResume(app.resume, level, key)
        self.session = self.resume.session()
        self.renderer = renderer if renderer is not None else LevelRenderer()
        settings = app.settings
        #: The playhead over the run (the pure model: state, frame, speed).
        self.playback = Playback(self.session,
                                 speed_index=SPEEDS.index(settings.speed) if settings.speed in SPEEDS else 0)
        self.preview = settings.preview
        self.ruler = settings.ruler
        self._init_visit()
        self.bindings: dict[Act, Handler] = watching_bindings(self) if watching else placing_bindings(self)
        #: The beats' sounds, the attempts and wins recorded, the par search.
        self.beats = BeatEffects(self)
        #: The extensions by name, in the order they see actions and draw: the timeline, then the add-ons.
        self.extensions: dict[str, PlayExtension] = {}
        self.timeline = self.add_extension(TimelineBar(self))
        for make in () if watching else app.registry.play_extensions:
            extension = make(self)
            if extension is not None:
                self.add_extension(extension)

    def _init_visit(self) -> None:
        """What a visit starts with: no cursor, no message, no result yet."""
        self.cursor: Brick | None = None  #: the keyboard cursor (None: hidden, the mouse is in use)
        self.assisted = self.resume.assisted  #: a win of the bricks on the board is AI-helped (see resume)
        self.own_edit = False  #: the player changed the bricks since the visit began or the AI put its own
        self.failures: list[LemmingFailure] = []  #: after a lost run: who missed, why and when
        self.ai_bricks = False  #: the bricks on the board are an AI solution applied as it was (not edited since)
        self.hover: Brick | None = None
        self.deny: tuple[Brick, float] | None = None
        self.message = ""           #: one line under the HUD (e.g. why a click was refused)
        self.anim = self.message_time = 0.0
        self.message_tie: Tie | None = None  #: what the line describes (it goes when that changes)
        self.new_best = False
        self.best_before: int | None = None
        if self.key is not None:
            self.best_before = self.app.progress.status(self.key, self.level).best_bricks
        #: what leaving this level unsolved ends (e.g. an Endless streak): the pause menu asks first
        self.leave_warning: Callable[[], str] = lambda: ""
        #: a short note among the top bar's counters (e.g. an Endless streak), kept on narrow windows
        self.note: Callable[[], str] = lambda: ""
        #: left for the title menu without giving the level up (like closing the window): see :meth:`suspend`
        self.suspended = False

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
        """The rectangle the board is fitted into, for a window of ``size`` (:func:`play_board.board_area`)."""
        return play_board.board_area(size, self.ruler)

    def layout(self, size: tuple[int, int] | None = None) -> BoardLayout:
        """The board layout on the app's screen (or a screen of ``size``)."""
        return self.renderer.layout(self.level, self.board_area(size or self.app.screen.get_size()))

    def current_view(self, marks: Marks | None = None) -> FrameView:
        """What the board shows now (``marks``: the extensions' marks, when already read)."""
        return play_board.frame_view(self, marks if marks is not None else self.marks())

    def board_claimed(self) -> bool:
        """True while an extension shows something on the board (e.g. AI solutions): no win/lose panel then."""
        return self.marks().claims_board

    def path_colors(self) -> tuple[tuple[int, int, int], ...]:
        """The lemming/path colours of the chosen palette."""
        return play_board.path_colors(self.app.settings.palette)

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
        self.beats.take(self.playback.toggle())

    def step_frames(self, delta: int) -> None:
        """. / , (and Right/Left once released): pause and move one frame forward/back (exact)."""
        self.beats.take(self.playback.step(delta))

    def seek(self, frame: int) -> None:
        """The timeline, Home / End: pause at ``frame`` (0..N-1; releases the lemmings if waiting)."""
        self.beats.take(self.playback.seek(frame))

    def restart(self) -> None:
        """R: back to frame 0, lemmings waiting, bricks kept."""
        self.playback.restart()
        self.new_best = False
        self.failures = []

    def on_exit(self) -> None:
        """Leaving the level: save where the player was, tell the extensions (the assistant stops its
        background solve), stop the par search."""
        self.resume.save()
        for extension in list(self.extensions.values()):
            extension.on_leave()
        self.beats.shutdown()

    def back(self) -> None:
        """Leave the level (back to the scene below: level select or editor)."""
        self.app.pop()

    def suspend(self) -> None:
        """Quitting to the title menu: the level is put aside, not given up (what leaving it would end,
        e.g. an Endless streak, is kept, as when the window is closed)."""
        self.suspended = True

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
            self.edited()
        else:
            self.deny = (cell, DENY_SECONDS)
            self.say(result.reason, holds=Holds.BRICKS)
        return result

    def apply_bricks(self, bricks: Sequence[Brick], *, assisted: bool = True) -> bool:
        """Replace the brick set (on the undo chain), e.g. an AI solution; back to placing.

        ``assisted`` (default): the bricks come from the AI, so wins are marked as AI-helped
        (see :meth:`spend_ai_help`).
        """
        changed = self.session.set_bricks(bricks)
        if changed:
            if assisted:
                self.resume.mark_ai_help(self.bricks)
            self.edited()
            self.own_edit, self.ai_bricks = not assisted, assisted
        return changed

    def ai_solution_shown(self) -> None:
        """The AI showed a solution: wins are AI-helped until one with bricks the player placed."""
        self.resume.mark_ai_help(self.bricks)

    def spend_ai_help(self) -> bool:
        """The level is won: whether the win is AI-helped (:meth:`LevelResume.spend_ai_help`)."""
        self.assisted = self.resume.spend_ai_help(self.bricks, self.own_edit) or self.assisted
        return self.assisted

    def say(self, message: str, seconds: float = 2.5, holds: Holds | None = None) -> None:
        """Show a one-line message under the HUD (``holds``: it goes once what it describes changes)."""
        self.message, self.message_time = message, seconds
        self.message_tie = Tie.now(self, holds) if holds is not None else None

    # ------------------------------------------------------------------ internals
    def edited(self) -> None:
        """The bricks changed: back to placing, remember them, tell the extensions."""
        if self.state != PlayState.PLACING:
            self.restart()
        self.assisted, self.own_edit, self.ai_bricks = self.resume.assisted, True, False
        self.resume.remember(self.bricks)
        for extension in list(self.extensions.values()):
            extension.on_edit()

    def par(self) -> int | None:
        """The level's minimum brick count, when known."""
        return None if self.key is None else self.app.progress.par(self.key, self.level)

    def update(self, dt: float) -> None:
        """Advance the playhead when running, and the animations."""
        self.anim += dt
        self.resume.tick(dt)
        if self.deny is not None:
            left = self.deny[1] - dt
            self.deny = (self.deny[0], left) if left > 0 else None
        age_message(self, dt)
        self.beats.take(self.playback.advance(dt))
        for extension in list(self.extensions.values()):
            extension.update(dt)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """One pass: backdrop, board (with the extensions' marks), the extensions (the timeline, the
        assistant's overlay), then what :func:`play_draw.draw_over_board` draws over them."""
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
        play_draw.draw_over_board(self, surface, layout, marks.claims_board)

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
