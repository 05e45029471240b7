"""Animated GIF export of a run, drawn by the same renderer as the window.

Frames come from the recorded simulation (:func:`game.simulation.simulate`): a title card,
then one frame per simulation frame ``0..N-1`` (drawn by :func:`game.ui.render.render_frame`
with the window's :class:`~game.ui.render.LevelRenderer` and sprites), then an outcome
frame.  Every frame has a footer strip (frame counter and progress bar; the outcome on the
last frame), so no two consecutive frames are identical and the GIF keeps exactly
``N + 2`` frames.

A fractional answer (:class:`ai.base.RelaxedSolution`: the gradient solver's densities or
the MILP's LP relaxation) is drawn with translucent bricks and translucent lemming mass
(:func:`relaxed_frames`).

Works headless: no window is opened (:func:`game.ui.app.headless_env`).

>>> from game.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> frames = gif_frames(level, [(1, 2)], scale=1)
>>> len(frames), frames[0].shape == frame_shape(level, scale=1) + (3,)
(7, True)
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np
import numpy.typing as npt

from game.level import Brick, Level
from game.rules import check_bricks
from game.simulation import Run, simulate

if TYPE_CHECKING:
    import pygame

    from ai.base import RelaxedSolution
    from game.ui.render import LevelRenderer

#: Sprites are 16 px pixel art: a cell is ``16 * scale`` pixels.
TILE = 16
#: Default scale (32 px cells) and frame rate (simulation frames per second).
DEFAULT_SCALE = 2
DEFAULT_FPS = 6.0
#: How long the title card and the outcome frame stay, in seconds.
TITLE_SECONDS = 1.5
OUTCOME_SECONDS = 2.5

Frame = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class ExportResult:
    """What an export wrote."""

    path: Path
    frames: int  #: frames in the GIF (title + N simulation frames + outcome)
    size: tuple[int, int]  #: (width, height) in pixels
    bytes: int
    won: bool | None  #: outcome of the run (None for a relaxed solution)
    seconds: float = 0.0  #: wall time the export took

    def describe(self) -> str:
        """One line for the HUD or the terminal."""
        kb = self.bytes / 1024
        return f"GIF saved: {self.path} ({self.frames} frames, {self.size[0]}x{self.size[1]}, {kb:.0f} KB)"


# ---------------------------------------------------------------- geometry
def cell_size(scale: int) -> int:
    """Pixels per cell for ``scale`` (>= 1)."""
    return TILE * max(1, int(scale))


def margins(cell: int) -> tuple[int, int]:
    """(margin around the board, footer height) for a cell size."""
    return max(8, cell // 2), max(18, cell)


def frame_size(level: Level, *, scale: int = DEFAULT_SCALE) -> tuple[int, int]:
    """(width, height) of every GIF frame.

    >>> from game.level import Level
    >>> frame_size(Level.from_rows([">  T", "XXXX"], frames=4, budget=0), scale=2)
    (160, 128)
    """
    cell = cell_size(scale)
    margin, footer = margins(cell)
    return level.width * cell + 2 * margin, level.height * cell + 2 * margin + footer


def frame_shape(level: Level, *, scale: int = DEFAULT_SCALE) -> tuple[int, int]:
    """(height, width) of every frame as an array."""
    w, h = frame_size(level, scale=scale)
    return h, w


# ---------------------------------------------------------------- drawing helpers
def _pg() -> Any:
    from game.ui.app import headless_env

    headless_env()
    import pygame

    if not pygame.display.get_init():
        pygame.display.init()
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame


def _to_array(surface: pygame.Surface) -> Frame:
    import pygame

    arr: Frame = np.ascontiguousarray(pygame.surfarray.array3d(surface).swapaxes(0, 1)).astype(np.uint8)
    return arr


def _fit_text(s: str, width: int, size: int, color: tuple[int, int, int]) -> pygame.Surface:
    from game.ui import hud

    while size > 10 and hud.text(s, size, color).get_width() > width:
        size -= 2
    return hud.text(s, size, color)


def _footer(surface: pygame.Surface, level: Level, cell: int, frac: float, label: str,
            color: tuple[int, int, int], right: str = "") -> None:
    """The strip under the board: a progress bar and a caption."""
    import pygame

    from game.ui import hud

    margin, footer = margins(cell)
    w, h = surface.get_size()
    top = h - footer
    pygame.draw.rect(surface, (14, 10, 28), (0, top, w, footer))
    pygame.draw.rect(surface, (44, 36, 70), (0, top, w, 3))
    pygame.draw.rect(surface, color, (0, top, int(round(w * max(0.0, min(1.0, frac)))), 3))
    size = max(12, int(footer * 0.62))
    text = _fit_text(label, w - 2 * margin - (w // 3 if right else 0), size, color)
    surface.blit(text, text.get_rect(midleft=(margin, top + 3 + (footer - 3) // 2)))
    if right:
        rtext = _fit_text(right, w // 3, size, hud.MUTED)
        surface.blit(rtext, rtext.get_rect(midright=(w - margin, top + 3 + (footer - 3) // 2)))


def _canvas(level: Level, scale: int) -> pygame.Surface:
    _pg()
    import pygame

    return pygame.Surface(frame_size(level, scale=scale))


def _board_frame(level: Level, bricks: Sequence[Brick], run: Run | None, t: float, scale: int,
                 renderer: LevelRenderer, *, ghost: Sequence[Brick] = ()) -> pygame.Surface:
    """The window's board drawing of frame ``t`` (via render_frame) on a canvas with a footer."""
    from game.ui.render import render_frame

    cell = cell_size(scale)
    margin, _ = margins(cell)
    canvas = _canvas(level, scale)
    board = render_frame(level, bricks, run, t, cell=cell, margin=margin, renderer=renderer,
                         ghost_bricks=ghost)
    canvas.blit(board, (0, 0))
    return canvas


