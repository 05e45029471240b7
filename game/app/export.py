"""Animated GIF export of a run, drawn by the same renderer as the window.

Frames come from the recorded simulation (:func:`game.core.simulation.simulate`): a title card,
then one frame per simulation frame ``0..N-1`` (drawn by :func:`game.app.render.render_frame`
with the window's :class:`~game.app.render.LevelRenderer` and sprites), then an outcome
frame.  Every frame has a footer strip (frame counter and progress bar; the outcome on the
last frame), so no two consecutive frames are identical and the GIF keeps exactly
``N + 2`` frames.

A fractional answer (:class:`ai.facade.RelaxedSolution`: the gradient solver's densities or
the MILP's LP relaxation) is drawn with translucent bricks and translucent lemming mass
(:func:`game.app.export_relaxed.relaxed_frames`).

Frames are drawn one at a time (:func:`iter_gif_frames`) and streamed into the file
(:mod:`game.app.gif_writer`), so memory does not depend on N.  :func:`export_gif` is a plain
function of picklable values (a level, a brick list, a path): it can run in a child process.
Works headless: no window is opened (:func:`game.app.app.headless_env`).

Related modules: :mod:`game.app.export_relaxed` (fractional solutions),
:mod:`game.app.gif_writer` (the streaming encoder), :mod:`game.cli.export` (the CLI).

>>> from game.core.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> frames = gif_frames(level, [(1, 2)], scale=1)
>>> len(frames), frames[0].shape == frame_shape(level, scale=1) + (3,)
(7, True)
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence


from ai.facade import RelaxedSolution, SolveContext, SolveStopped, StopReason
from game.core.level import Brick, Level
from game.core.outcome import frame_label
from game.core.rules import check_bricks
from game.core.simulation import Run, SimulationCancelled, simulate
from game.core.storage import user_exports_dir
from game.app import gif_writer, hud
from game.app.export_draw import (DEFAULT_SCALE, TILE, Frame, _board_frame, _footer, _pg, _title_card,
                                 _to_array, cell_size, check_frame_size, frame_shape, frame_size, margins)
from game.app.export_relaxed import iter_relaxed_frames
from game.app.render import LevelRenderer

#: Default frame rate (simulation frames per second).
DEFAULT_FPS = 6.0
#: How long the title card and the outcome frame stay, in seconds.
TITLE_SECONDS = 1.5
OUTCOME_SECONDS = 2.5


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
    """Title card, one frame per simulation frame, outcome frame: ``N + 2`` RGB arrays (a list;
    :func:`iter_gif_frames` yields them one at a time)."""
    return list(iter_gif_frames(level, bricks, scale=scale, subtitle=subtitle, renderer=renderer, run=run))


def iter_gif_frames(
    level: Level,
    bricks: Sequence[Brick],
    *,
    scale: int = DEFAULT_SCALE,
    subtitle: str = "",
    renderer: LevelRenderer | None = None,
    run: Run | None = None,
) -> Iterator[Frame]:
    """Yield the title card, one frame per simulation frame, and the outcome frame (``N + 2``).

    ``run`` (the recorded simulation) is computed with the reference simulator when not given.
    Frames are drawn on demand: memory does not grow with N.
    """
    _pg()
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
    yield _to_array(_title_card(level, scale, rend, lines, placed))
    lemmings = len(level.lemmings)
    for t in range(n):
        canvas = _board_frame(level, placed, run, float(t), scale, rend)
        home = run.arrived_by(t)
        _footer(canvas, level, cell, t / max(1, n - 1), frame_label(t, n), hud.WHITE,
                right=f"home {home}/{lemmings}")
        yield _to_array(canvas)
    canvas = _board_frame(level, placed, run, float(n - 1), scale, rend)
    if run.won:
        text, color = f"WON with {nb} brick{'s' if nb != 1 else ''}", hud.GOLD
    else:
        text, color = f"LOST: {run.arrived_by(n - 1)} of {lemmings} home", hud.RED
    _footer(canvas, level, cell, 1.0, text, color, right=f"{n} frames")
    yield _to_array(canvas)


def export_gif(
    level: Level,
    bricks: Sequence[Brick] = (),
    out: Path | str | None = None,
    *,
    scale: int = DEFAULT_SCALE,
    fps: float = DEFAULT_FPS,
    relaxed: RelaxedSolution | None = None,
    subtitle: str = "",
    context: SolveContext | None = None,
) -> ExportResult:
    """Render and write the GIF of ``bricks`` (or of a ``relaxed`` solution); ``out`` defaults to
    :func:`default_export_path`.

    ``context`` (default: no limit) is checked every frame; once it stops, :class:`ai.facade.SolveStopped`
    is raised and no file is left behind (the writer is atomic)."""
    start = time.perf_counter()
    check_frame_size(level, scale)
    path = Path(out) if out is not None else default_export_path(level)
    frames: Iterator[Frame]
    if relaxed is not None:
        frames = iter_relaxed_frames(level, relaxed, scale=scale, subtitle=subtitle)
        won: bool | None = None
    else:
        placed = check_bricks(level, bricks)
        try:
            run = simulate(level, placed, should_stop=context.should_stop if context is not None else None)
        except SimulationCancelled:
            assert context is not None
            raise SolveStopped(context.stop_reason() or StopReason.TIMEOUT) from None
        frames = iter_gif_frames(level, placed, scale=scale, subtitle=subtitle, run=run)
        won = run.won
    if context is not None:
        frames = _checked(frames, context)
    count, size = gif_writer.write_gif(frames, path, fps=fps, title_seconds=TITLE_SECONDS, outcome_seconds=OUTCOME_SECONDS)
    return ExportResult(path, count, frame_size(level, scale=scale), size, won, time.perf_counter() - start)


def _checked(frames: Iterator[Frame], ctx: SolveContext) -> Iterator[Frame]:
    """``frames``, checking ``ctx`` before each one."""
    for frame in frames:
        ctx.check()
        yield frame


def write_gif(frames: Sequence[Frame], out: Path | str, *, fps: float = DEFAULT_FPS,
              title_seconds: float = TITLE_SECONDS, outcome_seconds: float = OUTCOME_SECONDS) -> int:
    """Write ``frames`` (title, body..., outcome) as a looping GIF (atomically); returns its size in bytes.

    (:func:`game.app.gif_writer.write_gif` streams any iterable of frames.)
    """
    return gif_writer.write_gif(frames, out, fps=fps, title_seconds=title_seconds,
                                outcome_seconds=outcome_seconds)[1]


def slug(text: str) -> str:
    """A file-name friendly form of a title.

    >>> slug("The Original!  (v2)")
    'the-original-v2'
    """
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s[:40] or "level"


def default_export_path(level: Level, *, when: float | None = None, suffix: str = "") -> Path:
    """``<user exports dir>/<level-title>-YYYYmmdd-HHMMSS[-suffix].gif`` (never an existing file)."""
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
    "DEFAULT_FPS",
    "DEFAULT_SCALE",
    "ExportResult",
    "Frame",
    "TILE",
    "cell_size",
    "margins",
    "default_export_path",
    "export_gif",
    "frame_shape",
    "frame_size",
    "gif_frames",
    "iter_gif_frames",
    "write_gif",
]
