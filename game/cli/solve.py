"""AI subcommands: ``solve`` (with ``--gif``, the export module's option), ``hint`` and ``bench``.

The AI (OR-Tools) loads inside the handlers, through :mod:`ai.facade`, so that ``--help`` stays fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from game.cli import export
from game.cli.args import (Subparsers, bricks_arg, int_arg, names_arg, output_file_arg, path_arg,
                           terminal_safe, time_limit_arg)
from game.cli.context import command_context
from game.cli.level import load_level
from game.core.errors import GameError
from game.core.level import Level
from game.core.rules import format_bricks, parse_bricks

if TYPE_CHECKING:
    from ai.facade import SolveResult

#: Exact solvers offered on the command line.
EXACT_SOLVERS = ("auto", "cpsat", "milp", "search", "brute")
#: Solvers that find solutions without proving optimality (gradient) or that solve with learned rules.
HEURISTIC_SOLVERS = ("gradient", "learned")


def _solver_options(args: argparse.Namespace) -> dict[str, Any]:
    """Keyword options of the chosen solver from the command-line flags (``rules``: the ``--rules`` file,
    a physics of the JSON form or decision-tree rules, read and re-verified by the learned solver)."""
    options: dict[str, Any] = {}
    if args.list is not None:
        if not args.all or args.solver != "auto":
            raise GameError("--list applies to --all with --solver auto (the other solvers list every solution)")
        options["max_listed"] = args.list
    if args.solver == "milp":
        if args.backend:
            options["backend"] = args.backend
        if args.lp:
            options["lp"] = True
    elif args.lp or args.backend:
        raise GameError("--lp and --backend apply to --solver milp only")
    if args.rules:
        if args.solver != "learned":
            raise GameError("--rules applies to --solver learned only")
        options["rules"] = args.rules
    return options


def _print_report(level: Level, result: SolveResult) -> None:
    """The readable solve report."""
    print(level.summary())  # the title is made terminal-safe by Level.summary
    print(f"solver {result.solver}: {terminal_safe(result.describe(), limit=2000)}")
    if result.relaxed is not None:
        print(f"LP relaxation objective: {result.relaxed.objective:.4f} bricks")
        _print_densities(result.relaxed.obstacles)
        return
    if result.bricks is not None:
        print(f"bricks: {format_bricks(result.bricks)}")
    if result.mode.value == "all" and len(result.solutions) > 1:
        for k, sol in enumerate(result.solutions, 1):
            print(f"  solution {k}: {format_bricks(sol)}")
    if result.message:
        print(result.message)


def _print_densities(obstacles: npt.NDArray[np.float64]) -> None:
    """The fractional brick densities of an LP relaxation, one line per nonzero cell."""
    for r, c in np.argwhere(obstacles > 1e-6):
        print(f"  brick density at ({r},{c}): {obstacles[r, c]:.3f}")


def _cmd_solve(args: argparse.Namespace) -> int:
    level = load_level(args.level)
    export.check_solve_gif(args, level)
    mode = "all" if args.all else "min"
    options = _solver_options(args)  # bad options fail before the solvers load
    from ai import facade  # late: the solvers (OR-Tools) load only when a solve runs

    with command_context(args.time_limit, solver=args.solver) as ctx:
        try:
            result = facade.solve(level, solver=args.solver, mode=mode, ctx=ctx, **options)
        except ModuleNotFoundError as exc:
            raise GameError(f"solver {args.solver!r} is not available: {exc}") from None
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        _print_report(level, result)
    export.write_solve_gif(args, level, result)
    answered = result.status.value in ("optimal", "feasible", "infeasible") or result.relaxed is not None
    return 0 if answered else 1


def _cmd_hint(args: argparse.Namespace) -> int:
    level = load_level(args.level)
    bricks = parse_bricks(args.bricks or "")
    from ai import facade  # late: the solvers (OR-Tools) load only when a hint is computed

    with command_context(args.time_limit, solver="hint") as ctx:
        if args.rules:
            hint = facade.learned_hint(level, bricks, ctx, rules=args.rules)  # read and re-verified there
        else:
            hint = facade.compute_hint(level, bricks, ctx)
    if args.json:
        print(json.dumps(hint.to_json()))
    else:
        print(level.summary())
        print(hint.describe())
    return 1 if hint.action == "unknown" else 0  # like solve: 1 when no answer in the time allowed


def _cmd_bench(args: argparse.Namespace) -> int:
    from ai import facade  # late: the solvers (OR-Tools) load only when the benchmark runs

    solvers = [s for part in (args.solvers or []) for s in part]
    return facade.run_bench(args.suite, solvers or None, time_limit=args.time_limit,  # a limit per solve
                            results=args.results, out=sys.stdout)


def register(sub: Subparsers) -> None:
    """Add ``solve``, ``hint`` and ``bench``."""
    p = sub.add_parser("solve", help="find the fewest bricks (and every optimal solution with --all)")
    p.add_argument("level", help="level file (or pack level number)")
    p.add_argument("--solver", default="auto", choices=EXACT_SOLVERS + HEURISTIC_SOLVERS,
                   help="solver (default auto); gradient (a relaxed simulation) and learned (rules learned "
                        "from games) are the research methods")
    p.add_argument("--all", action="store_true", help="list every minimum solution, with proof")
    p.add_argument("--list", type=int_arg(1, 1_000_000), default=None, metavar="K",
                   help="with --all (auto) on a level of independent parts: list at most K solutions "
                        "(default 1000); they are always counted, as the product of the parts' counts")
    p.add_argument("--time-limit", type=time_limit_arg, default=None, metavar="S", help="give up after S seconds (> 0)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--lp", action="store_true", help="milp: solve the LP relaxation, print densities")
    p.add_argument("--backend", choices=("cbc", "scip", "highs"), default=None, help="milp backend")
    p.add_argument("--rules", default=None, type=path_arg, metavar="FILE",
                   help="learned: rules file from 'learn --out' (re-verified on load; default the shipped rules)")
    export.add_gif_option(p)
    p.set_defaults(handler=_cmd_solve)

    p = sub.add_parser("hint", help="the next brick to place, or which one to remove")
    p.add_argument("level", help="level file (or pack level number)")
    p.add_argument("--bricks", default="", type=bricks_arg, help='the player\'s bricks as "r,c;r,c;..."')
    p.add_argument("--time-limit", type=time_limit_arg, default=10.0, metavar="S", help="time limit (default 10)")
    p.add_argument("--rules", default=None, type=path_arg, metavar="FILE",
                   help="compute the hint with the learned solver and these learned rules (re-verified on load)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=_cmd_hint)

    p = sub.add_parser("bench", help="benchmark the exact solvers over a level suite")
    p.add_argument("--suite", action="append", default=None, type=path_arg, metavar="DIR",
                   help="folder of level files (repeatable; default: the pack and bench/suites/*)")
    p.add_argument("--solvers", nargs="+", default=None, type=names_arg(EXACT_SOLVERS + HEURISTIC_SOLVERS),
                   help="solver names, separated by spaces or commas (default: every exact solver)")
    p.add_argument("--time-limit", type=time_limit_arg, default=20.0, metavar="S", help="per solve (default 20)")
    p.add_argument("--results", default="bench/results.md", type=output_file_arg, help="markdown file to update")
    p.set_defaults(handler=_cmd_bench)
