"""The ``edit [LEVEL]`` subcommand (the level editor; the window opens in :mod:`game.cli.window`)."""

from __future__ import annotations

import argparse

from game.cli.args import SCREENSHOT_FRAME, Subparsers, int_arg, output_file_arg

#: Window size limits (as ``play``: at least 640x400, at most 8K).
MAX_WIDTH, MAX_HEIGHT = 7680, 4320


def _cmd_edit(args: argparse.Namespace) -> int:
    from game.cli import window  # late: pygame and the app load only when a window opens

    return window.edit(args)


def register(sub: Subparsers) -> None:
    """Add ``edit``."""
    p = sub.add_parser("edit", help="the level editor: paint, play-test, analyse and save levels")
    p.add_argument("level", nargs="?", default=None,
                   help="level file or pack level number to edit (pack levels are saved as a copy)")
    p.add_argument("--new", default="", metavar="HxW", help="start a new level of this size, e.g. 10x14")
    p.add_argument("--width", type=int_arg(0, MAX_WIDTH), default=0,
                   help="window width in pixels (default: from the settings; at least 640)")
    p.add_argument("--height", type=int_arg(0, MAX_HEIGHT), default=0,
                   help="window height in pixels (default: from the settings; at least 400)")
    p.add_argument("--analyse", action="store_true", help="start the analysis at once")
    p.add_argument("--screenshot", default="", type=output_file_arg,
                   help="save a PNG screenshot after --screenshot-frame frames")
    p.add_argument("--screenshot-frame", type=int_arg(0, 10_000_000), default=None,
                   help=f"frame at which --screenshot is taken (default {SCREENSHOT_FRAME})")
    p.add_argument("--force", action="store_true", help="let --screenshot replace an existing PNG")
    p.add_argument("--frames", type=int_arg(0, 10_000_000), default=0,
                   help="run this many frames with a fixed 60 fps clock, then exit (for scripts)")
    p.set_defaults(handler=_cmd_edit)
