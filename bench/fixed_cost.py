"""Fixed cost of a small solve: ``all`` + proof, each solver, a cold reachability cache.

Every run clears the reachability cache (``ai.solvers.reach._RECENT``), as a new process (the CLI) or a new level
would; the imports are done once before.  Prints the median and the best of ``--repeat`` runs in ms::

    python3 -m bench.fixed_cost [--repeat 15] [LEVEL ...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import facade  # noqa: E402
import ai.solvers.reach as reach  # noqa: E402
from game.core.level import Level  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_LEVELS = ["levels/007_the_original.txt", "levels/009_over_the_ledge.txt", "levels/015_beat_the_clock.txt",
                  "levels/016_just_in_time.txt", "levels/019_twin_drop.txt", "levels/021_shared_stones.txt"]
SOLVERS = ["auto", "search", "cpsat"]


def cold_ms(level: Level, solver: str, repeat: int) -> tuple[float, float]:
    """Median and best milliseconds of ``repeat`` cold-cache ``all`` solves."""
    times = []
    for _ in range(repeat):
        reach._RECENT.clear()
        start = time.perf_counter()
        facade.solve(level, solver=solver, mode="all")
        times.append(1000 * (time.perf_counter() - start))
    return statistics.median(times), min(times)


def main(argv: list[str] | None = None) -> int:
    """Print one markdown row per level."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("levels", nargs="*", default=DEFAULT_LEVELS)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args(argv)
    warm = Level.load(ROOT / DEFAULT_LEVELS[0])
    for solver in SOLVERS:
        facade.solve(warm, solver=solver, mode="all")
    print("| level | size | " + " | ".join(f"{s} median / best (ms)" for s in SOLVERS) + " | auto / fastest |")
    print("|---|---|" + "---|" * len(SOLVERS) + "---|")
    for name in args.levels:
        level = Level.load(ROOT / name)
        figures = {s: cold_ms(level, s, args.repeat) for s in SOLVERS}
        fastest = min(figures[s][0] for s in SOLVERS if s != "auto")
        cells = " | ".join(f"{figures[s][0]:.1f} / {figures[s][1]:.1f}" for s in SOLVERS)
        print(f"| {Path(name).stem} | {level.height}x{level.width} | {cells} | {figures['auto'][0] / fastest:.2f} |",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
