"""``share``: a level's code (``share LEVEL``), or the level a code holds (``share CODE [--out FILE]``).

Codes are made and read by :mod:`game.core.share`.  The code (or the level text) goes to stdout;
``--json`` prints one object; messages go to stderr.  ``--out`` writes the level atomically,
never over an existing file unless ``--force``, and never over the level read.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from game.cli.args import Subparsers, check_output_file, output_file_arg
from game.cli.level import load_level, resolve_level_path
from game.core.errors import GameError
from game.core.share import PREFIX, decode, encode


def _is_code(spec: str) -> bool:
    """A code, not a file: starts with ``LB`` and no file of that name exists."""
    try:
        exists = os.path.lexists(spec)
    except (OSError, ValueError):
        exists = False
    return spec.startswith(PREFIX) and not exists


def _cmd_share(args: argparse.Namespace) -> int:
    spec: str = args.level
    if _is_code(spec):
        level = decode(spec)
        source = None
    else:
        source = resolve_level_path(spec)
        level = load_level(spec)
    code = encode(level)
    if args.out:
        out = check_output_file(args.out, what="--out")
        if source is not None and os.path.lexists(out) and os.path.samefile(out, source):
            raise GameError(f"--out {args.out} is the level being read; give another file name")
        if os.path.lexists(out) and not args.force:
            raise GameError(f"--out {args.out} already exists; use --force to replace it")
        level.save(out)
        print(f"{out}: wrote {level.title or 'the level'} ({level.height}x{level.width}, "
              f"{level.budget} brick{'s' if level.budget != 1 else ''})", file=sys.stderr)
    if args.json:
        print(json.dumps({"code": code, "title": level.title, "chars": len(code), "level": level.to_text()}))
    elif source is None and not args.out:
        sys.stdout.write(level.to_text())  # a code: show the level it holds
    elif source is not None:
        print(code)
    return 0


def register(sub: Subparsers) -> None:
    """Add ``share``."""
    p = sub.add_parser("share", help="print a level's code (LB...), or turn a code back into a level")
    p.add_argument("level", help="level file, pack level number, or a code starting LB")
    p.add_argument("--out", default="", type=output_file_arg, metavar="FILE",
                   help="write the level (from a code or a file) to FILE")
    p.add_argument("--force", action="store_true", help="let --out replace an existing file")
    p.add_argument("--json", action="store_true", help="print one JSON object (code, title, level text)")
    p.set_defaults(handler=_cmd_share)


__all__ = ["register"]
