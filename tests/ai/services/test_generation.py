"""The level generator: certified minimum, uniqueness, determinism, design rules, CLI, cancel.

Levels are made with one exact solver and re-checked with different ones: the
registry's ``brute`` (and ``cpsat`` when installed), and an independent brute force
over *every* brickable subset written here (no reachability pruning).
"""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from ai import facade
from ai.kernel.context import SolveContext
from ai.services.generation import difficulty_spec, endless_levels, generate_levels, next_level
from ai.services.generation.candidates import plant_candidate, trajectories
from ai.services.generation.compartments import plan_rooms
from ai.services.generation.filters import has_alternative, too_easy_by_sampling
from ai.services.generation.generator import GeneratedLevel, GenerationStats, pick_certifier
from ai.services.generation.layout import make_layout
from ai.services.generation.parallel import RunSpec, generate_run
from ai.services.generation.readset import CHUNK, CHUNK_CELLS, chunk_rows, search
from ai.services.rating import rate_level
from game.app.jobs import Execution, JobEventKind, JobRunner
from game.core.batch import simulate_brick_sets
from game.core.level import Level
from game.cli.main import main
from game.core.simulation import simulate
from tests.conftest import ORIGINAL_SOLUTIONS
from tests.stopping import CancelOnPoll, cancelled

MAKER = pick_certifier()  # "search"
CHECKERS = [name for name in ("brute", "cpsat", "milp") if name != MAKER]


def all_winners(level: Level, size: int) -> list[tuple[tuple[int, int], ...]]:
    """Every winning brick set of exactly ``size`` bricks, by plain enumeration of all brickable cells."""
    cells = level.brickable_cells
    combos = list(itertools.combinations(cells, size))
    if not combos:
        return []
    masks = np.zeros((len(combos), level.height, level.width), dtype=bool)
    for i, combo in enumerate(combos):
        for r, c in combo:
            masks[i, r, c] = True
    won = simulate_brick_sets(level, masks, check=False).won
    return [combos[i] for i in np.flatnonzero(won)]


def assert_exact_min(level: Level, k: int) -> None:
    """No set of fewer than ``k`` bricks wins, some set of ``k`` does (independent brute force)."""
    for size in range(k):
        assert not all_winners(level, size), f"a {size}-brick set wins"
    assert all_winners(level, k)


@pytest.fixture(scope="module")
def small_levels() -> list[GeneratedLevel]:
    return list(generate_levels(8, 10, bricks=2, count=3, seed=11, solver=MAKER))


@pytest.fixture(scope="module")
def unique_levels() -> list[GeneratedLevel]:
    return list(generate_levels(8, 10, bricks=2, count=2, unique=True, seed=5, solver=MAKER))


def test_min_bricks_rechecked_by_other_solvers(small_levels: list[GeneratedLevel]) -> None:
    assert len(small_levels) == 3
    for gen in small_levels:
        level = gen.level
        assert gen.min_bricks == 2 and level.budget == 2 and gen.solver == MAKER
        assert_exact_min(level, 2)
        for name in CHECKERS[:1]:
            res = facade.solve(level, solver=name, mode="min", time_limit=30)
            assert res.solver != gen.solver
            assert res.min_bricks == 2, (name, res.describe(), level.to_text())


def test_unique_rechecked_by_other_solvers(unique_levels: list[GeneratedLevel]) -> None:
    assert len(unique_levels) == 2
    for gen in unique_levels:
        level = gen.level
        assert gen.unique and len(gen.solutions) == 1
        assert_exact_min(level, 2)
        assert all_winners(level, 2) == list(gen.solutions)
        for name in CHECKERS[:1]:
            res = facade.solve(level, solver=name, mode="all", time_limit=30)
            assert res.complete and res.solutions == gen.solutions, (name, res.describe())


def test_one_level_rechecked_by_cpsat(unique_levels: list[GeneratedLevel]) -> None:
    level = unique_levels[0].level
    res = facade.solve(level, solver="cpsat", mode="all", time_limit=60)
    assert res.min_bricks == 2 and res.complete and res.solutions == unique_levels[0].solutions


