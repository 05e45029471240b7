"""Mystery worlds in the play scene: the world card, the preview kept off until the first release, and
after each run what the AI has learned from the player's runs.

:func:`guide_mystery` is a play-scene extension factory (registered by :mod:`game.app.compose`); on a
level of a mystery world (:func:`game.core.mystery.is_mystery`, a level with a progress key) its
:class:`MysteryGuide`:

* opens the world's card (:class:`WorldCardScene`) on the first visit to the world, once (remembered in
  the progress file), and says the first-visit message when it closes;
* keeps the trajectory preview off until the lemmings were released once on the level (said when the level
  opens; attempts are
  counted in the progress file, so this holds across visits), or always when the settings say so
  (``mystery_preview``); P then says why;
* after each run learns from the player's stored runs of this world's physics in the job runner's child
  process (:func:`ai.facade.knowledge`) and shows the rules it found in words, marking those the runs
  never exercised as not sure yet (:mod:`game.app.scenes.mystery_draw`); Enter, Esc, Space or a click
  closes the panel.
"""

from __future__ import annotations

from typing import Callable

import pygame

from ai.facade import Knowledge, SolveContext, knowledge, physics_key
from game.core.error_log import log_error
from game.core.mystery import (
    FIRST_VISIT_MESSAGE, WorldCard, is_mystery, preview_allowed, preview_refusal, world_card,
)
from game.core.pack import world_name
from game.core.physics_catalog import level_line
from game.core.playback import PlayState
from game.core.storage import user_data_dir
from game.app.app import App, Scene
from game.app.input import Act, Action
from game.app.jobs import Job, JobEvent, JobHandle
from game.app.play_extension import BoardView, ExtensionBase, Holds, Marks, NO_MARKS, PlayHost
from game.app.scenes.mystery_draw import draw_learned_panel, draw_world_card, panel_text

#: The scene name the composition root registers :class:`WorldCardScene` under.
CARD_SCENE = "world_card"
#: Seconds the first-visit message stays under the top bar.
MESSAGE_SECONDS = 8.0
#: Said when a mystery level opens before its first release (the world's card says more on the first visit).
WATCH_FIRST = "Other rules here: release the lemmings and watch them (no preview yet)"
#: Seconds after the level opens before the card shows (the level has faded in under it).
CARD_DELAY = 0.4
#: Actions that close the learned panel.
CLOSE_PANEL = (Act.CONFIRM, Act.BACK, Act.TOGGLE_RUN, Act.CLICK)
ENDED = (PlayState.WON, PlayState.LOST)


class WorldCardScene(Scene):
    """The first-visit card of a mystery world over the level (Enter, Space, Esc or a click closes it).

    The level does not move under the card, so the level, the veil and the card are drawn once into a
    cached picture (per window size) and reused every frame."""

    def __init__(self, app: App, card: WorldCard, on_close: Callable[[], None] | None = None) -> None:
        super().__init__(app)
        self.card = card
        self.on_close = on_close
        self.below = app.top  #: the level under the card
        self._picture: pygame.Surface | None = None

    def handle_event(self, action: Action) -> None:
        """Close on Enter, Space, Esc or a click."""
        if action.kind in (Act.CONFIRM, Act.TOGGLE_RUN, Act.BACK, Act.CLICK):
            self.app.pop()
            if self.on_close is not None:
                self.on_close()

    def draw(self, surface: pygame.Surface) -> None:
        """The card over the darkened level (cached)."""
        size = surface.get_size()
        if self._picture is None or self._picture.get_size() != size:
            picture = pygame.Surface(size)
            if self.below is not None:
                self.below.draw(picture)
            draw_world_card(picture, self.card)
            self._picture = picture
        surface.blit(self._picture, (0, 0))


def learn_job(key: str) -> Job:
    """The job: learn from the stored runs of the physics ``key`` (:func:`ai.facade.knowledge`)."""

    def job(ctx: SolveContext) -> Knowledge:
        return knowledge(user_data_dir(), key=key, ctx=ctx)

    return job


