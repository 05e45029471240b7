"""Reverse Life: predecessors of random 25x25 boards and rule learning, against the notes' setting.

Boards as in the Kaggle "Conway's Reverse Game of Life 2020" setting of the reference notes: a random
board of random density (uniform 1-99 %), 5 warm-up generations, then the start; the target is the start
after k generations (k = 1..5).  For each board :func:`ai.puzzles.life.reverse.reverse` runs with the time limit;
its start is replayed; the figures compare its wrong cells with the trivial answer (the target as start)
and the all-dead board.  Learning: one 25x25 trajectory of 10 generations from a random 50 % board, per
rule and seed; the learned table is compared with the true rule on all 512 neighbourhoods.

Usage: ``python bench/life.py [--boards 8] [--time-limit 10] [--steps 1 2 3 4 5] [--update]`` (``--update``
rewrites the "Reverse Life" section of bench/results.md).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from ai.kernel.context import SolveContext  # noqa: E402
from ai.puzzles.life.learn import LearnStatus, disagreements, learn_rule  # noqa: E402
from ai.puzzles.life.reverse import POLISH_SHARE, ReverseStatus, reverse, wrong_cells  # noqa: E402
from game.core.puzzles.life.random_boards import random_case  # noqa: E402
from game.core.puzzles.life.rules import LIFE, Rule, parse_rule, trajectory  # noqa: E402


def bench_reverse(boards: int, limit: float, seed: int, ks: list[int]) -> list[str]:
    """One table row per k of ``ks`` (the load average at the row's end in its last column)."""
    rows = ["| k | boards (empty) | exact | none (proved) | approximate | mean wrong | mean trivial | "
            "mean all-dead | wrong / trivial | wrong / all-dead | mean s | max s | load |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for k in ks:
        rng = np.random.default_rng(seed + k)
        counts = {s: 0 for s in ReverseStatus}
        wrong, trivial, dead, times, empty = [], [], [], [], 0
        for _ in range(boards):
            case = random_case(rng, 25, k)
            empty += not case.target.any()
            t0 = time.perf_counter()
            result = reverse(case.target, k, SolveContext.create(time_limit=limit), LIFE)
            times.append(time.perf_counter() - t0)
            counts[result.status] += 1
            wrong.append(wrong_cells(result.start, case.target, LIFE, k))
            trivial.append(wrong_cells(case.target, case.target, LIFE, k))
            dead.append(int(case.target.sum()))
            print(f"k={k} density={case.density:.2f} alive={int(case.target.sum())} {result.status.value} "
                  f"wrong={wrong[-1]} trivial={trivial[-1]} {times[-1]:.1f}s", flush=True)
        ratio = np.mean(wrong) / np.mean(trivial) if np.mean(trivial) else 0.0
        to_dead = np.mean(wrong) / np.mean(dead) if np.mean(dead) else 0.0
        rows.append(f"| {k} | {boards} ({empty}) | {counts[ReverseStatus.EXACT]} | {counts[ReverseStatus.NONE]} | "
                    f"{counts[ReverseStatus.APPROXIMATE]} | {np.mean(wrong):.1f} | {np.mean(trivial):.1f} | "
                    f"{np.mean(dead):.1f} | {ratio:.2f} | {to_dead:.2f} | {np.mean(times):.1f} | {max(times):.1f} | "
                    f"{os.getloadavg()[0]:.1f} |")
    return rows


def bench_one_step(boards: int, limit: float, seed: int) -> str:
    """The issue's 1-step target on many boards: how many are answered (exact or proved none) within 2 s."""
    rng = np.random.default_rng(seed)
    times, answered, within, nonempty = [], 0, 0, 0
    for _ in range(boards):
        case = random_case(rng, 25, 1)
        nonempty += bool(case.target.any())
        t0 = time.perf_counter()
        result = reverse(case.target, 1, SolveContext.create(time_limit=limit), LIFE)
        times.append(time.perf_counter() - t0)
        done = result.status in (ReverseStatus.EXACT, ReverseStatus.NONE)
        answered += done
        within += done and times[-1] <= 2.0
    return (f"One step back on {boards} more boards (seed {seed}, {nonempty} with life, {limit:g} s limit): {answered} "
            f"answered (exact or proved none), {within} of them within 2 s; median {np.median(times):.2f} s, "
            f"slowest {max(times):.2f} s.")


def bench_learn(seeds: int) -> list[str]:
    """One table row per rule."""
    rng = np.random.default_rng(7)
    rules = [("Life", LIFE), ("HighLife", parse_rule("B36/S23")), ("Day & Night", parse_rule("B3678/S34678")),
             ("Seeds", parse_rule("B2/S"))]
    rules += [(f"random table {i + 1}", Rule(tuple(bool(v) for v in rng.random(512) < 0.5))) for i in range(2)]
    rows = ["| rule | trajectories | table right on all 512 | learner sure (B/S or all seen) | mean unseen entries | "
            "mean s |", "|---|---:|---:|---:|---:|---:|"]
    for name, rule in rules:
        right = sure = 0
        unseen, times = [], []
        for seed in range(seeds):
            start = np.random.default_rng(1000 + seed).random((25, 25)) < 0.5
            boards = trajectory(start, rule, 10)
            t0 = time.perf_counter()
            learned = learn_rule(boards)
            times.append(time.perf_counter() - t0)
            right += not disagreements(learned.rule, rule)
            sure += learned.status != LearnStatus.PARTIAL
            unseen.append(len(learned.unseen))
        rows.append(f"| {name} | {seeds} | {right} | {sure} | {np.mean(unseen):.1f} | {np.mean(times):.3f} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=8, help="boards per k (default 8)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per board (default 10)")
    parser.add_argument("--seeds", type=int, default=20, help="trajectories per rule (default 20)")
    parser.add_argument("--seed", type=int, default=2020)
    parser.add_argument("--steps", type=int, nargs="+", default=[1, 2, 3, 4, 5], help="the k to run (default 1-5)")
    parser.add_argument("--one-step", type=int, default=40, help="extra 1-step boards for the 2 s target (default 40)")
    parser.add_argument("--update", action="store_true", help="rewrite the section of bench/results.md")
    parser.add_argument("--title", default="Reverse Life", help="the section's title (default 'Reverse Life')")
    args = parser.parse_args()
    learn_rows = bench_learn(args.seeds)
    print("\n".join(learn_rows), flush=True)
    t0 = time.perf_counter()
    reverse_rows = bench_reverse(args.boards, args.time_limit, args.seed, args.steps)
    one_step = bench_one_step(args.one_step, args.time_limit, args.seed + 100) if args.one_step else ""
    load = os.getloadavg()[0]
    body = "\n".join([
        f"Random 25x25 torus boards as in the notes' setting (density uniform 1-99 %, 5 warm-up generations, "
        f"then k generations), {args.boards} boards per k (seed {args.seed}), Life, time limit "
        f"{args.time_limit:g} s per board; k = 1: SAT chain (CaDiCaL) first, then CP-SAT with 1 worker, then (no "
        f"exact start) the local search with the last {POLISH_SHARE:.0%} of the time; k >= 2: the SAT chain in a "
        f"child process for the whole time (k >= 3: a local search there too once the chain has stalled short of "
        f"level k - 1), beside the same CP-SAT chain (k = 2 only) then local search; {os.cpu_count()} "
        f"cores (load average {load:.1f} at the end), Python {platform.python_version()}; {time.perf_counter() - t0:.0f} s "
        "in all. 'trivial' = wrong cells of the target itself as the start; 'all-dead' = wrong cells of the all-dead "
        "start (the target's live cells); the ratios are ratios of the means (goal: wrong / all-dead at most 0.25 "
        "for every k); 'load' = load average when the row ended.", "",
        *reverse_rows, "", *([one_step, ""] if one_step else []),
        f"Rule learning: one 25x25 trajectory of 10 generations from a random 50 % board per seed "
        f"({args.seeds} seeds per rule).", "",
        *learn_rows, "",
        f"Command: `python bench/life.py --boards {args.boards} --time-limit {args.time_limit:g} --seeds {args.seeds} "
        f"--one-step {args.one_step} "
        f"--update" + (f" --title '{args.title}'`." if args.title != "Reverse Life" else "`."),
    ])
    print(body)
    if args.update:
        from bench.results import update_section

        update_section(args.title, body)


if __name__ == "__main__":
    main()