def test_deterministic_for_a_seed(small_levels: list[GeneratedLevel]) -> None:
    again = list(generate_levels(8, 10, bricks=2, count=3, seed=11, solver=MAKER))
    assert [g.level.to_text() for g in again] == [g.level.to_text() for g in small_levels]
    other = list(generate_levels(8, 10, bricks=2, count=1, seed=12, solver=MAKER))
    assert other[0].level.grid != small_levels[0].level.grid


def test_levels_follow_the_design_rules(small_levels: list[GeneratedLevel]) -> None:
    for gen in small_levels:
        level = gen.level
        walls = level.wall_map
        assert walls[0].all() and walls[-1].all() and walls[:, 0].all() and walls[:, -1].all()
        for r, c in level.targets:
            assert walls[r + 1, c], "targets stand on the ground"
        for lem in level.lemmings:
            assert walls[lem.row + 1, lem.col], "lemmings start on a ledge"
        assert level.frames == 3 * (level.height + level.width)
        assert level.title and "seed=11" in level.meta_value("generator")
        assert level.meta_value("min-bricks") == "2"


def test_layouts_look_designed() -> None:
    for seed in range(20):
        walls = make_layout(np.random.default_rng(seed), 16, 20)
        inner = walls[1:-1, 1:-1]
        assert 0.08 < inner.mean() < 0.5
        # Structure, not noise: most interior walls touch another wall horizontally or vertically.
        pad = np.pad(walls, 1)
        neighbours = pad[:-2, 1:-1] | pad[2:, 1:-1] | pad[1:-1, :-2] | pad[1:-1, 2:]
        isolated = walls & ~neighbours
        assert not isolated.any()
        assert (walls[1:-1, 1:-1] & ~walls[2:, 1:-1]).sum() >= 4  # platforms/ledges to stand on


def test_filters_reject_easy_levels() -> None:
    walk = Level.from_rows(["X    X", "X>  TX", "XXXXXX"], frames=10, budget=1)
    assert too_easy_by_sampling(walk, 1, np.random.default_rng(0)) == "too_easy_sampled"
    gap = Level.from_rows(["X> .TX", "XXX XX", "XXXXXX"], frames=10, budget=1)
    assert too_easy_by_sampling(gap, 1, np.random.default_rng(0)) is None
    assert not has_alternative(gap, ((1, 3),))


def test_readset_search_matches_the_original(original: Level) -> None:
    out = search(original, 3)
    assert out.exhausted and set(out.solutions) == ORIGINAL_SOLUTIONS and out.depth_proved == 2


def test_cli_writes_the_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["generate", "--size", "8x10", "--bricks", "1", "--count", "2", "--seed", "3",
                 "--out", str(tmp_path / "gen")])
    out, _ = capsys.readouterr()
    assert code == 0, out
    files = sorted((tmp_path / "gen").glob("*.txt"))
    assert [f.name for f in files] == ["gen_8x10_k1_s3_001.txt", "gen_8x10_k1_s3_002.txt"]
    for f in files:
        level = Level.load(f)
        assert level.budget == 1 and level.title and level.meta_value("generator").startswith("seed=3 ")
        assert_exact_min(level, 1)
    assert not list((tmp_path / "gen").glob(".*tmp"))  # atomic writes leave no temporary files


def test_cli_rejects_a_bad_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--size", "10by12", "--bricks", "1", "--out", str(tmp_path)]) == 2
    assert "--size must read HxW" in capsys.readouterr().err


def test_cancel_stops_generation() -> None:
    cancel = threading.Event()
    cancel.set()
    assert list(generate_levels(16, 20, 3, count=5, seed=1, context=SolveContext.create(cancel=cancel))) == []
    cancel = CancelOnPoll(30)  # mid-work: on the generator's 30th check
    levels = list(generate_levels(24, 32, 5, lemmings=2, count=50, seed=1, context=SolveContext.create(cancel=cancel)))
    done = time.perf_counter()
    assert cancel.fired_at is not None and done - cancel.fired_at < 5.0  # checked between candidates and depths
    assert len(levels) < 50


def test_progress_reports_snapshots() -> None:
    seen: list[GenerationStats] = []
    stats = GenerationStats()
    levels = list(generate_levels(8, 10, 1, count=1, seed=3, progress=seen.append, stats=stats))
    assert len(levels) == 1 and seen
    assert seen[-1].accepted == 1 and seen[-1].attempts == stats.attempts
    assert seen[-1] is not stats and sum(seen[-1].rejected.values()) == stats.attempts - 1


