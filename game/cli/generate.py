"""The ``generate`` subcommand: write certified generated levels to a folder.

``python main.py generate --size 10x12 --bricks 2 --count 5 --seed 1 --out DIR [--jobs 2] [--difficulty 6-9]
[--physics NAME|FILE]``

Levels are made by :func:`ai.facade.generate_run` (rooms made in child processes);
a progress bar with the rate and ETA goes to stderr.  A run is bounded: it stops after ``--time-limit``
seconds (default :data:`DEFAULT_TIME_LIMIT`), keeping the levels written, and a run that wrote fewer levels
than asked says how far it got and which option to raise (:func:`stop_message`, exit 1).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from game.cli.args import Subparsers, int_arg, output_dir_arg, output_errors, time_limit_arg
from game.cli.context import command_context
from game.cli.outputs import FileKind, Input, guard_output
from game.cli.physics_arg import physics_file, physics_option
from game.cli.solve import EXACT_SOLVERS
from game.core.errors import GameError
from game.core.level_text import MAX_FRAMES, MAX_SIDE

if TYPE_CHECKING:
    from ai.facade import GeneratedLevel, ProgressBar, RunProgress

#: Solvers that can certify a generated level's minimum (exact ones, and the generator's own search).
CERTIFIERS = EXACT_SOLVERS + ("readset",)
#: Candidates tried per room before its level is dropped (unless --max-attempts).
DEFAULT_ATTEMPTS_PER_LEVEL = 5_000
#: Most seconds one exact solve may take to certify a level (within the run's --time-limit).
CERTIFY_SECONDS = 60.0
#: Seconds between progress lines on stderr.
REPORT_EVERY = 10.0
#: Seconds a whole run takes at most unless ``--time-limit`` says otherwise: a hard request (many bricks on a
#: small map, ``--unique``, a narrow ``--difficulty`` band) stops here and says how far it got.
DEFAULT_TIME_LIMIT = 600.0

_SIZE = re.compile(r"\s*([0-9]+)\s*[xX×]\s*([0-9]+)\s*", re.ASCII)
#: Most digits of a side read as a number (a longer one is too large whatever it holds).
_SIDE_DIGITS = 6


def parse_size(text: str) -> tuple[int, int]:
    """``"HxW"`` -> ``(H, W)``; raise :class:`GameError` on anything else.

    >>> parse_size("10x12")
    (10, 12)
    """
    match = _SIZE.fullmatch(text)
    if not match:
        raise GameError(f"--size must read HxW (rows x columns), e.g. 10x12; got {text[:40]!r}")
    if max(len(match.group(1)), len(match.group(2))) > _SIDE_DIGITS:  # the range check names the sides
        raise GameError(f"--size: each side must be at most {MAX_SIDE}, got {text.strip()[:40]!r}")
    return int(match.group(1)), int(match.group(2))


def level_file_name(height: int, width: int, bricks: int, seed: int, index: int) -> str:
    """The file name of the ``index``-th (1-based) level of a run.

    >>> level_file_name(10, 12, 2, 7, 3)
    'gen_10x12_k2_s7_003.txt'
    """
    return f"gen_{height}x{width}_k{bricks}_s{seed}_{index:03d}.txt"


def parse_band(text: str) -> tuple[float, float]:
    """``"LO-HI"`` or ``"X"`` (X +- 1) -> a difficulty score band; :class:`GameError` on anything else.

    >>> parse_band("6-9"), parse_band("7.5")
    ((6.0, 9.0), (6.5, 8.5))
    """
    parts = text.split("-")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        values = []
    if not all(math.isfinite(v) for v in values):  # inf, 1e999: no level is rated that
        values = []
    if len(values) == 1 and values[0] >= 0:
        return values[0] - 1.0, values[0] + 1.0
    if len(values) == 2 and 0 <= values[0] <= values[1]:
        return values[0], values[1]
    raise GameError(f"--difficulty must read LO-HI or a score, e.g. 6-9 or 7.5; got {text!r}")


def _check_numbers(args: argparse.Namespace, height: int, width: int, min_side: int, grids: Iterable[int]) -> None:
    """The numbers of the run, in range (``min_side``: the generator's smallest map side; ``grids``: the room
    counts it can cut a level into)."""
    if not (min_side <= height <= MAX_SIDE and min_side <= width <= MAX_SIDE):
        raise GameError(f"--size: each side must be between {min_side} and {MAX_SIDE}, got {height}x{width}")
    if args.bricks < 1:
        raise GameError("--bricks must be at least 1")
    if args.count < 1 or args.lemmings < 1:
        raise GameError("--count and --lemmings must be at least 1")
    inside = (height - 2) * (width - 2)  # the generator's maps have a solid border
    if args.bricks + args.lemmings > inside:
        raise GameError(f"--bricks {args.bricks} and --lemmings {args.lemmings} cannot fit the {height}x{width} map: "
                        f"each takes one of its {inside} cells inside the border")
    if args.seed < 0:
        raise GameError("--seed must be >= 0")
    if args.frames is not None and args.frames < 2:
        raise GameError("--frames must be at least 2")
    if args.jobs is not None and args.jobs < 1:
        raise GameError("--jobs must be at least 1")
    if args.rooms is not None and (args.rooms not in grids or args.rooms > min(args.bricks, args.lemmings)):
        raise GameError(f"--rooms must be one of {', '.join(map(str, grids))}, "
                        "at most the number of bricks and of lemmings")
    if args.max_attempts is not None and args.max_attempts < 1:
        raise GameError("--max-attempts must be at least 1")


def _inputs(args: argparse.Namespace) -> list[Input]:
    """The files ``generate`` reads: a ``--physics`` file."""
    path = physics_file(args.physics)
    return [("--physics", path)] if path is not None else []


def guard_level_files(args: argparse.Namespace, size: tuple[int, int]) -> None:
    """Before generating: no level file the run will write may replace an input, a file of another kind,
    or (without ``--force``) an existing level (:func:`game.cli.outputs.guard_output`)."""
    out = Path(args.out)
    if not out.is_dir():
        return
    for index in range(1, args.count + 1):
        path = out / level_file_name(*size, args.bricks, args.seed, index)
        if os.path.lexists(path):
            guard_output(str(path), FileKind.LEVEL, what="--out", inputs=_inputs(args), force=args.force)


def _write_levels(args: argparse.Namespace, levels: Iterable[GeneratedLevel], size: tuple[int, int],
                  bar: ProgressBar | None) -> tuple[int, float]:
    """Save each generated level into ``--out`` as it comes; the number written and their CPU seconds."""
    out = Path(args.out)
    written, cpu_total = 0, 0.0
    try:
        for generated in levels:
            written += 1
            cpu_total += generated.cpu_seconds
            path = out / level_file_name(*size, args.bricks, args.seed, written)
            with output_errors(path):
                out.mkdir(exist_ok=True)
            guard_output(str(path), FileKind.LEVEL, what="--out", inputs=_inputs(args), force=args.force)
            generated.level.save(path)
            if bar is not None and bar.tty:
                bar.close()
            score = f", difficulty {generated.score:.1f}" if generated.score is not None else ""
            print(f"wrote {path}: '{generated.level.title}', min {generated.min_bricks} brick{'s' if generated.min_bricks != 1 else ''}"
                  f"{' (unique)' if generated.unique else ''}{score}, {generated.cpu_seconds:.2f} CPU s", flush=True)
    finally:
        if bar is not None:
            bar.close()
    return written, cpu_total


class _Tally:
    """The progress callback of a run: keeps the last report (for the closing message) and passes it on to the
    progress bar, if any."""

    def __init__(self, bar: ProgressBar | None) -> None:
        self.bar = bar
        self.last: RunProgress | None = None

    def __call__(self, progress: RunProgress) -> None:
        self.last = progress
        if self.bar is not None:
            self.bar(progress)


def stop_message(args: argparse.Namespace, written: int, last: RunProgress | None, timed_out: bool) -> str:
    """Why a run wrote fewer levels than asked, how far it got and which option to raise.

    >>> args = argparse.Namespace(count=3, time_limit=DEFAULT_TIME_LIMIT, max_attempts=None)
    >>> print(stop_message(args, 1, None, True))
    stopped after 600 s (the default --time-limit): wrote 1 of 3 levels; raise --time-limit S to give it longer
    """
    tried = "" if last is None else (f", {last.candidates} candidates tried, {last.rooms_done} room"
                                     f"{'s' if last.rooms_done != 1 else ''} finished"
                                     + (f", {last.rejected_levels} levels off the --difficulty band"
                                        if last.rejected_levels else ""))
    if timed_out:
        which = " (the default --time-limit)" if args.time_limit == DEFAULT_TIME_LIMIT else ""
        return (f"stopped after {args.time_limit:g} s{which}: wrote {written} of {args.count} levels{tried}; "
                "raise --time-limit S to give it longer")
    attempts = args.max_attempts if args.max_attempts is not None else DEFAULT_ATTEMPTS_PER_LEVEL
    band = " or fell outside the --difficulty band" if getattr(args, "difficulty", None) else ""
    return (f"stopped: wrote {written} of {args.count} levels{tried}: each level it may try ran out of "
            f"--max-attempts ({attempts} candidates per room){band}; raise --max-attempts N, or ask for fewer "
            "bricks or a larger map")


def _cmd_generate(args: argparse.Namespace) -> int:
    height, width = parse_size(args.size)
    band = parse_band(args.difficulty) if args.difficulty else None
    physics = physics_option(args.physics)
    from ai import facade  # late: the generator and its certifying solvers (OR-Tools) load only when it runs

    _check_numbers(args, height, width, facade.GENERATION_MIN_SIDE, facade.COMPARTMENT_GRIDS)
    guard_level_files(args, (height, width))
    jobs = args.jobs if args.jobs is not None else facade.default_jobs()
    spec = facade.RunSpec(
        height, width, args.bricks, args.frames, args.lemmings, args.unique, args.seed,
        facade.pick_certifier(args.solver), CERTIFY_SECONDS,
        args.max_attempts if args.max_attempts is not None else DEFAULT_ATTEMPTS_PER_LEVEL, args.rooms, band, physics,
    )
    bar = facade.ProgressBar(sys.stderr, every=REPORT_EVERY) if not args.quiet else None
    tally = _Tally(bar)
    started = time.perf_counter()
    with command_context(args.time_limit, solver="generate") as ctx:
        levels = facade.generate_run(spec, args.count, jobs=jobs, context=ctx, progress=tally)
        written, cpu_total = _write_levels(args, levels, (height, width), bar)
        timed_out = ctx.should_stop()
    wall = time.perf_counter() - started
    print(f"{written} levels in {wall:.1f} s wall, {cpu_total:.1f} CPU s in rooms, {jobs} job{'s' if jobs != 1 else ''}"
          + (f" ({wall / written:.2f} s wall per level)" if written else ""))
    if written < args.count:
        print(stop_message(args, written, tally.last, timed_out), file=sys.stderr)
        return 1
    return 0


def register(sub: Subparsers) -> None:
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
    p.add_argument("--force", action="store_true", help="let the run replace level files already in --out")
    p.add_argument("--solver", default=None, choices=CERTIFIERS,
                   help="exact solver that certifies each level (default: search, else auto, cpsat, ...)")
    p.add_argument("--time-limit", type=time_limit_arg, default=DEFAULT_TIME_LIMIT, metavar="S",
                   help=f"stop the whole run after S seconds, keeping the levels written and saying how far it got "
                        f"(default {DEFAULT_TIME_LIMIT:g}; each exact solve gets at most {CERTIFY_SECONDS:g} s)")
    p.add_argument("--max-attempts", type=int_arg(1, 10**9), default=None,
                   help=f"candidates per room before a level is dropped (default {DEFAULT_ATTEMPTS_PER_LEVEL})")
    p.add_argument("--jobs", type=int_arg(1, 256), default=None, help="processes generating in parallel (default: all cores)")
    p.add_argument("--rooms", type=int_arg(1, 64), default=None,
                   help="cut each level into this many sealed rooms, each certified alone (default: by size)")
    p.add_argument("--difficulty", default=None,
                   help="keep levels whose rating score (see `rate`) is in LO-HI, or within 1 of X")
    p.add_argument("--physics", default=None, metavar="NAME|FILE",
                   help="the rules the lemmings follow: a shipped physics (classic, careful, climber, ...) "
                        "or a JSON file of the physics form (default classic)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(handler=_cmd_generate)
