"""The UI's peg-solitaire command: ``pegs play [english|french|FILE]`` opens the peg-solitaire screen.

:func:`register` adds it to the ``pegs`` command that :mod:`game.cli.puzzles.pegs` registers.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from game.cli.args import Subparsers, int_arg, output_file_arg, path_arg


def _cmd_play(args: argparse.Namespace) -> int:
    from game.app.app import FixedClock  # (the app and pygame load only when the game starts)
    from game.app.compose import build_app
    from game.core.puzzles.pegs import BOARDS, load_board

    board, start = load_board(args.board)  # errors before a window opens
    app = build_app(clock=FixedClock() if args.frames else None)
    if args.board in BOARDS:
        app.open("pegs", args.board)
    else:
        app.open("pegs", extra=(Path(args.board).name, board, start))
    return app.start(frames=args.frames, screenshot=args.screenshot)


def register(pegs_commands: Subparsers) -> None:
    """Add ``play`` to the ``pegs`` command's subcommands."""
    p = pegs_commands.add_parser("play", help="play peg solitaire (drag pegs; H hint, S solve)")
    p.add_argument("board", nargs="?", type=path_arg, default="english", help="english, french or a board file")
    p.add_argument("--frames", type=int_arg(0, 10_000_000), default=0,
                   help="run this many frames with a fixed 60 fps clock, then exit (for scripts)")
    p.add_argument("--screenshot", default="", type=output_file_arg, help="save a PNG screenshot after 30 frames")
    p.set_defaults(handler=_cmd_play)


__all__ = ["register"]
