"""The timeline under the map: every frame of the run, to click or drag to (the play scene's
scrubber), numbered the way the GIF and the HUD number them (:func:`game.core.outcome.frame_label`).

The strip shows the run's length, a tick per frame when they fit, green marks where lemmings
reach an exit and red marks where one is lost (:func:`game.core.outcome.explain`), and the playhead.
While the trajectory preview is off the marks show only up to the furthest frame the player has watched of
this run (the timeline replays what was seen, it does not tell the outcome).
Dragging with the left button held moves the playhead; Home / End jump to the first / last frame.
:class:`TimelineBar` is the play scene's built-in extension (:mod:`game.app.play_extension`): it takes
the clicks and drags on the strip (the scene does the seeking) and draws it in the scene's draw pass.
"""

from __future__ import annotations

from typing import Protocol

import pygame

from game.core.outcome import explain, frame_label
from game.core.playback import Playback
from game.core.simulation import Run
from game.app import hud
from game.app.input import Act, Action
from game.app.play_extension import BoardView, ExtensionBase

#: Height of the strip, in pixels (with its label).
TIMELINE_H = 26
#: Horizontal margin of the track inside the strip (room for the label on the right).
LABEL_W = 150


def timeline_rect(size: tuple[int, int]) -> pygame.Rect:
    """Where the strip is, for a window of ``size``: just above the footer."""
    w, h = size
    return pygame.Rect(16, h - hud.BOTTOM_BAR - TIMELINE_H - 6, max(40, w - 32), TIMELINE_H)


def track_rect(size: tuple[int, int]) -> pygame.Rect:
    """The draggable track inside the strip (the label sits to its right)."""
    strip = timeline_rect(size)
    label = LABEL_W if strip.width > 3 * LABEL_W else 0
    return pygame.Rect(strip.left + 8, strip.top + 8, max(20, strip.width - 16 - label), strip.height - 16)


def frame_at(size: tuple[int, int], frames: int, x: int) -> int:
    """The frame (0..frames-1) under the pointer's ``x`` (clamped to the track's ends).

    >>> frame_at((800, 500), 12, 0), frame_at((800, 500), 12, 10_000)
    (0, 11)
    """
    track = track_rect(size)
    if frames <= 1:
        return 0
    frac = (x - track.left) / max(1, track.width - 1)
    return max(0, min(frames - 1, round(frac * (frames - 1))))


def frame_x(track: pygame.Rect, frames: int, t: float) -> int:
    """The x of (possibly fractional) frame ``t`` on ``track``."""
    return track.left + int(round((track.width - 1) * (t / max(1, frames - 1))))


class TimelineArt:
    """The strip's still parts (track, ticks, marks), drawn once per run and window size."""

    def __init__(self) -> None:
        self._key: tuple[object, ...] | None = None
        self._art: pygame.Surface | None = None

    def surface(self, run: Run, frames: int, size: tuple[int, int], upto: int | None = None) -> pygame.Surface:
        """The cached picture of the strip for ``run`` (``upto``: marks only up to this frame)."""
        key = (id(run), frames, size, upto)
        if self._art is None or self._key != key:
            self._key, self._art = key, self._draw(run, frames, size, upto)
        return self._art

    @staticmethod
    def _draw(run: Run, frames: int, size: tuple[int, int], upto: int | None = None) -> pygame.Surface:
        strip = timeline_rect(size)
        art = pygame.Surface(strip.size, pygame.SRCALPHA)
        hud.panel(art, art.get_rect(), alpha=210)
        track = track_rect(size).move(-strip.left, -strip.top)
        pygame.draw.rect(art, (40, 32, 64), track, border_radius=4)
        if frames > 1 and track.width / (frames - 1) >= 4:
            for f in range(frames):
                x = frame_x(track, frames, f)
                tall = f % 5 == 0
                pygame.draw.line(art, (90, 80, 130), (x, track.bottom - (track.height if tall else 4)),
                                 (x, track.bottom - 1))
        last = frames if upto is None else upto
        for track_ in run.tracks:  # arrivals in green
            if track_.reached_at is not None and track_.reached_at <= last:
                x = frame_x(track, frames, track_.reached_at)
                pygame.draw.line(art, hud.GREEN, (x, track.top - 3), (x, track.bottom + 2), 2)
        for failure in explain(run):  # where a lemming is lost, in red
            if failure.frame is not None and failure.frame <= last:
                x = frame_x(track, frames, failure.frame)
                pygame.draw.line(art, hud.RED, (x, track.top - 3), (x, track.bottom + 2), 2)
        return art