def test_endless_rises_in_difficulty() -> None:
    assert difficulty_spec(1).bricks == 1
    assert difficulty_spec(12).bricks > difficulty_spec(3).bricks
    stream = endless_levels(seed=2, per_difficulty=1)
    first, second = next(stream), next(stream)
    assert (first.difficulty, second.difficulty) == (1, 2)
    assert first.min_bricks == first.level.budget == 1
    one = next_level(1, seed=2)
    assert one is not None and one.level.to_text() == first.level.to_text()


def test_planting_trajectories_match_the_reference_simulator() -> None:
    for gen_seed in range(6):
        rng = np.random.default_rng(gen_seed)
        walls = make_layout(rng, 10, 12)
        rows = ["".join("X" if v else " " for v in row) for row in walls]
        free = [(r, c) for r in range(10) for c in range(12) if not walls[r, c]]
        (r0, c0), (r1, c1), (tr, tc) = (free[int(i)] for i in rng.choice(len(free), 3, replace=False))
        grid = [list(row) for row in rows]
        grid[r0][c0], grid[r1][c1], grid[tr][tc] = ">", "<", "T"
        level = Level.from_rows(["".join(g) for g in grid], frames=60, budget=3)
        bricks = {level.brickable_cells[int(i)] for i in rng.choice(len(level.brickable_cells), 3, replace=False)}
        run = simulate(level, bricks)
        starts = [(lem.row, lem.col, lem.direction) for lem in level.lemmings]
        paths = trajectories(walls, bricks, starts, 60, frozenset(level.targets))
        assert [list(t.path) for t in run.tracks] == paths


def test_next_level_runs_as_a_job_and_cancels() -> None:
    runner = JobRunner(execution=Execution.THREAD)
    done: list[object] = []
    try:
        handle = runner.submit(lambda ctx: next_level(1, seed=4, context=ctx, progress=ctx.progress),  # type: ignore[arg-type]
                               label="generate", on_done=lambda event: done.append(event.payload))
        assert handle.wait(30)
        runner.pump()
        assert done and done[0].difficulty == 1 and done[0].level.budget == 1  # type: ignore[attr-defined]
        started = threading.Event()

        def hard(ctx: SolveContext) -> object:
            started.set()
            ctx.cancel_events[0].wait(30)  # the test cancels first: no race with the machine's speed
            return next_level(12, seed=4, context=ctx, progress=ctx.progress)  # type: ignore[arg-type]

        ended: list[JobEventKind] = []
        handle = runner.submit(hard, label="generate", on_done=lambda e: ended.append(e.kind),
                               on_cancelled=lambda e: ended.append(e.kind))
        assert started.wait(30)
        handle.cancel()
        assert handle.wait(30)
        runner.pump()
        assert ended == [JobEventKind.CANCELLED]
    finally:
        runner.shutdown()


# ---------------------------------------------------------------- rooms, process pool, difficulty band
def test_rooms_tile_the_map() -> None:
    for h, w, k, n in [(40, 56, 7, 4), (24, 32, 6, 2), (30, 20, 6, 3), (16, 20, 3, 1)]:
        rooms = plan_rooms(h, w, k, n)
        assert sum(r.bricks for r in rooms) == k and sum(r.lemmings for r in rooms) == n
        assert all(r.bricks >= 1 and r.lemmings >= 1 for r in rooms)
        covered = {(r.top + i, r.left + j) for r in rooms for i in range(r.height) for j in range(r.width)}
        assert covered == {(i, j) for i in range(h) for j in range(w)}


def test_room_levels_rechecked_by_cpsat(tmp_path: Path) -> None:
    """Rooms certified one by one by the search; the whole level re-proved by CP-SAT and replayed."""
    spec = RunSpec(14, 22, bricks=4, lemmings=2, unique=True, seed=3, rooms=2, solver="search")
    (g,) = list(generate_run(spec, 1))
    level = g.level
    assert "rooms=2" in level.meta_value("generator") and level.budget == 4 and len(level.lemmings) == 2
    res = facade.solve(level, solver="cpsat", mode="all", time_limit=120)
    assert res.min_bricks == 4 and res.complete and res.solutions == g.solutions == (g.solutions[0],)
    path = tmp_path / "room.txt"
    level.save(path)
    assert main(["check", str(path)]) == 0


