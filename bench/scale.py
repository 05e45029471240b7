"""The scale benchmark: compartments, large levels, the original level and the stress levels.

Writes the section ``## Scale`` of ``bench/results.md`` (other sections are kept):

* compartments (``bench/suites/compartments``): ``auto`` in modes ``min`` and ``all`` (optimum and the
  number of optimal sets checked against the level's metadata), and each single exact solver in ``min``;
* large levels (``bench/suites/large`` and ``large2``): ``auto`` against the best single solver, mode ``all``;
* the original level: ``auto`` and ``cpsat``, mode ``all`` with the proof (best of 3);
* stress (:mod:`bench.stress`): reachability alone (seconds, peak MB, cancel latency), then every solver
  with ``--time-limit 3`` in a fresh process: seconds until it returns, peak RSS, and the latency of a
  cancel set 1 s into the solve.

    python bench/scale.py [--skip-stress] [--solver-limit 10]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import facade  # noqa: E402
import ai.solvers.reach as reach  # noqa: E402
from ai.kernel.context import SolveContext, SolveStopped  # noqa: E402
from bench.stress import stress_levels  # noqa: E402
from game.core.level import Level  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SUITES = ROOT / "bench" / "suites"
SECTION = "## Scale"
SINGLES = ["search", "cpsat", "milp"]
STRESS_SOLVERS = ["auto", "search", "cpsat", "milp", "brute", "gradient"]


def timed(level: Level, solver: str, mode: str, limit: float) -> tuple[float, facade.SolveResult]:
    """Seconds and result of one solve with a cold reachability cache."""
    reach._RECENT.clear()
    result = facade.solve(level, solver=solver, mode=mode, time_limit=limit)
    return result.stats.seconds, result


def proved(result: facade.SolveResult, mode: str) -> bool:
    """An exact final answer (in mode ``all``: the count of optimal sets is exact)."""
    if result.status.value not in ("optimal", "infeasible"):
        return False
    return mode != "all" or result.complete or bool(result.stats.extra.get("solution_count_exact"))


def compartments(limit: float) -> list[str]:
    """Lines about the compartment suite."""
    paths = sorted((SUITES / "compartments").glob("*.txt"))
    rows = ["| level | size | lemmings | optimum | optimal sets | auto min s | auto all s | "
            + " | ".join(f"{s} min s" for s in SINGLES) + " |", "|---" * (6 + len(SINGLES)) + "|---|"]
    worst = 0.0
    for path in paths:
        level = Level.load(path)
        t_min, r_min = timed(level, "auto", "min", limit)
        t_all, r_all = timed(level, "auto", "all", limit)
        assert r_min.min_bricks == int(level.meta_value("optimum")), path
        count = r_all.stats.extra.get("solution_count", len(r_all.solutions))
        assert count == int(level.meta_value("solutions")), path
        worst = max(worst, t_min, t_all)
        cells = []
        for name in SINGLES:
            t, r = timed(level, name, "min", limit)
            cells.append(f"{t:.2f}" if proved(r, "min") else f"> {limit:g} ({r.status.value})")
        rows.append(f"| {path.stem} | {level.height}x{level.width} | {len(level.lemmings)} | {r_min.min_bricks} | "
                    f"{count} | {t_min:.3f} | {t_all:.3f} | " + " | ".join(cells) + " |")
        print(rows[-1], flush=True)
    return [f"Compartment levels (`bench/suites/compartments`): auto proves every optimum; worst {worst:.2f} s "
            f"(target 2 s). Single solvers get {limit:g} s.", "", *rows]


def large(limit: float) -> list[str]:
    """Lines about the large suites: auto against the best single solver, mode all."""
    rows = ["| level | size | N | lemmings | optimum | auto min s | auto all s | best single (all) | ratio |",
            "|---|---|---|---|---|---|---|---|---|"]
    ratios, worst = [], 0.0
    for suite in ("large", "large2"):
        for path in sorted((SUITES / suite).glob("*.txt")):
            level = Level.load(path)
            t_min = min(timed(level, "auto", "min", limit)[0] for _ in range(2))
            t_auto, r_auto = min((timed(level, "auto", "all", limit) for _ in range(2)), key=lambda x: x[0])
            singles = {}
            for name in SINGLES:
                t, r = timed(level, name, "all", limit)
                if proved(r, "all"):
                    singles[name] = t
            best = min(singles, key=lambda n: singles[n]) if singles else None
            ratio = t_auto / singles[best] if best else float("nan")
            if best:
                ratios.append(ratio)
            worst = max(worst, t_min)
            best_text = f"{best} {singles[best]:.3f}" if best else "-"
            rows.append(f"| {suite}/{path.stem} | {level.height}x{level.width} | {level.frames} | "
                        f"{len(level.lemmings)} | {r_auto.min_bricks} | {t_min:.3f} | {t_auto:.3f} | {best_text} | "
                        f"{ratio:.2f} |")
            print(rows[-1], flush=True)
    summary = (f"Large levels: auto proves the optimum (mode `min`) in at most {worst:.2f} s (target 1 s); mode `all`, "
               "auto / best single solver: "
               f"median {statistics.median(ratios):.2f}, max {max(ratios):.2f} (target 1.5).") if ratios else ""
    return [summary, "", *rows]


def original() -> list[str]:
    """Best of 3, mode all with the proof, for auto and cpsat."""
    level = Level.load(ROOT / "levels" / "007_the_original.txt")
    cells = []
    for name in ("auto", "cpsat"):
        best = min(timed(level, name, "all", 10)[0] for _ in range(3))
        cells.append(f"{name} {best:.4f} s")
    return [f"Original level, all 6 solutions with the proof (best of 3): {', '.join(cells)} "
            "(targets: auto 0.01 s, cpsat 0.1 s)."]


CHILD = r"""
import json, resource, sys, threading, time
sys.path.insert(0, {root!r})
from bench.stress import STRESS
from ai import facade
level = STRESS[{name!r}]()
solver = facade.get_solver({solver!r})
cancel = threading.Event()
if {cancel_at!r} is not None:
    threading.Timer({cancel_at!r}, cancel.set).start()
