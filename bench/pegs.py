"""Peg solitaire: the English central game solved and replayed, the French central game refuted,
hints from random mid-game positions, learning the jump rule, and the CLI end to end.

Usage: ``python bench/pegs.py [--repeat 3] [--hints 3] [--hint-limit 10] [--tail 8]``; prints a Markdown section
for bench/results.md.  Times are in-process wall clock after the imports (the import of OR-Tools is
timed on its own), best of ``--repeat`` runs (the least disturbed by other work on the machine).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.kernel.context import SolveContext  # noqa: E402
from ai.puzzles.pegs import IpUse, PegsStatus, hint, solve  # noqa: E402
from ai.puzzles.pegs.learn import learn, random_games, verify  # noqa: E402
from game.core.puzzles.pegs_boards import english, french  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Fewest seconds of ``repeat`` calls, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--hints", type=int, default=3, help="random positions per depth")
    parser.add_argument("--hint-limit", type=float, default=10.0)
    parser.add_argument("--tail", type=int, default=8, help="player-like positions")
    args = parser.parse_args()
    lines = ["## Peg solitaire", ""]
    start = time.perf_counter()
    import ortools.linear_solver.pywraplp  # noqa: F401
    import ortools.sat.python.cp_model  # noqa: F401
    lines.append(f"OR-Tools import (CP-SAT + pywraplp): {time.perf_counter() - start:.2f} s, paid once per process "
                 "(the game's worker preloads it).")
    lines += ["", "| game | --ip | table | status | proof | nodes | best time | replayed |",
              "|---|---|---|---|---|---|---|---|"]
    eb, es = english()
    for table in (True, False):
        for ip in IpUse:
            seconds, result = best(lambda: solve(eb, es, ip=ip, table=table), args.repeat)
            replayed = result.status == PegsStatus.SOLVED and eb.replay(es, result.moves) == eb.goal_position()
            lines.append(f"| English central | {ip.value} | {'yes' if table else 'no'} | {result.status.value} | "
                         f"{result.proof.value} | {result.nodes:,} | {seconds:.3f} s | {'yes' if replayed else 'no'} |")
    fb, fs = french()
    seconds, result = best(lambda: solve(fb, fs), args.repeat)
    lines.append(f"| French central | auto | - | {result.status.value} | {result.proof.value} | {result.nodes} | "
                 f"{seconds * 1000:.2f} ms | - |")
    # the CLI end to end (a fresh interpreter: imports included)
    for board in ("english", "french"):
        seconds, proc = best(lambda: subprocess.run([sys.executable, "main.py", "pegs", "solve", board, "--json"],
                                                    cwd=REPO, capture_output=True, text=True), 1)
        lines.append(f"\n`main.py pegs solve {board} --json` end to end (interpreter start and imports included): "
                     f"{seconds:.2f} s, exit {proc.returncode}.")
    # hints from random positions
    lines += ["", f"Hints (`ip=always`, limit {args.hint_limit:.0f} s) from positions after k random jumps from "
              "the English start (seeds 0..):", "", "| k | answers | solvable / dead / stopped | median | max |",
              "|---|---|---|---|---|"]
    for k in (8, 12, 16):
        times, kinds = [], {"solved": 0, "impossible": 0, "stopped": 0}
        for seed in range(args.hints):
            rng = random.Random(seed)
            position = es
            for _ in range(k):
                legal = eb.legal_jumps(position)
                if not legal:
                    break
                position = eb.apply(position, rng.choice(legal))
            t0 = time.perf_counter()
            answer = hint(eb, position, ctx=SolveContext.create(time_limit=args.hint_limit))
            times.append(time.perf_counter() - t0)
            kinds[answer.status.value] += 1
            if answer.jump is not None:
                assert answer.jump in eb.legal_jumps(position)
        lines.append(f"| {k} | {len(times)} | {kinds['solved']} / {kinds['impossible']} / {kinds['stopped']} | "
                     f"{statistics.median(times):.2f} s | {max(times):.2f} s |")
    lines += ["", f"Player-like positions: 3-10 random jumps from the English start (seeds 100..{99 + args.tail}), "
              f"`solve --ip always`, limit {args.hint_limit:.0f} s:", "",
              "| seed | jumps | status | proof | nodes | time | the search alone (no table) |",
              "|---|---|---|---|---|---|---|"]
    for seed in range(100, 100 + args.tail):
        rng = random.Random(seed)
        k = rng.randint(3, 10)
        position = es
        for _ in range(k):
            position = eb.apply(position, rng.choice(eb.legal_jumps(position)))
        t0 = time.perf_counter()
        result = solve(eb, position, ctx=SolveContext.create(time_limit=args.hint_limit), ip=IpUse.ALWAYS)
        seconds = time.perf_counter() - t0
        t0 = time.perf_counter()
        alone = solve(eb, position, ctx=SolveContext.create(time_limit=args.hint_limit), ip=IpUse.ALWAYS, table=False)
        lines.append(f"| {seed} | {k} | {result.status.value} | {result.proof.value} | {result.nodes:,} | "
                     f"{seconds:.2f} s | {alone.status.value}, {time.perf_counter() - t0:.2f} s |")
    seconds, rule = best(lambda: learn(eb, random_games(eb, es, games=20, seed=0)), 1)
    report = verify(eb, rule)
    lines.append(f"\nLearning the jump rule from 20 random English games ({rule.pairs} moves): "
                 f"{len(rule.patterns)} patterns, agrees with the reference on {report.windows_checked} local "
                 f"windows: {report.agrees}; {seconds:.2f} s with the verification.")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines.append(f"\nMachine: {os.cpu_count()} cores shared with other helpers' work (load average {load:.1f} at the "
                 f"end), Python {platform.python_version()}.  Command: `python bench/pegs.py`.")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
