"""Lemming Bricks: the puzzle game with an AI that solves, hints and explains every level.

``python main.py`` opens the title menu; ``python main.py --help`` lists the
command-line tools.  Each package registers its own subcommands (see ``COMMAND_MODULES``); a module's
optional ``extend(subparsers)`` then adds options to other modules' commands (the UI's ``solve --gif``).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from types import ModuleType
from typing import Sequence

#: Modules that add subcommands; each has ``register(subparsers)``.
COMMAND_MODULES = (
    "game.cli.level",
    "game.cli.share",
    "game.cli.play",
    "game.cli.solve",
    "game.cli.learn",
    "game.cli.generate",
    "game.cli.rate",
    "game.cli.puzzles.mines",
    "game.cli.puzzles.life",
    "game.cli.puzzles.pegs",
    "game.cli.puzzles.pegs_play",
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="main.py",
        description="Lemming Bricks: place bricks so every lemming reaches a target. "
        "Without a command, the game opens the title menu (Continue, Levels, ...).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules: list[ModuleType] = []
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if not exc.name or not (name == exc.name or name.startswith(exc.name + ".")):
                raise
            continue
        module.register(sub)
        modules.append(module)
    for module in modules:  # then options that one module adds to another's commands (solve --gif)
        extend = getattr(module, "extend", None)
        if extend is not None:
            extend(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a subcommand (default: ``play``) and return its exit code."""
    from game.core.errors import GameError, LevelFormatError

    parser = build_parser()
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list:
        choices = getattr(parser._subparsers._group_actions[0], "choices", {})  # type: ignore[union-attr]
        args_list = ["play"] if "play" in choices else ["--help"]
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # --help, or a bad argument (argparse printed it): return its exit code
        return exc.code if isinstance(exc.code, int) else 2
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        return int(args.handler(args) or 0)
    except LevelFormatError as exc:
        print(str(exc), file=sys.stderr)  # already "file:line:col: message"
        return 2
    except GameError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `main.py solve 1 --all | head`: the reader left, stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
