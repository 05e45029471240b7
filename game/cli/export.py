"""``main.py export``: a run (or a relaxed solution) as an animated GIF; and ``solve --gif``, the GIF of a
solve result (:func:`add_gif_option`, :func:`check_solve_gif` and :func:`write_solve_gif`, which the
``solve`` command calls)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from game.app.export import DEFAULT_FPS, DEFAULT_SCALE, ExportResult, export_gif
from game.app.export_draw import check_frame_size, fit_scale
from game.cli.args import (Subparsers, bricks_arg, check_output_file, float_arg, int_arg,
                           output_errors, output_kind_arg, time_limit_arg)
from game.cli.context import command_context
from game.cli.level import load_level
from game.core.errors import GameError
from game.core.level import Level
from game.core.rules import parse_bricks

if TYPE_CHECKING:
    from ai.facade import SolveContext, SolveResult


def export_solve_result(level: Level, result: SolveResult, out: Path | str, *, scale: int = DEFAULT_SCALE,
                        fps: float = DEFAULT_FPS) -> ExportResult:
    """The GIF of a solve result: its bricks, or its relaxed densities."""
    subtitle = f"{result.solver}: {result.describe().split(';')[0]}"
    if result.bricks is not None:
        return export_gif(level, result.bricks, out, scale=scale, fps=fps, subtitle=subtitle)
    if result.relaxed is not None:
        return export_gif(level, (), out, scale=scale, fps=fps, relaxed=result.relaxed, subtitle=subtitle)
    raise GameError(f"nothing to export: {result.describe()}")


def _limited_export(args: argparse.Namespace, level: Level, bricks: tuple[tuple[int, int], ...]) -> int:
    """The export under the command's limit (``--time-limit``), with ``--relaxed`` solving for a fractional
    answer first: ``lp`` (the MILP's LP relaxation) or ``gradient``."""
    from ai import facade  # late: the solvers (OR-Tools, scipy) load only for --relaxed or --time-limit

    with command_context(args.time_limit, solver="export") as ctx:
        try:
            with output_errors(args.gif):
                if args.relaxed:
                    result = _solve_relaxed(facade.solve, level, args.relaxed, ctx)
                    info = export_gif(level, (), args.gif, scale=args.scale, fps=args.fps, relaxed=result.relaxed,
                                      subtitle=f"{result.solver}: {result.describe()}", context=ctx)
                else:
                    info = export_gif(level, bricks, args.gif, scale=args.scale, fps=args.fps, context=ctx)
        except facade.SolveStopped as stop:
            print(f"export stopped ({stop.reason.value}): no file written", file=sys.stderr)
            return 1
    print(info.describe())
    return 0


def _solve_relaxed(solve: Callable[..., SolveResult], level: Level, source: str, ctx: SolveContext) -> SolveResult:
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


def _cmd_export(args: argparse.Namespace) -> int:
    level = load_level(args.level)
    bricks = parse_bricks(args.bricks or "")
    check_frame_size(level, args.scale)
    check_output_file(args.gif, what="--gif", kind="gif")  # again: the level may have taken a while to read
    if args.relaxed or args.time_limit is not None:
        return _limited_export(args, level, bricks)
    with output_errors(args.gif):  # no solve and no limit: the GIF alone, without the AI
        info = export_gif(level, bricks, args.gif, scale=args.scale, fps=args.fps)
    print(info.describe())
    return 0


def add_gif_option(parser: argparse.ArgumentParser) -> None:
    """``solve --gif OUT.gif``: also export the answer as an animated GIF."""
    parser.add_argument("--gif", default=None, type=output_kind_arg("gif"), metavar="OUT.gif",
                        help="also export the solution (or, with --lp, the densities) as an animated GIF")


def check_solve_gif(args: argparse.Namespace, level: Level) -> None:
    """``solve --gif``: the map must fit a GIF at some scale (checked before the solve)."""
    if args.gif:
        check_frame_size(level, 1)  # the smallest scale; the GIF is written at the largest that fits


def write_solve_gif(args: argparse.Namespace, level: Level, result: SolveResult) -> None:
    """``solve --gif OUT.gif``: the solution (or, with ``--lp``, the densities) as an animated GIF."""
    if not args.gif:
        return
    with output_errors(args.gif):
        saved = export_solve_result(level, result, args.gif, scale=max(1, fit_scale(level)))  # big maps: small cells
    print(saved.describe(), file=sys.stderr if args.json else sys.stdout)


def register(sub: Subparsers) -> None:
    """Add ``export``."""
    p = sub.add_parser("export", help="export a run (or a relaxed solution) as an animated GIF")
    p.add_argument("level", help="level file (or pack level number)")
    p.add_argument("--bricks", default="", type=bricks_arg, help='the bricks, "r,c;r,c;..."')
    p.add_argument("--gif", required=True, type=output_kind_arg("gif"), metavar="OUT.gif", help="the GIF file to write")
    p.add_argument("--scale", type=int_arg(1, 8), default=DEFAULT_SCALE, metavar="K",
                   help=f"pixel scale: cells are 16*K pixels, K from 1 to 8 (default {DEFAULT_SCALE})")
    p.add_argument("--fps", type=float_arg(0.5, 60.0), default=DEFAULT_FPS, metavar="F",
                   help=f"simulation frames per second (default {DEFAULT_FPS:g})")
    p.add_argument("--relaxed", choices=("lp", "gradient"), default=None,
                   help="render a fractional solution instead of --bricks: the LP relaxation "
                   "(solve --solver milp --lp) or the gradient solver's densities")
    p.add_argument("--time-limit", type=time_limit_arg, default=None, metavar="S",
                   help="time limit of the whole export (the --relaxed solve and the GIF; seconds, > 0)")
    p.set_defaults(handler=_cmd_export)