start = time.perf_counter()
result = solver.solve_in(level, facade.SolveMode.MIN, facade.SolveContext.create(time_limit=3.0, cancel=cancel))
seconds = time.perf_counter() - start
print(json.dumps({{"seconds": seconds, "status": result.status.value,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def _child(name: str, solver: str, cancel_at: float | None) -> dict[str, Any]:
    code = CHILD.format(root=str(ROOT), name=name, solver=solver, cancel_at=cancel_at)
    try:
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=25)
        out: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
        return out
    except subprocess.TimeoutExpired:
        return {"seconds": float("inf"), "status": "killed after 25 s", "rss_mb": float("nan")}
    except (json.JSONDecodeError, IndexError):
        return {"seconds": float("nan"), "status": "crashed", "rss_mb": float("nan")}


def stress() -> list[str]:
    """Reachability alone, then every solver with a 3 s limit and with a cancel at 1 s."""
    lines = ["| level | analysis s | peak MB | cancel ms |", "|---|---|---|---|"]
    for name, level in stress_levels():
        reach._RECENT.clear()
        tracemalloc.start()
        start = time.perf_counter()
        info = reach.analyse(level)
        _ = info.read_cells
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
        worst = 0.0
        for delay in (0.05, 0.2, 0.5):
            event = threading.Event()
            threading.Timer(delay, event.set).start()
            begin = time.perf_counter()
            try:
                reach.analyse(level, SolveContext.create(cancel=event))
            except SolveStopped:
                worst = max(worst, time.perf_counter() - begin - delay)
            event.set()
        lines.append(f"| {name} | {seconds:.2f} | {peak:.0f} | {worst * 1000:.0f} |")
        print(lines[-1], flush=True)
    lines += ["", "| level | solver | 3 s limit: returned after s | status | peak RSS MB | cancel at 1 s: latency ms |",
              "|---|---|---|---|---|---|"]
    for name, _ in stress_levels():
        for solver in STRESS_SOLVERS:
            limited = _child(name, solver, None)
            cancelled = _child(name, solver, 1.0)
            latency = (cancelled["seconds"] - 1.0) * 1000
            after = f"{latency:.0f}" if cancelled["status"] == "cancelled" else "- (done first)" \
                if cancelled["seconds"] < 1.0 else f"{latency:.0f} ({cancelled['status']})"
            lines.append(f"| {name} | {solver} | {limited['seconds']:.2f} | {limited['status']} | "
                         f"{limited['rss_mb']:.0f} | {after} |")
            print(lines[-1], flush=True)
    return ["Stress levels (made by `bench/stress.py`): reachability alone (tracemalloc peak; cancel latency "
            "worst of 3), then each solver in a fresh process (peak RSS includes the interpreter and OR-Tools).",
            "", *lines]


def write_section(lines: list[str]) -> None:
    """Replace (or append) ``## Scale`` in bench/results.md."""
    from game.core.writing import atomic_write_text

    path = ROOT / "bench" / "results.md"
    body = [SECTION, "", f"`python bench/scale.py` on the shared 2-core machine ({os.cpu_count()} cores seen), "
            "measured while other agents were running (loaded machine: times are noisy, usually pessimistic).",
            "", *lines, ""]
    text = path.read_text()
    old = text.splitlines()
    if SECTION in old:
        start = old.index(SECTION)
        end = next((i for i in range(start + 1, len(old)) if old[i].startswith("## ")), len(old))
        old = old[:start] + body + old[end:]
    else:
        old = old + [""] + body
    atomic_write_text(path, "\n".join(old).rstrip("\n") + "\n")


STRESS_MARK = "Stress levels (made by `bench/stress.py`)"


def write_stress(lines: list[str]) -> None:
    """Replace the stress part (from its first line to the end of the section) of ``## Scale``."""
    from game.core.writing import atomic_write_text

    path = ROOT / "bench" / "results.md"
    old = path.read_text().splitlines()
    start = old.index(SECTION)
    end = next((i for i in range(start + 1, len(old)) if old[i].startswith("## ")), len(old))
    mark = next((i for i in range(start, end) if old[i].startswith(STRESS_MARK)), end)
    atomic_write_text(path, "\n".join(old[:mark] + lines + [""] + old[end:]).rstrip("\n") + "\n")


def main(argv: list[str] | None = None) -> int:
    """Run the scale benchmark and record it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-stress", action="store_true")
    parser.add_argument("--only-stress", action="store_true", help="replace only the stress part of the section")
    parser.add_argument("--solver-limit", type=float, default=10.0)
    args = parser.parse_args(argv)
    if args.only_stress:
        write_stress(stress())
        return 0
    facade.solve(Level.load(ROOT / "levels" / "007_the_original.txt"), solver="auto")  # warm-up: imports
    facade.solve(Level.load(ROOT / "levels" / "007_the_original.txt"), solver="milp")
    lines = original() + [""] + compartments(args.solver_limit) + [""] + large(args.solver_limit)
    if not args.skip_stress:
        lines += [""] + stress()
    write_section(lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
