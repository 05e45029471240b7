"""The drawing pieces of the GIF export shared by runs (:mod:`game.app.export`) and fractional
solutions (:mod:`game.app.export_relaxed`): frame geometry, the canvas, the footer strip, the title card.

>>> from game.core.level import Level
>>> frame_size(Level.from_rows([">  T", "XXXX"], frames=4, budget=0), scale=2)
(160, 128)
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import numpy.typing as npt
import pygame

from game.core.errors import GameError
from game.core.level import Brick, Level
from game.core.physics_views import views
from game.core.simulation import Run
from game.app import hud
from game.app.display import headless_env
from game.app.render import LevelRenderer, render_frame

#: Sprites are 16 px pixel art: a cell is ``16 * scale`` pixels.
TILE = 16
#: Default scale (32 px cells).
DEFAULT_SCALE = 2

Frame = npt.NDArray[np.uint8]


# ---------------------------------------------------------------- geometry
#: Smallest cell, in pixels, a GIF is drawn with.
MIN_CELL = 2
#: Cells smaller than this (pixels) get a ring round each lemming, which the sprite alone does not make visible.
MARK_BELOW = 8
#: Longest side, in pixels, of the board in a GIF made at the default settings: a larger map gets smaller
#: cells (:func:`default_scale`), so the GIF of any map stays a few megabytes and takes seconds to make.
DEFAULT_MAX_SIDE = 1024


def cell_size(scale: float) -> int:
    """Pixels per cell for ``scale`` (``16 * scale``, at least :data:`MIN_CELL`; a fraction gives cells smaller than
    the 16 px sprites)."""
    return max(MIN_CELL, int(round(TILE * scale)))


def default_scale(level: Level) -> float:
    """The scale of a GIF made at the default settings: :data:`DEFAULT_SCALE`, or, for a map whose board would be
    more than :data:`DEFAULT_MAX_SIDE` pixels long, whole-pixel cells small enough for it to fit.

    >>> from game.core.level import Level
    >>> [default_scale(Level.from_rows([">" + " " * (n - 2) + "T"], frames=4, budget=0)) for n in (30, 64, 256)]
    [2, 1.0, 0.25]
    """
    side = max(level.height, level.width)
    if side * cell_size(DEFAULT_SCALE) <= DEFAULT_MAX_SIDE:
        return DEFAULT_SCALE
    return max(MIN_CELL, DEFAULT_MAX_SIDE // side) / TILE


def margins(cell: int) -> tuple[int, int]:
    """(margin around the board, smallest footer height) for a cell size."""
    return max(8, cell // 2), max(18, cell)


def footer_height(width: int, cell: int) -> int:
    """The footer strip's height in a frame ``width`` pixels wide: at least :func:`margins`' and a 24th of the
    width, so its caption stays readable when a large map's GIF is shown small.

    >>> footer_height(416, 32), footer_height(2080, 32)
    (32, 86)
    """
    return max(margins(cell)[1], width // 24)


def frame_size(level: Level, *, scale: float = DEFAULT_SCALE) -> tuple[int, int]:
    """(width, height) of every GIF frame.

    >>> from game.core.level import Level
    >>> frame_size(Level.from_rows([">  T", "XXXX"], frames=4, budget=0), scale=2)
    (160, 128)
    """
    cell = cell_size(scale)
    margin, _ = margins(cell)
    width = level.width * cell + 2 * margin
    return width, level.height * cell + 2 * margin + footer_height(width, cell)


#: Most pixels of one GIF frame: a 256x256 map fits at scale 1 (4,112 x 4,283); larger frames take over
#: a gigabyte to draw and encode.
MAX_FRAME_PIXELS = 18_000_000


def fit_scale(level: Level, scale: int = DEFAULT_SCALE) -> int:
    """The largest scale up to ``scale`` whose frames have at most :data:`MAX_FRAME_PIXELS` (0: none).

    >>> from game.core.level import Level
    >>> fit_scale(Level.from_rows([">" + " " * 254 + "T"] + ["X" * 256] * 255, frames=4, budget=0), 2)
    1
    """
    for s in range(max(1, scale), 0, -1):
        w, h = frame_size(level, scale=s)
        if w * h <= MAX_FRAME_PIXELS:
            return s
    return 0


def check_frame_size(level: Level, scale: float) -> None:
    """Raise :class:`game.core.errors.GameError` when ``level``'s GIF frames at ``scale`` would be too large."""
    w, h = frame_size(level, scale=scale)
    if w * h <= MAX_FRAME_PIXELS:
        return

    fit = fit_scale(level, int(scale))
    hint = f"use --scale {fit}" if fit else "leave --scale out: the default draws a large map with small cells"
    raise GameError(f"GIF frames of a {level.height}x{level.width} map at scale {scale} would be {w}x{h} pixels, "
                    f"more than {MAX_FRAME_PIXELS // 1_000_000} million: {hint}")


