"""Time the editor's Analyse (``ai.services.analysis.analyse_level``) on every pack level.

    python bench/analysis.py [--solver auto] [--time-limit 60]

Prints one Markdown table row per level: size, N, B, verdict, minimum bricks, optimal
solutions ("+" when the enumeration was cut short), fewest frames ("?" when only an
upper bound is known) and seconds.  The first solve's imports are done before timing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.services.analysis import analyse_level  # noqa: E402
from ai.kernel.context import SolveContext  # noqa: E402
from game.core.level import Level  # noqa: E402
from game.core.pack import pack_level_paths  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solver", default="auto")
    parser.add_argument("--time-limit", type=float, default=60.0)
    args = parser.parse_args()
    paths = pack_level_paths()
    analyse_level(Level.load(paths[0]), solver=args.solver)  # warm-up: imports
    print("| level | size | N | B | verdict | min bricks | optimal solutions | fewest frames | seconds |")
    print("|---|---|---|---|---|---|---|---|---|")
    total = 0.0
    for path in paths:
        level = Level.load(path)
        a = analyse_level(level, SolveContext.create(time_limit=args.time_limit), solver=args.solver)
        total += a.seconds
        sols = f"{a.solution_count}{'' if a.complete else '+'}"
        frames = "-" if a.fewest_frames is None else f"{a.fewest_frames}{'' if a.frames_proved else '?'}"
        print(f"| {path.stem} | {level.height}x{level.width} | {level.frames} | {level.budget} | {a.status} | "
              f"{a.min_bricks} | {sols} | {frames} | {a.seconds:.3f} |", flush=True)
    print(f"\ntotal {total:.1f} s for {len(paths)} levels (solver {args.solver})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
