"""The ``life`` subcommand: ``reverse``, ``hint``, ``learn`` and ``step`` on board files.

A board file is rows of ``#`` (alive) and ``.`` (dead), optionally after ``key: value`` header lines
(``steps``, ``rule``, ``title``); a trajectory file for ``learn`` holds several boards separated by
blank lines.  JSON goes to stdout, messages to stderr; bad files and arguments exit 2 with one message.
The AI's commands run in :mod:`game.cli.puzzles.life.run`, loaded only when one runs.
"""

from __future__ import annotations

import argparse

from game.cli.args import Subparsers, int_arg, path_arg, time_limit_arg, usage_handler
from game.core.puzzles import SidePuzzle
from game.cli.puzzles.life.boards import one_board, print_answer
from game.core.puzzles.life.board import board_rows, format_board
from game.core.puzzles.life.puzzle import MAX_STEPS, MIN_STEPS
from game.core.puzzles.life.rules import Rule, RuleError, parse_rule, step

#: Default time limit of ``reverse`` and ``hint``, in seconds.
DEFAULT_TIME_LIMIT = 10.0


def rule_arg(text: str) -> Rule:
    """An argparse type: a rule string (``B3/S23``, ``highlife``, ``T`` + 128 hex digits)."""
    try:
        return parse_rule(text)
    except RuleError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


rule_arg.__name__ = "rule"


def _run(args: argparse.Namespace) -> int:
    """Run ``life reverse``, ``hint`` or ``learn`` (:mod:`game.cli.puzzles.life.run`)."""
    from game.cli.puzzles.life import run as life_run  # late: the CP-SAT solver loads only when a life command asks the AI

    return life_run.COMMANDS[args.life_action](args)


def _cmd_step(args: argparse.Namespace) -> int:
    doc, rule, steps = one_board(args)
    out = step(doc.boards[0], rule, steps)
    print_answer(args, {"steps": steps, "rule": rule.name, "board": board_rows(out)}, format_board(out))
    return 0


def register(sub: Subparsers, puzzle: SidePuzzle) -> None:
    """Add ``life`` with its actions ``reverse``, ``hint``, ``learn`` and ``step``."""
    p = sub.add_parser(puzzle.key, help=f"{puzzle.title}: find a start for a target picture, hints, learn a rule")
    actions = p.add_subparsers(dest="life_action", metavar="ACTION")
    p.set_defaults(handler=usage_handler(p))

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
    q.set_defaults(handler=_run)
    q = actions.add_parser("hint", help="cells alive (or dead) in every start")
    common(q)
    q.set_defaults(handler=_run)
    q = actions.add_parser("learn", help="learn the rule from a trajectory (boards separated by blank lines)")
    common(q, steps=False, limit=False)
    q.add_argument("--check", type=rule_arg, default=None, metavar="RULE",
                   help="compare the learned rule with RULE on all 512 neighbourhoods")
    q.set_defaults(handler=_run)
    q = actions.add_parser("step", help="the board after K steps")
    common(q, limit=False)
    q.set_defaults(handler=_cmd_step)


__all__ = ["DEFAULT_TIME_LIMIT", "one_board", "print_answer", "register", "rule_arg"]
