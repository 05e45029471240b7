"""Decomposition: the parts' combined answer equals the undecomposed solve on multi-compartment levels."""

from __future__ import annotations

import random
import threading

import pytest

from ai.facade import solve
from ai.kernel.base import SolveMode, SolveStatus
from ai.kernel.context import SolveContext
from ai.solvers.base import Outcome, Partial, SolverBase
from ai.solvers.reach import analyse
from ai.services.generation.random_levels import small_level
from ai.solvers.brute import BruteForceSolver
from ai.solvers.decompose import DecomposeSolver, split, sub_level
from ai.solvers.portfolio import PortfolioSolver
from ai.solvers.search import SearchSolver
from game.core.level import Level
from tests.level_builders import LARGE_FIRST, glue


def boxed(level: Level) -> Level:
    """``level`` inside a wall border (so it can be glued to others)."""
    width = level.width + 2
    rows = ["X" * width] + ["X" + row + "X" for row in level.grid] + ["X" * width]
    return Level.from_rows(rows, frames=level.frames, budget=level.budget)


def multi_compartment(seed: int) -> Level:
    """2 to 4 random small levels of equal size, boxed and glued (some share a compartment)."""
    rng = random.Random(seed)
    count = rng.randint(2, 4)
    parts: list[Level] = []
    while len(parts) < count:
        part = small_level(rng.randrange(10**6), max_side=5, max_lemmings=2)
        if part.height == 5 and part.width == 5:
            parts.append(boxed(part.with_limits(frames=12)))
    rows = [parts[:2], parts[2:]] if count > 2 else [parts]
    if len(rows[-1]) == 1:
        rows[-1].append(boxed(Level.from_rows(["X>  T", "XXXXX", "XXXXX", "XXXXX", "XXXXX"], 12, 0)))
    return glue(rows, budget=rng.randint(1, 5), title=f"multi {seed}")


@pytest.mark.parametrize("seed", range(40))
def test_matches_the_undecomposed_solve(seed: int) -> None:
    level = multi_compartment(seed)
    reference = solve(level, solver=BruteForceSolver(), mode="all", time_limit=60)
    assert reference.complete
    result = solve(level, solver=DecomposeSolver(inner=SearchSolver), mode="all", time_limit=60)
    assert result.status == reference.status
    assert result.min_bricks == reference.min_bricks
    if result.status == SolveStatus.OPTIMAL:
        assert result.stats.extra.get("solution_count", len(result.solutions)) == len(reference.solutions)
        assert result.complete and result.solutions == reference.solutions
    assert solve(level, solver="auto").min_bricks == reference.min_bricks


def test_parts_never_share_a_read_cell_or_use_another_start() -> None:
    for seed in range(40):
        level = multi_compartment(seed)
        parts = split(level, SolveContext.create())
        assert sorted(k for p in parts for k in p.lemmings) == list(range(len(level.lemmings)))
        for i, a in enumerate(parts):
            for b in parts[i + 1:]:
                assert not a.read_cells & b.read_cells
            starts = {(lem.row, lem.col) for lem in level.lemmings}
            assert not a.read_cells & starts


def test_a_part_that_would_brick_another_lemmings_start_is_merged() -> None:
    # the two lemmings read disjoint cells, but alone in its part the upper one (1,1) could use the
    # lower one's start (3,1) as a brick cell: split must keep them together
    level = Level.from_rows(["X X", "T<X", "   ", "T> ", "XXX"], frames=13, budget=1)
    info = analyse(level)
    assert not (info.lemmings[0].read_map & info.lemmings[1].read_map).any()
    assert info.lemmings[0].read_map.any() and info.lemmings[1].read_map.any()
    alone = analyse(sub_level(level, (0,)))
    assert alone.read_map[3, 1]
    assert len(split(level, SolveContext.create())) == 1
    assert solve(level, solver="auto", mode="all").solutions == solve(level, solver="brute", mode="all").solutions


def test_counts_a_product_of_millions_without_listing_it() -> None:
    # 8 compartments with 6 optimal solutions each: 6**8 = 1,679,616 optimal sets
    tile = Level.load(LARGE_FIRST)
    original = Level.from_rows(list(Level.load("levels/007_the_original.txt").grid), frames=20, budget=3)
    level = glue([[original] * 4] * 2, budget=24, title="8 originals")
    result = solve(level, solver="auto", mode="all", time_limit=60)
    assert result.status == SolveStatus.OPTIMAL and result.min_bricks == 24
    assert result.stats.extra["solution_count"] == 6 ** 8
    assert len(result.solutions) == 1000 and not result.complete
    assert result.stats.extra["used"] == "decompose"
    assert tile.height == 24  # the large suite's own compartments split too:
    assert len(split(tile, SolveContext.create())) == 3


def test_over_budget_sum_is_infeasible_and_cancel_stops() -> None:
    original = Level.load("levels/007_the_original.txt")
    level = glue([[original, original]], budget=5, title="two originals, 5 bricks")  # needs 3 + 3
    result = solve(level, solver="auto")
    assert result.status == SolveStatus.INFEASIBLE
    cancel = threading.Event()
    cancel.set()
    assert solve(level.with_limits(budget=6), solver=PortfolioSolver(), ctx=SolveContext.create(cancel=cancel)).status \
        == SolveStatus.CANCELLED
    assert solve(level.with_limits(budget=6), solver=PortfolioSolver(), ctx=SolveContext.create(time_limit=0.0)).status \
        == SolveStatus.TIMEOUT


