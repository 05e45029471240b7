"""Peak memory and time of the largest valid cases.

``python3 -m bench.hostile_limits make OUT.txt`` writes the largest level (256x256, N = 10,000,
16,128 lemmings); ``simulate`` / ``export`` / ``first-frame`` run one case in this process and
print its wall time and peak RSS (``resource.getrusage``), so run each case in its own process.
"""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

from game.core.level import Level
from game.core.level_text import MAX_FRAMES
from tests.level_builders import largest_level


def small_long_level() -> Level:
    """10x10, N = 10,000: one lemming walking back and forth forever."""
    rows = ["X" * 10] + ["X>       X"] + ["XXXXXXXXXX"] * 7 + ["XT       X"]
    return Level.from_rows(rows, frames=MAX_FRAMES, budget=2, title="Long walk")


def peak_mb() -> float:
    """Peak resident memory of this process so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def main(argv: list[str]) -> int:
    """Run one case (see the module docstring)."""
    what = argv[0] if argv else "simulate"
    start = time.perf_counter()
    if what == "make":
        largest_level().save(Path(argv[1]))
        small_long_level().save(Path(argv[2]))
        return 0
    if what == "simulate":
        from game.core.simulation import simulate

        level = Level.load(argv[1])
        run = simulate(level)
        detail = f"{len(run.tracks)} lemmings, won={run.won}"
    elif what == "export":
        from game.app.export import export_gif

        level = Level.load(argv[1])
        info = export_gif(level, (), argv[2], scale=int(argv[3]) if len(argv) > 3 else 2)
        detail = f"{info.frames} frames, {info.bytes / 1e6:.1f} MB"
    elif what == "first-frame":
        from game.app.compose import build_app
        from game.core.catalog import LevelEntry
        from game.app.scenes.play import PlayScene

        level = Level.load(argv[1])
        app = build_app(size=(1280, 800))
        app.push(PlayScene(app, playlist=[LevelEntry("big", Path(argv[1]), level, "file")], index=0))
        app.step()
        detail = "first frame drawn"
    else:
        raise SystemExit(f"unknown case {what!r}")
    print(f"{what}: {time.perf_counter() - start:.2f} s, peak RSS {peak_mb():.0f} MB ({detail})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
