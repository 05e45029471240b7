"""The work of ``mines bench`` and ``mines solve`` (their parser is in :mod:`game.cli.puzzles.mines`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ai import facade
from game.cli.args import Handler
from game.cli.context import STOP_MESSAGES, Terminated, command_context, stop_exit_code, stop_signals
from game.cli.input_kinds import named_kind
from game.core.errors import GameError
from game.core.puzzles.mines import FLAG, FirstClick, MinesBoard, MinesView, check_size, parse_view
from game.core.storage import read_regular_bytes


def bench(args: argparse.Namespace) -> int:
    """``mines bench``: games played by the assistant, and its wins (those finished in the time limit)."""
    width, height = args.size
    check_size(width, height, args.mines)  # GameError: one message, exit 2
    if args.rules == "opening":  # else the boards would quietly keep only the click free, as under 'safe'
        r, c = facade.mines_first_click(width, height, FirstClick.AREA)
        area = MinesBoard(width, height, 0, first_click=FirstClick.AREA).kept_free((r, c))
        if MinesBoard(width, height, args.mines, first_click=FirstClick.AREA).kept_free((r, c)) != area:
            raise GameError(f"--rules opening keeps the first click ({r}, {c}) and its {len(area) - 1} neighbours "
                            f"free of mines: a {width}x{height} board takes at most {width * height - len(area)} "
                            f"mines, got {args.mines} (or --rules safe)")
    tally = facade.MinesBenchTally()
    with stop_signals() as received:
        try:
            with command_context(args.time_limit, solver="mines") as ctx:
                result = facade.mines_bench(width, height, args.mines, games=args.games, seed=args.seed,
                                            workers=args.workers, rules=args.rules, ctx=ctx, tally=tally)
        except (KeyboardInterrupt, Terminated) as exc:  # the games finished so far are reported, then main's exit
            _report_bench(args, tally.summary(args.rules, STOP_MESSAGES[stop_exit_code(received, exc) or 130]))
            raise
        if received:  # the signal's cancel ended the games before its exception came
            result = tally.summary(args.rules, STOP_MESSAGES[stop_exit_code(received, None) or 130])
    _report_bench(args, result)
    return 0


def _report_bench(args: argparse.Namespace, result: dict[str, Any]) -> None:
    """The bench's answer on stdout (JSON or one line), and on stderr why it stopped early, if it did."""
    width, height = args.size
    if args.json:
        print(json.dumps(result), flush=True)
    else:
        low, high = result["ci95"]
        print(f"{result['wins']} wins out of {result['games']} games ({width}x{height}, {args.mines} mines, "
              f"{args.rules} first click): {100 * result['rate']:.1f}% (95% interval {100 * low:.1f}-{100 * high:.1f}%)",
              flush=True)
    if "stopped" in result:
        print(f"stopped early ({result['stopped']}): {result['games']} of {args.games} games played",
              file=sys.stderr)


def _read_view(path: str) -> MinesView:
    """The board of a board file (UTF-8, a byte order mark allowed); errors name the file."""
    try:
        raw = read_regular_bytes(path, max_bytes=1 << 16)
    except FileNotFoundError:
        raise GameError(f"{path}: no such file") from None
    try:
        text = raw.decode("utf-8-sig")  # a byte order mark, as some editors write, is not the header
    except UnicodeDecodeError:
        raise GameError(f"{path}: not UTF-8 text") from None
    try:
        return parse_view(text)
    except GameError as exc:
        raise GameError(f"{path}: {exc}") from None


def solve(args: argparse.Namespace) -> int:
    """``mines solve BOARD``: the proved cells and every unknown cell's exact mine probability."""
    with named_kind(args.board, "a Minesweeper board file"):
        view = _read_view(args.board)
    with command_context(args.time_limit, solver="mines") as ctx:
        try:
            advice = facade.mines_advise(view, ctx)
        except facade.SolveStopped as stop:
            print(f"{args.board}: stopped after {args.time_limit:g} s (the frontier is too large to count exactly)",
                  file=sys.stderr)
            if args.json:  # still one JSON object for a script to read
                print(json.dumps({"status": "stopped", "stop_reason": stop.reason.value}))
            return 1
    analysis, moves = advice.analysis, advice.moves
    if analysis.status != facade.MinesAnalysisStatus.OK:
        raise GameError(f"{args.board}: no arrangement of {view.mines} mines fits these numbers")
    facade.mines_check_against_view(view, analysis)  # WrongAnswerError (a GameError): one message, exit 2
    out = {
        "status": analysis.status.value,
        "safe": sorted([r, c] for r, c in analysis.safe),
        "mined": sorted([r, c] for r, c in analysis.mined),
        "probabilities": [{"cell": [r, c], "mine": f"{p.numerator}/{p.denominator}", "value": float(p)}
                          for (r, c), p in sorted(analysis.probability.items())],
        "next": {"kind": moves.kind.value, "cells": [list(p) for p in moves.cells], "risk": float(moves.risk)},
    }
    if moves.win is not None:
        out["next"]["win"] = float(moves.win)
    if args.json:
        print(json.dumps(out))
    else:
        print(f"safe: {out['safe']}\nmined: {out['mined']}\nnext: {moves.kind.value} {list(moves.cells)} "
              f"(risk {float(moves.risk):.3f}"
              + ("" if moves.win is None else f", best chance to win {float(moves.win):.3f}")
              + ")" + _flags_note(view, analysis, moves))
    return 0


def _flags_note(view: MinesView, analysis: facade.MinesAnalysis, moves: facade.MinesMoves) -> str:
    """Why there is no guess when the only cells left to guess are flagged (a guess is never a flagged cell)."""
    if moves.kind != facade.MinesMoveKind.NONE:
        return ""
    flagged = [p for p, v in analysis.probability.items() if 0 < v < 1 and view.at(*p) == FLAG]
    return f"; every cell left to guess is flagged ({len(flagged)}): take a flag back to guess" if flagged else ""


#: The handler of each ``mines`` command, by name.
COMMANDS: dict[str, Handler] = {"bench": bench, "solve": solve}
