"""The ``rate`` subcommand: the measured difficulty of levels (see :mod:`ai.rating`).

``python main.py rate 1 levels/005_*.txt --json``
"""

from __future__ import annotations

import argparse
import json

from game.errors import GameError


def _cmd_rate(args: argparse.Namespace) -> int:
    from ai.rating import rate_level
    from game.commands import load_level

    if args.time_limit is not None and args.time_limit <= 0:
        raise GameError("--time-limit must be a positive number of seconds")
    rows = []
    for spec in args.levels:
        level = load_level(spec)
        rating = rate_level(level, time_limit=args.time_limit)
        if args.json:
            rows.append({"level": spec, "title": level.title, **rating.to_json()})
        else:
            print(f"{spec}: {level.title or level.summary()}")
            for line in rating.lines():
                print(f"  {line}")
    if args.json:
        print(json.dumps(rows if len(rows) != 1 else rows[0], indent=2))
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``rate``."""
    p = sub.add_parser("rate", help="measure levels' difficulty (solutions, proof effort, decoys, timing, sharing)")
    p.add_argument("levels", nargs="+", metavar="LEVEL", help="level files or pack numbers")
    p.add_argument("--json", action="store_true", help="print JSON (one object, or a list for several levels)")
    p.add_argument("--time-limit", type=float, default=60.0, help="seconds per exact solve (default 60)")
    p.set_defaults(handler=_cmd_rate)
