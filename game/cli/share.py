"""``share``: a level's code (``share LEVEL``), or the level a code holds (``share CODE [--out FILE]``).

Codes are made and read by :mod:`game.core.share`.  The code (or the level text) goes to stdout;
``--json`` prints one object; messages go to stderr.  ``--out`` writes the level atomically, never over
the level read nor a file of another kind, and over an existing level only with ``--force``
(:func:`game.cli.outputs.guard_output`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from game.cli.args import Subparsers, output_file_arg, terminal_safe
from game.cli.level import load_level, resolve_level_path
from game.cli.outputs import FileKind, force_needs_an_output, guard_output
from game.core.share import PREFIX, decode, encode


def _is_code(spec: str) -> bool:
    """A code, not a file: starts with ``LB`` (after any spaces or line breaks pasted with it; ``lb`` too
    when the rest holds only letters, digits, ``-`` and ``_``, so a missing ``lb.txt`` stays a missing file)
    and no file of that name exists."""
    try:
        exists = os.path.lexists(spec)
    except (OSError, ValueError):
        exists = False
    text = spec.strip()
    if exists or text[:len(PREFIX)].upper() != PREFIX:
        return False
    return text.startswith(PREFIX) or all(ch.isascii() and (ch.isalnum() or ch in "-_" or ch.isspace()) for ch in text)


def _cmd_share(args: argparse.Namespace) -> int:
    spec: str = args.level
    force_needs_an_output(args.force, [("--out", args.out)])
    if _is_code(spec):
        level = decode(spec.strip())
        source = None
    else:
        source = resolve_level_path(spec)
        level = load_level(spec)
    code = encode(level)
    if args.out:
        out = guard_output(args.out, FileKind.LEVEL, what="--out", inputs=[("level", source)], force=args.force)
        level.save(out)
        print(f"{terminal_safe(str(out))}: wrote {terminal_safe(level.title) or 'the level'} "
              f"({level.height}x{level.width}, {level.budget} brick{'s' if level.budget != 1 else ''})",
              file=sys.stderr)
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
    p.add_argument("--force", action="store_true", help="let --out replace an existing level file")
    p.add_argument("--json", action="store_true", help="print one JSON object (code, title, chars: the code's length, level: the level text)")
    p.set_defaults(handler=_cmd_share)


__all__ = ["register"]