def test_pool_gives_the_same_levels_as_one_process() -> None:
    spec = RunSpec(10, 12, bricks=2, seed=4)
    one = [g.level.to_text() for g in generate_run(spec, 3, jobs=1)]
    two = [g.level.to_text() for g in generate_run(spec, 3, jobs=2)]
    assert one == two and len(set(one)) == 3


def test_big_level_within_a_minute() -> None:
    """40x56, K = 7, 4 lemmings: cut into rooms; the whole-level search confirms the minimum."""
    start = time.perf_counter()
    (g,) = list(generate_run(RunSpec(40, 56, bricks=7, lemmings=4, seed=11), 1, jobs=2))
    assert time.perf_counter() - start < 60
    assert (g.level.height, g.level.width, g.level.budget, len(g.level.lemmings)) == (40, 56, 7, 4)
    res = facade.solve(g.level, solver="search", time_limit=120)
    assert res.min_bricks == 7


def test_cli_jobs_progress_and_difficulty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "gen"
    code = main(["generate", "--size", "10x12", "--bricks", "2", "--count", "2", "--seed", "1", "--jobs", "2",
                 "--difficulty", "5-9", "--out", str(out_dir)])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert "levels" in err and "ETA" in err and "candidates" in err  # the progress bar
    files = sorted(out_dir.glob("*.txt"))
    assert len(files) == 2
    for f in files:
        assert 5 <= rate_level(Level.load(f)).score <= 9
        assert main(["check", str(f)]) == 0
    for bad in (["--jobs", "0"], ["--difficulty", "9-5"], ["--rooms", "3"]):
        assert main(["generate", "--size", "10x12", "--bricks", "2", "--out", str(tmp_path), *bad]) == 2


def test_unique_24x32_in_rooms_rechecked_by_cpsat() -> None:
    """24x32, K = 6, unique: two rooms certified by the search; CP-SAT re-proves the whole level unique."""
    (g,) = list(generate_run(RunSpec(24, 32, bricks=6, lemmings=2, unique=True, seed=11), 1, jobs=2))
    assert g.unique and len(g.solutions) == 1 and g.cpu_seconds > 0
    res = facade.solve(g.level, solver="cpsat", mode="all", time_limit=120)
    assert res.min_bricks == 6 and res.complete and res.solutions == g.solutions


def test_planting_gives_up_as_soon_as_it_is_told() -> None:
    calls = itertools.count(1)
    asked: list[int] = []

    def stop_on_third() -> bool:
        asked.append(next(calls))
        return len(asked) >= 3

    rng = np.random.default_rng(4)
    cand = plant_candidate(rng, make_layout(rng, 24, 32), bricks=3, lemmings=2, frames=120, stop=stop_on_third)
    assert cand is None and len(asked) == 3  # no more work once it said stop


def test_readset_search_stops_with_its_context(original: Level) -> None:
    out = search(original, 3, ctx=SolveContext.create(cancel=cancelled()))
    assert not out.exhausted and out.solutions == ()
    mid = search(original, 3, ctx=SolveContext.create(cancel=CancelOnPoll(2)))  # stops inside the first depths
    assert not mid.exhausted and mid.solutions == ()


def test_batches_stay_small_on_large_maps() -> None:
    big = Level.from_rows([">" + " " * 254 + "T"] + ["X" * 256] * 255, frames=1536, budget=3)
    rows = chunk_rows(big, True)
    assert 1 <= rows < CHUNK and rows * 258 * 258 <= CHUNK_CELLS
    assert chunk_rows(Level.from_rows(["> .T", "XX.X"], frames=5, budget=1), True) == CHUNK


def test_cli_time_limit_bounds_the_whole_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[SolveContext] = []

    def no_levels(spec: object, count: int, *, jobs: int = 1, context: SolveContext | None = None,
                  progress: object = None) -> list[GeneratedLevel]:
        assert context is not None
        seen.append(context)
        return []

    monkeypatch.setattr(facade, "generate_run", no_levels)
    assert main(["generate", "--size", "8x10", "--bricks", "1", "--time-limit", "5", "--out", str(tmp_path)]) == 1
    remaining = seen[0].remaining()
    assert remaining is not None and 0 < remaining <= 5.0
    assert "stopped: wrote 0 of 1 levels" in capsys.readouterr().err
