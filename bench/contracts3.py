"""The solve contract's figures: time limit, cancel latency and peak memory of one job.

Run one case per process (peak memory is the process's ``ru_maxrss``)::

    python3 -m bench.contracts3 solve LEVEL SOLVER SECONDS    # wall time of a solve with --time-limit SECONDS
    python3 -m bench.contracts3 cancel LEVEL SOLVER DELAY     # cancel after DELAY s: latency to return
    python3 -m bench.contracts3 job LEVEL KIND SECONDS        # rate / hint / analyse under a time limit
    python3 -m bench.contracts3 jobcancel LEVEL KIND DELAY    # the same jobs cancelled after DELAY s

``LEVEL`` is one of :data:`LEVELS`.  Each prints one JSON line.  The job's modules are imported before
the clock starts (an import cannot be stopped; the figures are the job's own).
"""

from __future__ import annotations

import json
import resource
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.level_builders import LARGE_FIRST, largest_level, maze_256, tiled  # noqa: E402
from game.core.level import Level  # noqa: E402

LEVELS: dict[str, Callable[[], Level]] = {
    "largest": largest_level,
    "tiled10x8": lambda: tiled(Level.load(LARGE_FIRST), rows=10, cols=8, frames=10_000, size=(256, 256)),
    "tiled1x1": lambda: tiled(Level.load(LARGE_FIRST), rows=1, cols=1, frames=10_000),
    "tiled4x4": lambda: tiled(Level.load(LARGE_FIRST), rows=4, cols=4, frames=1000),
    "maze256": maze_256,
}


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _job(kind: str, level: Level, seconds: float | None, cancel: threading.Event | None) -> str:
    from ai.kernel.context import SolveContext

    ctx = SolveContext.create(time_limit=seconds, cancel=cancel, solver=kind)
    if kind == "rate":
        from ai.services.rating import rate_level

        return rate_level(level, ctx).status
    if kind == "hint":
        from ai.services.hints import compute_hint

        return compute_hint(level, (), ctx).action.value
    if kind == "analyse":
        from ai.services.analysis import analyse_level

        return str(analyse_level(level, ctx).status)
    from ai import facade
    result = facade.solve(level, solver=kind, mode="min", ctx=ctx)
    return f"{result.status.value} {result.min_bricks}"


def _warm_up(who: str) -> None:
    """Import what the job needs first (imports cannot be stopped; the figures are the job's own)."""
    import importlib

    from ai import facade
    for module in ("ai.services.rating", "ai.services.hints", "ai.services.analysis", "ai.solvers.portfolio"):
        importlib.import_module(module)
    small = Level.load(Path(__file__).resolve().parent.parent / "levels" / "007_the_original.txt")
    for name in (["cpsat", "milp", "search", "auto"] if who in ("rate", "hint", "analyse", "auto") else [who]):
        facade.solve(small, solver=name, time_limit=10)  # (also the lazy imports inside the solver)
    if who in ("rate", "hint", "analyse"):
        _job(who, small, 10.0, None)


def main(argv: list[str]) -> int:
    """Run one case (see the module docstring)."""
    what, name, who, value = argv[0], argv[1], argv[2], float(argv[3])
    level = LEVELS[name]()
    _warm_up(who)
    out: dict[str, Any] = {"case": what, "level": name, "who": who, "value": value}
    if what in ("solve", "job"):
        start = time.perf_counter()
        out["status"] = _job(who, level, value, None)
        out["wall"] = round(time.perf_counter() - start, 3)
    else:
        cancel = threading.Event()
        box: dict[str, Any] = {}

        def run() -> None:
            box["status"] = _job(who, level, None, cancel)
            box["done"] = time.perf_counter()

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        thread.join(value)
        fired = time.perf_counter()
        cancel.set()
        thread.join(120.0)
        out["status"] = box.get("status", "still running")
        out["latency_ms"] = round(1000 * (box.get("done", time.perf_counter()) - fired), 1)
    out["peak_mb"] = round(_peak_mb(), 1)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
