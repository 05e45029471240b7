"""Level generation speed: seconds per certified level at a few sizes, and where candidates die.

``python bench/generation.py [--count 5] [--seed 1] [--only 10x12]``; ``--update`` rewrites
the "## Level generation" section of bench/results.md.  Wall time is what a player or
``main.py generate`` waits; CPU time is this process alone (the machine is shared).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.services.generation.filters import REASONS  # noqa: E402
from ai.services.generation.generator import GenerationStats, generate_levels, pick_certifier  # noqa: E402
from bench.results import update_section  # noqa: E402


@dataclass(frozen=True)
class Case:
    """One benchmark configuration."""

    height: int
    width: int
    bricks: int
    lemmings: int = 1
    unique: bool = False

    @property
    def label(self) -> str:
        """E.g. ``16x20 K=3, 2 lemmings, unique``."""
        text = f"{self.height}x{self.width} K={self.bricks}, {self.lemmings} lemming{'s' if self.lemmings > 1 else ''}"
        return text + (", unique" if self.unique else "")


CASES = (
    Case(10, 12, 2),
    Case(10, 12, 2, unique=True),
    Case(16, 20, 3),
    Case(16, 20, 3, lemmings=2),
    Case(16, 20, 3, unique=True),
    Case(24, 32, 4, lemmings=2),
)


def run_case(case: Case, count: int, seed: int, solver: str) -> tuple[GenerationStats, float, float]:
    """Generate ``count`` levels; return the stats, wall seconds and CPU seconds."""
    stats = GenerationStats()
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in generate_levels(case.height, case.width, case.bricks, None, case.lemmings, count, case.unique,
                             seed, solver=solver, stats=stats):
        pass
    return stats, time.perf_counter() - wall, time.process_time() - cpu


def endless_rows(top: int, count: int, seed: int, solver: str) -> list[str]:
    """Seconds per level at each Endless difficulty 1..``top`` (``ai.services.generation.endless``)."""
    from ai.services.generation.endless import difficulty_spec

    rows = [
        "", f"Endless mode, {count} levels per difficulty (`difficulty_spec`):", "",
        "| difficulty | size | K | lemmings | unique | wall s / level | CPU s / level | candidates / level |",
        "|---:|---|---:|---:|---|---:|---:|---:|",
    ]
    for d in range(1, top + 1):
        spec = difficulty_spec(d)
        case = Case(spec.height, spec.width, spec.bricks, spec.lemmings, spec.unique)
        stats, wall, cpu = run_case(case, count, seed * 1000 + d, solver)
        n = max(stats.accepted, 1)
        rows.append(
            f"| {d} | {spec.height}x{spec.width} | {spec.bricks} | {spec.lemmings} | {'yes' if spec.unique else 'no'} "
            f"| {wall / n:.2f} | {cpu / n:.2f} | {stats.attempts / n:.0f} |"
        )
        print(rows[-1], flush=True)
    return rows


SHORT = {
    "planting_failed": "plant", "clustered": "clustered", "too_easy_sampled": "easy (sampled)", "too_easy_proved": "easy (search)",
    "not_unique_swap": "not unique (swap)", "not_unique_search": "not unique (search)",
    "duplicate": "dup", "exact_rejected": "exact: no", "exact_gave_up": "exact: gave up",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=5, help="levels per case (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--solver", default=None, help="certifying exact solver (default: the generator's)")
    parser.add_argument("--only", default=None, help="run only the cases whose label contains this text")
    parser.add_argument("--compare", default="cpsat",
                        help="also certify the first case with this solver, for comparison ('' to skip)")
    parser.add_argument("--endless", type=int, default=10, help="also time Endless difficulties 1..N (0: skip)")
    parser.add_argument("--update", action="store_true", help="write bench/results.md")
    args = parser.parse_args()
    solver = pick_certifier(args.solver)
    rows = [
        "| case | levels | wall s / level | CPU s / level | candidates / level | rejected | exact solves (s) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    reasons = ["", "Rejections by reason (share of all candidates):", ""]
    stages = ["", "Wall time by stage (seconds, whole case):", ""]
    for case in CASES:
        if args.only and args.only not in case.label:
            continue
        stats, wall, cpu = run_case(case, args.count, args.seed, solver)
        n = max(stats.accepted, 1)
        rows.append(
            f"| {case.label} | {stats.accepted} | {wall / n:.2f} | {cpu / n:.2f} | {stats.attempts / n:.0f} "
            f"| {stats.rejection_rate:.1%} | {stats.exact_calls} ({stats.exact_seconds:.1f}) |"
        )
        share = ", ".join(
            f"{SHORT[k]} {stats.rejected[k] / max(stats.attempts, 1):.0%}" for k in REASONS if stats.rejected[k]
        )
        reasons.append(f"- {case.label}: {share}")
        stages.append(f"- {case.label}: " + ", ".join(f"{k} {v:.1f}" for k, v in stats.stage_seconds.items()))
        print(rows[-1], flush=True)
    if not args.only and args.compare and args.compare != solver:
        case = CASES[0]
        stats, wall, cpu = run_case(case, args.count, args.seed, args.compare)
        n = max(stats.accepted, 1)
        rows.append(
            f"| {case.label}, certified by `{args.compare}` | {stats.accepted} | {wall / n:.2f} | {cpu / n:.2f} "
            f"| {stats.attempts / n:.0f} | {stats.rejection_rate:.1%} | {stats.exact_calls} ({stats.exact_seconds:.1f}) |"
        )
        print(rows[-1], flush=True)
    endless = endless_rows(args.endless, args.count, args.seed, solver) if args.endless and not args.only else []
    lines = [
        f"{args.count} levels per case, seed {args.seed}, certified by the `{solver}` solver "
        f"(mode `min`, or `all` for unique); N = 3 x (H + W); "
        f"{os.cpu_count()} cores shared with other jobs, Python {platform.python_version()}.",
        "",
        *rows,
        *reasons,
        *stages,
        *endless,
        "",
        "Command: `python bench/generation.py --update`.",
    ]
    print("\n".join(lines))
    if args.update:
        update_section("Level generation", "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
