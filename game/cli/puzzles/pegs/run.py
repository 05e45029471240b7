"""The work of ``pegs solve``, ``pegs hint``, ``pegs table`` and ``pegs learn`` (their parser is in
:mod:`game.cli.puzzles.pegs`)."""

from __future__ import annotations

import argparse
import json
import sys

from ai import facade
from game.cli.args import Handler
from game.cli.context import command_context
from game.cli.input_kinds import named_kind
from game.cli.puzzles.pegs import LEARN_GAMES
from game.core.errors import GameError
from game.core.puzzles.pegs import Board
from game.core.puzzles.pegs_boards import MAX_FILE_BYTES, load_board
from game.core.storage import read_regular_bytes

#: What a board argument names when it is a file.
BOARD_FILE = "a peg solitaire board file"


def _goal(board: Board, which: str) -> int | None:
    """The goal cell of ``--goal`` (``None``: one peg anywhere)."""
    if which == "any":
        return None
    goal = board.goal_position()
    if goal is None:
        raise GameError(f"{board.name}: the board has no centre cell; use --goal any")
    return goal


def solve(args: argparse.Namespace) -> int:
    """``pegs solve``: a solution, or the proof that there is none (exit 1 when the time or the search's memory
    cap ended it first; the time limit counts from before the board is read)."""
    with command_context(args.time_limit, solver="pegs") as ctx:
        with named_kind(args.board, BOARD_FILE):
            board, start = load_board(args.board)
        result = facade.pegs_solve(board, start, _goal(board, args.goal), ctx=ctx, ip=args.ip)
    if result.message:
        print(result.message, file=sys.stderr)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(f"{result.status.value} ({result.proof.value}, {result.nodes} nodes, {result.elapsed:.3f} s)")
        for j in result.moves:
            print(f"  ({j.start[0]},{j.start[1]}) -> ({j.end[0]},{j.end[1]})")
    return 0 if result.status != facade.PegsStatus.STOPPED else 1


def hint(args: argparse.Namespace) -> int:
    """``pegs hint``: a jump that keeps the board solvable (exit 1 when no answer came in the time or within
    the search's memory cap)."""
    with command_context(args.time_limit, solver="pegs") as ctx:
        with named_kind(args.board, BOARD_FILE):
            board, start = load_board(args.board)
        answer = facade.pegs_hint(board, start, _goal(board, args.goal), ctx=ctx)
    if args.json:
        print(json.dumps({"status": answer.status.value, "jump": answer.jump.as_list() if answer.jump else None,
                          "message": answer.message}))
    else:
        print(answer.message)
    return 1 if answer.status == facade.PegsStatus.STOPPED else 0


def table(args: argparse.Namespace) -> int:
    """``pegs table``: every single-vacancy problem of the board, goals one peg anywhere and one peg on the
    vacancy, each solved (moves replayed) or proved impossible (exit 1 when a problem ran out of time: its
    own ``--per-problem`` or the command's ``--time-limit``, which counts from before the board is read)."""
    with command_context(args.time_limit, solver="pegs") as ctx:
        with named_kind(args.board, BOARD_FILE):
            board, _ = load_board(args.board)
        answers = facade.pegs_table(board, ctx, args.per_problem)
    if args.json:
        print(json.dumps({"problems": [a.to_json() for a in answers]}))
    else:
        for a in answers:
            where = f"({a.vacancy[0]},{a.vacancy[1]})"
            print(f"{where} {a.goal:<7} {a.status.value:<10} {a.kind:<14} {len(a.moves):>2} jumps {a.seconds:6.2f} s")
        solved = sum(a.status == facade.PegsStatus.SOLVED for a in answers)
        print(f"{len(answers)} problems: {solved} solved, {len(answers) - solved} not")
    return 1 if any(a.status == facade.PegsStatus.STOPPED for a in answers) else 0


def learn(args: argparse.Namespace) -> int:
    """``pegs learn``: the move rule learned from games, checked against the reference rule (exit 1 when the
    time limit ends it first)."""
    with command_context(args.time_limit, solver="pegs") as ctx:
        try:
            data, agrees = _learn_and_verify(args, ctx)
        except facade.SolveStopped:
            print(f"stopped: the time limit ({args.time_limit:g} s) ended before the rule was learned and checked",
                  file=sys.stderr)
            return 1
    print(json.dumps(data))
    if not agrees:
        print("the learned rule differs from the reference rule (see verification)", file=sys.stderr)
    return 0 if agrees else 1


def _read_games(path: str) -> tuple[Board, list[list[int]]]:
    """The board and games of a file of example games (UTF-8, a byte order mark allowed)."""
    try:
        raw = read_regular_bytes(path, MAX_FILE_BYTES * 64)
    except FileNotFoundError:
        raise GameError(f"no such file: {path}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise GameError(f"{path} is not UTF-8 text (byte {exc.start})") from None
    return facade.pegs_parse_games(text, path=path)


def _learn_and_verify(args: argparse.Namespace, ctx: facade.SolveContext) -> tuple[dict[str, object], bool]:
    """The games (read from the file, or played at random), the rule learned from them and its check: the
    answer's JSON object, and whether the learned rule agrees with the reference rule."""
    if args.games_file:
        if args.board is not None or args.games is not None or args.seed is not None:
            raise GameError(f"{args.games_file} brings its own board and games: no --board, --games or --seed")
        with named_kind(args.games_file, "a file of peg solitaire games"):
            board, games = _read_games(args.games_file)
    else:
        with named_kind(args.board, BOARD_FILE):
            board, start = load_board(args.board or "english")
        games = facade.pegs_random_games(board, start, games=args.games or LEARN_GAMES, seed=args.seed or 0, ctx=ctx)
    try:
        rule = facade.pegs_learn(board, games, ctx)
    except GameError as exc:
        raise GameError(f"{args.games_file}: {exc}" if args.games_file else str(exc)) from None
    report = facade.pegs_verify(board, rule, ctx)
    return {"rule": rule.to_json(), "verification": report.to_json()}, report.agrees


#: The handler of each ``pegs`` command that asks the AI, by name.
COMMANDS: dict[str, Handler] = {"solve": solve, "hint": hint, "table": table, "learn": learn}
