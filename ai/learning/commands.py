"""CLI: ``python main.py learn`` - learn the rules from games, verify, print and save them.

Heavy imports (scikit-learn, the learning pipeline) happen inside the handler so that
``main.py --help`` stays fast.
"""

from __future__ import annotations

import argparse
import json
import sys

from game.cli_args import int_arg, output_file_arg

#: Most games ``learn --games`` accepts (each is a small level run; more only costs memory).
MAX_GAMES = 10_000


def _cmd_learn(args: argparse.Namespace) -> int:
    from ai.learning.learn import learn_rules

    if args.games is not None and args.games < 0:
        print("error: --games must be >= 0", file=sys.stderr)
        return 2
    report = learn_rules(games=args.games, seed=args.seed, model=args.model, active=args.active)
    if args.out:
        from game.errors import GameError
        from game.storage import describe_os_error

        try:
            report.rules.save(args.out)
        except GameError:
            raise
        except OSError as exc:
            raise GameError(f"cannot write {args.out}: {describe_os_error(exc)}") from None
    if args.json:
        data = report.to_json()
        if args.out:
            data["saved_to"] = args.out
        print(json.dumps(data))
    else:
        print(report.summary())
        print()
        print(report.rules.render(), end="")
        if args.out:
            print(f"rules saved to {args.out}")
    ver = report.rules.verification
    return 0 if ver is not None and ver.exact else 1


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``learn``."""
    p = sub.add_parser(
        "learn",
        help="learn the lemming rules from games, verify them exhaustively, print and save them",
        description="Generate games, learn for each direction channel the next occupancy of a cell from its "
        "3x3 neighbourhood, verify the rules against the real ones on every configuration that can occur, "
        "and print them as nested tests and CNF clauses.  Exit code 0 when the rules are exact, 1 when not.",
    )
    p.add_argument("--games", type=int_arg(0, MAX_GAMES), default=None,
                   help="random games to learn from (default 100); with --active, the most query levels (default 30)")
    p.add_argument("--active", action="store_true",
                   help="active learning: build small query levels that separate the remaining hypotheses")
    p.add_argument("--seed", type=int_arg(0, 2**32 - 1), default=0, help="random seed, 0 to 2^32-1 (default 0)")
    p.add_argument("--model", choices=["tree", "logreg", "mlp", "best"], default="tree",
                   help="model: decision tree (default), logistic regression with pairwise products, small MLP, "
                        "or best (fit all three, keep the one with the fewest errors)")
    p.add_argument("--out", default=None, type=output_file_arg, help="save the rules to this JSON file")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the rules")
    p.set_defaults(handler=_cmd_learn)
