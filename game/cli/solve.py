"""AI subcommands: ``solve`` (with ``--gif``, the export module's option), ``hint`` and ``bench``.

The work is done in :mod:`game.cli.solve_run`, loaded (with the AI) only when a command runs, so that
``--help`` stays fast.
"""

from __future__ import annotations

import argparse

from game.cli import export
from game.cli.args import (Subparsers, bricks_arg, int_arg, level_folder_arg, names_arg, output_file_arg,
                           path_arg, time_limit_arg)
from game.cli.solve_options import solver_options

#: Exact solvers offered on the command line.
EXACT_SOLVERS = ("auto", "cpsat", "milp", "search", "brute")
#: Solvers that find solutions without proving optimality (gradient) or that solve with learned rules.
HEURISTIC_SOLVERS = ("gradient", "learned")


def _run(args: argparse.Namespace) -> int:
    """Run ``solve``, ``hint`` or ``bench`` (:mod:`game.cli.solve_run`); bad solver options fail first."""
    if args.command == "solve":
        solver_options(args)
    from game.cli import solve_run  # late: the solvers (OR-Tools) load only when a command runs them

    return solve_run.COMMANDS[args.command](args)


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
    p.set_defaults(handler=_run)

    p = sub.add_parser("hint", help="the next brick to place, or which one to remove (the game's H: the same plan)")
    p.add_argument("level", help="level file (or pack level number)")
    p.add_argument("--bricks", default="", type=bricks_arg, help='the player\'s bricks as "r,c;r,c;..."')
    p.add_argument("--time-limit", type=time_limit_arg, default=10.0, metavar="S", help="time limit (default 10)")
    p.add_argument("--rules", default=None, type=path_arg, metavar="FILE",
                   help="compute the hint with the learned solver and these learned rules (re-verified on load)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=_run)

    p = sub.add_parser("bench", help="benchmark the exact solvers over a level suite")
    p.add_argument("--suite", action="append", default=None, type=level_folder_arg, metavar="DIR",
                   help="folder of level files (repeatable; default: the pack and bench/suites/*)")
    p.add_argument("--solvers", nargs="+", default=None, type=names_arg(EXACT_SOLVERS + HEURISTIC_SOLVERS),
                   help="solver names, separated by spaces or commas (default: cpsat, search, milp, auto: every "
                        "exact solver but brute)")
    p.add_argument("--time-limit", type=time_limit_arg, default=20.0, metavar="S", help="per solve (default 20)")
    p.add_argument("--results", default=None, type=output_file_arg, metavar="FILE.md",
                   help="Markdown file whose solver section is updated (default: the project's bench/results.md)")
    p.set_defaults(handler=_run)
