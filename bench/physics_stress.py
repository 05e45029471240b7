"""Differential stress of every exact solver under random physics, beyond the test suite's 29 physics.

For each physics seed in ``[FIRST, LAST)`` (:func:`game.core.physics.random_physics`), the first small random
levels (:func:`ai.services.generation.random_levels.small_level`) that are winnable with bricks (3) and that cannot be
won (1) are solved in mode ``all`` by every exact solver configuration; the minimum and the set of optimal
brick sets must equal an enumeration of every brick set with the reference simulator.  Prints each mismatch
and a summary line; exit status 1 when any answer differs.

    python bench/physics_stress.py FIRST LAST [--side 6] [--frames 12] [--budget 2]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from ai.facade import solve  # noqa: E402
from ai.kernel.base import SolveStatus  # noqa: E402
from ai.services.generation.random_levels import small_level  # noqa: E402
from game.core.level import Level  # noqa: E402
from game.core.physics import random_physics  # noqa: E402
from game.core.simulation import simulate  # noqa: E402

Answer = tuple[int | None, tuple[tuple[tuple[int, int], ...], ...]]

#: The solver configurations compared: (name, options).
SOLVERS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("brute", {}), ("cpsat", {}), ("cpsat", {"primal_seconds": 0}), ("cpsat", {"encoding": "time"}),
    ("cpsat", {"primal_seconds": 0, "bounded": "frames"}),
    ("cpsat", {"primal_seconds": 0, "bounded": "states"}), ("search", {}), ("milp", {}),
    ("milp", {"formulation": "flow"}), ("milp", {"formulation": "product"}), ("milp", {"bounded": "frames"}),
    ("milp", {"bounded": "states"}), ("milp", {"bounded": "frames", "formulation": "flow"}), ("auto", {}))


def enumerated(level: Level) -> Answer:
    """The minimum and every optimal set, by the reference simulator on every brick set up to the budget."""
    cells = [(int(r), int(c)) for r, c in np.argwhere(level.brickable_map)]
    for size in range(level.budget + 1):
        wins = [combo for combo in itertools.combinations(cells, size) if simulate(level, combo).won]
        if wins:
            return size, tuple(sorted(tuple(sorted(w)) for w in wins))
    return None, ()


def answered(level: Level, name: str, options: dict[str, Any]) -> Answer | str:
    """A solver's minimum and optimal sets in mode ``all`` (``"incomplete"`` when it did not finish)."""
    result = solve(level, solver=name, mode="all", **options)
    if not result.complete:
        return "incomplete"
    if result.status == SolveStatus.INFEASIBLE:
        return None, ()
    return result.min_bricks, tuple(sorted(tuple(sorted(s)) for s in result.solutions))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=int)
    parser.add_argument("last", type=int)
    parser.add_argument("--side", type=int, default=6, help="largest map side (default 6)")
    parser.add_argument("--frames", type=int, default=12, help="most frames (default 12)")
    parser.add_argument("--budget", type=int, default=2, help="most bricks (default 2)")
    args = parser.parse_args()
    start = time.perf_counter()
    levels = answers = mismatches = not_stopping = 0
    for seed in range(args.first, args.last):
        physics = random_physics(np.random.default_rng(seed), name=f"random{seed}")
        wanted = {"bricks": 3, "lost": 1}
        for index in range(60):
            base = small_level(seed * 100 + index, max_side=args.side)
            level = base.with_limits(frames=min(base.frames, args.frames),
                                     budget=min(base.budget, args.budget)).with_physics(physics)
            truth = enumerated(level)
            kind = "lost" if truth[0] is None else "bricks" if truth[0] else None
            if kind is None or not wanted[kind]:
                continue
            wanted[kind] -= 1
            levels += 1
            not_stopping += not physics.targets_stop
            for name, options in SOLVERS:
                got = answered(level, name, options)
                answers += 1
                if got != truth:
                    mismatches += 1
                    print(f"MISMATCH physics {seed} level {index} {name} {options}: {got} != {truth}", flush=True)
            if not any(wanted.values()):
                break
    print(f"physics {args.first}..{args.last - 1}: {levels} levels ({not_stopping} where targets do not stop), "
          f"{answers} answers, {mismatches} mismatches, {time.perf_counter() - start:.0f} s")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
