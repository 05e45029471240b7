"""The work of ``solve``, ``hint`` and ``bench`` (their parsers and argument checks are in :mod:`game.cli.solve`).

Each prints its report and returns the exit code: 0 answered, 1 no answer in the time allowed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

import numpy as np
import numpy.typing as npt

from ai import facade
from game.cli import export_run
from game.cli.args import Handler, terminal_safe
from game.cli.context import command_context
from game.cli.level import load_level
from game.cli.outputs import FileKind, guard_output
from game.cli.solve_options import solver_options
from game.core.errors import GameError
from game.core.level import Level
from game.core.rules import format_bricks, parse_bricks


def solve(args: argparse.Namespace) -> int:
    level = load_level(args.level)
    export_run.check_solve_gif(args, level)
    mode = "all" if args.all else "min"
    options = solver_options(args)

    with command_context(args.time_limit, solver=args.solver) as ctx:
        try:
            result = facade.solve(level, solver=args.solver, mode=mode, ctx=ctx, **options)
        except ModuleNotFoundError as exc:
            raise GameError(f"solver {args.solver!r} is not available: {exc}") from None
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        _print_report(level, result)
    export_run.write_solve_gif(args, level, result)
    answered = result.status.value in ("optimal", "feasible", "infeasible") or result.relaxed is not None
    return 0 if answered else 1


def hint(args: argparse.Namespace) -> int:
    level = load_level(args.level)
    bricks = parse_bricks(args.bricks or "")

    with command_context(args.time_limit, solver="hint") as ctx:
        if args.rules:
            hint = facade.learned_hint(level, bricks, ctx, rules=args.rules)  # read and re-verified there
        else:
            hint = facade.player_plan(level, bricks, ctx)  # the plan the game's H and S share: the same next brick
    if args.json:
        print(json.dumps(hint.to_json()))
    else:
        print(level.summary())
        print(hint.describe())
    return 1 if hint.action == "unknown" else 0  # like solve: 1 when no answer in the time allowed


def bench(args: argparse.Namespace) -> int:
    """``bench``: the table on stdout, and its section updated in ``--results`` (a Markdown file: never a file
    of another kind; updated in place, so the rest of the file stays)."""
    solvers = [s for part in (args.solvers or []) for s in part]
    where: dict[str, Any] = {}
    if args.results:
        guard_output(args.results, FileKind.TEXT, what="--results", merge=True)
        where["results"] = os.path.abspath(args.results)  # relative to the current folder, as given
    return facade.run_bench(args.suite, solvers or None, time_limit=args.time_limit,  # a limit per solve
                            out=sys.stdout, **where)


def _print_report(level: Level, result: facade.SolveResult) -> None:
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


#: The handler of each command, by name.
COMMANDS: dict[str, Handler] = {"solve": solve, "hint": hint, "bench": bench}
