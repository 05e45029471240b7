"""The ``rate`` subcommand: the measured difficulty of levels (see :func:`ai.facade.rate_level`).

``python main.py rate 1 levels/005_*.txt --json``

Exit code (as ``solve`` and ``hint``): 0 when every level is rated completely (its minimum proved and
every figure measured) or proved impossible; 1 when any is not (timed out, cancelled or unknown).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from game.cli.args import Subparsers, terminal_safe, time_limit_arg
from game.cli.context import command_context
from game.cli.level import load_level
from game.core.level import Level

if TYPE_CHECKING:
    from ai.facade import Rating


MARKDOWN_HEADER = (
    "| # | Level | Size | L | N | B | Score | Min | Optimal sols | Nodes | Decoys (weight) | Slack | Sharing | Preview |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
)


def markdown_row(number: str, level: Level, rating: Rating) -> str:
    """One row of the ratings table in ``docs/levels.md``."""
    sols = f"{rating.solutions}{'' if rating.solutions_complete else '+'}"
    score = f"{rating.score:.1f}" if rating.complete else rating.label
    return (f"| {terminal_safe(number)} | {terminal_safe(level.title)} | {level.height}x{level.width} | "
            f"{len(level.lemmings)} | {level.frames} | {level.budget} | {score} | {rating.min_bricks} | {sols} | "
            f"{rating.nodes} | {rating.decoys} ({rating.decoy_weight:.0f}) | {rating.frame_slack} | "
            f"{rating.sharing_lemmings} | {'gives it' if rating.preview_solves else 'no'} |")


def _cmd_rate(args: argparse.Namespace) -> int:
    from ai import facade  # late: the solvers (OR-Tools) load only when levels are rated

    levels = [(spec, load_level(spec)) for spec in args.levels]  # every file checked before any rating
    rows = []
    complete = True
    for spec, level in levels:
        with command_context(args.time_limit, solver="rate") as ctx:  # the limit is per level
            rating = facade.rate_level(level, ctx)
        complete &= rating.complete
        if args.json:
            rows.append({"level": spec, "title": level.title, **rating.to_json()})
        elif args.markdown:
            if not rows:
                print(MARKDOWN_HEADER)
                rows.append({})
            print(markdown_row(spec, level, rating))
        else:
            print(f"{terminal_safe(spec)}: {terminal_safe(level.title) or level.summary()}")
            for line in rating.lines():
                print(f"  {line}")
    if args.json:
        print(json.dumps(rows if len(rows) != 1 else rows[0], indent=2))
    return 0 if complete else 1  # like solve: 1 when a level has no complete answer in the time allowed


def register(sub: Subparsers) -> None:
    """Add ``rate``."""
    p = sub.add_parser("rate", help="measure levels' difficulty (solutions, proof effort, decoys, timing, sharing)")
    p.add_argument("levels", nargs="+", metavar="LEVEL", help="level files or pack numbers")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON (one object, or a list for several levels)")
    out.add_argument("--markdown", action="store_true", help="print a Markdown table (as in docs/levels.md)")
    p.add_argument("--time-limit", type=time_limit_arg, default=60.0,
                   help="seconds per level (default 60); exit 1 when a level is not rated completely in time")
    p.set_defaults(handler=_cmd_rate)
