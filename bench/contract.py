"""The solver contract on big levels: time-limit overshoot, cancel latency and peak memory, per solver.

Each measurement runs in a fresh process (so peak memory is that solve's own) and prints one JSON
line.  Two ways to start the clock:

* ``end-to-end``: ``solver.solve_in(level, mode, ctx)`` with a fresh context (includes the reachability
  analysis, which every exact solver needs first);
* ``core``: the reachability analysis is computed first and handed over in the solve context's
  shared cache (as the portfolio's racers get it), so the figure is the solver's own.

Usage: ``python3 -m bench.contract [--write] [--levels a,b] [--solvers cpsat,search,...]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

from game.core.level import Level

ROOT = Path(__file__).resolve().parent.parent
SOLVERS = ("cpsat", "search", "brute", "gradient", "milp")
TIME_LIMIT = 3.0
CANCEL_AT = 1.0
#: Mode ``all``: on the tiled levels every exact solver has thousands of optimal sets to list.
MODE = "all"


def tiled(level: Level, across: int, down: int, frames: int) -> Level:
    """``level``'s map repeated ``across`` x ``down`` times, with ``frames`` and the budget times the copies."""
    rows = tuple(row * across for row in level.grid) * down
    return Level(frames=frames, budget=level.budget * across * down, grid=rows)


def large(number: int) -> Level:
    """Level ``number`` of the large suite (24x32)."""
    return Level.load(ROOT / "bench" / "suites" / "large" / f"{number:03d}_large.txt")


