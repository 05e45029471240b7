"""Minesweeper bench: wins over G games per difficulty, and the time of each deduction step.

Usage: ``python -m bench.mines --games 1000 --workers 2 [--seed 1] [--only expert]``.  Every game starts
with a click in the top-left corner (safe: only the first cell is kept free).  One *deduction step*
is one exact analysis of the board (frontier enumeration with the global count); the step times are
measured inside the game process, so they include nothing but the analysis: wall clock (which
includes time the loaded machine gave to other processes) and CPU time of the process.  Prints one JSON line
per difficulty; the figures go to bench/results.md ("Minesweeper").
"""

from __future__ import annotations

import argparse
import json
import time

from ai.puzzles.mines.play import MAX_WORKERS, play_games
from game.core.puzzles.mines import Difficulty


def run(difficulty: Difficulty, games: int, seed: int, workers: int) -> dict[str, object]:
    """Play ``games`` games of ``difficulty``; wins, guesses and step-time figures."""
    width, height, mines = difficulty.size
    start = time.perf_counter()
    records = play_games(width, height, mines, games=games, seed=seed, workers=workers)
    wall = time.perf_counter() - start
    steps = sorted(s for r in records for s in r.step_seconds)
    cpu = sorted(s for r in records for s in r.step_cpu_seconds)
    wins = sum(1 for r in records if r.won)
    return {
        "difficulty": difficulty.value, "size": f"{width}x{height}/{mines}", "games": len(records), "wins": wins,
        "win_rate": round(wins / len(records), 4), "steps": len(steps),
        "step_ms_max": round(steps[-1] * 1000, 2) if steps else 0.0,
        "step_ms_p99": round(steps[min(len(steps) - 1, int(len(steps) * 0.99))] * 1000, 2) if steps else 0.0,
        "step_ms_median": round(steps[len(steps) // 2] * 1000, 2) if steps else 0.0,
        "step_cpu_ms_max": round(cpu[-1] * 1000, 2) if cpu else 0.0,
        "step_cpu_ms_p99": round(cpu[min(len(cpu) - 1, int(len(cpu) * 0.99))] * 1000, 2) if cpu else 0.0,
        "guesses_per_game": round(sum(r.guesses for r in records) / len(records), 2), "wall_s": round(wall, 1),
    }


def main() -> None:
    """Run the bench (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=MAX_WORKERS, choices=range(1, MAX_WORKERS + 1))
    parser.add_argument("--only", choices=[d.value for d in Difficulty], action="append")
    args = parser.parse_args()
    for difficulty in Difficulty:
        if args.only and difficulty.value not in args.only:
            continue
        print(json.dumps(run(difficulty, args.games, args.seed, args.workers)), flush=True)


if __name__ == "__main__":
    main()