class MysteryGuide(ExtensionBase):
    """The mystery-world add-on of one play scene (see the module docstring)."""

    name = "mystery"

    def __init__(self, scene: PlayHost) -> None:
        self.scene = scene
        level, key = scene.level, scene.key
        record = scene.app.progress.records.get(key) if key is not None else None
        #: the lemmings were released on this level (on an earlier visit, or on this one)
        self.released = record is not None and record.attempts > 0
        self.world = world_name(level)
        has_world = level.meta_value("world") != ""
        self.card_due = has_world and self.world not in scene.app.progress.worlds_seen
        self.age = 0.0  #: seconds since the level opened
        self.last = scene.state
        self.panel_open = False
        self.knowledge: Knowledge | None = None
        self.progress = ""
        self.error = ""
        self.job: JobHandle | None = None
        self._panel: tuple[tuple[object, ...], pygame.Surface] | None = None  #: the drawn panel and its key
        self._panel_at = (0, 0)

    # ------------------------------------------------------------------ queries
    def preview_allowed(self) -> bool:
        """True when the trajectory preview may show now."""
        return preview_allowed(self.scene.level, released=self.released,
                               setting=self.scene.app.settings.mystery_preview)

    # ------------------------------------------------------------------ hooks
    def update(self, dt: float) -> None:
        """The card on the first visit; a release unlocks the preview; a run's end starts the learning."""
        if self.age == 0.0 and not self.card_due and not self.released and not self.preview_allowed():
            self.scene.say(WATCH_FIRST, MESSAGE_SECONDS, Holds.MOMENT)  # goes once the lemmings are released
        self.age += dt
        if self.card_due and self.age >= CARD_DELAY:
            self.card_due = False
            self.scene.app.progress.mark_world_seen(self.world)
            self.scene.app.open(CARD_SCENE, world_card(self.scene.level),
                                lambda: self.scene.say(FIRST_VISIT_MESSAGE, MESSAGE_SECONDS))
        state = self.scene.state
        if self.last == PlayState.PLACING and state != PlayState.PLACING:
            self.released = True
        if state in ENDED and self.last not in ENDED:
            self.start_learning()
        self.last = state

    def start_learning(self) -> None:
        """Learn from the player's runs of this world in the job runner's child process; open the panel."""
        self.panel_open, self.knowledge, self.progress, self.error = True, None, "", ""
        key = physics_key(level_line(self.scene.level.physics))
        self.job = self.scene.app.jobs.submit(learn_job(key), label="learn-after-run", owner=self, lane="learn",
                                              on_done=self._learned, on_error=self._failed,
                                              on_progress=self._progressed)

    def _progressed(self, event: JobEvent) -> None:
        self.progress = str(getattr(event.payload, "message", "") or "")

    def _learned(self, event: JobEvent) -> None:
        if isinstance(event.payload, Knowledge):
            self.knowledge = event.payload

    def _failed(self, event: JobEvent) -> None:
        log_error("learning from your runs after a run", event.message, event.detail)
        self.error = "The AI could not learn from your runs this time (details in errors.log)."

    def handle_event(self, action: Action) -> bool:
        """P before the first release says why there is no preview; the panel closes on Enter, Esc, Space or
        a click."""
        if action.kind == Act.PREVIEW and not self.preview_allowed():
            self.scene.say(preview_refusal(self.scene.app.settings.mystery_preview), 4.0)
            return True
        if self.panel_open and action.kind in CLOSE_PANEL:
            self.panel_open = False
            return True
        return False

    def marks(self) -> Marks:
        """The preview off while it may not show, and the panel's claim on the board while it is open."""
        hide = not self.preview_allowed()
        if not hide and not self.panel_open:
            return NO_MARKS
        hints = (("Enter/Esc/Space", "close"),) if self.panel_open else ()  # what closes it, in place of their uses
        return Marks(footer_hints=hints, claims_board=self.panel_open, hide_preview=hide)

    def draw(self, surface: pygame.Surface, view: BoardView) -> None:
        """The learned panel over the board while it is open (drawn once per content and window size)."""
        if not self.panel_open:
            return
        board = pygame.Rect(view.layout.rect).clip(surface.get_rect())
        area = pygame.Rect(20, board.top, surface.get_width() - 40, board.height)
        area = area.inflate(0, max(0, 320 - area.height)).clamp(surface.get_rect())
        key = (id(self.knowledge), self.progress, self.error, surface.get_size(), tuple(area))
        if self._panel is None or self._panel[0] != key:
            layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
            box = draw_learned_panel(layer, area, panel_text(self.knowledge, self.progress, self.error, self.world))
            self._panel = (key, layer.subsurface(box.clip(layer.get_rect())).copy())
            self._panel_at = box.topleft
        surface.blit(self._panel[1], self._panel_at)

    def on_edit(self) -> None:
        """New bricks: the panel closes."""
        self.panel_open = False

    def on_leave(self) -> None:
        """Leaving the level stops the learning."""
        self.scene.app.jobs.cancel(self)


def guide_mystery(scene: PlayHost) -> MysteryGuide | None:
    """The extension factory: a guide on the mystery levels that are recorded (not editor play-tests)."""
    if scene.key is None or not is_mystery(scene.level):
        return None
    return MysteryGuide(scene)


__all__ = ["CARD_SCENE", "MysteryGuide", "WorldCardScene", "guide_mystery", "learn_job"]
