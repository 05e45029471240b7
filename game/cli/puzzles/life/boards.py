"""The ``life`` commands' board file and answer: shared by the parser's ``step`` and the AI's commands."""

from __future__ import annotations

import argparse
import json
from typing import Any

from game.cli.args import terminal_safe
from game.cli.input_kinds import named_kind
from game.core.errors import GameError
from game.core.puzzles.life.board import BoardFile, read_board_file
from game.core.puzzles.life.puzzle import MAX_STEPS, MIN_STEPS, steps_value
from game.core.puzzles.life.rules import Rule, RuleError, parse_rule

#: What a board argument names.
BOARD_FILE = "a Life board file"


def one_board(args: argparse.Namespace) -> tuple[BoardFile, Rule, int]:
    """The file's single board, the rule (argument, else header, else Life) and the steps."""
    with named_kind(args.file, BOARD_FILE):
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
        raw = doc.header.get("steps")
        if raw is None:
            raise GameError(f"{terminal_safe(args.file)}: give --steps {MIN_STEPS}-{MAX_STEPS} "
                            "(the file has no 'steps:' header)")
        steps = steps_value(raw)
        if steps is None:
            raise GameError(f"{terminal_safe(args.file)}: its 'steps:' header must be {MIN_STEPS} to {MAX_STEPS}, "
                            f"got {terminal_safe(repr(raw[:20]))} (or give --steps)")
    return doc, rule, steps


def print_answer(args: argparse.Namespace, data: dict[str, Any], text: str) -> None:
    """The answer: one JSON object with ``--json``, else the text."""
    print(json.dumps(data) if args.json else text)