def test_random_shared_levels_match_brute_force() -> None:
    # open levels where lemmings may share cells or starts: split must stay exact
    checked = 0
    for seed in range(300):
        level = small_level(seed, max_side=6, max_lemmings=3)
        if len(level.lemmings) < 2:
            continue
        reference = solve(level, solver=BruteForceSolver(), mode="all", time_limit=60)
        result = solve(level, solver=DecomposeSolver(inner=SearchSolver), mode="all", time_limit=60)
        assert (result.status, result.solutions) == (reference.status, reference.solutions), seed
        checked += 1
    assert checked > 50


#: Seeds of :func:`multi_compartment` that ``auto`` decomposes (solvable with 1 to 4 bricks, or infeasible).
DECOMPOSED = [43, 46, 49, 60, 70, 75, 79, 86, 90, 91, 102, 110, 179, 185]


@pytest.mark.parametrize("seed", DECOMPOSED)
def test_auto_in_mode_all_matches_brute_force_part_by_part(seed: int) -> None:
    level = multi_compartment(seed)
    reference = solve(level, solver=BruteForceSolver(), mode="all", time_limit=60)
    assert reference.complete
    result = solve(level, solver=PortfolioSolver(split_probe=0.0), mode="all", time_limit=60)
    assert result.stats.extra["used"] == "decompose"
    assert (result.status, result.min_bricks, result.solutions) == (reference.status, reference.min_bricks,
                                                                    reference.solutions)
    if result.status == SolveStatus.OPTIMAL:
        assert result.complete and result.solution_count == len(reference.solutions)
        cells = {tuple(b) for b in result.stats.extra["optimal_cells"]}
        assert cells == {b for s in reference.solutions for b in s}


class ListsOneThenStops(SolverBase):
    """Exact in mode ``min`` (the search); in mode ``all`` it finds one optimal set, then the user stops the
    solve (``cancel`` is set), as a limit would: a part whose listing cannot finish."""

    name, exact = "lists-one", True

    def __init__(self, cancel: threading.Event) -> None:
        self.cancel = cancel

    def core(self, level: Level, mode: SolveMode, ctx: SolveContext, partial: Partial) -> Outcome:
        best = SearchSolver().solve_in(level, SolveMode.MIN, ctx.child())
        if mode != SolveMode.ALL:
            return Outcome(best.status, solutions=[best.bricks] if best.bricks is not None else [], complete=True,
                           best_bound=best.stats.best_bound)
        assert best.bricks is not None
        partial.found(best.bricks)
        self.cancel.set()
        ctx.check()  # stopped: the base answers with the one set found
        raise AssertionError("unreachable")


def test_a_listing_stopped_keeps_the_proved_minimum_and_says_the_count_is_incomplete() -> None:
    original = Level.from_rows(list(Level.load("levels/007_the_original.txt").grid), frames=20, budget=3)
    level = glue([[original] * 3], budget=11, title="three originals, 2 spare bricks")
    reference = solve(level, solver=DecomposeSolver(inner=SearchSolver), mode="all", time_limit=60)
    assert reference.min_bricks == 9 and reference.solution_count == 6 ** 3
    cancel = threading.Event()
    ctx = SolveContext.create(cancel=cancel)
    result = solve(level, solver=DecomposeSolver(inner=lambda: ListsOneThenStops(cancel)), mode="all", ctx=ctx)
    assert cancel.is_set()
    assert result.status == SolveStatus.OPTIMAL and result.min_bricks == 9  # what mode min proves, never less
    assert not result.complete and result.solution_count is None
    assert result.stats.extra["solution_count_exact"] is False and "optimal_cells" not in result.stats.extra
    assert set(result.solutions) <= set(reference.solutions) and result.solutions  # replayed, each optimal
    assert result.message == ("count incomplete: at least 1 optimal set, 1 listed; part 1 of 3: cancelled after "
                              "1 optimal set; part 2 of 3: the same map as part 1; part 3 of 3: the same map as part 1")
    assert result.describe().endswith("1 optimal solution (maybe more)")


def test_mode_all_on_parts_proves_the_minimum_before_listing() -> None:
    # a cancelled listing still returns the minimum that mode min returns, with its bound
    original = Level.load("levels/007_the_original.txt")
    level = glue([[original, original]], budget=7, title="two originals, 1 spare brick")
    minimum = solve(level, solver=DecomposeSolver(inner=SearchSolver), mode="min")
    cancel = threading.Event()
    every = solve(level, solver=DecomposeSolver(inner=lambda: ListsOneThenStops(cancel)), mode="all",
                  ctx=SolveContext.create(cancel=cancel))
    assert every.min_bricks == minimum.min_bricks == 6 and every.stats.best_bound == minimum.stats.best_bound == 6


def test_parts_after_a_stopped_listing_keep_their_minimum_set() -> None:
    original = Level.from_rows(list(Level.load("levels/007_the_original.txt").grid), frames=20, budget=3)
    mirrored = Level.from_rows([row[::-1].translate(str.maketrans("<>", "><")) for row in original.grid],
                               frames=20, budget=3)
    level = glue([[original, mirrored]], budget=6, title="the original and its mirror")
    reference = solve(level, solver=DecomposeSolver(inner=SearchSolver), mode="all", time_limit=60)
    assert reference.complete
    cancel = threading.Event()
    result = solve(level, solver=DecomposeSolver(inner=lambda: ListsOneThenStops(cancel)), mode="all",
                   ctx=SolveContext.create(cancel=cancel))
    assert result.min_bricks == reference.min_bricks == 6 and len(result.solutions) == 1
    assert result.solutions[0] in reference.solutions and len(reference.solutions) == 36
    assert result.message.endswith("part 2 of 2: cancelled before its listing began (its minimum set only)")
