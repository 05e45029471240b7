"""``main.py export``: a run (or a relaxed solution) as an animated GIF; and the GIF of a solve result."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, Iterator

from game.cli.args import bricks_arg, check_output_file, float_arg, int_arg, output_kind_arg, time_limit_arg
from game.core.level import Level
from game.app.export import DEFAULT_FPS, DEFAULT_SCALE, ExportResult, export_gif


def export_solve_result(level: Level, result: Any, out: Path | str, *, scale: int = DEFAULT_SCALE,
                        fps: float = DEFAULT_FPS) -> ExportResult:
    """The GIF of a :class:`ai.kernel.base.SolveResult`: its bricks, or its relaxed densities."""
    from game.core.errors import GameError

    subtitle = f"{result.solver}: {result.describe().split(';')[0]}"
    if result.bricks is not None:
        return export_gif(level, result.bricks, out, scale=scale, fps=fps, subtitle=subtitle)
    if result.relaxed is not None:
        return export_gif(level, (), out, scale=scale, fps=fps, relaxed=result.relaxed, subtitle=subtitle)
    raise GameError(f"nothing to export: {result.describe()}")


def relaxed_solution(level: Level, source: str, context: Any = None) -> Any:
    """Solve for a fractional answer: ``lp`` (the MILP's LP relaxation) or ``gradient``, under ``context``
    (an :class:`ai.kernel.context.SolveContext`; default: no limit)."""
    from ai import facade
    from game.core.errors import GameError

    try:
        if source == "lp":
            result = facade.solve(level, solver="milp", lp=True, ctx=context)
        else:
            result = facade.solve(level, solver=source, ctx=context)
    except ModuleNotFoundError as exc:
        raise GameError(f"solver {source!r} is not available: {exc}") from None
    if result.relaxed is None:
        raise GameError(f"solver {source!r} gave no fractional solution: {result.describe()}")
    return result


def _cmd_export(args: Any) -> int:
    from game.cli.level import load_level
    from game.core.errors import GameError
    from game.core.rules import parse_bricks

    from ai.kernel.context import SolveContext, SolveStopped

    from game.app.export_draw import check_frame_size

    level = load_level(args.level)
    bricks = parse_bricks(args.bricks or "")
    check_frame_size(level, args.scale)
    check_output_file(args.gif, what="--gif", kind="gif")  # again: the level may have taken a while to read
    ctx = SolveContext.create(time_limit=args.time_limit, solver="export")  # the command's one limit
    try:
        with output_errors(args.gif):
            if args.relaxed:
                result = relaxed_solution(level, args.relaxed, ctx)
                info = export_gif(level, (), args.gif, scale=args.scale, fps=args.fps, relaxed=result.relaxed,
                                  subtitle=f"{result.solver}: {result.describe()}", context=ctx)
            else:
                info = export_gif(level, bricks, args.gif, scale=args.scale, fps=args.fps, context=ctx)
    except SolveStopped as stop:
        import sys

        print(f"export stopped ({stop.reason.value}): no file written", file=sys.stderr)
        return 1
    print(info.describe())
    return 0


@contextlib.contextmanager
def output_errors(out: str | Path) -> Iterator[None]:
    """Turn an I/O error while writing ``out`` (disk full, read-only folder...) into a one-line
    :class:`game.core.errors.GameError` (exit 2); the atomic writer has already removed its temporary file."""
    from game.core.errors import GameError
    from game.core.storage import describe_os_error

    try:
        yield
    except GameError:
        raise
    except OSError as exc:
        raise GameError(f"cannot write {out}: {describe_os_error(exc)}") from None


def register_cli(sub: Any) -> None:
    """Add ``export`` (called from :func:`game.cli.play.register`)."""
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
