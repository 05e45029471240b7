"""Minesweeper subcommands: ``mines bench`` (games won by the assistant) and ``mines solve`` (probabilities).

``mines bench --size 9x9 --mines 10 --games 1000 --seed 1 --rules safe --json`` prints ``{"games": G, "wins": W,
...}`` (``--rules safe``: the first click is never a mine; ``--rules opening``: it opens an area; with
``--time-limit S`` it stops after S seconds: ``G`` counts the games finished and ``"stopped": "time limit"``
marks the early stop);
``mines solve BOARDFILE --json`` prints the proved cells and every unknown cell's exact probability
for a board in the text form of :func:`game.core.puzzles.mines.parse_view` (``{"status": "stopped", ...}``, exit
1, when the time limit came first).  Bad arguments exit with code 2 and
one message.  The work is done in :mod:`game.cli.puzzles.mines.run`, loaded only when a command runs.
"""

from __future__ import annotations

import argparse
import re

from game.cli.args import Subparsers, int_arg, path_arg, time_limit_arg, usage_handler
from game.core.puzzles import SidePuzzle
from game.core.puzzles.mines import MAX_SIDE

_SIZE = re.compile(r"([0-9]+)[xX]([0-9]+)", re.ASCII)
#: Most digits of a side read as a number (a longer one is too large whatever it holds).
_SIDE_DIGITS = 6


def size_arg(text: str) -> tuple[int, int]:
    """An argparse type: ``WxH`` (width x height, each 1 to :data:`~game.core.puzzles.mines.MAX_SIDE`).

    >>> size_arg("30x16")
    (30, 16)
    """
    match = _SIZE.fullmatch(text.strip())
    if not match:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 9x9, got {text[:40]!r}")
    if max(len(match.group(1)), len(match.group(2))) > _SIDE_DIGITS:
        raise argparse.ArgumentTypeError(f"board sides must be from 1 to {MAX_SIDE}, got {text.strip()[:40]!r}")
    width, height = int(match.group(1)), int(match.group(2))
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise argparse.ArgumentTypeError(f"board sides must be from 1 to {MAX_SIDE}, got {width}x{height}")
    return width, height


def _run(args: argparse.Namespace) -> int:
    """Run ``mines bench`` or ``mines solve`` (:mod:`game.cli.puzzles.mines.run`)."""
    from game.cli.puzzles.mines import run as mines_run  # late: the assistant's AI loads only when a mines command runs

    return mines_run.COMMANDS[args.mines_command](args)


def register(sub: Subparsers, puzzle: SidePuzzle) -> None:
    """Add ``mines bench`` and ``mines solve``."""
    p = sub.add_parser(puzzle.key, help=f"{puzzle.title}: the assistant's bench and exact probabilities")
    msub = p.add_subparsers(dest="mines_command", metavar="MINES_COMMAND")
    p.set_defaults(handler=usage_handler(p))
    b = msub.add_parser("bench", help="play games with the assistant and count the wins")
    b.add_argument("--size", type=size_arg, default=(9, 9), help="board WIDTHxHEIGHT (default 9x9)")
    b.add_argument("--mines", type=int_arg(0, MAX_SIDE * MAX_SIDE), default=10, help="number of mines (default 10)")
    b.add_argument("--games", type=int_arg(1, 1_000_000), default=100, help="games to play (default 100)")
    b.add_argument("--seed", type=int_arg(0, 2**31 - 1), default=0, help="seed of the boards (default 0)")
    b.add_argument("--workers", type=int_arg(1, 2), default=1, help="processes (1 or 2; default 1)")
    b.add_argument("--rules", choices=("safe", "opening"), default="safe",
                   help="the first click: 'safe' (never a mine; the assistant opens a corner) or 'opening' (no mine "
                        "in or next to it, so it opens an area; the assistant opens row 3, column 3 on boards up to 9x9, row 4, "
                        "column 4 on larger ones); default safe")
    b.add_argument("--time-limit", type=time_limit_arg, default=None,
                   help="stop after S seconds and report the games finished (default: no limit)")
    b.add_argument("--json", action="store_true",
                   help='print {"games": G, "wins": W, "rules": R, "rate": W/G, "ci95": [low, high]} (the 95%% '
                        'Wilson interval; with "stopped": "time limit" when it stopped early)')
    b.set_defaults(handler=_run)
    s = msub.add_parser("solve", help="proved cells and exact mine probabilities of a board file")
    s.add_argument("board", type=path_arg, help="board text: 'mines N', then rows of . F 0-8")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.add_argument("--time-limit", type=time_limit_arg, default=60.0, help="seconds at most (default 60)")
    s.set_defaults(handler=_run)


__all__ = ["register", "size_arg"]
