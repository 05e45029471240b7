"""CLI: ``python main.py learn`` - learn the rules from games, verify, print and save them.

This module holds the parser and the checks of the arguments; the learners (scikit-learn, matplotlib,
OR-Tools) run in :mod:`game.cli.learn_run`, loaded only when a learning runs, so that ``main.py --help``
stays fast.
"""

from __future__ import annotations

import argparse
import sys

from game.cli.args import Subparsers, int_arg, output_file_arg, path_arg, time_limit_arg
from game.cli.learn_outputs import CURVE_SEEDS, PHYSICS_GAMES, guard_outputs, uses_tree_learner
from game.cli.outputs import force_needs_an_output

#: Most games ``learn --games`` accepts (each is a small level run; more only costs memory).
MAX_GAMES = 10_000


def _physics_learner_problem(args: argparse.Namespace) -> str:
    """What is wrong with the physics learner's arguments ("" when nothing)."""
    if args.starts and not args.positions_only:
        return "--starts goes with --positions-only (fully observed games show every direction)"
    if args.observations:
        if args.physics or args.active or args.games is not None:
            return "--observations learns from the file only: no --physics, --active or --games"
    elif args.games == 0 and not args.active:
        return "--games 0 learns nothing (add --active to learn by asking)"
    return ""


def _tree_learner_problem(args: argparse.Namespace) -> str:
    """What is wrong with the decision-tree learner's arguments ("" when nothing)."""
    if args.observations or args.physics or args.starts:
        return ("--observations, --starts and --physics go with the physics learner (no --model, --regime, "
                "--mirror, --queries or --curve)")
    if args.games is not None and args.games < 0:
        return "--games must be >= 0"
    if args.queries is not None and args.queries < 0:
        return "--queries must be >= 0"
    if args.curve:
        ignored = [name for name, given in (("--out", args.out), ("--json", args.json), ("--model", args.model),
                                            ("--regime", args.regime), ("--mirror", args.mirror),
                                            ("--active", args.active), ("--queries", args.queries is not None),
                                            ("--positions-only", args.positions_only),
                                            ("--seed", args.seed is not None)) if given]
        if ignored:
            return f"--curve plots every regime and model over seeds 0..N-1 (--seeds): no {', '.join(ignored)}"
        return "--seeds must be >= 1" if args.seeds is not None and args.seeds < 1 else ""
    if args.queries is not None and not args.active:
        return "--queries goes with --active (the most query levels after the games)"
    if args.positions_only:
        if args.active or args.mirror or (args.model or "tree") != "tree":
            return "--positions-only learns trees from observed games: no --active, --mirror or --model"
        if args.games == 0:
            return "--positions-only needs at least one game"
    return ""


def _cmd_learn(args: argparse.Namespace) -> int:
    tree = uses_tree_learner(args)
    problem = _tree_learner_problem(args) if tree else _physics_learner_problem(args)
    if not problem and args.seeds is not None and not args.curve:
        problem = "--seeds goes with --curve (the seeds of the plotted curves)"
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    force_needs_an_output(args.force, [("--out", args.out), ("--curve", args.curve)])
    args.seed = 0 if args.seed is None else args.seed  # none given: seed 0 (None only tells --curve it was not)
    guard_outputs(args)
    from game.cli import learn_run  # late: the learners (scikit-learn, matplotlib, OR-Tools) load only to learn

    if not tree:
        return learn_run.physics(args)
    if args.curve:
        return learn_run.curve(args)
    return learn_run.tree(args)


def register(sub: Subparsers) -> None:
    """Add ``learn``."""
    p = sub.add_parser(
        "learn",
        help="learn a physics from observed games (a file, or games of a physics), check it, print and save it",
        description="Learn the physics (the JSON form: ordered rules over the 3x3 neighbourhood) that explains "
        "observed games: from a JSON-lines file (--observations) or from ordinary random games played under a "
        "physics the learner is not told (--physics, default classic), fully observed or positions only; with "
        "--active it asks the engine about every situation it never saw.  Exit code 0 when the rules move every "
        "lemming like the engine on unseen maps (or when learned from a file), 1 when not.  --model, --regime, "
        "--mirror, --queries and --curve run the decision-tree learner of the classic rule.",
    )
    p.add_argument("--observations", default=None, type=path_arg, metavar="FILE.jsonl",
                   help='games to learn from, one JSON object a line: {"map": [...], "frames": N, "lemmings": '
                        '[{"positions": [[r, c], ...], "directions": [1, -1, ...]}]} (no directions: positions only; '
                        '"start": -1 or 1 instead: positions and the start marker)')
    p.add_argument("--physics", default=None, metavar="NAME|FILE",
                   help="the engine's physics for generated games (a shipped name, a file of the physics' JSON "
                        "form, any file name, or that JSON on one line; default classic)")
    p.add_argument("--games", type=int_arg(0, MAX_GAMES), default=None,
                   help=f"games to learn from (default {PHYSICS_GAMES}; the decision-tree learner: 100 random, "
                        "1 many-lemming, 3 positions-only, and with --active --regime random the most query levels, "
                        "default 30)")
    p.add_argument("--regime", choices=["random", "many"], default=None,
                   help="random: a few lemmings per random map (default); many: one lemming per free cell and "
                        "direction with dense targets (each map used fully; default with --positions-only)")
    p.add_argument("--mirror", action="store_true",
                   help="add left-right mirror images of every example (a symmetry prior given to the learner)")
    p.add_argument("--active", action="store_true",
                   help="active learning: build small query levels that separate the remaining hypotheses "
                        "(after the games with --regime many)")
    p.add_argument("--queries", type=int_arg(0, 1000), default=None,
                   help="with --active --regime many: most query levels after the games (default 3)")
    p.add_argument("--positions-only", action="store_true",
                   help="observe only positions (no direction): invent a hidden state, then verify positions")
    p.add_argument("--starts", action="store_true",
                   help="with --positions-only: the learner also sees each lemming's start marker (< or >), "
                        "which names left and right (without it, a lemming on open flat floor walks ahead)")
    p.add_argument("--seed", type=int_arg(0, 2**32 - 1), default=None,
                   help="random seed, 0 to 2^32-1 (default 0; --curve takes --seeds instead)")
    p.add_argument("--model", choices=["tree", "logreg", "mlp", "best"], default=None,
                   help="model: decision tree (default), logistic regression with pairwise products, small MLP, "
                        "or best (fit all three, keep the one with the fewest errors)")
    p.add_argument("--out", default=None, type=output_file_arg,
                   help="save the rules to this JSON file (a physics; learned rules with the tree learner)")
    p.add_argument("--force", action="store_true", help="let --out and --curve replace an existing file of their kind")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the rules")
    p.add_argument("--curve", default=None, type=output_file_arg, metavar="OUT.png",
                   help="plot wrong configurations against games (regimes and models, median and range over "
                        "seeds) to OUT.png instead of learning one rule set")
    p.add_argument("--seeds", type=int_arg(1, 1000), default=None,
                   help=f"with --curve: seeds 0..N-1 (default {CURVE_SEEDS})")
    p.add_argument("--time-limit", type=time_limit_arg, default=None, metavar="S",
                   help="stop after S seconds with nothing learned or plotted (exit 1; default: no limit)")
    p.set_defaults(handler=_cmd_learn)
