"""Animated GIF export of a run, drawn by the same renderer as the window.

Frames come from the recorded simulation (:func:`game.core.simulation.simulate`): a title card,
then one frame per simulation frame ``0..S`` (drawn by :func:`game.app.render.render_frame`
with the window's :class:`~game.app.render.LevelRenderer` and sprites), where ``S`` is the frame from
which the outcome cannot change (:func:`game.core.outcome.settled_at`: everyone home where targets stop
them, or lost for good), then an outcome frame held for :data:`OUTCOME_SECONDS`.  Every frame has a
footer strip (frame counter and progress bar; the outcome on the last frame), so no two consecutive frames
are identical and the GIF keeps exactly ``S + 3`` frames.  The captions are in a player's words: a lost run's
outcome frame rings the first lemming that missed and says why, as the window's loss panel does
(:func:`loss_reason`).

A fractional answer (:class:`ai.facade.RelaxedSolution`: the gradient solver's densities or
the MILP's LP relaxation) is drawn with translucent bricks and translucent lemming mass
(:func:`game.app.export_relaxed.relaxed_frames`).

Frames are drawn one at a time (:func:`iter_gif_frames`) and streamed into the file
(:mod:`game.app.gif_writer`), so memory does not depend on N.  :func:`export_gif` is a plain
function of picklable values (a level, a brick list, a path): it can run in a child process.
Works headless: no window is opened (:func:`game.app.display.headless_env`).

Related modules: :mod:`game.app.export_relaxed` (fractional solutions),
:mod:`game.app.gif_writer` (the streaming encoder), :mod:`game.cli.export` (the CLI).

>>> from game.core.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> frames = gif_frames(level, [(1, 2)], scale=1)  # the lemming is home at frame 3
>>> len(frames), frames[0].shape == frame_shape(level, scale=1) + (3,)
(6, True)
>>> bricks_line(3, fewest=True), home_text(1, 1)
('3 bricks, the fewest possible', '1 of 1 lemming home')
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence


from ai.facade import RelaxedSolution, SolveContext, SolveStopped, StopReason
from game.core.level import Brick, Level
from game.core.outcome import LemmingFailure, explain, frame_label, settled_at
from game.core.rules import check_bricks
from game.core.simulation import Run, SimulationCancelled, simulate
from game.core.storage import free_path, user_exports_dir
from game.app import gif_writer, hud
from game.app.export_draw import (DEFAULT_SCALE, TILE, Frame, _board_frame, _footer, _loss_marks, _pg,
                                 _title_card, _to_array, cell_size, check_frame_size, frame_shape, frame_size, margins)
from game.app.export_relaxed import iter_relaxed_frames
from game.app.render import PATH_COLORS, LevelRenderer

#: Default frame rate (simulation frames per second).
DEFAULT_FPS = 6.0
#: How long the title card and the outcome frame (the hold on the last frame) stay, in seconds.
TITLE_SECONDS = 1.5
OUTCOME_SECONDS = 1.5
#: A GIF worth sharing plays at most this long, in seconds: ``main.py export`` names the ``--fps`` that keeps a
#: longer one under it, and the game's G plays a longer one at that rate (:func:`fps_within`).
LONG_GIF_SECONDS = 60.0
#: The fastest rate a GIF plays at: a GIF frame shows at least 20 ms (:func:`game.app.gif_writer.shown_ms`).
FASTEST_FPS = 50.0


@dataclass(frozen=True)
class ExportResult:
    """What an export wrote."""

    path: Path
    frames: int  #: frames in the GIF (title + the simulation frames until the outcome is settled + outcome)
    size: tuple[int, int]  #: (width, height) in pixels
    bytes: int
    won: bool | None  #: outcome of the run (None for a relaxed solution)
    seconds: float = 0.0  #: wall time the export took
    played: float = 0.0  #: how long the GIF plays once, in seconds
    fps: float = DEFAULT_FPS  #: the simulation frames a second it plays at

    def describe(self) -> str:
        """One line for the HUD or the terminal."""
        kb = self.bytes / 1024
        return f"GIF saved: {self.path} ({self.frames} frames, {self.size[0]}x{self.size[1]}, {kb:.0f} KB)"


# ---------------------------------------------------------------- words
def bricks_phrase(count: int) -> str:
    """``no bricks``, ``1 brick``, ``3 bricks``."""
    return "no bricks" if count == 0 else f"{count} brick{'s' if count != 1 else ''}"


def bricks_line(count: int, *, fewest: bool = False) -> str:
    """The title card's line: ``3 bricks``, and ``, the fewest possible`` when that is proved."""
    phrase = bricks_phrase(count)
    return phrase[0].upper() + phrase[1:] + (", the fewest possible" if fewest else "")


