"""Hints planned from the minimum solutions the game enumerates in the background (``known=``) against S,
in-process and through the app's job runner (a forked child) as the game runs them.  Usage: ``python bench/hints_prefetch.py``."""
import sys, time, statistics
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from ai import facade
from ai.services.hints import compute_hint
from game.app.jobs import JobRunner
from game.core.level import Level

def best(fn, n=3):
    t = []
    for _ in range(n):
        s = time.perf_counter(); fn(); t.append(time.perf_counter() - s)
    return min(t)

paths = sorted(Path("levels").glob("*.txt")) + sorted(Path("bench/suites/large").glob("*.txt"))
runner = JobRunner()
rows = []
for p in paths:
    level = Level.load(p)
    known = facade.solve(level, solver="auto", mode="all", time_limit=10)
    s = best(lambda: facade.solve(level, solver="auto", mode="min"))
    h = best(lambda: compute_hint(level, [], known=known))
    def game(job):
        start = time.perf_counter()
        handle = runner.submit(job, label="b")
        handle.wait(60); runner.pump()
        return time.perf_counter() - start
    gs = min(game(lambda ctx: facade.solve(level, solver="auto", mode="min")) for _ in range(3))
    gh = min(game(lambda ctx: compute_hint(level, [], known=known)) for _ in range(3))
    rows.append((p.name, s, h, gs, gh))
ratios = [h / s for _, s, h, _, _ in rows]
gratios = [gh / gs for *_, gs, gh in rows]
print(f"levels {len(rows)}; in-process hint/S median {statistics.median(ratios):.2f} max {max(ratios):.2f}; "
      f"hint slower than S on {sum(r > 1 for r in ratios)}")
print(f"in the game (job runner child): S worst {max(r[3] for r in rows):.3f} s, hint worst {max(r[4] for r in rows):.3f} s; "
      f"hint/S median {statistics.median(gratios):.2f} max {max(gratios):.2f}; hint slower than S on {sum(g > 1 for g in gratios)}")
worst = sorted(rows, key=lambda r: -r[4])[:3]
for r in worst: print(r[0], " ".join(f"{x:.4f}" for x in r[1:]))
