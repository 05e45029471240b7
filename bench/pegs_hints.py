"""Peg-solitaire hints (goal: one peg anywhere) on positions reached by random play from random single-vacancy
starts of the English and French boards, and the single-vacancy tables of both boards.

Usage: ``python bench/pegs_hints.py [--positions 200] [--seed 0] [--limit 20] [--tables]``; prints a Markdown
section for bench/results.md.  Each position: a board (English or French) and a vacancy drawn at random, then a
random number of random legal jumps (from none to all but one), all from ``random.Random(seed)``.  Times are
in-process wall clock and CPU time of :func:`ai.puzzles.pegs.hint` after the imports (on a shared machine the
CPU time is what the hint costs, the wall clock what it took there); every jump given is checked legal.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.kernel.context import SolveContext  # noqa: E402
from ai.puzzles.pegs import hint  # noqa: E402
from game.core.puzzles.pegs import Board  # noqa: E402
from game.core.puzzles.pegs_boards import english, french  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def positions(count: int, seed: int) -> list[tuple[Board, int, str]]:
    """``count`` positions of random play: (board, position, description)."""
    rng = random.Random(seed)
    boards = [english()[0], french()[0]]
    out = []
    for _ in range(count):
        board = rng.choice(boards)
        vacancy = rng.choice(sorted(board.cells))
        position = board.full ^ board.bit(vacancy)
        jumps = rng.randint(0, board.count(position) - 2)
        played = 0
        for _ in range(jumps):
            legal = board.legal_jumps(position)
            if not legal:
                break
            position = board.apply(position, rng.choice(legal))
            played += 1
        out.append((board, position, f"{board.name} {vacancy} +{played}"))
    return out


def hints(args: argparse.Namespace) -> list[str]:
    """The hint latency section."""
    times, cpu, kinds, slowest = [], [], Counter[str](), (0.0, "")
    for board, position, what in positions(args.positions, args.seed):
        t0, c0 = time.perf_counter(), time.process_time()
        answer = hint(board, position, None, ctx=SolveContext.create(time_limit=args.limit))
        seconds = time.perf_counter() - t0
        times.append(seconds)
        cpu.append(time.process_time() - c0)
        kinds[answer.status.value if answer.jump is None else "jump"] += 1
        if answer.jump is not None:
            assert answer.jump in board.legal_jumps(position), what
        slowest = max(slowest, (seconds, f"{what}: {answer.message}"))
    times.sort()
    cpu.sort()
    return ["", f"Hints, goal one peg anywhere, {args.positions} positions (seed {args.seed}, limit {args.limit:g} s): "
            f"{kinds['jump']} with a jump, {kinds['impossible']} proved lost, {kinds['solved']} already finished, "
            f"{kinds['stopped']} without an answer in time.", "",
            "| clock | median | 90th percentile | worst | worst position (wall clock) |", "|---|---|---|---|---|",
            f"| wall | {statistics.median(times):.3f} s | {times[int(0.9 * len(times))]:.3f} s | {times[-1]:.3f} s | "
            f"{slowest[1]} |",
            f"| CPU of the process | {statistics.median(cpu):.3f} s | {cpu[int(0.9 * len(cpu))]:.3f} s | "
            f"{cpu[-1]:.3f} s | |"]


def tables() -> list[str]:
    """The table section: ``pegs table BOARD --json`` end to end, per board."""
    lines = ["", "| command | wall time | CPU time | problems | solved | impossible (by proof) | slowest problem |",
             "|---|---|---|---|---|---|---|"]
    for name in ("english", "french"):
        command = [sys.executable, "main.py", "pegs", "table", name, "--json"]
        t0, c0 = time.perf_counter(), os.times()
        proc = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=True)
        seconds, c1 = time.perf_counter() - t0, os.times()
        cpu = c1.children_user + c1.children_system - c0.children_user - c0.children_system
        problems = json.loads(proc.stdout)["problems"]
        kinds = Counter(p["proof_kind"] for p in problems if p["status"] == "impossible")
        solved = sum(p["status"] == "solved" for p in problems)
        proofs = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "none"
        lines.append(f"| `python3 main.py pegs table {name} --json` | {seconds:.1f} s | {cpu:.1f} s | {len(problems)} | {solved} | "
                     f"{proofs} | {max(p['seconds'] for p in problems):.2f} s |")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=float, default=20.0, help="seconds per hint")
    parser.add_argument("--tables", action="store_true", help="also time `pegs table` on both boards")
    args = parser.parse_args()
    lines = ["## Peg solitaire: single-vacancy tables and hints"]
    if args.tables:
        lines += tables()
    lines += hints(args)
    load = os.getloadavg()
    lines.append(f"\nMachine: {os.cpu_count()} cores shared with other work; load average {load[0]:.1f} / "
                 f"{load[1]:.1f} / {load[2]:.1f} at the end.  Command: `python3 bench/pegs_hints.py "
                 f"--positions {args.positions} --seed {args.seed}{' --tables' if args.tables else ''}`.")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