def home_text(home: int, lemmings: int) -> str:
    """``2 of 3 lemmings home`` (whole lemmings)."""
    return f"{home} of {lemmings} lemming{'s' if lemmings != 1 else ''} home"


def outcome_text(won: bool, bricks: int, home: int, lemmings: int) -> str:
    """The outcome frame's caption: ``Won with 3 bricks: 1 of 1 lemming home`` or ``Lost: 0 of 2 lemmings home``."""
    return f"Won with {bricks_phrase(bricks)}: {home_text(home, lemmings)}" if won else \
        f"Lost: {home_text(home, lemmings)}"


def first_failure(run: Run) -> LemmingFailure | None:
    """The first lemming that missed, with why (:func:`game.core.outcome.explain`); None when none did."""
    failures = explain(run)
    return failures[0] if failures else None


def loss_reason(run: Run) -> str:
    """A lost run's reason, shown on its outcome frame: the first lemming that missed, in the loss panel's
    words (:meth:`game.core.outcome.LemmingFailure.describe`, which names the lemming when there are several);
    ``''`` when every lemming is home.

    >>> from game.core.level import Level
    >>> loss_reason(simulate(Level.from_rows([">   XT", "XX  XX", "XX  XX"], frames=12, budget=1)))
    'Fell into the pit at frame 3'
    >>> loss_reason(simulate(Level.from_rows([">  T", "XXXX", ">  X", "XXXX"], frames=9, budget=0)))
    'Lemming 2: walking back and forth between two walls from frame 0'
    >>> loss_reason(simulate(Level.from_rows([">  T", "XXXX"], frames=9, budget=0)))
    ''
    """
    failure = first_failure(run)
    return failure.describe(len(run.tracks)) if failure is not None else ""


def fps_within(frames: int, fastest: float, seconds: float = LONG_GIF_SECONDS) -> float:
    """The rate (whole frames a second, at most ``fastest``) at which a GIF of ``frames`` frames, the title card
    and the outcome included, plays for at most ``seconds``: the one rule of ``main.py export``'s note on a long
    GIF and of the game's G.

    >>> fps_within(902, 60.0), fps_within(902, 10.0), fps_within(50, 60.0)
    (16.0, 10.0, 1.0)
    """
    body = max(0, frames - 2)
    return min(fastest, float(math.ceil(body / max(1.0, seconds - TITLE_SECONDS - OUTCOME_SECONDS))))


# ---------------------------------------------------------------- frames
def gif_frames(
    level: Level,
    bricks: Sequence[Brick],
    *,
    scale: float = DEFAULT_SCALE,
    subtitle: str = "",
    renderer: LevelRenderer | None = None,
    run: Run | None = None,
    fewest: bool = False,
    name_physics: bool = True,
) -> list[Frame]:
    """Every frame of :func:`iter_gif_frames`, as a list."""
    return list(iter_gif_frames(level, bricks, scale=scale, subtitle=subtitle, renderer=renderer, run=run,
                                fewest=fewest, name_physics=name_physics))


def iter_gif_frames(
    level: Level,
    bricks: Sequence[Brick],
    *,
    scale: float = DEFAULT_SCALE,
    subtitle: str = "",
    renderer: LevelRenderer | None = None,
    run: Run | None = None,
    fewest: bool = False,
    name_physics: bool = True,
) -> Iterator[Frame]:
    """Yield the title card, one frame per simulation frame until the outcome is settled
    (:func:`game.core.outcome.settled_at`), and the outcome frame.

    ``run`` (the recorded simulation) is computed with the reference simulator when not given; ``fewest``:
    the bricks are proved the fewest possible (said on the title card), ``subtitle``: one more line there;
    ``name_physics``: the card names the level's physics when it is not the classic one
    (:func:`game.app.export_draw.physics_line`).  Frames are drawn on demand: memory does not grow with N.
    """
    _pg()
    placed = check_bricks(level, bricks)
    if run is None:
        run = simulate(level, placed)
    rend = renderer if renderer is not None else LevelRenderer()
    cell = cell_size(scale)
    n = level.frames
    end = settled_at(run)
    lines = [bricks_line(len(placed), fewest=fewest)] + ([subtitle] if subtitle else [])
    yield _to_array(_title_card(level, scale, rend, lines, placed, name_physics=name_physics))
    lemmings = len(level.lemmings)
    for t in range(end + 1):
        canvas = _board_frame(level, placed, run, float(t), scale, rend)
        _footer(canvas, level, cell, t / max(1, n - 1), frame_label(t, n), hud.WHITE,
                right=home_text(run.arrived_by(t), lemmings))
        yield _to_array(canvas)
    canvas = _board_frame(level, placed, run, float(end), scale, rend)
    failure = None if run.won else first_failure(run)
    if failure is not None:  # which lemming missed and why, as the window's loss panel says
        r, c, _ = run.states_at(end)[failure.lemming]
        _loss_marks(canvas, level, cell, (r, c), failure.describe(lemmings),
                    PATH_COLORS[failure.lemming % len(PATH_COLORS)])
    text = outcome_text(run.won, len(placed), run.arrived_by(n - 1), lemmings)
    _footer(canvas, level, cell, end / max(1, n - 1), text, hud.GOLD if run.won else hud.RED)
    yield _to_array(canvas)