def draw_timeline(surface: pygame.Surface, art: TimelineArt, run: Run, frames: int, t: float,
                  color: tuple[int, int, int], released: bool, upto: int | None = None) -> pygame.Rect:
    """The strip with the playhead at frame ``t`` and its label (``upto``: the outcome marks only up to this
    frame, None: all); returns the strip's rect."""
    size = surface.get_size()
    strip = timeline_rect(size)
    surface.blit(art.surface(run, frames, size, upto), strip.topleft)
    track = track_rect(size)
    x = frame_x(track, frames, t if released else 0.0)
    if released:
        pygame.draw.rect(surface, color, (track.left, track.top, max(0, x - track.left), track.height),
                         border_radius=4)
    knob = pygame.Rect(0, 0, 10, strip.height - 6)
    knob.center = (x, strip.centery)
    pygame.draw.rect(surface, (16, 12, 24), knob.inflate(4, 4), border_radius=4)
    pygame.draw.rect(surface, hud.WHITE if released else hud.MUTED, knob, border_radius=3)
    if track.right < strip.right - 40:
        label = frame_label(int(t + 1e-9) if released else 0, frames)
        hud.blit_text(surface, label, (strip.right - 8, strip.centery), 20, hud.WHITE, anchor="midright")
    return strip


class TimelineHost(Protocol):
    """What :class:`TimelineBar` needs of the play scene."""

    @property
    def playback(self) -> Playback:
        """The playhead over the run."""

    def seek(self, frame: int) -> None:
        """Pause at ``frame``."""

    def screen_size(self) -> tuple[int, int]:
        """The window's size now."""


class TimelineBar(ExtensionBase):
    """The timeline as a play-scene extension: click or drag on the strip to seek; drawn every frame."""

    name = "timeline"

    def __init__(self, host: TimelineHost) -> None:
        self.host = host
        self.art = TimelineArt()  #: the strip's still parts, drawn once per run
        self.scrubbing = False  #: the left button went down on the strip and is held
        self.seen = -1  #: the furthest frame watched of the run of the current bricks (-1: none yet)

    def handle_event(self, action: Action) -> bool:
        """A click on the strip seeks (and starts a drag); moves while held keep seeking; the button's
        release ends the drag."""
        if action.kind == Act.MOUSE_UP:
            self.scrubbing = False
            return False
        if action.pos is None or action.kind not in (Act.CLICK, Act.HOVER):
            return False
        size = self.host.screen_size()
        if action.kind == Act.CLICK:
            if not timeline_rect(size).collidepoint(action.pos):
                return False
            self.scrubbing = True
        elif not self.scrubbing:
            return False
        elif not action.value:  # the button came up outside the window
            self.scrubbing = False
            return False
        self.host.seek(frame_at(size, self.host.playback.frames, action.pos[0]))
        return True

    def update(self, dt: float) -> None:
        """Remember how far the run was watched."""
        pb = self.host.playback
        if pb.released:
            self.seen = max(self.seen, pb.frame)

    def on_edit(self) -> None:
        """New bricks: a new run, nothing of it seen yet."""
        self.seen = -1

    def draw(self, surface: pygame.Surface, view: BoardView) -> None:
        """The strip with the playhead (with the preview off, the marks of what was seen only)."""
        pb = self.host.playback
        upto = None if view.frame.preview else max(self.seen, pb.frame if pb.released else -1)
        draw_timeline(surface, self.art, pb.run, pb.frames, pb.t, hud.STATE_COLORS[pb.state.value], pb.released,
                      upto)


__all__ = ["LABEL_W", "TIMELINE_H", "TimelineArt", "TimelineBar", "TimelineHost", "draw_timeline", "frame_at",
           "frame_x", "timeline_rect", "track_rect"]
