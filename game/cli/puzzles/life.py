"""The ``life`` subcommand: ``reverse``, ``hint``, ``learn`` and ``step`` on board files.

A board file is rows of ``#`` (alive) and ``.`` (dead), optionally after ``key: value`` header lines
(``steps``, ``rule``, ``title``); a trajectory file for ``learn`` holds several boards separated by
blank lines.  JSON goes to stdout, messages to stderr; bad files and arguments exit 2 with one message.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from game.cli.args import int_arg, path_arg, terminal_safe, time_limit_arg
from game.core.errors import GameError
from game.core.puzzles.life.board import BoardFile, format_board, read_board_file
from game.core.puzzles.life.puzzle import MAX_STEPS, MIN_STEPS
from game.core.puzzles.life.rules import Rule, RuleError, parse_rule

#: Default time limit of ``reverse`` and ``hint``, in seconds.
DEFAULT_TIME_LIMIT = 10.0


def rule_arg(text: str) -> Rule:
    """An argparse type: a rule string (``B3/S23``, ``highlife``, ``T`` + 128 hex digits)."""
    try:
        return parse_rule(text)
    except RuleError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


rule_arg.__name__ = "rule"


def _one_board(args: argparse.Namespace) -> tuple[BoardFile, Rule, int]:
    """The file's single board, the rule (argument, else header, else Life) and the steps."""
    doc = read_board_file(args.file)
    if len(doc.boards) != 1:
        raise GameError(f"{terminal_safe(args.file)}: expected one board, found {len(doc.boards)}")
    rule = args.rule
    if rule is None:
        try:
            rule = parse_rule(doc.header.get("rule", "B3/S23"))
        except RuleError as exc:
            raise GameError(f"{terminal_safe(args.file)}: {exc}") from None
    steps = args.steps
    if steps is None:
        raw = doc.header.get("steps", "")
        if not (raw.isascii() and raw.isdigit() and MIN_STEPS <= int(raw) <= MAX_STEPS):
            raise GameError(f"{terminal_safe(args.file)}: give --steps {MIN_STEPS}-{MAX_STEPS} "
                            "(the file has no usable 'steps:' header)")
        steps = int(raw)
    return doc, rule, steps


def _print(args: argparse.Namespace, data: dict[str, Any], text: str) -> None:
    print(json.dumps(data) if args.json else text)


def _cmd_reverse(args: argparse.Namespace) -> int:
    from ai.kernel.context import SolveContext
    from ai.puzzles.life.reverse import reverse

    doc, rule, steps = _one_board(args)
    result = reverse(doc.boards[0], steps, SolveContext.create(time_limit=args.time_limit), rule,
                     workers=args.workers)
    text = (f"{result.status.value}: {result.wrong_cells} wrong cells of {result.cells} after {steps} steps "
            f"of {rule.name} ({result.method})\n{format_board(result.start)}")
    _print(args, result.to_json(), text)
    return 0


def _cmd_hint(args: argparse.Namespace) -> int:
    from ai.kernel.context import SolveContext
    from ai.puzzles.life.reverse import backbone

    doc, rule, steps = _one_board(args)
    bb = backbone(doc.boards[0], steps, SolveContext.create(time_limit=args.time_limit), rule, workers=args.workers)
    rows = ["".join("#" if a else "." if d else "?" for a, d in zip(ra, rd)) for ra, rd in zip(bb.alive, bb.dead)]
    data = {"exists": bb.exists, "proved": bb.proved, "forced": bb.count, "starts_seen": bb.starts_seen,
            "cells": rows}
    if not bb.exists:
        text = "no start exists: the target has no predecessor" if bb.proved else "no start found in the time"
    else:
        text = (f"{bb.count} cells are the same in every start{'' if bb.proved else ' found (not proved)'} "
                f"('#' alive, '.' dead, '?' free)\n" + "\n".join(rows))
    _print(args, data, text)
    return 0


def _cmd_learn(args: argparse.Namespace) -> int:
    from ai.puzzles.life.learn import disagreements, learn_rule

    doc = read_board_file(args.file)
    learned = learn_rule(list(doc.boards))
    data = learned.to_json()
    text = f"{learned.rule.name} ({learned.status.value}; {learned.examples} examples, {sum(learned.seen)} of 512 " \
           f"neighbourhoods seen)"
    if learned.unseen:
        text += f"\nunseen neighbourhoods (guessed): {' '.join(map(str, learned.unseen))}"
    if args.check is not None:
        wrong = disagreements(learned.rule, args.check)
        data["check"] = {"rule": args.check.name, "wrong_entries": wrong}
        text += f"\nagainst {args.check.name}: {512 - len(wrong)} of 512 neighbourhoods agree"
    _print(args, data, text)
    return 0


def _cmd_step(args: argparse.Namespace) -> int:
    from game.core.puzzles.life.board import board_rows
    from game.core.puzzles.life.rules import step

    doc, rule, steps = _one_board(args)
    out = step(doc.boards[0], rule, steps)
    _print(args, {"steps": steps, "rule": rule.name, "board": board_rows(out)}, format_board(out))
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``life`` with its actions ``reverse``, ``hint``, ``learn`` and ``step``."""
    p = sub.add_parser("life", help="Reverse Life: find a start for a target picture, hints, learn a rule")
    actions = p.add_subparsers(dest="life_action", metavar="ACTION")
    p.set_defaults(handler=lambda args: (p.print_help(sys.stderr), 2)[1])

    def common(q: argparse.ArgumentParser, *, steps: bool = True, limit: bool = True) -> None:
        q.add_argument("file", type=path_arg, metavar="FILE", help="board file: rows of '#' alive and '.' dead")
        if steps:
            q.add_argument("--steps", type=int_arg(MIN_STEPS, MAX_STEPS), default=None, metavar="K",
                           help=f"generations ({MIN_STEPS}-{MAX_STEPS}; default: the file's 'steps:' header)")
            q.add_argument("--rules", "--rule", dest="rule", type=rule_arg, default=None, metavar="RULES",
                           help="rule, e.g. B3/S23 (default: the file's 'rule:' header, else Life)")
        if limit:
            q.add_argument("--time-limit", type=time_limit_arg, default=DEFAULT_TIME_LIMIT, metavar="S",
                           help=f"seconds (default {DEFAULT_TIME_LIMIT:g})")
            q.add_argument("--workers", type=int_arg(1, 16), default=1, help="CP-SAT workers (default 1)")
        q.add_argument("--json", action="store_true", help="print JSON")

    q = actions.add_parser("reverse", help="a start that becomes the board after K steps (exact, approximate, none)")
    common(q)
    q.set_defaults(handler=_cmd_reverse)
    q = actions.add_parser("hint", help="cells alive (or dead) in every start")
    common(q)
    q.set_defaults(handler=_cmd_hint)
    q = actions.add_parser("learn", help="learn the rule from a trajectory (boards separated by blank lines)")
    common(q, steps=False, limit=False)
    q.add_argument("--check", type=rule_arg, default=None, metavar="RULE",
                   help="compare the learned rule with RULE on all 512 neighbourhoods")
    q.set_defaults(handler=_cmd_learn)
    q = actions.add_parser("step", help="the board after K steps")
    common(q, limit=False)
    q.set_defaults(handler=_cmd_step)


__all__ = ["DEFAULT_TIME_LIMIT", "register", "rule_arg"]