def export_gif(
    level: Level,
    bricks: Sequence[Brick] = (),
    out: Path | str | None = None,
    *,
    scale: float = DEFAULT_SCALE,
    fps: float = DEFAULT_FPS,
    relaxed: RelaxedSolution | None = None,
    subtitle: str = "",
    context: SolveContext | None = None,
    fewest: bool = False,
    name_physics: bool = True,
    within: float | None = None,
) -> ExportResult:
    """Render and write the GIF of ``bricks`` (or of a ``relaxed`` solution); ``out`` defaults to
    :func:`default_export_path`.  ``fewest``: the bricks are proved the fewest possible (the title card
    says so); ``subtitle``: one more line on the title card, in a player's words; ``name_physics``: the card
    names a physics other than the classic one (False where the game leaves the rules for the player to find);
    ``within`` (seconds): a GIF that would play longer at ``fps`` plays faster, at :func:`fps_within` (at most
    :data:`FASTEST_FPS`; a relaxed solution counts every frame of the level).

    ``context`` (default: no limit) is checked every frame; once it stops, :class:`ai.facade.SolveStopped`
    is raised and no file is left behind (the writer is atomic)."""
    start = time.perf_counter()
    check_frame_size(level, scale)
    path = Path(out) if out is not None else default_export_path(level)
    frames: Iterator[Frame]
    if relaxed is not None:
        frames = iter_relaxed_frames(level, relaxed, scale=scale, subtitle=subtitle, name_physics=name_physics)
        won: bool | None = None
    else:
        placed = check_bricks(level, bricks)
        try:
            run = simulate(level, placed, should_stop=context.should_stop if context is not None else None)
        except SimulationCancelled:
            assert context is not None
            raise SolveStopped(context.stop_reason() or StopReason.TIMEOUT) from None
        frames = iter_gif_frames(level, placed, scale=scale, subtitle=subtitle, run=run, fewest=fewest,
                                 name_physics=name_physics)
        won = run.won
    if within is not None:  # the frames it will hold: title, the run up to its outcome, the outcome
        planned = level.frames + 2 if relaxed is not None else settled_at(run) + 3
        fps = max(fps, fps_within(planned, FASTEST_FPS, within))
    if context is not None:
        frames = _checked(frames, context)
    count, size = gif_writer.write_gif(frames, path, fps=fps, title_seconds=TITLE_SECONDS, outcome_seconds=OUTCOME_SECONDS)
    played = gif_writer.played_seconds(count, fps=fps, title_seconds=TITLE_SECONDS, outcome_seconds=OUTCOME_SECONDS)
    return ExportResult(path, count, frame_size(level, scale=scale), size, won, time.perf_counter() - start, played,
                        fps)


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
    return free_path(user_exports_dir(), base, ".gif")


__all__ = [
    "DEFAULT_FPS",
    "FASTEST_FPS",
    "LONG_GIF_SECONDS",
    "DEFAULT_SCALE",
    "ExportResult",
    "OUTCOME_SECONDS",
    "TITLE_SECONDS",
    "bricks_line",
    "bricks_phrase",
    "home_text",
    "outcome_text",
    "first_failure",
    "loss_reason",
    "Frame",
    "TILE",
    "cell_size",
    "margins",
    "default_export_path",
    "export_gif",
    "fps_within",
    "frame_shape",
    "frame_size",
    "gif_frames",
    "iter_gif_frames",
    "write_gif",
]
