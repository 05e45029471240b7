"""CLI: ``python main.py learn`` - learn the rules from games, verify, print and save them.

Heavy imports (scikit-learn, matplotlib, the learning pipeline) happen inside the handler so
that ``main.py --help`` stays fast.
"""

from __future__ import annotations

import argparse
import json
import sys

from game.cli.args import int_arg, output_kind_arg, path_arg, time_limit_arg

#: Most games ``learn --games`` accepts (each is a small level run; more only costs memory).
MAX_GAMES = 10_000


def _cmd_curve(args: argparse.Namespace) -> int:
    from ai.learning.curves import learning_curves, plot_curves

    seeds = range(args.seeds)
    checkpoints = tuple(g for g in (1, 2, 3, 5, 8, 13, 20, 30) if g <= max(1, args.games or 20))
    top = max(checkpoints)
    curves = learning_curves(seeds, checkpoints, many_checkpoints=tuple(g for g in (1, 2, 3) if g <= top),
                             active_checkpoints=tuple(g for g in (1, 2, 3, 4) if g <= top + 1))
    plot_curves(curves, args.curve)
    for name in curves.errors:
        cells = ", ".join(f"{g}: {med:,.0f} [{lo:,}-{hi:,}]" for g, med, lo, hi in curves.median_range(name))
        print(f"{name:>8}: {cells}")
    print(f"curve saved to {args.curve}")
    return 0


def _uses_tree_learner(args: argparse.Namespace) -> bool:
    """The older decision-tree learner runs when one of its own options is given."""
    return bool(args.model or args.regime or args.mirror or args.curve or args.queries is not None)


def _cmd_learn_physics(args: argparse.Namespace) -> int:
    """Learn a physics of the class from observed games (a file, or games played by an engine)."""
    import numpy as np

    from ai.learning.observations import load_observations, ordinary_games
    from ai.learning.physics_learner import agreement, engine_for, learn_by_asking, learn_physics
    from game.core.physics_catalog import load_physics_file, resolve
    from game.core.storage import atomic_write_text

    truth = None
    if args.observations:
        if args.physics or args.active or args.games is not None:
            print("error: --observations learns from the file only: no --physics, --active or --games",
                  file=sys.stderr)
            return 2
        games = load_observations(args.observations)
    else:
        spec = args.physics or "classic"
        truth = load_physics_file(spec) if spec.endswith(".json") else resolve(spec)
        count = 1 if args.games is None else args.games
        if count == 0 and not args.active:
            print("error: --games 0 learns nothing (add --active to learn by asking)", file=sys.stderr)
            return 2
        games = ordinary_games(np.random.default_rng(args.seed), truth, count)
    if args.positions_only:
        games = [g.without_directions() for g in games]
    from ai.kernel.context import SolveContext, SolveStopped

    ctx = SolveContext.create(time_limit=args.time_limit, solver="learn")  # the command's one limit
    try:
        if args.active and truth is not None:
            result = learn_by_asking(engine_for(truth), games, seed=args.seed, ctx=ctx)
        else:
            result = learn_physics(games, ctx=ctx)
    except SolveStopped as stop:
        print(f"learning stopped ({stop.reason.value}): nothing learned", file=sys.stderr)
        return 1
    if args.out:
        atomic_write_text(args.out, json.dumps(result.physics.to_json(), indent=1) + "\n")
    data = result.to_json()
    exact = None
    if truth is not None:
        agree = agreement(result.physics, truth)
        exact = agree.proved
        data["verification"] = {"engine": truth.name, "table_exact": agree.table_exact, "exact": agree.proved,
                                "lemmings_alike": agree.alike, "lemmings": agree.lemmings}
    if args.json:
        if args.out:
            data["saved_to"] = args.out
        print(json.dumps(data))
    else:
        source = args.observations or f"{len(games)} game(s) of the {truth.name if truth else ''} physics"
        print(f"learned from {source}: {result.examples:,} steps"
              + (f", {result.queries} questions to the engine" if result.queries else ""))
        print(result.physics.to_text())
        for line in result.physics.describe():
            print("  " + line)
        for note in result.notes:
            print("note: " + note)
        if result.unseen_count:
            print("never seen (3x3, # solid, @ the lemming facing right): "
                  + ", ".join(data["unseen"]) + (" ..." if result.unseen_count > 8 else ""))
        if exact is not None:
            v = data["verification"]
            print(f"checked against the engine: {'EXACT' if exact else 'NOT exact'} "
                  f"({'every lemming moves alike from any start on any map' if exact else 'some lemmings go elsewhere'}"
                  f"{', same table' if v['table_exact'] else ''}; {v['lemmings_alike']:,} of {v['lemmings']:,} "
                  "lemmings on unseen maps move alike)")
        if args.out:
            print(f"rules saved to {args.out}")
    return 0 if exact is not False else 1


