"""Peg-solitaire subcommands: ``pegs solve``, ``pegs hint`` and ``pegs learn``.

``BOARD`` is ``english``, ``french`` or a board file (rows of ``o`` peg, ``.`` hole, space off the
board).  By default the goal is one peg in the centre; ``--goal any`` accepts one peg anywhere.
JSON goes to stdout, messages to stderr; bad boards and arguments exit with code 2, an answer that did not
come in the time allowed with code 1.
"""

from __future__ import annotations

import argparse
import json
import sys

from game.cli.args import int_arg, path_arg, time_limit_arg
from game.core.errors import GameError


def _goal(board: object, which: str) -> int | None:
    from game.core.puzzles.pegs import Board

    assert isinstance(board, Board)
    if which == "any":
        return None
    goal = board.goal_position()
    if goal is None:
        raise GameError(f"{board.name}: the board has no centre cell; use --goal any")
    return goal


def _cmd_solve(args: argparse.Namespace) -> int:
    from ai.kernel.context import SolveContext
    from ai.puzzles.pegs import PegsStatus, solve
    from game.core.puzzles.pegs import load_board

    board, start = load_board(args.board)
    result = solve(board, start, _goal(board, args.goal), ctx=SolveContext.create(time_limit=args.time_limit),
                   ip=args.ip)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(f"{result.status.value} ({result.proof.value}, {result.nodes} nodes, {result.elapsed:.3f} s)")
        for j in result.moves:
            print(f"  ({j.start[0]},{j.start[1]}) -> ({j.end[0]},{j.end[1]})")
    return 0 if result.status != PegsStatus.STOPPED else 1


def _cmd_hint(args: argparse.Namespace) -> int:
    from ai.kernel.context import SolveContext
    from ai.puzzles.pegs import PegsStatus, hint
    from game.core.puzzles.pegs import load_board

    board, start = load_board(args.board)
    answer = hint(board, start, _goal(board, args.goal), ctx=SolveContext.create(time_limit=args.time_limit))
    if args.json:
        print(json.dumps({"status": answer.status.value, "jump": answer.jump.as_list() if answer.jump else None,
                          "message": answer.message}))
    else:
        print(answer.message)
    return 1 if answer.status == PegsStatus.STOPPED else 0


def _cmd_learn(args: argparse.Namespace) -> int:
    from ai.puzzles.pegs.learn import learn, parse_games, random_games, verify
    from game.core.puzzles.pegs import MAX_FILE_BYTES, load_board
    from game.core.storage import read_regular_bytes

    if args.games_file:
        try:
            raw = read_regular_bytes(args.games_file, MAX_FILE_BYTES * 64)
        except FileNotFoundError:
            raise GameError(f"no such file: {args.games_file}") from None
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise GameError(f"{args.games_file} is not UTF-8 text (byte {exc.start})") from None
        board, games = parse_games(text, path=args.games_file)
    else:
        board, start = load_board(args.board)
        games = random_games(board, start, games=args.games, seed=args.seed)
    rule = learn(board, games)
    report = verify(board, rule)
    print(json.dumps({"rule": rule.to_json(), "verification": report.to_json()}))
    if not report.agrees:
        print("the learned rule differs from the reference rule (see verification)", file=sys.stderr)
    return 0 if report.agrees else 1


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``pegs`` with its ``solve``, ``hint`` and ``learn`` subcommands."""
    pegs = sub.add_parser("pegs", help="peg solitaire: solve, hint, learn the move rule")
    psub = pegs.add_subparsers(dest="pegs_command", metavar="PEGS_COMMAND")
    # pegs_subparsers: where other packages add pegs subcommands (the UI's ``pegs play``, game.cli.puzzles.pegs_play)
    pegs.set_defaults(handler=lambda args: (pegs.print_help(sys.stderr), 2)[1], pegs_subparsers=psub)
    for name, handler, what in (("solve", _cmd_solve, "solve a board or prove it impossible"),
                                ("hint", _cmd_hint, "a jump that keeps the board solvable")):
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
        p.set_defaults(handler=handler)
    p = psub.add_parser("learn", help="learn the move rule from example games and verify it")
    p.add_argument("games_file", nargs="?", type=path_arg, default=None,
                   help="boards separated by blank lines, games by ---; default: random games")
    p.add_argument("--board", type=path_arg, default="english", help="board of the random games")
    p.add_argument("--games", type=int_arg(1, 10_000), default=20, help="random games (default 20)")
    p.add_argument("--seed", type=int_arg(0, 2**31), default=0, help="seed of the random games")
    p.set_defaults(handler=_cmd_learn)


__all__ = ["register"]