def _title_card(level: Level, scale: int, renderer: LevelRenderer, lines: Sequence[str],
                bricks: Sequence[Brick] = ()) -> pygame.Surface:
    """The board with the lemmings waiting, darkened, with the title and a few lines on it."""
    import pygame

    from game.ui import hud

    canvas = _board_frame(level, bricks, None, 0.0, scale, renderer)
    w, h = canvas.get_size()
    veil = pygame.Surface((w, h), pygame.SRCALPHA)
    veil.fill((6, 4, 16, 170))
    canvas.blit(veil, (0, 0))
    cell = cell_size(scale)
    title = _fit_text(level.title or "Untitled level", w - 16, max(18, int(cell * 1.3)), hud.GOLD)
    y = h // 2 - title.get_height() - 4 * len(lines)
    canvas.blit(title, title.get_rect(midtop=(w // 2, y)))
    y += title.get_height() + 6
    for line in lines:
        t = _fit_text(line, w - 16, max(12, int(cell * 0.7)), hud.WHITE)
        canvas.blit(t, t.get_rect(midtop=(w // 2, y)))
        y += t.get_height() + 2
    _footer(canvas, level, cell, 0.0, "Lemming Bricks", hud.MUTED)
    return canvas


# ---------------------------------------------------------------- frames
def gif_frames(
    level: Level,
    bricks: Sequence[Brick],
    *,
    scale: int = DEFAULT_SCALE,
    subtitle: str = "",
    renderer: LevelRenderer | None = None,
    run: Run | None = None,
) -> list[Frame]:
    """Title card, one frame per simulation frame, outcome frame: ``N + 2`` RGB arrays.

    ``run`` (the recorded simulation) is computed with the reference simulator when not given.
    """
    _pg()
    from game.ui import hud
    from game.ui.render import LevelRenderer

    placed = check_bricks(level, bricks)
    if run is None:
        run = simulate(level, placed)
    rend = renderer if renderer is not None else LevelRenderer()
    cell = cell_size(scale)
    n = level.frames
    nb = len(placed)
    brick_text = f"{nb} brick{'s' if nb != 1 else ''}" + (
        ": " + " ".join(f"({r},{c})" for r, c in placed) if placed else "")
    lines = [brick_text] + ([subtitle] if subtitle else [])
    frames = [_to_array(_title_card(level, scale, rend, lines, placed))]
    lemmings = len(level.lemmings)
    for t in range(n):
        canvas = _board_frame(level, placed, run, float(t), scale, rend)
        home = run.arrived_by(t)
        _footer(canvas, level, cell, t / max(1, n - 1), f"frame {t} / {n - 1}", hud.WHITE,
                right=f"home {home}/{lemmings}")
        frames.append(_to_array(canvas))
    canvas = _board_frame(level, placed, run, float(n - 1), scale, rend)
    if run.won:
        text, color = f"WON with {nb} brick{'s' if nb != 1 else ''}", hud.GOLD
    else:
        text, color = f"LOST: {run.arrived_by(n - 1)} of {lemmings} home", hud.RED
    _footer(canvas, level, cell, 1.0, text, color, right=f"{n} frames")
    frames.append(_to_array(canvas))
    return frames


def relaxed_frames(
    level: Level,
    relaxed: RelaxedSolution,
    *,
    scale: int = DEFAULT_SCALE,
    subtitle: str = "",
    renderer: LevelRenderer | None = None,
) -> list[Frame]:
    """Frames of a fractional solution: translucent bricks (density = opacity) and lemming mass.

    ``relaxed.occupancy`` is ``(N, H, W, 2)``; when it is empty the mass is computed with the
    occupancy simulator (:func:`game.occupancy.simulate_level`) from the densities.
    """
    pygame = _pg()
    from game.ui import hud
    from game.ui.render import FrameView, LevelRenderer

    rend = renderer if renderer is not None else LevelRenderer()
    cell = cell_size(scale)
    margin, _ = margins(cell)
    obst = np.clip(np.asarray(relaxed.obstacles, dtype=np.float64), 0.0, 1.0)
    occ = np.asarray(relaxed.occupancy, dtype=np.float64)
    if occ.ndim != 4 or occ.shape[0] == 0:
        from game.occupancy import simulate_level

        occ = simulate_level(level, obst * level.brickable_map)
    n = occ.shape[0]
    empty = Run(level, (), ())  # a run without lemmings: the renderer draws none
    total = float(obst.sum())  # brick mass (the LP's objective; the gradient's objective is its loss)
    lines = [f"relaxed solution: {total:.2f} bricks in all"] + ([subtitle] if subtitle else [])
    frames = [_to_array(_title_card(level, scale, rend, lines))]
    brick = rend.sprites.get("brick", cell)
    target_mass = [float((occ[t].sum(axis=-1) * level.target_map).sum()) for t in range(n)]
    for t in range(n + 1):
        tt = min(t, n - 1)
        canvas = _canvas(level, scale)
        rend.draw_background(canvas)
        area = pygame.Rect(margin, margin, level.width * cell, level.height * cell)
        layout = rend.draw(canvas, FrameView(level=level, run=empty, t=float(tt), anim=tt / 4.0), area)
        draw_relaxed(canvas, layout, obst, occ[tt], rend, brick=brick)
        if t < n:
            _footer(canvas, level, cell, tt / max(1, n - 1), f"frame {tt} / {n - 1}", hud.WHITE,
                    right=f"mass home {target_mass[tt]:.2f}")
        else:
            _footer(canvas, level, cell, 1.0, f"relaxed: {total:.2f} bricks, "
                    f"{target_mass[-1]:.2f} of {len(level.lemmings)} lemmings home", hud.BLUE)
        frames.append(_to_array(canvas))
    return frames


def draw_relaxed(surface: pygame.Surface, layout: Any, obstacles: npt.NDArray[np.float64],
                 mass: npt.NDArray[np.float64] | None, renderer: LevelRenderer, *,
                 brick: pygame.Surface | None = None, labels: bool = True) -> None:
    """Translucent bricks (opacity = density) and lemming mass ``(H, W, 2)`` on a drawn board."""
    import pygame

    from game.ui import hud

    cell = layout.cell
    brick = brick if brick is not None else renderer.sprites.get("brick", cell)
    for r, c in np.argwhere(obstacles > 0.02):
        d = float(obstacles[r, c])
        ghost = brick.copy()
        ghost.set_alpha(int(40 + 215 * d))
        rect = layout.cell_rect(int(r), int(c))
        surface.blit(ghost, rect)
        if labels and cell >= 24 and d < 0.995:
            t = hud.text(f"{d:.2f}", max(12, cell // 2), hud.WHITE)
            surface.blit(t, t.get_rect(center=rect.center))
    if mass is None:
        return
    total = mass.sum(axis=-1)
    for r, c in np.argwhere(total > 0.01):
        m = float(min(1.0, total[r, c]))
        right = mass[r, c, 1] >= mass[r, c, 0]
        sprite = renderer.sprites.get(f"lem_walk_{'r' if right else 'l'}_0", cell).copy()
        sprite.set_alpha(int(255 * m ** 0.5))
        rect = layout.cell_rect(int(r), int(c))
        glow = pygame.Surface(rect.size, pygame.SRCALPHA)
        glow.fill((120, 230, 255, int(90 * m ** 0.5)))
        surface.blit(glow, rect)
        surface.blit(sprite, rect)


# ---------------------------------------------------------------- writing
def write_gif(frames: Sequence[Frame], out: Path | str, *, fps: float = DEFAULT_FPS,
              title_seconds: float = TITLE_SECONDS, outcome_seconds: float = OUTCOME_SECONDS) -> int:
    """Write ``frames`` (title, body..., outcome) as a looping GIF (atomically); returns its size in bytes."""
    import io

    import imageio.v3 as iio

    from game.storage import atomic_write_bytes

    fps = max(0.5, float(fps))
    body = 1000.0 / fps
    durations = [title_seconds * 1000.0] + [body] * (len(frames) - 2) + [outcome_seconds * 1000.0]
    buf = io.BytesIO()
    iio.imwrite(buf, np.stack(list(frames)), extension=".gif", plugin="pillow",
                duration=[int(round(d)) for d in durations[: len(frames)]], loop=0)
    data = buf.getvalue()
    atomic_write_bytes(Path(out), data)
    try:  # the temporary file behind the atomic write is private (0600): give the GIF the usual mode
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(out, 0o666 & ~umask)
    except OSError:
        pass
    return len(data)


def export_gif(
    level: Level,
    bricks: Sequence[Brick] = (),
    out: Path | str | None = None,
    *,
    scale: int = DEFAULT_SCALE,
    fps: float = DEFAULT_FPS,
    relaxed: RelaxedSolution | None = None,
    subtitle: str = "",
) -> ExportResult:
    """Render and write the GIF of ``bricks`` (or of a ``relaxed`` solution); ``out`` defaults to
    :func:`default_export_path`."""
    start = time.perf_counter()
    path = Path(out) if out is not None else default_export_path(level)
    if relaxed is not None:
        frames = relaxed_frames(level, relaxed, scale=scale, subtitle=subtitle)
        won: bool | None = None
    else:
        placed = check_bricks(level, bricks)
        run = simulate(level, placed)
        frames = gif_frames(level, placed, scale=scale, subtitle=subtitle, run=run)
        won = run.won
    size = write_gif(frames, path, fps=fps)
    h, w = frames[0].shape[:2]
    return ExportResult(path, len(frames), (w, h), size, won, time.perf_counter() - start)


def slug(text: str) -> str:
    """A file-name friendly form of a title.

    >>> slug("The Original!  (v2)")
    'the-original-v2'
    """
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:40] or "level"


def default_export_path(level: Level, *, when: float | None = None, suffix: str = "") -> Path:
    """``<user exports dir>/<level-title>-YYYYmmdd-HHMMSS[-suffix].gif`` (never an existing file)."""
    from game.storage import user_exports_dir

    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if when is None else when))
    base = f"{slug(level.title or 'level')}-{stamp}" + (f"-{suffix}" if suffix else "")
    folder = user_exports_dir()
    path = folder / f"{base}.gif"
    k = 2
    while path.exists():
        path = folder / f"{base}-{k}.gif"
        k += 1
    return path


__all__ = [
    "ExportResult",
    "default_export_path",
    "draw_relaxed",
    "export_gif",
    "frame_shape",
    "frame_size",
    "gif_frames",
    "relaxed_frames",
    "write_gif",
]


# ---------------------------------------------------------------- command line
def export_solve_result(level: Level, result: Any, out: Path | str, *, scale: int = DEFAULT_SCALE,
                        fps: float = DEFAULT_FPS) -> ExportResult:
    """The GIF of a :class:`ai.base.SolveResult`: its bricks, or its relaxed densities."""
    from game.errors import GameError

    subtitle = f"{result.solver}: {result.describe().split(';')[0]}"
    if result.bricks is not None:
        return export_gif(level, result.bricks, out, scale=scale, fps=fps, subtitle=subtitle)
    if result.relaxed is not None:
        return export_gif(level, (), out, scale=scale, fps=fps, relaxed=result.relaxed, subtitle=subtitle)
    raise GameError(f"nothing to export: {result.describe()}")


def relaxed_solution(level: Level, source: str, *, time_limit: float | None = None) -> Any:
    """Solve for a fractional answer: ``lp`` (the MILP's LP relaxation) or ``gradient``."""
    import ai
    from game.errors import GameError

    try:
        if source == "lp":
            result = ai.solve(level, solver="milp", lp=True, time_limit=time_limit)
        else:
            result = ai.solve(level, solver=source, time_limit=time_limit)
    except ModuleNotFoundError as exc:
        raise GameError(f"solver {source!r} is not available: {exc}") from None
    if result.relaxed is None:
        raise GameError(f"solver {source!r} gave no fractional solution: {result.describe()}")
    return result


def _cmd_export(args: Any) -> int:
    from game.commands import load_level
    from game.errors import GameError
    from game.rules import parse_bricks

    if args.scale < 1 or args.scale > 8:
        raise GameError("--scale must be between 1 and 8")
    if not 0.5 <= args.fps <= 60:
        raise GameError("--fps must be between 0.5 and 60")
    level = load_level(args.level)
    if args.relaxed:
        result = relaxed_solution(level, args.relaxed, time_limit=args.time_limit)
        info = export_gif(level, (), args.gif, scale=args.scale, fps=args.fps, relaxed=result.relaxed,
                          subtitle=f"{result.solver}: {result.describe()}")
    else:
        info = export_gif(level, parse_bricks(args.bricks or ""), args.gif, scale=args.scale, fps=args.fps)
    print(info.describe())
    return 0


def register_cli(sub: Any) -> None:
    """Add ``export`` (called from :func:`game.ui.commands.register`)."""
    p = sub.add_parser("export", help="export a run (or a relaxed solution) as an animated GIF")
    p.add_argument("level", help="level file (or pack level number)")
    p.add_argument("--bricks", default="", help='the bricks, "r,c;r,c;..."')
    p.add_argument("--gif", required=True, metavar="OUT.gif", help="the GIF file to write")
    p.add_argument("--scale", type=int, default=DEFAULT_SCALE, metavar="K",
                   help=f"pixel scale: cells are 16*K pixels (default {DEFAULT_SCALE})")
    p.add_argument("--fps", type=float, default=DEFAULT_FPS, metavar="F",
                   help=f"simulation frames per second (default {DEFAULT_FPS:g})")
    p.add_argument("--relaxed", choices=("lp", "gradient"), default=None,
                   help="render a fractional solution instead of --bricks: the LP relaxation "
                   "(solve --solver milp --lp) or the gradient solver's densities")
    p.add_argument("--time-limit", type=float, default=None, metavar="S", help="solver time limit for --relaxed")
    p.set_defaults(handler=_cmd_export)