def frame_shape(level: Level, *, scale: float = DEFAULT_SCALE) -> tuple[int, int]:
    """(height, width) of every frame as an array."""
    w, h = frame_size(level, scale=scale)
    return h, w


# ---------------------------------------------------------------- drawing helpers
def _pg() -> Any:
    """pygame, with its display and fonts ready (SDL's dummy drivers when no window is open)."""
    headless_env()
    if not pygame.display.get_init():
        pygame.display.init()
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame


def _to_array(surface: pygame.Surface) -> Frame:
    w, h = surface.get_size()
    arr: Frame = np.frombuffer(pygame.image.tobytes(surface, "RGB"), dtype=np.uint8).reshape(h, w, 3)
    return arr


def _fit_text(s: str, width: int, size: int, color: tuple[int, int, int]) -> pygame.Surface:
    wide = hud.text(s, size, color).get_width()
    if wide > width:  # shrink in proportion first, then step down
        size = max(10, int(size * width / wide))
    while size > 10 and hud.text_width(s, size) > width:
        size -= 2
    return hud.text(s, size, color)


def _footer(surface: pygame.Surface, level: Level, cell: int, frac: float, label: str,
            color: tuple[int, int, int], right: str = "") -> None:
    """The strip under the board: a progress bar and a caption."""
    margin, _ = margins(cell)
    w, h = surface.get_size()
    footer = footer_height(w, cell)
    top = h - footer
    pygame.draw.rect(surface, (14, 10, 28), (0, top, w, footer))
    bar = max(3, footer // 12)
    pygame.draw.rect(surface, (44, 36, 70), (0, top, w, bar))
    pygame.draw.rect(surface, color, (0, top, int(round(w * max(0.0, min(1.0, frac)))), bar))
    size = max(12, int(footer * 0.62))
    text = _fit_text(label, w - 2 * margin - (w // 3 if right else 0), size, color)
    surface.blit(text, text.get_rect(midleft=(margin, top + bar + (footer - bar) // 2)))
    if right:
        rtext = _fit_text(right, w // 3, size, hud.MUTED)
        surface.blit(rtext, rtext.get_rect(midright=(w - margin, top + bar + (footer - bar) // 2)))


def fit_caption(s: str, width: int, size: int, smallest: int = 12) -> tuple[str, int]:
    """``s`` and a font size for it to fit ``width`` pixels: the size steps down to ``smallest``, then the words
    are cut with an ellipsis (:func:`game.app.hud.fit_text`).

    >>> _ = _pg()
    >>> fit_caption("fell into the pit at frame 3", 2000, 20)
    ('fell into the pit at frame 3', 20)
    >>> text, size = fit_caption("fell into the pit at frame 3", 60, 20)
    >>> size, text.endswith("\u2026"), hud.text_width(text, size) <= 60
    (12, True, True)
    """
    while size > smallest and hud.text_width(s, size) > width:
        size = max(smallest, size - 2)
    return hud.fit_text(s, size, width), size


def _loss_marks(canvas: pygame.Surface, level: Level, cell: int, where: Brick, reason: str,
                color: tuple[int, int, int]) -> None:
    """On a lost run's outcome frame: a ring round the lemming at ``where`` and the ``reason`` in a dark strip
    across the board, at its top or bottom edge, whichever is further from the ring."""
    margin, _ = margins(cell)
    w, h = canvas.get_size()
    row, col = where
    center = (margin + col * cell + cell // 2, margin + row * cell + cell // 2)
    radius, ring = max(6, int(cell * 0.6)), max(2, cell // 10)
    pygame.draw.circle(canvas, (8, 6, 16), center, radius + 2, ring + 2)
    pygame.draw.circle(canvas, color, center, radius, ring)
    strip = footer_height(w, cell)
    text, size = fit_caption(reason, w - 2 * margin, max(12, int(strip * 0.55)))
    board_bottom = h - footer_height(w, cell)
    top = board_bottom - strip if 2 * center[1] < board_bottom else 0
    veil = pygame.Surface((w, strip), pygame.SRCALPHA)
    veil.fill((6, 4, 16, 200))
    canvas.blit(veil, (0, top))
    caption = hud.text(text, size, color)
    canvas.blit(caption, caption.get_rect(center=(w // 2, top + strip // 2)))


def _canvas(level: Level, scale: float) -> pygame.Surface:
    _pg()
    return pygame.Surface(frame_size(level, scale=scale))


def _board_frame(level: Level, bricks: Sequence[Brick], run: Run | None, t: float, scale: float,
                 renderer: LevelRenderer, *, ghost: Sequence[Brick] = ()) -> pygame.Surface:
    """The window's board drawing of frame ``t`` (via render_frame) on a canvas with a footer."""
    cell = cell_size(scale)
    margin, _ = margins(cell)
    canvas = _canvas(level, scale)
    board = render_frame(level, bricks, run, t, cell=cell, margin=margin, renderer=renderer,
                         ghost_bricks=ghost)
    canvas.blit(board, (0, 0))
    if cell < MARK_BELOW:
        _mark_lemmings(canvas, level, run, t, cell, margin)
    return canvas


def _mark_lemmings(canvas: pygame.Surface, level: Level, run: Run | None, t: float, cell: int, margin: int) -> None:
    """A ring round each lemming (green once home), so lemmings a few pixels wide stay visible on a big map."""
    if run is None:
        spots = [(lem.row, lem.col, False) for lem in level.lemmings]
    else:
        i = min(max(0, int(t)), run.frames - 1)
        spots = [(*track.path[i][:2], track.reached_at is not None and track.reached_at <= i) for track in run.tracks]
    radius, width = max(5, 2 * cell), max(1, cell // 2)
    for r, c, home in spots:
        center = (margin + c * cell + cell // 2, margin + r * cell + cell // 2)
        pygame.draw.circle(canvas, hud.GREEN if home else hud.GOLD, center, radius, width)


def physics_line(level: Level) -> str:
    """The title card's line naming the rules of a level whose lemmings do not move as in the classic game
    ('' for the classic rules): a GIF of climbing or restless lemmings says why they move so.

    >>> from game.core.physics_catalog import SHIPPED
    >>> level = Level.from_rows(["> T", "XXX"], frames=4, budget=0)
    >>> physics_line(level), physics_line(level.with_physics(SHIPPED["restless"]))
    ('', 'Physics: restless (targets do not stop lemmings)')
    """
    physics = level.physics
    if views(physics).is_classic:
        return ""
    return f"Physics: {physics.name}" + ("" if physics.targets_stop else " (targets do not stop lemmings)")


def _title_card(level: Level, scale: float, renderer: LevelRenderer, lines: Sequence[str],
                bricks: Sequence[Brick] = (), *, name_physics: bool = True) -> pygame.Surface:
    """The board with the lemmings waiting, darkened, with the title and a few lines on it, then the physics
    when it is not the classic one (:func:`physics_line`; unless ``name_physics`` is False)."""
    rules = physics_line(level) if name_physics else ""
    lines = [*lines, rules] if rules else lines
    canvas = _board_frame(level, bricks, None, 0.0, scale, renderer)
    w, h = canvas.get_size()
    veil = pygame.Surface((w, h), pygame.SRCALPHA)
    veil.fill((6, 4, 16, 170))
    canvas.blit(veil, (0, 0))
    cell = cell_size(scale)
    title = _fit_text(level.title or "Untitled level", w - 2 * margins(cell)[0], max(18, w // 12), hud.GOLD)
    texts = [_fit_text(line, w - 2 * margins(cell)[0], max(16, w // 22), hud.WHITE) for line in lines]
    gap = max(2, title.get_height() // 6)
    y = (h - footer_height(w, cell) - title.get_height() - sum(t.get_height() + gap for t in texts)) // 2
    canvas.blit(title, title.get_rect(midtop=(w // 2, y)))
    y += title.get_height() + gap
    for t in texts:
        canvas.blit(t, t.get_rect(midtop=(w // 2, y)))
        y += t.get_height() + gap
    _footer(canvas, level, cell, 0.0, "Lemming Bricks", hud.MUTED)
    return canvas
