"""Minesweeper subcommands: ``mines bench`` (games won by the assistant) and ``mines solve`` (probabilities).

``mines bench --size 9x9 --mines 10 --games 1000 --seed 1 --json`` prints ``{"games": G, "wins": W}``;
``mines solve BOARDFILE --json`` prints the proved cells and every unknown cell's exact probability
for a board in the text form of :func:`game.core.puzzles.mines.parse_view`.  Bad arguments exit with code 2 and
one message.
"""

from __future__ import annotations

import argparse
import json
import re
import sys

from game.cli.args import int_arg, path_arg, time_limit_arg
from game.core.errors import GameError
from game.core.puzzles.mines import MAX_SIDE, check_size

_SIZE = re.compile(r"([0-9]{1,3})[xX]([0-9]{1,3})", re.ASCII)


def size_arg(text: str) -> tuple[int, int]:
    """An argparse type: ``WxH`` (width x height, each 1 to :data:`~game.core.puzzles.mines.MAX_SIDE`).

    >>> size_arg("30x16")
    (30, 16)
    """
    match = _SIZE.fullmatch(text.strip())
    if not match:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 9x9, got {text[:40]!r}")
    width, height = int(match.group(1)), int(match.group(2))
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise argparse.ArgumentTypeError(f"board sides must be from 1 to {MAX_SIDE}, got {width}x{height}")
    return width, height


def _cmd_bench(args: argparse.Namespace) -> int:
    from ai.puzzles.mines.play import bench

    width, height = args.size
    check_size(width, height, args.mines)  # GameError: one message, exit 2
    result = bench(width, height, args.mines, games=args.games, seed=args.seed, workers=args.workers)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['wins']} wins out of {result['games']} games ({width}x{height}, {args.mines} mines)")
    return 0


def _cmd_solve(args: argparse.Namespace) -> int:
    from ai.puzzles.mines.analysis import AnalysisStatus, analyze
    from ai.puzzles.mines.policy import check_against_view, next_moves
    from game.core.puzzles.mines import parse_view
    from game.core.storage import read_regular_bytes

    try:
        raw = read_regular_bytes(args.board, max_bytes=1 << 16)
    except FileNotFoundError:
        raise GameError(f"{args.board}: no such file") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise GameError(f"{args.board}: not UTF-8 text") from None
    try:
        view = parse_view(text)
    except GameError as exc:
        raise GameError(f"{args.board}: {exc}") from None
    from ai.kernel.context import SolveContext, SolveStopped

    try:
        analysis = analyze(view, SolveContext.create(time_limit=args.time_limit))
    except SolveStopped:
        print(f"{args.board}: stopped after {args.time_limit:g} s (the frontier is too large to count exactly)",
              file=sys.stderr)
        return 1
    if analysis.status != AnalysisStatus.OK:
        raise GameError(f"{args.board}: no arrangement of {view.mines} mines fits these numbers")
    check_against_view(view, analysis)  # WrongAnswerError (a GameError): one message, exit 2
    moves = next_moves(view, analysis)
    out = {
        "status": analysis.status.value,
        "safe": sorted([r, c] for r, c in analysis.safe),
        "mined": sorted([r, c] for r, c in analysis.mined),
        "probabilities": [{"cell": [r, c], "mine": f"{p.numerator}/{p.denominator}", "value": float(p)}
                          for (r, c), p in sorted(analysis.probability.items())],
        "next": {"kind": moves.kind.value, "cells": [list(p) for p in moves.cells], "risk": float(moves.risk)},
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(f"safe: {out['safe']}\nmined: {out['mined']}\nnext: {moves.kind.value} {list(moves.cells)} "
              f"(risk {float(moves.risk):.3f})")
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``mines bench`` and ``mines solve``."""
    p = sub.add_parser("mines", help="Minesweeper: the assistant's bench and exact probabilities")
    msub = p.add_subparsers(dest="mines_command", metavar="MINES_COMMAND")

    def usage(args: argparse.Namespace) -> int:
        p.print_help(sys.stderr)
        return 2

    p.set_defaults(handler=usage)
    b = msub.add_parser("bench", help="play games with the assistant and count the wins")
    b.add_argument("--size", type=size_arg, default=(9, 9), help="board WIDTHxHEIGHT (default 9x9)")
    b.add_argument("--mines", type=int_arg(0, MAX_SIDE * MAX_SIDE), default=10, help="number of mines (default 10)")
    b.add_argument("--games", type=int_arg(1, 1_000_000), default=100, help="games to play (default 100)")
    b.add_argument("--seed", type=int_arg(0, 2**31 - 1), default=0, help="seed of the boards (default 0)")
    b.add_argument("--workers", type=int_arg(1, 2), default=1, help="processes (1 or 2; default 1)")
    b.add_argument("--json", action="store_true", help='print {"games": G, "wins": W}')
    b.set_defaults(handler=_cmd_bench)
    s = msub.add_parser("solve", help="proved cells and exact mine probabilities of a board file")
    s.add_argument("board", type=path_arg, help="board text: 'mines N', then rows of . F 0-8")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.add_argument("--time-limit", type=time_limit_arg, default=60.0, help="seconds at most (default 60)")
    s.set_defaults(handler=_cmd_solve)


__all__ = ["register", "size_arg"]