def _cmd_learn(args: argparse.Namespace) -> int:
    from ai.learning.learn import learn_positions, learn_rules

    if not _uses_tree_learner(args):
        return _cmd_learn_physics(args)
    if args.observations or args.physics or args.time_limit is not None:
        print("error: --observations, --physics and --time-limit go with the physics learner (no --model, "
              "--regime, --mirror, --queries or --curve)", file=sys.stderr)
        return 2
    args.model = args.model or "tree"

    if args.games is not None and args.games < 0:
        print("error: --games must be >= 0", file=sys.stderr)
        return 2
    if args.queries is not None and args.queries < 0:
        print("error: --queries must be >= 0", file=sys.stderr)
        return 2
    if args.curve:
        if args.seeds < 1:
            print("error: --seeds must be >= 1", file=sys.stderr)
            return 2
        return _cmd_curve(args)
    if args.positions_only:
        if args.active or args.mirror or args.model != "tree":
            print("error: --positions-only learns trees from observed games: no --active, --mirror or --model",
                  file=sys.stderr)
            return 2
        if args.games == 0:
            print("error: --positions-only needs at least one game", file=sys.stderr)
            return 2
        report = learn_positions(games=args.games, seed=args.seed, regime=args.regime or "many")
    else:
        report = learn_rules(games=args.games, seed=args.seed, model=args.model, active=args.active,
                             regime=args.regime or "random", mirror=args.mirror, queries=args.queries)
    if args.out:
        from game.core.errors import GameError
        from game.core.storage import describe_os_error

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
        help="learn a physics from observed games (a file, or games of a physics), check it, print and save it",
        description="Learn the physics (the JSON form: ordered rules over the 3x3 neighbourhood) that explains "
        "observed games: from a JSON-lines file (--observations) or from ordinary random games played under a "
        "physics the learner is not told (--physics, default classic), fully observed or positions only; with "
        "--active it asks the engine about every situation it never saw.  Exit code 0 when the rules move every "
        "lemming like the engine on unseen maps (or when learned from a file), 1 when not.  --model, --regime, "
        "--mirror, --queries and --curve run the older decision-tree learner of the classic rule.",
    )
    p.add_argument("--observations", default=None, type=path_arg, metavar="FILE.jsonl",
                   help='games to learn from, one JSON object a line: {"map": [...], "frames": N, "lemmings": '
                        '[{"positions": [[r, c], ...], "directions": [1, -1, ...]}]} (no directions: positions only)')
    p.add_argument("--physics", default=None, metavar="NAME|FILE.json",
                   help="the engine's physics for generated games (shipped name or JSON file; default classic)")
    p.add_argument("--games", type=int_arg(0, MAX_GAMES), default=None,
                   help="games to learn from (default: 100 random, 1 many-lemming, 3 positions-only); "
                        "with --active and random games, the most query levels (default 30)")
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
    p.add_argument("--seed", type=int_arg(0, 2**32 - 1), default=0, help="random seed, 0 to 2^32-1 (default 0)")
    p.add_argument("--model", choices=["tree", "logreg", "mlp", "best"], default=None,
                   help="model: decision tree (default), logistic regression with pairwise products, small MLP, "
                        "or best (fit all three, keep the one with the fewest errors)")
    p.add_argument("--out", default=None, type=output_kind_arg("rules"), help="save the rules to this JSON file")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the rules")
    p.add_argument("--curve", default=None, type=output_kind_arg("png"), metavar="OUT.png",
                   help="plot wrong configurations against games (regimes and models, median and range over "
                        "seeds) to OUT.png instead of learning one rule set")
    p.add_argument("--seeds", type=int_arg(1, 1000), default=8, help="with --curve: seeds 0..N-1 (default 8)")
    p.add_argument("--time-limit", type=time_limit_arg, default=None, metavar="S",
                   help="physics learner: stop after S seconds with nothing learned (exit 1; default: no limit)")
    p.set_defaults(handler=_cmd_learn)
