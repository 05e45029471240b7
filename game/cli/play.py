"""UI subcommand: ``play [LEVEL]`` (the default command: ``python main.py`` opens the title menu,
whose "Continue" opens the level the player was on, or the next unsolved one)."""

from __future__ import annotations

import argparse

from game.cli.args import SCREENSHOT_FRAME, Subparsers, bricks_arg, int_arg, output_file_arg, path_arg

#: The largest window ``play`` accepts (pixels); the smallest is the settings' minimum window size.
MAX_WIDTH, MAX_HEIGHT = 7680, 4320


def _cmd_play(args: argparse.Namespace) -> int:
    from game.cli import window  # late: pygame and the app load only when a window opens

    return window.play(args)


def register(sub: Subparsers) -> None:
    """Add ``play``."""
    p = sub.add_parser("play", help="play the game (default command; opens the title menu)")
    p.add_argument("level", nargs="?", default=None, type=path_arg,
                   help="level file or pack level number (default: the title menu)")
    p.add_argument("--width", type=int_arg(0, MAX_WIDTH), default=0,
                   help="window width in pixels (default: from the settings; at least 640)")
    p.add_argument("--height", type=int_arg(0, MAX_HEIGHT), default=0,
                   help="window height in pixels (default: from the settings; at least 400)")
    p.add_argument("--bricks", default="", type=bricks_arg, help='start with these bricks, "r,c;r,c;..."')
    p.add_argument("--release", action="store_true", help="release the lemmings at once (with --bricks)")
    preview = p.add_mutually_exclusive_group()
    preview.add_argument("--preview", action="store_true", help="start with the trajectory preview on")
    preview.add_argument("--no-preview", action="store_true", help="start with the trajectory preview off")
    p.add_argument("--screenshot", default="", type=output_file_arg,
                   help="save a PNG screenshot after --screenshot-frame frames")
    p.add_argument("--screenshot-frame", type=int_arg(0, 10_000_000), default=None,
                   help=f"frame at which --screenshot is taken (default {SCREENSHOT_FRAME})")
    p.add_argument("--force", action="store_true", help="let --screenshot replace an existing PNG")
    p.add_argument("--frames", type=int_arg(0, 10_000_000), default=0,
                   help="run this many frames with a fixed 60 fps clock, then exit (for scripts)")
    p.set_defaults(handler=_cmd_play)
