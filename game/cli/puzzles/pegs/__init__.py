"""Peg-solitaire subcommands: ``pegs solve``, ``pegs hint``, ``pegs table``, ``pegs learn`` and ``pegs play``.

``BOARD`` is ``english``, ``french`` or a board file (rows of ``o`` peg, ``.`` hole, space off the
board).  By default the goal is one peg in the centre; ``--goal any`` accepts one peg anywhere.
JSON goes to stdout, messages to stderr; bad boards and arguments exit with code 2, an answer that did not
come in the time allowed with code 1.  The work is done in :mod:`game.cli.puzzles.pegs.run`, loaded only
when a command runs; ``pegs play`` opens the game's screen (:mod:`game.cli.window`).
"""

from __future__ import annotations

import argparse

from game.cli.args import Subparsers, int_arg, output_file_arg, path_arg, time_limit_arg, usage_handler
from game.core.puzzles import SidePuzzle

#: Random games ``pegs learn`` plays unless ``--games`` says otherwise.
LEARN_GAMES = 20


def _run(args: argparse.Namespace) -> int:
    """Run ``pegs solve``, ``hint``, ``table`` or ``learn`` (:mod:`game.cli.puzzles.pegs.run`)."""
    from game.cli.puzzles.pegs import run as pegs_run  # late: the solver (OR-Tools bounds) loads only when a pegs command runs

    return pegs_run.COMMANDS[args.pegs_command](args)


def _play(args: argparse.Namespace) -> int:
    """Run ``pegs play``: the peg-solitaire screen."""
    from game.cli import window  # late: pygame and the app load only when a window opens

    return window.pegs(args)


def register(sub: Subparsers, puzzle: SidePuzzle) -> None:
    """Add ``pegs`` with its ``solve``, ``hint``, ``table``, ``learn`` and ``play`` subcommands."""
    pegs = sub.add_parser(puzzle.key, help=f"{puzzle.title}: solve, hint, learn the move rule")
    psub = pegs.add_subparsers(dest="pegs_command", metavar="PEGS_COMMAND")
    pegs.set_defaults(handler=usage_handler(pegs))
    for name, what in (("solve", "solve a board or prove it impossible"),
                       ("hint", "a jump that keeps the board solvable")):
        p = psub.add_parser(name, help=what)
        p.add_argument("board", type=path_arg, help="english, french or a board file")
        p.add_argument("--goal", choices=("centre", "any"), default="centre",
                       help="one peg in the centre (default) or anywhere")
        p.add_argument("--time-limit", type=time_limit_arg, default=None if name == "solve" else 20.0, metavar="S",
                       help="give up after S seconds (default: " + ("none" if name == "solve" else "20") + ")")
        p.add_argument("--json", action="store_true", help="print one JSON object")
        if name == "solve":
            p.add_argument("--ip", choices=("auto", "always", "never"), default="auto",
                           help="when to use the integer-program jump bounds (default: auto)")
        p.set_defaults(handler=_run)
    p = psub.add_parser("table", help="every single-vacancy start of a board, two goals each: solved or proved impossible")
    p.add_argument("board", type=path_arg, help="english, french or a board file (its pegs are ignored)")
    p.add_argument("--time-limit", type=time_limit_arg, default=None, metavar="S",
                   help="stop after S seconds in all; the problems not decided by then are listed as stopped "
                        "(default: none)")
    p.add_argument("--per-problem", type=time_limit_arg, default=None, metavar="S",
                   help="give up on one problem after S seconds (default: none)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=_run)
    p = psub.add_parser("learn", help="learn the move rule from example games and verify it")
    p.add_argument("games_file", nargs="?", type=path_arg, default=None,
                   help="boards separated by blank lines, games by ---; default: random games")
    p.add_argument("--board", type=path_arg, default=None, help="board of the random games (default english)")
    p.add_argument("--games", type=int_arg(1, 10_000), default=None,
                   help=f"random games (default {LEARN_GAMES})")
    p.add_argument("--seed", type=int_arg(0, 2**31), default=None, help="seed of the random games (default 0)")
    p.add_argument("--time-limit", type=time_limit_arg, default=None, metavar="S",
                   help="give up after S seconds (default: none)")
    p.set_defaults(handler=_run)
    p = psub.add_parser("play", help="play peg solitaire (drag pegs; H hint, S solve)")
    p.add_argument("board", nargs="?", type=path_arg, default="english", help="english, french or a board file")
    p.add_argument("--frames", type=int_arg(0, 10_000_000), default=0,
                   help="run this many frames with a fixed 60 fps clock, then exit (for scripts)")
    p.add_argument("--screenshot", default="", type=output_file_arg, help="save a PNG screenshot after 30 frames")
    p.add_argument("--force", action="store_true", help="let --screenshot replace an existing PNG")
    p.set_defaults(handler=_play)


__all__ = ["LEARN_GAMES", "register"]
