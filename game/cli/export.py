"""The ``export`` subcommand (a run, or a relaxed solution, as an animated GIF) and ``solve --gif``.

The work is done in :mod:`game.cli.export_run`, loaded (with pygame and, for ``--relaxed`` or ``--time-limit``,
the AI) only when a command runs.
"""

from __future__ import annotations

import argparse

from game.cli.args import Subparsers, bricks_arg, float_arg, int_arg, output_file_arg, time_limit_arg

#: The GIF's defaults (the export's own, :mod:`game.app.export`), shown in the help.
HELP_SCALE, HELP_FPS = 2, 6.0
#: The longest board a GIF gets at the default scale (:data:`game.app.export_draw.DEFAULT_MAX_SIDE`), in pixels.
HELP_MAX_SIDE = 1024
#: The slowest and fastest ``--fps``.
MIN_FPS, MAX_FPS = 0.5, 60.0


def _run(args: argparse.Namespace) -> int:
    """Run ``export`` (:mod:`game.cli.export_run`)."""
    from game.cli import export_run  # late: pygame and the GIF writer load only when an export runs

    return export_run.export(args, MAX_FPS)


def add_gif_option(parser: argparse.ArgumentParser) -> None:
    """``solve --gif OUT.gif [--force]``: also export the answer as an animated GIF."""
    parser.add_argument("--gif", default=None, type=output_file_arg, metavar="OUT.gif",
                        help="also export the solution (or, with --lp, the densities) as an animated GIF")
    parser.add_argument("--force", action="store_true", help="let --gif replace an existing GIF")


def register(sub: Subparsers) -> None:
    """Add ``export``."""
    p = sub.add_parser("export", help="export a run (or a relaxed solution) as an animated GIF")
    p.add_argument("level", help="level file (or pack level number)")
    p.add_argument("--bricks", default="", type=bricks_arg, help='the bricks, "r,c;r,c;..."')
    p.add_argument("--gif", required=True, type=output_file_arg, metavar="OUT.gif", help="the GIF file to write")
    p.add_argument("--force", action="store_true", help="let --gif replace an existing GIF")
    p.add_argument("--scale", type=int_arg(1, 8), default=None, metavar="K",
                   help=f"pixel scale: cells are 16*K pixels, K from 1 to 8 (default {HELP_SCALE}; a map over "
                        f"{HELP_MAX_SIDE // (16 * HELP_SCALE)} cells long gets smaller cells, so the board is at "
                        f"most {HELP_MAX_SIDE} pixels long)")
    p.add_argument("--fps", type=float_arg(MIN_FPS, MAX_FPS), default=None, metavar="F",
                   help=f"simulation frames per second (default {HELP_FPS:g})")
    p.add_argument("--relaxed", choices=("lp", "gradient"), default=None,
                   help="render a fractional solution instead of --bricks: the LP relaxation "
                   "(solve --solver milp --lp) or the gradient solver's densities")
    p.add_argument("--time-limit", type=time_limit_arg, default=None, metavar="S",
                   help="time limit of the whole export (the --relaxed solve and the GIF; seconds, > 0)")
    p.set_defaults(handler=_run)
