"""The ``generate`` subcommand: write certified generated levels to a folder.

``python main.py generate --size 10x12 --bricks 2 --count 5 --seed 1 --out DIR``
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

from game.cli_args import int_arg, output_dir_arg, time_limit_arg
from game.errors import GameError
from game.level import MAX_FRAMES, MAX_SIDE

#: Candidates tried per requested level before ``generate`` gives up (unless --max-attempts).
DEFAULT_ATTEMPTS_PER_LEVEL = 5_000
#: Seconds between progress lines on stderr.
REPORT_EVERY = 10.0

_SIZE = re.compile(r"\s*([0-9]{1,4})\s*[xX×]\s*([0-9]{1,4})\s*", re.ASCII)


def parse_size(text: str) -> tuple[int, int]:
    """``"HxW"`` -> ``(H, W)``; raise :class:`GameError` on anything else.

    >>> parse_size("10x12")
    (10, 12)
    """
    match = _SIZE.fullmatch(text)
    if not match:
        raise GameError(f"--size must read HxW (rows x columns), e.g. 10x12; got {text!r}")
    return int(match.group(1)), int(match.group(2))


def level_file_name(height: int, width: int, bricks: int, seed: int, index: int) -> str:
    """The file name of the ``index``-th (1-based) level of a run.

    >>> level_file_name(10, 12, 2, 7, 3)
    'gen_10x12_k2_s7_003.txt'
    """
    return f"gen_{height}x{width}_k{bricks}_s{seed}_{index:03d}.txt"


def _cmd_generate(args: argparse.Namespace) -> int:
    from ai.generation.generator import GenerationStats, generate_levels, pick_certifier
    from ai.generation.layout import MIN_SIDE
    from game.level import MAX_SIDE

    height, width = parse_size(args.size)
    if not (MIN_SIDE <= height <= MAX_SIDE and MIN_SIDE <= width <= MAX_SIDE):
        raise GameError(f"--size: each side must be between {MIN_SIDE} and {MAX_SIDE}, got {height}x{width}")
    if args.bricks < 1:
        raise GameError("--bricks must be at least 1")
    if args.count < 1 or args.lemmings < 1:
        raise GameError("--count and --lemmings must be at least 1")
    if args.seed < 0:
        raise GameError("--seed must be >= 0")
    if args.frames is not None and args.frames < 2:
        raise GameError("--frames must be at least 2")
    certifier = pick_certifier(args.solver)
    out = Path(args.out)
    stats = GenerationStats()
    written = 0
    max_attempts = args.max_attempts if args.max_attempts is not None else DEFAULT_ATTEMPTS_PER_LEVEL * args.count
    next_report = [time.perf_counter() + REPORT_EVERY]

    def report(snapshot: GenerationStats) -> None:
        if time.perf_counter() >= next_report[0]:
            next_report[0] = time.perf_counter() + REPORT_EVERY
            print(f"... {snapshot.attempts} candidates tried, {snapshot.accepted} accepted", file=sys.stderr, flush=True)

    for generated in generate_levels(
        height, width, args.bricks, args.frames, args.lemmings, args.count, args.unique, args.seed,
        None, report, solver=certifier, time_limit=args.time_limit, max_attempts=max_attempts, stats=stats,
    ):
        written += 1
        path = out / level_file_name(height, width, args.bricks, args.seed, written)
        try:
            out.mkdir(exist_ok=True)
            generated.level.save(path)
        except GameError:
            raise
        except OSError as exc:
            from game.storage import describe_os_error

            raise GameError(f"cannot write {path}: {describe_os_error(exc)}") from None
        print(f"wrote {path}: '{generated.level.title}', min {generated.min_bricks} bricks"
              f"{' (unique)' if generated.unique else ''}, candidate {generated.attempt}, "
              f"{generated.seconds:.2f} s", flush=True)
    print(stats.summary())
    if written < args.count:
        print(f"stopped after {stats.attempts} candidates: wrote {written} of {args.count} levels",
              file=sys.stderr)
        return 1
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``generate``."""
    p = sub.add_parser(
        "generate",
        help="generate levels whose minimum brick count is exactly K (certified by an exact solver)",
    )
    p.add_argument("--size", required=True, help="map size HxW (rows x columns), e.g. 10x12")
    p.add_argument("--bricks", type=int_arg(1, MAX_SIDE * MAX_SIDE), required=True, help="the exact minimum brick count K (also the budget)")
    p.add_argument("--frames", type=int_arg(2, MAX_FRAMES), default=None, help="frames N (default 3 x (H + W))")
    p.add_argument("--lemmings", type=int_arg(1, MAX_SIDE * MAX_SIDE), default=1, help="lemmings per level (default 1)")
    p.add_argument("--count", type=int_arg(1, 100_000), default=1, help="how many levels to write (default 1)")
    p.add_argument("--unique", action="store_true", help="only levels with exactly one optimal solution")
    p.add_argument("--seed", type=int_arg(0, 2**32 - 1), default=0, help="random seed; the same seed gives the same levels")
    p.add_argument("--out", required=True, type=output_dir_arg, help="folder to write the level files into")
    p.add_argument("--solver", default=None,
                   help="exact solver that certifies each level (default: search, else auto, cpsat, ...)")
    p.add_argument("--time-limit", type=time_limit_arg, default=60.0, help="seconds per exact solve (default 60)")
    p.add_argument("--max-attempts", type=int_arg(1, 10**9), default=None, help=f"give up after this many candidates (default {DEFAULT_ATTEMPTS_PER_LEVEL} per level)")
    p.set_defaults(handler=_cmd_generate)
