"""Drawing a level state onto any pygame Surface: the window, or a GIF frame.

:class:`LevelRenderer` draws a :class:`FrameView` (the level, the bricks, the run and the
playhead ``t`` in frames, fractional for smooth movement) into a rectangle of a Surface,
scaled to fit and centred.  It never changes game state; it only caches scaled sprites and
the static terrain.

For a GIF frame, no window is needed::

    run = simulate(level, bricks)
    surf = render_frame(level, bricks, run, frame=7, cell=32)      # a pygame.Surface
    array = pygame.surfarray.array3d(surf).swapaxes(0, 1)          # (H, W, 3) for imageio
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import pygame

from game.core.level import Brick, Level
from game.core.simulation import Run
from game.app import hud
from game.app.backdrop import paint_backdrop
from game.app.sprites import Sprites, lemming_sprite, shared_sprites

RGBA = tuple[int, int, int, int]

#: Colours of the trajectory preview, one per lemming (cycled).
PATH_COLORS: tuple[tuple[int, int, int], ...] = (
    (120, 230, 255), (255, 150, 220), (255, 236, 120), (160, 255, 150), (255, 170, 110),
)
#: Okabe-Ito colours: told apart with the common colour-vision deficiencies (settings: palette).
COLOURBLIND_PATH_COLORS: tuple[tuple[int, int, int], ...] = (
    (86, 180, 233), (230, 159, 0), (0, 158, 115), (240, 228, 66), (204, 121, 167), (213, 94, 0), (0, 114, 178),
)
BOARD_BORDER = (16, 12, 26)


@dataclass(frozen=True)
class BoardLayout:
    """Where the board sits on the Surface: top-left ``origin`` and ``cell`` size in pixels."""

    rows: int
    cols: int
    cell: int
    origin: tuple[int, int]

    @property
    def rect(self) -> pygame.Rect:
        """The board's rectangle."""
        return pygame.Rect(self.origin[0], self.origin[1], self.cols * self.cell, self.rows * self.cell)

    def cell_rect(self, row: int, col: int) -> pygame.Rect:
        """The rectangle of a cell."""
        return pygame.Rect(self.origin[0] + col * self.cell, self.origin[1] + row * self.cell, self.cell, self.cell)

    def cell_center(self, row: int, col: int) -> tuple[int, int]:
        """The pixel at the centre of a cell (for clicks in tests)."""
        return (self.origin[0] + col * self.cell + self.cell // 2, self.origin[1] + row * self.cell + self.cell // 2)

    def cell_at(self, pos: tuple[int, int] | None) -> Brick | None:
        """The cell under a pixel, or None outside the board."""
        if pos is None:
            return None
        x, y = pos[0] - self.origin[0], pos[1] - self.origin[1]
        if x < 0 or y < 0:
            return None
        row, col = y // self.cell, x // self.cell
        if row >= self.rows or col >= self.cols:
            return None
        return (int(row), int(col))

    def to_px(self, row: float, col: float) -> tuple[int, int]:
        """Top-left pixel of a (fractional) cell position."""
        return (self.origin[0] + round(col * self.cell), self.origin[1] + round(row * self.cell))


def fit_layout(rows: int, cols: int, area: pygame.Rect, *, max_cell: int = 96) -> BoardLayout:
    """The largest cell size that fits ``rows`` x ``cols`` in ``area``, centred.

    Cell sizes snap to a multiple of 16 (crisp whole-pixel art) when that loses less than 20%.

    >>> fit_layout(10, 10, pygame.Rect(0, 0, 800, 600)).cell
    48
    >>> fit_layout(24, 32, pygame.Rect(0, 0, 1240, 680)).cell
    28
    """
    cell = max(2, min(area.width // max(cols, 1), area.height // max(rows, 1), max_cell))
    snapped = cell - cell % 16
    if cell >= 16 and snapped >= 0.8 * cell:
        cell = snapped
    width, height = cols * cell, rows * cell
    origin = (area.x + (area.width - width) // 2, area.y + (area.height - height) // 2)
    return BoardLayout(rows, cols, cell, origin)


@dataclass
class FrameView:
    """Everything one frame of the board shows.

    ``t`` is the playhead in frames (0..N-1, fractional between frames); ``anim`` is a clock
    in seconds for idle animations (door glow, cheering).  ``released`` False shows the
    lemmings waiting at their starts.  Overlays: ``hover`` cell (``hover_ok`` False when a
    click there would be refused), ``deny`` (cell, strength 0..1) for the "no" cue,
    ``ghost_bricks`` (e.g. an AI solution) drawn translucent, ``highlights`` (cell, RGBA)
    pulsing frames (hints, forced cells), ``preview`` the trajectory ghost paths.
    """

    level: Level
    bricks: Sequence[Brick] = ()
    run: Run | None = None
    t: float = 0.0
    anim: float = 0.0
    released: bool = True
    hover: Brick | None = None
    hover_ok: bool = True
    deny: tuple[Brick, float] | None = None
    ghost_bricks: Sequence[Brick] = ()
    highlights: Sequence[tuple[Brick, RGBA]] = ()
    preview: bool = False
    dim: float = 0.0  #: 0..1 darkening of the board (behind win/lose panels)
    path_colors: Sequence[tuple[int, int, int]] = PATH_COLORS  #: one per lemming (cycled), paths and tags
    tags: bool = False  #: a marker in each lemming's path colour over its head
    cursor: Brick | None = None  #: the keyboard cursor's cell
    extra: dict[str, object] = field(default_factory=dict)  #: free slot for later overlays


class LevelRenderer:
    """Draws :class:`FrameView` objects; caches the terrain per (level, cell size)."""

    def __init__(self, sprites: Sprites | None = None) -> None:
        self.sprites = sprites if sprites is not None else shared_sprites()
        self._terrain: tuple[tuple[object, ...], pygame.Surface] | None = None
        self._paths: tuple[tuple[object, ...], pygame.Surface] | None = None
        self._bg: tuple[tuple[int, int], pygame.Surface] | None = None

    # ----------------------------------------------------------------- public
    def layout(self, level: Level, area: pygame.Rect) -> BoardLayout:
        """The board layout of ``level`` fitted into ``area``."""
        return fit_layout(level.height, level.width, area)

    def draw_background(self, surface: pygame.Surface) -> None:
        """Fill the whole Surface with the window's backdrop (:mod:`game.app.backdrop`, cached per size)."""
        size = surface.get_size()
        if self._bg is None or self._bg[0] != size:
            self._bg = (size, paint_backdrop(size))
        surface.blit(self._bg[1], (0, 0))

    def draw(self, surface: pygame.Surface, view: FrameView, area: pygame.Rect | None = None) -> BoardLayout:
        """Draw the board for ``view`` fitted into ``area`` (default: the whole Surface)."""
        level = view.level
        layout = self.layout(level, area if area is not None else surface.get_rect())
        cell = layout.cell
        board = layout.rect
        # the shadow and the border as rings: the opaque terrain covers the rest (filling them cost a
        # fifth of a frame on a big board)
        pygame.draw.rect(surface, (8, 6, 14), board.inflate(12, 12).move(4, 6), 10, border_radius=6)
        pygame.draw.rect(surface, BOARD_BORDER, board.inflate(8, 8), 4, border_radius=4)
        surface.blit(self._terrain_surface(level, cell), layout.origin)

        door = self.sprites.get(f"target_{int(view.anim * 4) % 2}", cell)
        for r, c in level.targets:
            surface.blit(door, layout.cell_rect(r, c))
        brick = self.sprites.get("brick", cell)
        for r, c in view.bricks:
            surface.blit(brick, layout.cell_rect(r, c))
        if view.ghost_bricks:
            ghost = brick.copy()
            ghost.set_alpha(120)
            for r, c in view.ghost_bricks:
                surface.blit(ghost, layout.cell_rect(r, c))
        if view.preview and view.run is not None:
            surface.blit(self._path_surface(view.run, cell, tuple(view.path_colors)), layout.origin)
        for (r, c), rgba in view.highlights:
            self._pulse_rect(surface, layout.cell_rect(r, c), rgba, view.anim)
        if view.hover is not None and level.in_bounds(*view.hover):
            self._draw_hover(surface, layout, view, view.hover)
        self._draw_lemmings(surface, layout, view)
        if view.cursor is not None and level.in_bounds(*view.cursor):
            rect = layout.cell_rect(*view.cursor)
            pulse = 0.6 + 0.4 * math.sin(view.anim * 5.0)
            pygame.draw.rect(surface, (255, 255, 255), rect.inflate(2, 2), max(2, cell // 14))
            pygame.draw.rect(surface, (255, 214, int(90 * pulse)), rect.inflate(-4, -4), max(1, cell // 24))
        if view.deny is not None:
            self._draw_deny(surface, layout, level, view.deny)
        if view.dim > 0:
            veil = pygame.Surface(board.size, pygame.SRCALPHA)
            veil.fill((6, 4, 16, int(150 * min(view.dim, 1.0))))
            surface.blit(veil, board)
        return layout

    # ----------------------------------------------------------------- parts
    def _draw_hover(self, surface: pygame.Surface, layout: BoardLayout, view: FrameView, hover: Brick) -> None:
        """The cell under the mouse: where a click would put a brick, or a red veil where it is refused."""
        rect = layout.cell_rect(*hover)
        if view.hover_ok:
            if hover not in view.bricks and view.level.char_at(*hover) == " ":
                ghost = self.sprites.get("brick", layout.cell).copy()  # where a click would put a brick
                ghost.set_alpha(110)
                surface.blit(ghost, rect)
            else:
                veil = pygame.Surface(rect.size, pygame.SRCALPHA)
                veil.fill((255, 255, 255, 40))
                surface.blit(veil, rect)
            surface.blit(self.sprites.get("hover", layout.cell), rect)
        else:
            veil = pygame.Surface(rect.size, pygame.SRCALPHA)
            veil.fill((255, 60, 60, 50))
            surface.blit(veil, rect)

    def _draw_deny(self, surface: pygame.Surface, layout: BoardLayout, level: Level,
                   deny: tuple[Brick, float]) -> None:
        """The "no" cue on a refused cell: a red veil and the icon, shaking as it fades (``deny``: cell,
        strength 0..1)."""
        (r, c), strength = deny
        if level.in_bounds(r, c) and strength > 0:
            cell = layout.cell
            rect = layout.cell_rect(r, c)
            shake = round(math.sin(strength * 40) * cell * 0.08 * strength)
            veil = pygame.Surface(rect.size, pygame.SRCALPHA)
            veil.fill((255, 40, 40, int(110 * strength)))
            surface.blit(veil, rect.move(shake, 0))
            icon = self.sprites.get("no", cell).copy()
            icon.set_alpha(int(255 * min(1.0, strength * 1.5)))
            surface.blit(icon, rect.move(shake, 0))

    def _terrain_surface(self, level: Level, cell: int) -> pygame.Surface:
        key = (level.grid, cell)
        if self._terrain is None or self._terrain[0] != key:
            self._terrain = (key, paint_terrain(level.grid, cell, self.sprites))
        return self._terrain[1]

    def _path_surface(self, run: Run, cell: int,
                      colors: tuple[tuple[int, int, int], ...] = PATH_COLORS) -> pygame.Surface:
        key = (run.level.grid, run.level.frames, run.bricks, cell, colors)
        if self._paths is not None and self._paths[0] == key:
            return self._paths[1]
        level = run.level
        surf = pygame.Surface((level.width * cell, level.height * cell), pygame.SRCALPHA)
        width = max(2, cell // 8)
        for k, track in enumerate(run.tracks):
            color = colors[k % len(colors)]
            off = (k % 3 - 1) * max(1, cell // 10)
            pts = [(c * cell + cell // 2 + off, r * cell + cell // 2 + off) for r, c, _ in track.path]
            dedup = [pts[0]] + [p for i, p in enumerate(pts[1:], 1) if p != pts[i - 1]]
            if len(dedup) >= 2:
                pygame.draw.lines(surf, color + (170,), False, dedup, width)
            for p in dedup:
                pygame.draw.circle(surf, color + (210,), p, max(2, cell // 10))
            end = dedup[-1]
            if track.reached_at is not None:
                pygame.draw.circle(surf, (255, 255, 255, 230), end, max(3, cell // 5), max(1, cell // 16))
            else:
                d = max(3, cell // 5)
                pygame.draw.line(surf, (255, 80, 80, 240), (end[0] - d, end[1] - d), (end[0] + d, end[1] + d), width)
                pygame.draw.line(surf, (255, 80, 80, 240), (end[0] - d, end[1] + d), (end[0] + d, end[1] - d), width)
        self._paths = (key, surf)
        return surf

    @staticmethod
    def _pulse_rect(surface: pygame.Surface, rect: pygame.Rect, rgba: RGBA, anim: float) -> None:
        k = 0.6 + 0.4 * math.sin(anim * 6.0)
        veil = pygame.Surface(rect.size, pygame.SRCALPHA)
        veil.fill((rgba[0], rgba[1], rgba[2], int(rgba[3] * 0.35 * k)))
        surface.blit(veil, rect)
        pygame.draw.rect(surface, rgba[:3], rect, max(2, rect.width // 12))

    def _draw_lemmings(self, surface: pygame.Surface, layout: BoardLayout, view: FrameView) -> None:
        level, cell, run = view.level, layout.cell, view.run
        if run is None or not view.released:
            bob = int(view.anim * 2) % 2
            for lem in level.lemmings:
                name = f"lem_walk_{'r' if lem.direction > 0 else 'l'}_{1 if bob else 0}"
                surface.blit(self.sprites.get(name, cell), layout.to_px(lem.row, lem.col))
            return
        last = run.frames - 1
        t = min(max(view.t, 0.0), float(last))
        i = int(math.floor(t))
        a = t - i if i < last else 0.0
        crowd: dict[tuple[int, int], int] = {}
        for k, track in enumerate(run.tracks):
            r0, c0, d0 = track.path[i]
            crowd[(r0, c0)] = crowd.get((r0, c0), 0) + 1
            if view.tags:
                self._tag(surface, layout, track.path, i, a, view.path_colors[k % len(view.path_colors)])
            if track.reached_at is not None and track.reached_at <= i:
                name = f"lem_cheer_{int(view.anim * 4 + c0) % 2}"
                surface.blit(self.sprites.get(name, cell), layout.to_px(r0, c0))
                continue
            if i < last:
                r1, c1, d1 = track.path[i + 1]
            else:
                r1, c1, d1 = r0, c0, d0
            name = lemming_sprite((r0, c0, d0), (r1, c1, d1), a, view.anim)
            y = r0 + (r1 - r0) * a
            x = c0 + (c1 - c0) * a
            surface.blit(self.sprites.get(name, cell), layout.to_px(y, x))
        for (r, c), n in crowd.items():
            if n > 1:  # several lemmings on one cell: how many
                self._count_badge(surface, layout.cell_rect(r, c), n)

    @staticmethod
    def _tag(surface: pygame.Surface, layout: BoardLayout, path: Sequence[tuple[int, int, int]], i: int,
             a: float, color: tuple[int, int, int]) -> None:
        """A small marker in the lemming's path colour at the top of its cell."""
        r0, c0, _ = path[i]
        r1, c1, _ = path[min(i + 1, len(path) - 1)]
        x, y = layout.to_px(r0 + (r1 - r0) * a, c0 + (c1 - c0) * a)
        cell = layout.cell
        rect = pygame.Rect(x + cell // 4, y - max(2, cell // 10), cell // 2, max(3, cell // 8))
        pygame.draw.rect(surface, (8, 6, 16), rect.inflate(2, 2), border_radius=3)
        pygame.draw.rect(surface, color, rect, border_radius=3)

    @staticmethod
    def _count_badge(surface: pygame.Surface, rect: pygame.Rect, n: int) -> None:
        label = hud.text(str(n), max(14, min(28, rect.width // 2)), (16, 12, 24), shadow=False)
        radius = max(7, label.get_height() // 2 + 2)
        center = (rect.right - radius // 2, rect.top + radius // 2)
        pygame.draw.circle(surface, (16, 12, 24), center, radius + 2)
        pygame.draw.circle(surface, (255, 255, 255), center, radius)
        surface.blit(label, label.get_rect(center=center))


def paint_terrain(grid: Sequence[str], cell: int, sprites: Sprites) -> pygame.Surface:
    """Walls, background and entrance hatches of a map (rows of ``X``, space, ``T``, ``<``, ``>``).

    Shared by the level renderer and the editor, so a level looks the same in both.
    """
    height, width = len(grid), len(grid[0]) if grid else 0
    surf = pygame.Surface((width * cell, height * cell))
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            var = (r * 7 + c * 13 + (r * c) % 5) % 4
            pos = (c * cell, r * cell)
            if ch == "X":
                open_above = r > 0 and grid[r - 1][c] != "X"
                surf.blit(sprites.get(f"wall_top_{var}" if open_above else f"wall_{var}", cell), pos)
            else:
                surf.blit(sprites.get(f"bg_{var}", cell), pos)
                if ch in "<>":
                    # the entrance hatch the lemming drops from
                    hatch = pygame.Rect(pos[0] + cell // 8, pos[1], cell - cell // 4, max(2, cell // 6))
                    pygame.draw.rect(surf, (110, 70, 40), hatch)
                    pygame.draw.rect(surf, (60, 36, 24), hatch, max(1, cell // 24))
    return surf


def render_frame(
    level: Level,
    bricks: Sequence[Brick],
    run: Run | None,
    frame: float,
    *,
    cell: int = 32,
    margin: int = 16,
    anim: float | None = None,
    renderer: LevelRenderer | None = None,
    preview: bool = False,
    ghost_bricks: Sequence[Brick] = (),
) -> pygame.Surface:
    """A stand-alone Surface showing the board at ``frame`` (for GIF export; no window needed).

    The Surface is ``(W * cell + 2 * margin, H * cell + 2 * margin)`` pixels.
    """
    pygame.display.init() if not pygame.display.get_init() else None
    size = (level.width * cell + 2 * margin, level.height * cell + 2 * margin)
    surface = pygame.Surface(size)
    rend = renderer if renderer is not None else LevelRenderer()
    rend.draw_background(surface)
    view = FrameView(
        level=level, bricks=tuple(bricks), run=run, t=frame,
        anim=frame / 4.0 if anim is None else anim, released=run is not None,
        preview=preview, ghost_bricks=tuple(ghost_bricks),
    )
    area = pygame.Rect(margin, margin, level.width * cell, level.height * cell)
    rend.draw(surface, view, area)
    return surface

