"""Core subcommands: ``check``, ``simulate`` and ``verify`` (headless, no pygame; the solvers load only for
``check --solve``, through :mod:`game.cli.check_run`)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from game.cli.args import MAX_PATH_CHARS, Subparsers, bricks_arg, terminal_safe, time_limit_arg
from game.cli.input_kinds import named_kind
from game.core.errors import GameError, LevelFormatError
from game.core.file_kinds import FileKind
from game.core.level import Level
from game.core.pack import pack_level_paths
from game.core.physics_catalog import load_physics_file
from game.core.rules import parse_bricks
from game.core.simulation import Run, simulate


def resolve_level_path(spec: str) -> Path:
    """A level argument: a file path, or the number (1-based, ASCII digits) of a level in the pack."""
    if not spec or "\x00" in spec or len(spec) > MAX_PATH_CHARS:
        raise GameError(f"not a usable level path ({len(spec):,} characters)")
    path = Path(spec)
    try:
        exists = os.path.lexists(path)
    except (OSError, ValueError):
        exists = False
    if exists or not (spec.isascii() and spec.isdigit()):
        return path
    paths = pack_level_paths()
    if len(spec) > 9:
        raise GameError(f"there is no level {spec[:20]}: the pack has levels 1 to {len(paths)}")
    index = int(spec)
    if not 1 <= index <= len(paths):
        raise GameError(f"there is no level {index}: the pack has levels 1 to {len(paths)}")
    return paths[index - 1]


def load_level(spec: str) -> Level:
    """Load a level from a path or pack number; errors name file, line and column (or what the file is, when
    it holds no text: "x.gif is a GIF image, not a level file")."""
    path = resolve_level_path(spec)
    with named_kind(path, FileKind.LEVEL.value):
        return Level.load(path)


#: Seconds ``check --solve`` gives the solver when no ``--time-limit`` is given.
CHECK_SECONDS = 60.0


def _cmd_check(args: argparse.Namespace) -> int:
    if args.time_limit is not None and not args.solve:
        raise GameError("--time-limit goes with --solve (the seconds the solver gets)")
    level = load_level(args.level)  # a LevelFormatError is main's one message, exit 2
    print(f"{terminal_safe(args.level, limit=400)}: ok: {level.summary()}")
    if not args.solve:
        return 0
    from game.cli.check_run import check_solve  # late: the solvers load only when asked to solve

    return check_solve(level, args.level, CHECK_SECONDS if args.time_limit is None else args.time_limit)


def _cmd_simulate(args: argparse.Namespace) -> int:
    level = load_level(args.level)
    if args.rules:
        level = level.with_physics(load_physics_file(args.rules))
    bricks = parse_bricks(args.bricks or "")
    run = simulate(level, bricks)
    if args.json:
        _print_run_json(run)
        return 0
    print(level.summary())
    print(f"bricks: {' '.join(f'({r},{c})' for r, c in run.bricks) or 'none'}")
    for k, track in enumerate(run.tracks):
        r, c, d = track.final
        where = f"on target since frame {track.reached_at}" if track.reached_at is not None else "not on a target"
        print(f"lemming {k + 1}: ends at ({r},{c}) facing {'left' if d < 0 else 'right'}, {where}")
    print("WON" if run.won else "LOST")
    return 0


def _print_run_json(run: Run) -> None:
    """``run.to_json()`` printed one lemming at a time (the big levels' JSON is never whole in memory)."""
    head = {k: v for k, v in run.to_json(paths=False).items() if k != "lemmings"}
    out = sys.stdout
    out.write(json.dumps(head)[:-1] + ', "lemmings": [')
    for k, track in enumerate(run.tracks):
        if k:
            out.write(", ")
        out.write(json.dumps({"reached_at": track.reached_at, "path": track.path_json()}))
    out.write("]}\n")


def _cmd_verify(args: argparse.Namespace) -> int:
    from game.core import progress, storage  # late: the progress store loads only when verify runs

    if args.progress:
        given = Path(args.progress)
        if not os.path.isfile(given):
            what = "is not a regular file" if os.path.lexists(given) else "does not exist"
            raise GameError(f"progress file {terminal_safe(args.progress)} {what}")
    # read only: a checking command never moves or rewrites the progress file
    store = progress.ProgressStore.load(Path(args.progress) if args.progress else progress.default_progress_path(),
                                        read_only=True)
    if store.unusable is not None:  # one message: the error says what the store's warning would
        raise GameError(f"cannot verify: the progress file {terminal_safe(str(store.path))} is unusable "
                        f"({store.unusable})")
    for message in store.messages:
        print(f"warning: {terminal_safe(message, limit=400)}", file=sys.stderr)
    levels: dict[str, Level] = {}
    user_dir = storage.user_levels_dir()
    paths = pack_level_paths() + (sorted(user_dir.glob("*.txt")) if user_dir.is_dir() else [])
    for path in paths:
        try:
            levels[progress.level_key(path)] = Level.load(path)
        except LevelFormatError as exc:
            print(f"warning: {terminal_safe(str(exc), limit=400)}", file=sys.stderr)
    checks = progress.verify_replays(store, levels)
    for chk in checks:
        note = "" if chk.same_hash else " (level changed since)"
        detail = f": {chk.detail}" if chk.detail else ""
        print(f"{terminal_safe(chk.key)}: {len(chk.replay.bricks)} bricks [{';'.join(f'{r},{c}' for r, c in chk.replay.bricks)}]"
              f" {chk.status.value.upper()}{note}{detail}")
    wins = sum(1 for c in checks if c.status == progress.ReplayStatus.WINS)
    print(f"{wins} of {len(checks)} saved replays still win")
    return 0 if wins == len(checks) else 1


def register(sub: Subparsers) -> None:
    """Add ``check``, ``simulate`` and ``verify``."""
    p = sub.add_parser("check", help="validate a level file and print a one-line summary "
                                     "(--solve: and whether it has a solution)")
    p.add_argument("level", help="level file (or pack level number)")
    p.add_argument("--solve", action="store_true",
                   help="also run the solver: print its verdict (why, when the level has no solution); "
                        "exit 1 when it has none, 3 when undecided in the time limit")
    p.add_argument("--time-limit", type=time_limit_arg, default=None,
                   help=f"seconds for --solve (default {CHECK_SECONDS:g})")
    p.set_defaults(handler=_cmd_check)

    p = sub.add_parser("simulate", help="run a level with a brick set and report the outcome")
    p.add_argument("level", help="level file (or pack level number)")
    p.add_argument("--bricks", default="", type=bricks_arg, help='bricks as "r,c;r,c;..." (0-based row, col)')
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--rules", default=None, metavar="RULES.json",
                   help="run under this physics (the JSON form, e.g. from 'learn --out') instead of the level's")
    p.set_defaults(handler=_cmd_simulate)

    p = sub.add_parser("verify", help="re-check every saved replay against the current level files")
    p.add_argument("--progress", default="", help="progress file (default: the user's)")
    p.set_defaults(handler=_cmd_verify)