def open_map(size: int, frames: int) -> Level:
    """A ``size`` x ``size`` map of floors (every 6 rows) with holes; one lemming on the first floor must
    cross it to a target at its far end: one brick per hole, plus one spare brick."""
    grid = [[" "] * size for _ in range(size)]
    for r in range(5, size, 6):
        for c in range(size):
            if (c + 7 * (r // 6)) % 23:
                grid[r][c] = "X"
    grid[size - 1] = ["X"] * size
    grid[4][1] = ">"
    grid[4][size - 6] = "T"
    holes = sum(1 for c in range(2, size - 6) if grid[5][c] == " ")
    return Level(frames=frames, budget=holes + 1, grid=tuple("".join(row) for row in grid))


#: name -> level builder: the stress levels and smaller ones.
LEVELS = {
    "large1-N1000": lambda: large(1).with_limits(frames=1000),
    "large4-N300": lambda: large(4).with_limits(frames=300),
    "large4-2x1-N100": lambda: tiled(large(4), 2, 1, 100),
    "large1-2x2-N150": lambda: tiled(large(1), 2, 2, 150),
    "large4-2x2-N150": lambda: tiled(large(4), 2, 2, 150),
    "large4-3x2-N150": lambda: tiled(large(4), 3, 2, 150),
    "large1-N10000": lambda: large(1).with_limits(frames=10_000),
    "large1-2x1-N200": lambda: tiled(large(1), 2, 1, 200),
    "large1-2x2-N300": lambda: tiled(large(1), 2, 2, 300),
    "large1-2x2-N1000": lambda: tiled(large(1), 2, 2, 1000),
    "large1-4x4-N1000": lambda: tiled(large(1), 4, 4, 1000),
    "open256-N10000": lambda: open_map(256, 10_000),
}


def measure(solver_name: str, level_name: str, kind: str, clock: str) -> dict[str, object]:
    """One measurement in this process: ``kind`` ``limit`` (time limit 3 s) or ``cancel`` (at 1 s)."""
    from ai.facade import SolveMode, get_solver
    from ai.kernel.context import SolveContext
    from ai.solvers.reach import reach_for

    level = LEVELS[level_name]()
    solver = get_solver(solver_name)
    cancel = threading.Event()
    fired: list[float] = []
    reach_seconds = 0.0
    shared: dict[str, object] = {}
    if clock == "core":
        begin = time.perf_counter()
        reach_for(level, replace(SolveContext.create(), shared=shared))
        reach_seconds = time.perf_counter() - begin
    limit = TIME_LIMIT if kind == "limit" else 60.0
    start = time.perf_counter()
    if kind == "cancel":
        def fire() -> None:
            fired.append(time.perf_counter())
            cancel.set()

        threading.Timer(CANCEL_AT, fire).start()
    ctx = replace(SolveContext.create(time_limit=limit, cancel=cancel, solver=solver_name), shared=shared)
    result = solver.solve_in(level, SolveMode(MODE), ctx)
    end = time.perf_counter()
    cancel.set()
    out: dict[str, object] = {
        "solver": solver_name, "level": level_name, "kind": kind, "clock": clock,
        "status": result.status.value, "seconds": round(end - start, 3), "reach_seconds": round(reach_seconds, 2),
        "peak_mb": max(resource.getrusage(who).ru_maxrss // 1024
                       for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)),
    }
    if kind == "cancel":
        out["latency_ms"] = round((end - fired[0]) * 1000, 1) if fired else None
    else:
        out["overshoot_ms"] = round((end - start - TIME_LIMIT) * 1000, 1)
    return out


def run(solver_name: str, level_name: str, kind: str, clock: str, timeout: float = 900) -> dict[str, object]:
    """:func:`measure` in a fresh process."""
    cmd = [sys.executable, "-m", "bench.contract", "--one", solver_name, level_name, kind, clock]
    try:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    except subprocess.TimeoutExpired:
        return {"solver": solver_name, "level": level_name, "kind": kind, "clock": clock, "error": "no answer"}
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return {"solver": solver_name, "level": level_name, "kind": kind, "clock": clock,
                "error": (proc.stderr.strip().splitlines() or ["?"])[-1]}
    answer: dict[str, object] = json.loads(lines[-1])
    return answer


def table(rows: list[dict[str, object]]) -> str:
    """The results as a markdown table."""
    head = ("| level | clock | solver | time limit 3 s: returned after (s) | overshoot (ms) | "
            "cancel at 1 s: latency (ms) | peak memory (MB) | reach (s) |\n|---|---|---|---|---|---|---|---|\n")
    keyed: dict[tuple[object, object, object], dict[str, dict[str, object]]] = {}
    for row in rows:
        keyed.setdefault((row["level"], row["clock"], row["solver"]), {})[str(row["kind"])] = row
    lines = []
    for (level, clock, solver), kinds in keyed.items():
        lim, can = kinds.get("limit", {}), kinds.get("cancel", {})
        peak = max(int(str(lim.get("peak_mb", 0))), int(str(can.get("peak_mb", 0))))
        reach = lim.get("reach_seconds", can.get("reach_seconds", ""))
        lines.append(f"| {level} | {clock} | {solver} | {lim.get('seconds', lim.get('error', ''))} "
                     f"({lim.get('status', '')}) | {lim.get('overshoot_ms', '')} | "
                     f"{can.get('latency_ms', can.get('error', ''))} ({can.get('status', '')}) | {peak} | "
                     f"{reach if clock == 'core' else 'incl.'} |")
    return head + "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--one", nargs=4, metavar=("SOLVER", "LEVEL", "KIND", "CLOCK"))
    parser.add_argument("--levels", default="large1-N10000,large1-2x2-N1000")
    parser.add_argument("--solvers", default=",".join(SOLVERS))
    parser.add_argument("--clocks", default="core,end-to-end")
    parser.add_argument("--write", action="store_true", help="print the markdown table for bench/results.md")
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(measure(*args.one)), flush=True)
        return 0
    rows = []
    for level in args.levels.split(","):
        for clock in args.clocks.split(","):
            for solver in args.solvers.split(","):
                for kind in ("limit", "cancel"):
                    row = run(solver, level, kind, clock)
                    print(json.dumps(row), flush=True)
                    rows.append(row)
    if args.write:
        print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
