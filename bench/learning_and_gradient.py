"""Benchmark of the gradient solver, rule learning and the learned-rule solver.

Writes the sections "Gradient solver", "Rule learning" and "Learning from one game" of
``bench/results.md`` (other sections are left alone); the last one also draws
``docs/learning_curves.png``.

    python bench/learning_and_gradient.py [--seeds 8] [--time-limit 30] [--no-update]
    python bench/learning_and_gradient.py --only one-game     # one game, positions only, curves
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from ai.facade import solve  # noqa: E402
from ai.kernel.base import SolveStatus  # noqa: E402
from ai.solvers.gradient import GradientSolver  # noqa: E402
from ai.solvers.learned import LearnedRuleSolver  # noqa: E402
from ai.learning.active import active_learning  # noqa: E402
from ai.learning.dataset import random_games_dataset  # noqa: E402
from ai.learning.dataset import Dataset, random_games_datasets  # noqa: E402
from ai.learning.learn import DEFAULT_GAMES  # noqa: E402
from ai.learning.models import fit_tree  # noqa: E402
from ai.learning.models import fit_model  # noqa: E402
from ai.learning.verify import verify_model  # noqa: E402
from game.core.level import Level  # noqa: E402
from game.core.pack import pack_level_paths  # noqa: E402

BENCH = Path(__file__).resolve().parent
SUITES = {"levels": pack_level_paths(), "large": sorted((BENCH / "suites" / "large").glob("*.txt"))}


def passive_curve(seed: int, checkpoints: Sequence[int]) -> list[tuple[int, int]]:
    """``(games, total errors)`` of tree rules learned from the first ``g`` random games of one
    seed, for each ``g`` in ``checkpoints``."""
    rng = np.random.default_rng(seed)
    per_game = random_games_datasets(rng, max(checkpoints))
    out = []
    data = Dataset.empty()
    for g, d in enumerate(per_game, start=1):
        data = data.merge(d)
        if g in checkpoints:
            out.append((g, verify_model(fit_tree(data.features, data.labels)).total_errors))
    return out


def games_until_exact(seed: int, max_games: int = 200) -> int | None:
    """Fewest random games (of one seed's sequence) after which the tree rules are exact and
    stay exact at every later checkpoint tried (doubling), or ``None``."""
    rng = np.random.default_rng(seed)
    per_game = random_games_datasets(rng, max_games)
    prefix: list[Dataset] = []
    data = Dataset.empty()
    for d in per_game:
        data = data.merge(d)
        prefix.append(data)
    exact = {}

    def is_exact(g: int) -> bool:
        if g not in exact:
            d = prefix[g - 1]
            exact[g] = verify_model(fit_tree(d.features, d.labels)).exact
        return exact[g]

    first = None
    for g in range(1, max_games + 1):
        if is_exact(g):
            first = g
            break
    if first is None:
        return None
    # check it stays exact at a few later points
    g = first * 2
    while g <= max_games:
        if not is_exact(g):
            return games_until_exact_from(prefix, g, is_exact)
        g *= 2
    return first


def games_until_exact_from(prefix: list[Dataset], start: int, is_exact: Any) -> int | None:
    """Helper of :func:`games_until_exact`: search again from ``start``."""
    for g in range(start, len(prefix) + 1):
        if is_exact(g):
            return g
    return None


def _median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def bench_gradient(time_limit: float) -> str:
    """Success rate and time of the gradient solver on each suite, and brick counts vs the optimum."""
    rows = ["| suite | solved | optimal brick count | median s | max s |", "|---|---|---|---|---|"]
    detail = []
    for suite, paths in SUITES.items():
        if not paths:
            continue
        solved = optimal = 0
        times = []
        for p in paths:
            level = Level.load(p)
            ref = solve(level, solver="cpsat", mode="min", time_limit=60)
            start = time.perf_counter()
            r = solve(level, solver=GradientSolver(), time_limit=time_limit)
            secs = time.perf_counter() - start
            times.append(secs)
            ok = r.status == SolveStatus.FEASIBLE
            solved += ok
            best = ref.min_bricks
            optimal += bool(ok and best is not None and r.bricks is not None and len(r.bricks) == best)
            detail.append(f"{suite}/{p.name}: {r.status.value}, "
                          f"{len(r.bricks) if r.bricks is not None else '-'} bricks (optimum {best}), {secs:.2f} s")
            print(detail[-1], flush=True)
        rows.append(f"| {suite} | {solved}/{len(paths)} | {optimal}/{len(paths)} | {_median(times):.2f} | "
                    f"{max(times):.2f} |")
    body = [
        f"`GradientSolver()` defaults (8 restarts, Adam, 150 iterations x 3 rounds, annealed binarisation), "
        f"time limit {time_limit:.0f} s per level; \"optimal brick count\" compares with CP-SAT's proved minimum "
        "(the gradient solver itself never claims optimality).",
        "",
        *rows,
        "",
        "<details><summary>per level</summary>",
        "",
        *[f"- {d}" for d in detail],
        "",
        "</details>",
        "",
        "Command: `python bench/learning_and_gradient.py`.",
    ]
    return "\n".join(body)


def bench_learning(seeds: int) -> str:
    """Sample efficiency (passive vs active), model comparison, learned solver vs CP-SAT."""
    lines = []
    # -- passive vs active, games until exact
    passive, active, active_exact, active_examples = [], [], [], []
    for seed in range(seeds):
        g = games_until_exact(seed, max_games=200)
        passive.append(g)
        res = active_learning(np.random.default_rng(seed), max_games=30)
        ver = verify_model(res.model)
        active.append(res.games)
        active_exact.append(ver.exact)
        active_examples.append(sum(h["queries"] for h in res.history))
        print(f"seed {seed}: passive exact after {g} games; active {res.games} query levels, exact={ver.exact}",
              flush=True)
    lines += [
        "### Games until the learned rules are exact",
        "",
        "Decision tree, exhaustive verification over all 255,879 neighbourhood configurations that can occur "
        "(per channel).  Passive: random 10x10 games, 20 frames, 1-4 lemmings; the count is the first prefix of "
        "a seed's game sequence after which the rules are exact (and stay exact at 2x, 4x ... that count).  "
        "Active: query levels of at most 36 tiles of 3x3 (an 18x18 map, two frames); queries are committee "
        "disagreements, then probes of the tree's untested generalisations (a feature constant over all the "
        "examples of a leaf, flipped); stopped by the learner itself after two clean probe rounds; \"exact\" is "
        "checked afterwards.",
        "",
        "| seed | passive: random games | active: query levels | active exact | active queried configurations |",
        "|---|---|---|---|---|",
    ]
    for s in range(seeds):
        lines.append(f"| {s} | {passive[s]} | {active[s]} | {'yes' if active_exact[s] else 'no'} | "
                     f"{active_examples[s]} |")
    ok_passive = [g for g in passive if g is not None]
    lines += [
        "",
        f"Median: passive {_median([float(g) for g in ok_passive]):.0f} random games "
        f"(range {min(ok_passive)}-{max(ok_passive)}), active {_median([float(g) for g in active]):.0f} "
        f"query levels (range {min(active)}-{max(active)}); active exact in {sum(active_exact)}/{seeds} seeds.  "
        f"`python main.py learn` uses {DEFAULT_GAMES} random games by default.",
        "",
    ]
    # -- curve

    checkpoints = [1, 2, 3, 5, 10, 15, 20, 30, 50, 100]
    curves = [passive_curve(s, checkpoints) for s in range(min(seeds, 5))]
    lines += ["### Passive sample-efficiency curve (wrong predictions, both channels, out of 2 x 255,879)", "",
              "| games | " + " | ".join(f"seed {s}" for s in range(len(curves))) + " |",
              "|---|" + "---|" * len(curves)]
    for i, g in enumerate(checkpoints):
        lines.append(f"| {g} | " + " | ".join(f"{c[i][1]:,}" for c in curves) + " |")
    lines.append("")
    # -- model comparison
    lines += ["### Models (same data: 100 random games, seed 0)", "",
              "| model | wrong predictions | fit s |", "|---|---|---|"]
    data = random_games_dataset(np.random.default_rng(0), DEFAULT_GAMES)
    for kind in ("tree", "logreg", "mlp"):
        start = time.perf_counter()
        m = fit_model(kind, data.features, data.labels)
        secs = time.perf_counter() - start
        ver = verify_model(m)
        lines.append(f"| {kind} | {ver.total_errors:,} | {secs:.2f} |")
        print(f"model {kind}: {ver.total_errors} errors", flush=True)
    lines += ["", "The tree is kept (`--model best` picks it): it is exact, readable and converts to clauses.  "
              "Pairwise logistic regression cannot be exact: some rule terms are conjunctions of 3-4 features.", ""]
    # -- learned solver vs CP-SAT
    lines += ["### Learned-rule solver vs hand-coded CP-SAT (mode all, shipped rules)", "",
              "| suite | agree | learned median s | cpsat median s | median ratio | max ratio | learned max s |",
              "|---|---|---|---|---|---|---|"]
    learned = LearnedRuleSolver()
    for suite, paths in SUITES.items():
        if not paths:
            continue
        agree = 0
        tl, tc, ratios = [], [], []
        for p in paths:
            level = Level.load(p)
            times = {}
            results = {}
            for name, solver in (("cpsat", "cpsat"), ("learned", learned)):
                best = float("inf")
                for _ in range(2):
                    start = time.perf_counter()
                    r = solve(level, solver=solver, mode="all", time_limit=60)
                    best = min(best, time.perf_counter() - start)
                times[name], results[name] = best, r
            same = (results["cpsat"].status == results["learned"].status
                    and set(results["cpsat"].solutions) == set(results["learned"].solutions)
                    and results["cpsat"].complete == results["learned"].complete)
            agree += same
            tl.append(times["learned"])
            tc.append(times["cpsat"])
            ratios.append(times["learned"] / max(times["cpsat"], 1e-4))
            print(f"{suite}/{p.name}: learned {times['learned']:.3f} s, cpsat {times['cpsat']:.3f} s, agree={same}",
                  flush=True)
        lines.append(f"| {suite} | {agree}/{len(paths)} | {_median(tl):.3f} | {_median(tc):.3f} | "
                     f"{_median(ratios):.1f}x | {max(ratios):.1f}x | {max(tl):.2f} |")
    lines += ["", "Best of two runs per level, including model building; 1 CP-SAT worker each.  The learned solver "
              "uses its default *path* encoding: the moves of one lemming derived from the learned trees by exhaustive "
              "symbolic evaluation (at most one output per frame, targets absorbing), one visit literal and one frame "
              "variable per state; the one-clause-per-tree-path encoding (`encoding=\"time\"`) was 7-8x slower than "
              "CP-SAT on the large suite (median), see `docs/history/learned-solver.md`.", "",
              "Command: `python bench/learning_and_gradient.py`."]
    return "\n".join(lines)


def bench_one_game(seeds: int, curve_png: Path | None) -> str:
    """Exact-from-one-game per regime and seed, positions-only learning, learning curves."""
    from ai.learning.curves import learning_curves
    from game.cli.learn_run import plot_curves
    from ai.learning.positions_verify import verify_positions
    from ai.learning.learn import learn_positions, learn_rules

    rows = ["| seed | random, 1 game | many lemmings, 1 game | many + mirror, 1 game | "
            "active: 1 many game + queries | positions only: games until exact (s) |",
            "|---|---|---|---|---|---|"]
    counts = {"random": 0, "many": 0, "mirror": 0, "active": 0, "positions": 0}
    pos_games: list[int] = []
    timings: dict[str, list[float]] = {"many": [], "active": [], "positions": []}

    def errors(report: object) -> int:
        return verify_model(report.rules.model).total_errors  # type: ignore[attr-defined]

    for seed in range(seeds):
        e_rand = errors(learn_rules(games=1, seed=seed))
        t = time.perf_counter()
        e_many = errors(learn_rules(games=1, seed=seed, regime="many"))
        timings["many"].append(time.perf_counter() - t)
        e_mirror = errors(learn_rules(games=1, seed=seed, regime="many", mirror=True))
        t = time.perf_counter()
        act = learn_rules(games=1, seed=seed, regime="many", active=True, queries=3).rules
        timings["active"].append(time.perf_counter() - t)
        e_act = verify_model(act.model).total_errors
        found = None
        for g in range(1, 6):
            t = time.perf_counter()
            rep = learn_positions(games=g, seed=seed)
            secs = time.perf_counter() - t
            if verify_positions(rep.rules.model).exact:  # type: ignore[arg-type]
                found = (g, secs)
                break
        counts["random"] += e_rand == 0
        counts["many"] += e_many == 0
        counts["mirror"] += e_mirror == 0
        counts["active"] += e_act == 0
        if found:
            counts["positions"] += 1
            pos_games.append(found[0])
            timings["positions"].append(found[1])
        cell = lambda e: "exact" if e == 0 else f"{e:,} wrong"  # noqa: E731
        rows.append(f"| {seed} | {cell(e_rand)} | {cell(e_many)} | {cell(e_mirror)} | "
                    f"{cell(e_act)} after {act.meta['queries']} query level(s) | "
                    f"{f'{found[0]} ({found[1]:.1f} s)' if found else 'not within 5'} |")
        print(rows[-1], flush=True)
    lines = [
        "*Many lemmings*: one random 10x10 map (walls as in the random games), targets on 25-40 % of "
        "the free cells, one lemming on every free cell in each direction, each on its own occupancy map "
        "(lemmings do not interact), 20 frames.  *Mirror*: every example also mirrored left-right (an explicit "
        "symmetry prior, off by default: `learn --mirror`).  *Active*: the learner's own query levels (36 tiles of "
        "3x3, two frames) after that one game, stopped by the learner after one clean probe round (at most 3).  "
        "*Positions only*: the learner sees each lemming's position per frame and its start marker, never a "
        "direction; a CP-SAT search invents the hidden state (fewest state-changing table entries), decision "
        "trees generalise, and the verifier checks that positions agree with the real rule from every "
        "configuration (any naming of the hidden state).  Every figure is a fresh exhaustive verification "
        "(255,879 configurations per channel for the neighbourhood rules).",
        "",
        *rows,
        "",
        f"Exact from one game: random {counts['random']}/{seeds}, many lemmings {counts['many']}/{seeds}, "
        f"many + mirror {counts['mirror']}/{seeds}, active (1 game + at most 3 query levels) "
        f"{counts['active']}/{seeds}.  Positions only: exact within 5 games for {counts['positions']}/{seeds} seeds "
        f"(games needed: {', '.join(map(str, pos_games)) or '-'}).",
        f"Time per run (median): many lemmings {_median(timings['many']):.1f} s, active {_median(timings['active']):.1f} s, "
        f"positions only (at the games needed) {_median(timings['positions']):.1f} s, including the exhaustive "
        "verification.",
        "",
    ]
    if curve_png is not None:
        t = time.perf_counter()
        curves = learning_curves(range(seeds))
        plot_curves(curves, str(curve_png))
        lines += [f"### Learning curves (`python main.py learn --curve OUT.png`, seeds 0-{seeds - 1})", "",
                  f"![learning curves](../docs/{curve_png.name})", "",
                  "Wrong configurations (both channels, of 2 x 255,879): median [min-max] over seeds.", "",
                  "| curve | " + " | ".join(f"{g} games" for g in curves.checkpoints) + " |",
                  "|---|" + "---|" * len(curves.checkpoints)]
        for name in curves.errors:
            cells = {g: f"{med:,.0f} [{lo:,}-{hi:,}]" for g, med, lo, hi in curves.median_range(name)}
            lines.append(f"| {name} | " + " | ".join(cells.get(g, "") for g in curves.checkpoints) + " |")
        for name in ("random", "logreg", "mlp"):
            ups = curves.non_monotone(name)
            examples = "; ".join(f"seed {s}: {ea:,} at {ga} -> {eb:,} at {gb}" for s, ga, ea, gb, eb in ups[:3])
            lines += ["", f"Non-monotone ({name}): errors rise with more games for {len(ups)} of {seeds} seeds"
                      + (f" ({examples})" if examples else "") + "."]
        lines += ["", f"Curves computed in {time.perf_counter() - t:.0f} s."]
    lines += ["", "Command: `python bench/learning_and_gradient.py --only one-game` (2 cores shared with other "
              "work while measured: timings are noisy)."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks and update bench/results.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--no-update", action="store_true")
    parser.add_argument("--only", choices=["gradient", "learning", "one-game"], default=None)
    parser.add_argument("--no-curve", action="store_true", help="one-game: skip the learning curves")
    args = parser.parse_args(argv)
    from bench.results import update_section

    if args.only in (None, "gradient"):
        body = bench_gradient(args.time_limit)
        print(body)
        if not args.no_update:
            update_section("Gradient solver", body)
    if args.only in (None, "learning"):
        body = bench_learning(args.seeds)
        print(body)
        if not args.no_update:
            update_section("Rule learning", body)
    if args.only in (None, "one-game"):
        png = None if args.no_curve else BENCH.parent / "docs" / "learning_curves.png"
        body = bench_one_game(args.seeds, png)
        print(body)
        if not args.no_update:
            update_section("Learning from one game", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
