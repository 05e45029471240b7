"""Each long command on its largest accepted hostile input: wall time against its limit, and peak memory.

``python3 -m bench.long_commands [--only NAME ...] [--keep DIR]`` writes the inputs to a temporary folder, runs
every case as its own process under ``/usr/bin/time -v`` and prints a Markdown table.  "start-up" is the same
command with ``--time-limit 0.001`` (Python, imports, reading the input, stopping); "over" is the wall time
minus that start-up minus the limit (the promise: at most 0.3 s).  Peak memory is the maximum RSS (the promise:
at most 1 GB, with or without a limit).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from ai.learning.observations import random_game
from bench.compartments_all import compartment_level
from game.core.physics_catalog import SHIPPED
from tests.puzzle_builders import scattered_mines
from tests.level_builders import stress_level

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Case:
    """A command (``{dir}`` stands for the inputs' folder) and its ``--time-limit`` (None: no limit)."""

    name: str
    argv: tuple[str, ...]
    limit: float | None


def make_inputs(folder: Path) -> None:
    """Write every case's input file into ``folder``."""
    rng = random.Random(1)
    for side, name in ((256, "life256.txt"), (40, "life40.txt")):
        rows = ("".join(rng.choice("#.") for _ in range(side)) for _ in range(side))
        (folder / name).write_text("\n".join(rows) + "\n")
    pegs = ["ooooooooo"] * 9
    pegs[4] = "oooo.oooo"
    (folder / "pegs9.txt").write_text("\n".join(pegs) + "\n")
    game = random_game(np.random.default_rng(1), SHIPPED["classic"], height=64, width=96, lemmings=500,
                       frames=2_000)
    (folder / "many.jsonl").write_text(json.dumps(game.to_json()) + "\n")
    lemming = json.dumps({"positions": [[0, 0]] * 2_000}).encode()
    with (folder / "long_line.jsonl").open("wb") as f:
        f.write(b'{"map": ["  ", "XX"], "frames": 2000, "lemmings": [')
        f.write(b", ".join([lemming] * (200 * 1024 * 1024 // len(lemming))))
        f.write(b"]}\n")
    compartment_level(3, 1500).save(folder / "compartments.txt")
    stress_level().save(folder / "stress.txt")
    (folder / "mines.txt").write_text(scattered_mines(30, 16, 99, revealed=120, seed=1))


CASES: tuple[Case, ...] = (
    Case("life reverse 256x256, 3 steps", ("life", "reverse", "{dir}/life256.txt", "--steps", "3"), 3.0),
    Case("life hint 40x40, 5 steps", ("life", "hint", "{dir}/life40.txt", "--steps", "5"), 3.0),
    Case("pegs solve 9x9 full, limit", ("pegs", "solve", "{dir}/pegs9.txt"), 3.0),
    Case("pegs solve 9x9 full, no limit", ("pegs", "solve", "{dir}/pegs9.txt"), None),
    Case("pegs table 9x9 full (162 problems)", ("pegs", "table", "{dir}/pegs9.txt", "--json"), 3.0),
    Case("learn 500 lemmings x 2,000 frames, limit", ("learn", "--observations", "{dir}/many.jsonl"), 3.0),
    Case("learn 500 lemmings x 2,000 frames, no limit", ("learn", "--observations", "{dir}/many.jsonl"), None),
    Case("learn one 200 MB line", ("learn", "--observations", "{dir}/long_line.jsonl"), 20.0),
    Case("mines bench 100,000 expert games", ("mines", "bench", "--games", "100000", "--size", "30x16",
                                              "--mines", "99", "--workers", "2"), 3.0),
    Case("mines bench 1,000,000 games, opening rule, 1 worker", ("mines", "bench", "--games", "1000000", "--rules",
                                                                  "opening"), 3.0),
    Case("mines solve, scattered 30x16 expert view", ("mines", "solve", "{dir}/mines.txt"), 3.0),
    Case("solve --all, 3x3 compartments (54 lemmings, N = 1,500)",
         ("solve", "{dir}/compartments.txt", "--all"), 20.0),
    Case("rate 4x4, N = 1,000, B = 80", ("rate", "{dir}/stress.txt"), 3.0),
)


def run(argv: list[str]) -> tuple[float, float, int]:
    """Run ``main.py ARGV`` under ``/usr/bin/time -v``: (wall s, peak MB, exit code)."""
    proc = subprocess.run(["/usr/bin/time", "-v", sys.executable, "main.py", *argv], cwd=ROOT,
                          capture_output=True, text=True)
    wall_text = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", proc.stderr)
    peak_text = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    assert wall_text and peak_text, proc.stderr[-2000:]
    hours, minutes, seconds = wall_text.groups()
    wall = int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds)
    return wall, int(peak_text.group(1)) / 1024, proc.returncode


def row(case: Case, folder: Path, measure: Callable[[list[str]], tuple[float, float, int]] = run) -> str:
    """One Markdown row for ``case``."""
    argv = [a.replace("{dir}", str(folder)) for a in case.argv]
    start_up, _, _ = measure([*argv, "--time-limit", "0.001"])
    limited = argv if case.limit is None else [*argv, "--time-limit", str(case.limit)]
    wall, peak, code = measure(limited)
    over = "-" if case.limit is None else f"{wall - start_up - case.limit:+.2f}"
    limit = "none" if case.limit is None else f"{case.limit:g}"
    return f"| {case.name} | {limit} | {wall:.2f} | {start_up:.2f} | {over} | {peak:,.0f} | {code} |"


def main(argv: list[str] | None = None) -> int:
    """Measure the cases and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="cases whose name starts with one of these")
    parser.add_argument("--keep", type=Path, default=None, help="write the inputs here and keep them")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        make_inputs(folder)
        print(f"load average before: {os.getloadavg()[0]:.2f}, cores: {os.cpu_count()}")
        print("| command (input) | limit s | wall s | start-up s | over s | peak MB | exit |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for case in CASES:
            if args.only is None or any(case.name.startswith(o) for o in args.only):
                print(row(case, folder), flush=True)
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
