"""The work of ``export`` and of ``solve --gif`` (the parser is :mod:`game.cli.export`): the GIF writer and,
for ``--relaxed`` or ``--time-limit``, the AI.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Callable

from ai import facade
from game.app.export import (DEFAULT_FPS, DEFAULT_SCALE, LONG_GIF_SECONDS, OUTCOME_SECONDS, TITLE_SECONDS, ExportResult,
                             export_gif, fps_within)
from game.app.export_draw import check_frame_size, default_scale
from game.app.gif_writer import played_seconds
from game.cli.args import output_errors, terminal_safe
from game.cli.context import command_context
from game.cli.level import load_level, resolve_level_path
from game.cli.outputs import FileKind, Input, force_needs_an_output, guard_output
from game.core.errors import GameError
from game.core.level import Level
from game.core.rules import parse_bricks


def long_gif_note(info: ExportResult, fps: float, fastest: float) -> str:
    """A note for a GIF that plays longer than :data:`LONG_GIF_SECONDS` (``''`` otherwise): how long it lasts and the
    ``--fps`` (at most ``fastest``, the command's bound) that brings it under that.

    >>> from pathlib import Path
    >>> info = ExportResult(Path("a.gif"), 902, (416, 416), 1, False, played=146.68)
    >>> long_gif_note(info, 6.0, 60.0)
    'note: the GIF plays for 147 s (900 frames at 6 a second); --fps 16 makes it 57 s'
    >>> long_gif_note(ExportResult(Path("a.gif"), 50, (416, 416), 1, True, played=11.0), 6.0, 60.0)
    ''
    """
    if info.played <= LONG_GIF_SECONDS:
        return ""
    body = max(0, info.frames - 2)
    note = f"note: the GIF plays for {info.played:.0f} s ({body} frames at {fps:g} a second)"
    faster = fps_within(info.frames, fastest)
    if faster <= fps:
        return note + f"; --fps {fastest:g} is the fastest"
    played = played_seconds(info.frames, fps=faster, title_seconds=TITLE_SECONDS, outcome_seconds=OUTCOME_SECONDS)
    return note + f"; --fps {faster:g} makes it {played:.0f} s"


def export_solve_result(level: Level, result: facade.SolveResult, out: Path | str, *, scale: float = DEFAULT_SCALE,
                        fps: float = DEFAULT_FPS) -> ExportResult:
    """The GIF of a solve result: its bricks (the title card says when they are proved the fewest), or its
    relaxed densities."""
    if result.bricks is not None:
        return export_gif(level, result.bricks, out, scale=scale, fps=fps,
                          fewest=result.status == facade.SolveStatus.OPTIMAL)
    if result.relaxed is not None:
        return export_gif(level, (), out, scale=scale, fps=fps, relaxed=result.relaxed,
                          subtitle=relaxed_subtitle(result))
    raise GameError(f"nothing to export: {result.describe()}")


def _limited_export(args: argparse.Namespace, level: Level, bricks: tuple[tuple[int, int], ...],
                    fastest_fps: float) -> int:
    """The export under the command's limit (``--time-limit``), with ``--relaxed`` solving for a fractional
    answer first: ``lp`` (the MILP's LP relaxation) or ``gradient``."""
    with command_context(args.time_limit, solver="export") as ctx:
        try:
            with output_errors(args.gif):
                if args.relaxed:
                    result = _solve_relaxed(facade.solve, level, args.relaxed, ctx)
                    info = export_gif(level, (), args.gif, scale=args.scale, fps=args.fps, relaxed=result.relaxed,
                                      subtitle=relaxed_subtitle(result), context=ctx)
                else:
                    info = export_gif(level, bricks, args.gif, scale=args.scale, fps=args.fps, context=ctx)
        except facade.SolveStopped as stop:
            print(f"export stopped ({stop.reason.value}): no file written", file=sys.stderr)
            return 1
    _report(info, args.fps, fastest_fps)
    return 0


def _report(info: ExportResult, fps: float, fastest_fps: float) -> None:
    """What the export wrote, and a note on stderr when the GIF plays for long (:func:`long_gif_note`)."""
    print(info.describe(), flush=True)  # before the note, where both streams go to one place
    note = long_gif_note(info, fps, fastest_fps)
    if note:
        print(note, file=sys.stderr)


def relaxed_subtitle(result: facade.SolveResult) -> str:
    """The title card's line for a fractional answer: the LP relaxation's lower bound as whole bricks
    (``Any win needs at least 2 bricks``); nothing for the gradient's densities (their sum bounds nothing).

    >>> import numpy as np
    >>> lp = facade.SolveResult(solver="milp", mode=facade.SolveMode.MIN, status=facade.SolveStatus.TIMEOUT,
    ...     relaxed=facade.RelaxedSolution(np.zeros((1, 1)), np.zeros((0,)), 1.667))
    >>> relaxed_subtitle(lp)
    'Any win needs at least 2 bricks'
    """
    if result.solver != "milp" or result.relaxed is None:
        return ""
    need = max(0, math.ceil(result.relaxed.objective - 1e-6))
    return f"Any win needs at least {need} brick{'s' if need != 1 else ''}"


def _solve_relaxed(solve: Callable[..., facade.SolveResult], level: Level, source: str, ctx: facade.SolveContext) -> facade.SolveResult:
    """The fractional answer of ``source`` (``lp`` or ``gradient``) by ``solve`` (:func:`ai.facade.solve`)
    under ``ctx``."""
    try:
        if source == "lp":
            result = solve(level, solver="milp", lp=True, ctx=ctx)
        else:
            result = solve(level, solver=source, ctx=ctx)
    except ModuleNotFoundError as exc:
        raise GameError(f"solver {source!r} is not available: {exc}") from None
    if result.relaxed is None:
        raise GameError(f"solver {source!r} gave no fractional solution: {result.describe()}")
    return result


def guard_gif(args: argparse.Namespace, *inputs: Input) -> None:
    """``--gif``: never the level read (nor any of ``inputs``), never a file of another kind, an existing GIF
    only with ``--force`` (:func:`game.cli.outputs.guard_output`), and a name ending in ``.gif``; ``--gif ""``
    is refused."""
    if args.gif is not None:
        guard_output(args.gif, FileKind.GIF, what="--gif", inputs=[("level", resolve_level_path(args.level)), *inputs],
                     force=args.force)
        if not args.gif.lower().endswith(".gif"):  # the file is GIF data, whatever its name would say
            name = args.gif.rsplit("/", 1)[-1]
            stem = name.rsplit(".", 1)[0] if "." in name else name
            raise GameError(f"--gif {args.gif!r} does not end in .gif: the export writes a GIF image "
                            f"(name it {stem}.gif)")


def export(args: argparse.Namespace, fastest_fps: float) -> int:
    """``export``: the GIF of a run, or of a fractional solution with ``--relaxed`` (``fastest_fps``: the
    fastest ``--fps`` the command accepts, for the note on a long GIF)."""
    if args.relaxed and args.bricks:
        raise GameError("--relaxed renders the solver's fractional solution instead of --bricks: give one of them")
    guard_gif(args)
    level = load_level(args.level)
    args.scale = args.scale if args.scale is not None else default_scale(level)  # big maps: small cells
    args.fps = args.fps if args.fps is not None else DEFAULT_FPS
    bricks = parse_bricks(args.bricks or "")
    check_frame_size(level, args.scale)
    guard_gif(args)  # again: the level may have taken a while to read
    if args.relaxed or args.time_limit is not None:
        return _limited_export(args, level, bricks, fastest_fps)
    with output_errors(args.gif):  # no solve and no limit: the GIF alone, without the AI
        info = export_gif(level, bricks, args.gif, scale=args.scale, fps=args.fps)
    _report(info, args.fps, fastest_fps)
    return 0


def check_solve_gif(args: argparse.Namespace, level: Level) -> None:
    """``solve --gif``: a path the GIF may be written to (:func:`guard_gif`), and a map that fits a GIF at
    some scale (checked before the solve)."""
    force_needs_an_output(args.force, [("--gif", args.gif)])
    if args.gif is not None:
        guard_gif(args, ("--rules", args.rules))
        check_frame_size(level, default_scale(level))  # the scale the GIF is written at


def write_solve_gif(args: argparse.Namespace, level: Level, result: facade.SolveResult) -> None:
    """``solve --gif OUT.gif``: the solution (or, with ``--lp``, the densities) as an animated GIF; a solve with
    neither (no answer in time, or no solution) writes no GIF and says so, keeping the solve's exit code."""
    if not args.gif:
        return
    if result.bricks is None and result.relaxed is None:
        print(f"no GIF written: no brick set to show ({terminal_safe(result.describe(), limit=400)})",
              file=sys.stderr)
        return
    guard_gif(args, ("--rules", args.rules))  # again: the solve may have taken a while
    with output_errors(args.gif):
        saved = export_solve_result(level, result, args.gif, scale=default_scale(level))  # big maps: small cells
    print(saved.describe(), file=sys.stderr if args.json else sys.stdout)
