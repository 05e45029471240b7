"""The AI's ``life`` commands: ``reverse``, ``hint`` and ``learn`` (their parser is in
:mod:`game.cli.puzzles.life`)."""

from __future__ import annotations

import argparse
import sys

from ai import facade
from game.cli.args import Handler
from game.cli.context import command_context
from game.cli.input_kinds import named_kind
from game.cli.puzzles.life.boards import one_board, print_answer
from game.core.puzzles.life.board import format_board, read_board_file


def reverse(args: argparse.Namespace) -> int:
    """``life reverse``: a start that becomes the board after the steps (exact, approximate, or none).

    The time limit counts from before the board file is read.  An answer that is only a fallback (no search
    found a better start) says so, and a stage left out for the memory cap is named on stderr."""
    with command_context(args.time_limit, solver="life") as ctx:
        doc, rule, steps = one_board(args)
        result = facade.life_reverse(doc.boards[0], steps, ctx, rule, workers=args.workers)
    how = f"fallback: {result.method}; no search found a better start in the time" if result.fallback else result.method
    text = (f"{result.status.value}: {result.wrong_cells} wrong cells of {result.cells} after {steps} steps "
            f"of {rule.name} ({how})\n{format_board(result.start)}")
    if result.note:
        print(result.note, file=sys.stderr)
    print_answer(args, result.to_json(), text)
    return 0


def hint(args: argparse.Namespace) -> int:
    """``life hint``: the cells alive (or dead) in every start (exit 1 when the board's model is too large
    for the memory cap, with the reason on stderr)."""
    with command_context(args.time_limit, solver="life") as ctx:
        doc, rule, steps = one_board(args)
        bb = facade.life_backbone(doc.boards[0], steps, ctx, rule, workers=args.workers)
    if bb.note:
        print(bb.note, file=sys.stderr)
    rows = ["".join("#" if a else "." if d else "?" for a, d in zip(ra, rd)) for ra, rd in zip(bb.alive, bb.dead)]
    data = {"exists": bb.exists, "proved": bb.proved, "forced": bb.count, "starts_seen": bb.starts_seen,
            "cells": rows, "note": bb.note}
    if bb.note:
        text = "no hints: the board's model is too large for the memory cap"
    elif not bb.exists:
        text = "no start exists: the target has no predecessor" if bb.proved else "no start found in the time"
    elif not bb.starts_seen:
        text = "no start found in the time, so no hints"
    else:
        text = (f"{bb.count} cells are the same in every start{'' if bb.proved else ' found (not proved)'} "
                f"('#' alive, '.' dead, '?' free)\n" + "\n".join(rows))
    print_answer(args, data, text)
    return 1 if bb.note else 0


def learn(args: argparse.Namespace) -> int:
    """``life learn``: the rule of a trajectory."""
    with named_kind(args.file, "a Life trajectory file"):
        doc = read_board_file(args.file)
    learned = facade.life_learn_rule(list(doc.boards))
    data = learned.to_json()
    text = f"{learned.rule.name} ({learned.status.value}; {learned.examples} examples, {sum(learned.seen)} of 512 " \
           f"neighbourhoods seen)"
    if learned.unseen:
        text += f"\nunseen neighbourhoods (guessed): {' '.join(map(str, learned.unseen))}"
    if args.check is not None:
        wrong = facade.life_disagreements(learned.rule, args.check)
        data["check"] = {"rule": args.check.name, "wrong_entries": wrong}
        text += f"\nagainst {args.check.name}: {512 - len(wrong)} of 512 neighbourhoods agree"
    print_answer(args, data, text)
    return 0


#: The handler of each of the AI's ``life`` commands, by name.
COMMANDS: dict[str, Handler] = {"reverse": reverse, "hint": hint, "learn": learn}
