"""The ``solve`` command's solver options, checked from its flags before any solver loads."""

from __future__ import annotations

import argparse
from typing import Any

from game.core.errors import GameError


def solver_options(args: argparse.Namespace) -> dict[str, Any]:
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
