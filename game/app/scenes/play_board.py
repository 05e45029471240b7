"""Where the play scene's board sits and what it shows now.

The board is fitted under the top bar and the status strip, above the timeline and the hint bar, inside
the row/column ruler when it is on (:func:`board_area`).  :func:`frame_view` is the
:class:`~game.app.render.FrameView` of the moment: the bricks and the playhead, the hover and the "no"
cue, the extensions' ghost bricks and coloured cells, the trajectory preview (also after a lost run) and
the dimming under the win/lose panel.
"""

from __future__ import annotations

from typing import Protocol

import pygame

from game.core.level import Brick, Level
from game.core.playback import PlayState
from game.core.session import PlaySession
from game.core.settings import Palette
from game.core.simulation import Run
from game.app import hud
from game.app.play_extension import Marks
from game.app.render import COLOURBLIND_PATH_COLORS, PATH_COLORS, FrameView
from game.app.scenes.play_panels import STATUS_STRIP
from game.app.scenes.timeline import TIMELINE_H

#: Width of the row/column ruler around the board (when on).
RULER = 22
#: How long the "no" cue lasts, in seconds.
DENY_SECONDS = 0.5


def board_area(size: tuple[int, int], ruler: bool) -> pygame.Rect:
    """The rectangle the board is fitted into, for a window of ``size`` (``ruler``: room for the ruler)."""
    w, h = size
    top = hud.TOP_BAR + STATUS_STRIP  # the strip holds the status lines
    margin = RULER if ruler else 0
    bottom = hud.BOTTOM_BAR + TIMELINE_H + 14  # the timeline sits under the map
    return pygame.Rect(16 + margin, top + margin, max(1, w - 32 - margin), max(1, h - top - margin - bottom - 6))


def path_colors(palette: Palette) -> tuple[tuple[int, int, int], ...]:
    """The lemming/path colours of ``palette``."""
    return COLOURBLIND_PATH_COLORS if palette == Palette.COLOURBLIND else PATH_COLORS


class ViewHost(Protocol):
    """What the frame view reads of the play scene."""

    @property
    def level(self) -> Level: ...
    @property
    def session(self) -> PlaySession: ...
    @property
    def bricks(self) -> tuple[Brick, ...]: ...
    @property
    def run(self) -> Run: ...
    @property
    def state(self) -> PlayState: ...
    @property
    def t(self) -> float: ...
    @property
    def anim(self) -> float: ...
    @property
    def hover(self) -> Brick | None: ...
    @property
    def cursor(self) -> Brick | None: ...
    @property
    def deny(self) -> tuple[Brick, float] | None: ...
    @property
    def preview(self) -> bool: ...
    def path_colors(self) -> tuple[tuple[int, int, int], ...]: ...


def frame_view(scene: ViewHost, marks: Marks) -> FrameView:
    """What the board of ``scene`` shows now, with the extensions' ``marks``."""
    released = scene.state != PlayState.PLACING
    hover_ok = scene.hover is not None and scene.session.cell_problem(scene.hover) is None
    lost = scene.state == PlayState.LOST
    preview = scene.preview and not marks.hide_preview
    return FrameView(
        level=scene.level,
        bricks=scene.bricks,
        run=scene.run,
        t=scene.t,
        anim=scene.anim,
        released=released,
        hover=scene.hover,
        hover_ok=hover_ok,
        deny=(scene.deny[0], scene.deny[1] / DENY_SECONDS) if scene.deny else None,
        ghost_bricks=marks.ghost_bricks,
        highlights=marks.highlights,
        preview=preview or lost,
        dim=0.0 if marks.claims_board else (0.6 if scene.state == PlayState.WON else (0.25 if lost else 0.0)),
        path_colors=scene.path_colors(),
        tags=(preview or lost) and len(scene.level.lemmings) > 1,
        cursor=scene.cursor,
    )
