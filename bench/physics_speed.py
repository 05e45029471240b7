"""Exact solvers under other physics: the same maps solved under every shipped physics.

Each map is a random 16x24 platform map (the generator's) with 3 lemmings and N = 40.  Under each
physics the same number of bricks is planted on cells the lemmings' runs read (a cell some branch of
that physics needs), and the targets go where the lemmings end: every level is winnable, of the same
size under every physics.  With ``--min-bricks M`` a level is kept only when its minimum (the search's)
is exactly M under that physics, so every physics gets problems of the same difficulty (a 1-brick
level is settled by trying each single brick, a 2-brick level needs a model).  Each exact solver solves
each level (mode ``min`` by default: the proved minimum); the section
``Solvers under other physics`` of ``bench/results.md`` gets the median seconds per solver and
physics, and the ratio to classic.

    python bench/physics_speed.py [--maps 6] [--time-limit 20] [--mode min] [--min-bricks M]
                                  [--solvers cpsat cpsat:primal_seconds=0 milp search auto] [--random K [--random-seed S]]

With ``--random K`` the first K random physics of the class (:func:`game.core.physics.random_physics`, seeds from
S) that make levels of that minimum on enough of the maps are timed too, each against classic on the same
maps.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from ai import facade  # noqa: E402
from ai.services.generation.random_levels import _platform_map  # noqa: E402
from bench.results import update_section  # noqa: E402
from game.core.level import Level  # noqa: E402
from game.core.physics import Physics, random_physics  # noqa: E402
from game.core.physics_catalog import SHIPPED  # noqa: E402
from game.core.physics_views import views
from game.core.simulation import simulate  # noqa: E402

HEIGHT, WIDTH, FRAMES, LEMMINGS, PLANTED = 16, 24, 40, 3, 4
SECTION = "Solvers under other physics"


def base_map(seed: int) -> list[str]:
    """A random platform map with the lemmings' starts (no target yet)."""
    rng = random.Random(seed)
    grid = _platform_map(rng, HEIGHT, WIDTH)
    empty = [(r, c) for r in range(1, HEIGHT - 1) for c in range(1, WIDTH - 1) if grid[r][c] == " "]
    for r, c in rng.sample([cell for cell in empty if cell[0] < HEIGHT // 2], LEMMINGS):
        grid[r][c] = rng.choice("<>")
    return ["".join(row) for row in grid]


def read_cells(level: Level, bricks: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Brickable cells the runs read with ``bricks`` (the cells of the branch taken at each step)."""
    solid = level.obstacle_map(bricks)
    physics = level.physics
    out: dict[tuple[int, int], None] = {}
    for track in simulate(level, bricks, enforce_budget=False).tracks:
        for r, c, d in track.path[:-1]:
            for branch in views(physics).branches:
                cells = branch.cells((r, c, d))
                if all((not level.in_bounds(*cell) or bool(solid[cell])) == want for cell, want in cells):
                    out.update((cell, None) for cell, _ in cells
                               if level.in_bounds(*cell) and level.brickable_map[cell] and cell not in bricks)
                    break
    return list(out)


def level_under(seed: int, physics: Physics, attempts: int = 40, min_bricks: int | None = None) -> Level | None:
    """The map of ``seed`` under ``physics`` with targets where the lemmings end under planted bricks
    (``None`` when no attempt gives a level that needs a brick, or exactly ``min_bricks`` when given)."""
    rng = random.Random(seed * 7919 + 1)
    rows = base_map(seed)
    probe = Level.from_rows(rows[:-1] + [rows[-1][:-1] + "T"], frames=FRAMES, budget=HEIGHT * WIDTH,
                            physics=physics)
    starts = {(lem.row, lem.col) for lem in probe.lemmings}
    for _ in range(attempts):
        bricks: list[tuple[int, int]] = []
        for _ in range(PLANTED):
            cells = read_cells(probe, bricks)
            if not cells:
                break
            bricks.append(rng.choice(cells))
        ends = {track.path[-1][:2] for track in simulate(probe, bricks, enforce_budget=False).tracks}
        if ends & starts or ends & set(bricks) or len(ends) < LEMMINGS:
            continue
        grid = [list(row) for row in rows]
        for r, c in ends:
            grid[r][c] = "T"
        level = Level.from_rows(["".join(row) for row in grid], frames=FRAMES, budget=PLANTED + 2,
                                physics=physics, title=f"physics speed #{seed} {physics.name}")
        if simulate(level).won:
            continue
        if min_bricks is None or facade.solve(level, solver="search", mode="min").min_bricks == min_bricks:
            return level
    return None


def solver_spec(spec: str) -> tuple[str, dict[str, object]]:
    """``name`` or ``name:key=value,...`` (a solver with options, values read as numbers when they are).

    >>> solver_spec("cpsat:primal_seconds=0,encoding=time")
    ('cpsat', {'primal_seconds': 0, 'encoding': 'time'})
    """
    name, _, rest = spec.partition(":")
    options: dict[str, object] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        try:
            options[key] = int(value)
        except ValueError:
            try:
                options[key] = float(value)
            except ValueError:
                options[key] = value
    return name, options


def time_solvers(levels: dict[str, list[Level]], solvers: list[str], mode: str, time_limit: float
                 ) -> tuple[dict[tuple[str, str], list[float]], dict[tuple[str, str], int]]:
    """Seconds per solve of every solver on every level (by physics name), and the unproved counts."""
    times: dict[tuple[str, str], list[float]] = {}
    unsolved: dict[tuple[str, str], int] = {}
    for solver in solvers:
        for name, group in levels.items():
            for lv in group:
                start = time.perf_counter()
                solver_name, options = solver_spec(solver)
                result = facade.solve(lv, solver=facade.get_solver(solver_name, **options), mode=mode, time_limit=time_limit)
                seconds = time.perf_counter() - start
                times.setdefault((solver, name), []).append(seconds)
                if result.status.value != "optimal" or (mode == "all" and not result.complete):
                    unsolved[(solver, name)] = unsolved.get((solver, name), 0) + 1
                print(f"{solver:7.7s} {name:9s} {lv.title:40s} {seconds:7.3f} s  {result.describe()[:60]}",
                      flush=True)
    return times, unsolved


def cell(times: dict[tuple[str, str], list[float]], unsolved: dict[tuple[str, str], int], solver: str, name: str,
         base: str = "classic") -> str:
    """``median (ratio to base)`` of one table cell."""
    med, ref = statistics.median(times[(solver, name)]), statistics.median(times[(solver, base)])
    miss = unsolved.get((solver, name), 0)
    return f"{med:.3f} ({med / ref:.2f}x)" + (f", {miss} unproved" if miss else "")


def random_table(count: int, first_seed: int, maps: int, min_bricks: int, solvers: list[str], mode: str,
                 time_limit: float, stops: bool | None = None) -> list[str]:
    """Random physics of the class (seeds ``first_seed, ...``; only those whose targets stop lemmings, or only
    those whose targets do not, when ``stops`` says so), each against classic on the same maps: up to ``maps``
    maps where both have a level of minimum ``min_bricks``; the table's rows."""
    rows = ["| physics (targets stop) | maps | " + " | ".join(solvers) + " |", "|---" * (len(solvers) + 2) + "|"]
    seed = first_seed
    while count > 0 and seed < first_seed + 40 * count:
        physics = random_physics(np.random.default_rng(seed), name=f"random{seed}")
        seed += 1
        if stops is not None and physics.targets_stop != stops:
            continue
        pairs: dict[str, list[Level]] = {"classic": [], physics.name: []}
        for map_seed in range(10 * maps):
            theirs = level_under(map_seed, physics, min_bricks=min_bricks)
            ours = level_under(map_seed, SHIPPED["classic"], min_bricks=min_bricks) if theirs is not None else None
            if theirs is not None and ours is not None:
                pairs["classic"].append(ours)
                pairs[physics.name].append(theirs)
            if len(pairs["classic"]) == maps:
                break
        if len(pairs["classic"]) < max(3, maps // 2):
            continue  # too few maps where this physics makes levels of that minimum
        count -= 1
        times, unsolved = time_solvers(pairs, solvers, mode, time_limit)
        mark = "yes" if physics.targets_stop else "no"
        rows.append(f"| {physics.name} ({mark}) | {len(pairs['classic'])} | "
                    + " | ".join(cell(times, unsolved, solver, physics.name) for solver in solvers) + " |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps", type=int, default=6)
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--solvers", nargs="+", default=["cpsat", "cpsat:primal_seconds=0", "milp", "search", "auto"],
                        help="solvers, each NAME or NAME:KEY=VALUE,... (cpsat:primal_seconds=0 is CP-SAT's model alone, "
                             "without the search's minimum first)")
    parser.add_argument("--mode", choices=["min", "all"], default="min")
    parser.add_argument("--min-bricks", type=int, default=None,
                        help="keep only levels whose minimum is exactly this under each physics")
    parser.add_argument("--random", type=int, default=0, metavar="K",
                        help="also K random physics of the class, each against classic on maps where both have a "
                             "level of minimum --min-bricks (2 when not given)")
    parser.add_argument("--random-seed", type=int, default=8000, help="seed of the first random physics tried")
    parser.add_argument("--random-stops", choices=["any", "yes", "no"], default="any",
                        help="only random physics whose targets stop lemmings (yes) or do not (no)")
    parser.add_argument("--random-only", action="store_true", help="only the random physics' table")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    for spec in args.solvers:
        name, options = solver_spec(spec)
        try:
            facade.get_solver(name, **options)
        except (KeyError, TypeError, ValueError) as exc:
            parser.error(f"--solvers {spec}: {exc}")
    physics_list = list(SHIPPED.values()) if not args.random_only else [SHIPPED["classic"]]
    levels: dict[str, list[Level]] = {p.name: [] for p in physics_list}
    seed = 0
    while min(len(v) for v in levels.values()) < args.maps and seed < 20 * args.maps:
        made = [level_under(seed, p, min_bricks=args.min_bricks) for p in physics_list]
        if all(lv is not None for lv in made):
            for p, lv in zip(physics_list, made):
                assert lv is not None
                levels[p.name].append(lv)
        seed += 1
    times, unsolved = time_solvers(levels, args.solvers, args.mode, args.time_limit)
    names = [p.name for p in physics_list]
    lines = [
        f"`python bench/physics_speed.py --maps {args.maps} --time-limit {args.time_limit:g}"
        f"{'' if args.min_bricks is None else f' --min-bricks {args.min_bricks}'}`: the same "
        f"{len(levels[names[0]])} random {HEIGHT}x{WIDTH} platform maps, {LEMMINGS} lemmings, N = {FRAMES}, "
        f"{PLANTED} bricks planted on cells the runs read under each physics and targets where the lemmings "
        f"end (B = {PLANTED + 2})"
        f"{'' if args.min_bricks is None else f', every level of minimum exactly {args.min_bricks}'}; "
        f"mode `{args.mode}`, median seconds per solve (ratio to classic; "
        f"'unproved': stopped at the {args.time_limit:g} s limit, counted at it).",
        "",
        "| solver | " + " | ".join(names) + " |",
        "|---" * (len(names) + 1) + "|",
    ]
    for solver in args.solvers:
        lines.append(f"| {solver} | " + " | ".join(cell(times, unsolved, solver, name) for name in names) + " |")
    if args.random:
        lines += ["", f"Random physics (`--random {args.random} --random-seed {args.random_seed} --random-stops "
                      f"{args.random_stops}`), each against classic on the same maps (median seconds, ratio to "
                      "classic on those maps):", ""]
        lines += random_table(args.random, args.random_seed, args.maps,
                              2 if args.min_bricks is None else args.min_bricks, args.solvers, args.mode,
                              args.time_limit, {"any": None, "yes": True, "no": False}[args.random_stops])
    body = "\n".join(lines)
    print(body)
    if not args.no_write:
        update_section(SECTION, body)


if __name__ == "__main__":
    main()
