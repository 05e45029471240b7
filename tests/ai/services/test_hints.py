"""Hints: optimal-first (remove first, the closest minimum solution, read order), deductions."""

from __future__ import annotations

import itertools
import random
import threading
from dataclasses import replace
from typing import Any

import pytest

from ai import facade
from ai.solvers import registry
from ai.services import hints
from ai.services.hints import (
    IMPOSSIBLE,
    PLACE,
    REMOVE,
    SOLVED,
    Hint,
    HintAction,
    compute_hint,
    extend_players_bricks,
    plan,
    read_order,
)
from ai.kernel.base import BrickSet, SolveMode, SolveStatus
from ai.kernel.context import SolveContext
from ai.services.generation.random_levels import small_level
from ai.solvers.base import Outcome, Partial, SolverBase
from ai.solvers.reach import reach_for
from game.core.level import Brick, Level
from game.core.simulation import simulate
from tests.ai.solvers.exact_helpers import ORIGINAL_SOLUTIONS, UNREACHABLE, original
from tests.conftest import REPO

LARGE_006 = REPO / "bench" / "suites" / "large" / "006_large.txt"
#: The four minimum solutions of the large suite's level 6 (optimum 4, budget 6).
LARGE_006_SOLUTIONS = {
    ((3, 27), (4, 12), (5, 2), (5, 14)),
    ((3, 27), (4, 12), (5, 14), (6, 2)),
    ((3, 27), (4, 13), (5, 2), (5, 14)),
    ((3, 27), (4, 13), (5, 14), (6, 2)),
}


def brute_minimum_solutions(level: Level, max_bricks: int = 3) -> tuple[BrickSet, ...]:
    """Every minimum brick set, by trying every set of 0, 1, 2, ... bricks (independent of the solvers)."""
    cells = level.brickable_cells
    for k in range(max_bricks + 1):
        found = tuple(s for s in itertools.combinations(cells, k) if simulate(level, s, enforce_budget=False).won)
        if found:
            return found
    return ()


def apply(bricks: set[Brick], hint: Hint) -> None:
    """Do what the hint says."""
    assert hint.cell is not None
    if hint.action == PLACE:
        assert hint.cell not in bricks
        bricks.add(hint.cell)
    else:
        assert hint.action == REMOVE and hint.cell in bricks
        bricks.remove(hint.cell)


def follow_hints(level: Level, start: set[Brick], optimal: set[BrickSet], limit: int = 30, *,
                 proved: bool = True) -> list[Hint]:
    """Apply hint after hint from ``start`` until solved; check every hint against ``optimal`` on the way."""
    bricks, seen = set(start), []
    minimum = len(next(iter(optimal)))
    for _ in range(limit):
        hint = compute_hint(level, bricks, SolveContext.create(time_limit=60))
        seen.append(hint)
        assert hint.min_bricks == minimum and hint.proved == proved
        if hint.action == SOLVED:
            assert tuple(sorted(bricks)) in optimal  # "solved" only on a minimum solution
            return seen
        assert hint.solution in optimal  # always towards a minimum solution ...
        best = max(len(bricks & set(s)) for s in optimal)
        assert len(bricks & set(hint.solution)) == best  # ... the one keeping most of the player's bricks
        if not any(bricks <= set(s) for s in optimal):
            assert hint.action == REMOVE  # bricks in no minimum solution: remove first
        if hint.action == PLACE:
            assert bricks | {hint.cell} <= set(hint.solution)  # a place hint fits a minimum solution
        assert hint.steps[0] == (hint.action, hint.cell)
        apply(bricks, hint)
    raise AssertionError(f"no solution after {limit} hints: {seen[-1]}")


def distance(bricks: set[Brick], optimal: set[BrickSet]) -> int:
    """Fewest single-brick changes from ``bricks`` to a minimum solution."""
    return min(len(bricks ^ set(s)) for s in optimal)


# ---------------------------------------------------------------------------- the pack's original level
def test_from_scratch() -> None:
    hint = compute_hint(original(), [])
    assert hint.action == PLACE and hint.solution in ORIGINAL_SOLUTIONS
    assert hint.cell in hint.solution
    assert hint.forced == ((6, 6),) and hint.proved and hint.min_bricks == 3
    used = {cell for sol in ORIGINAL_SOLUTIONS for cell in sol}
    assert not used & set(hint.never_useful)
    assert len(hint.never_useful) == len(original().brickable_cells) - len(used)


def test_extends_the_players_bricks() -> None:
    hint = compute_hint(original(), [(2, 1), (6, 4)])
    assert hint.action == PLACE and hint.cell == (6, 6)
    assert hint.solution == ((2, 1), (6, 4), (6, 6))


def test_remove_a_wrong_brick() -> None:
    hint = compute_hint(original(), [(2, 1), (3, 3), (6, 4)])
    assert hint.action == REMOVE and hint.cell == (3, 3)


def test_solved_and_impossible() -> None:
    sol = ORIGINAL_SOLUTIONS[0]
    assert simulate(original(), sol).won
    assert compute_hint(original(), sol).action == SOLVED
    hint = compute_hint(UNREACHABLE, [])
    assert hint.action == IMPOSSIBLE and set(hint.never_useful) == set(UNREACHABLE.brickable_cells)


def test_json_shape() -> None:
    data = compute_hint(original(), [(3, 3)]).to_json()
    assert list(data) == ["action", "cell", "solution", "min_bricks", "forced", "never_useful", "proved",
                          "steps", "note"]
    assert data["action"] == "remove" and data["cell"] == [3, 3]
    assert data["steps"][0] == ["remove", [3, 3]] and [a for a, _ in data["steps"]][1:] == ["place"] * 3


def test_action_is_an_enum_that_reads_as_its_value() -> None:
    assert isinstance(PLACE, HintAction) and PLACE == "place" and str(PLACE) == "place"


# ---------------------------------------------------------------------------- spare budget
def test_large_006_useless_brick_is_removed_first_then_the_optimum() -> None:
    """(22,19) is in no minimum solution: the first hint removes it, then four hints place the optimum
    (never a "solved" on 5 bricks)."""
    level = Level.load(LARGE_006)
    assert set(facade.solve(level, mode=SolveMode.ALL).solutions) == LARGE_006_SOLUTIONS
    first = compute_hint(level, [(22, 19)])
    assert first.action == REMOVE and first.cell == (22, 19) and (22, 19) in first.never_useful
    assert "no minimum solution" in first.note
    seen = follow_hints(level, {(22, 19)}, LARGE_006_SOLUTIONS)
    assert [h.action for h in seen] == [REMOVE, PLACE, PLACE, PLACE, PLACE, SOLVED]


def test_large_006_from_two_useless_read_bricks() -> None:
    level = Level.load(LARGE_006)
    info = reach_for(level, SolveContext.create())
    used = set().union(*LARGE_006_SOLUTIONS)
    useless = [c for c in info.read_cells if c not in used][:2]
    seen = follow_hints(level, set(useless), LARGE_006_SOLUTIONS)
    assert [h.action for h in seen[:2]] == [REMOVE, REMOVE]
    assert len(seen) == 2 + 4 + 1


def test_large_006_keeps_the_players_useful_bricks() -> None:
    level = Level.load(LARGE_006)
    start = {(4, 13), (6, 2), (22, 19)}  # together in exactly one minimum solution
    hint = compute_hint(level, start)
    assert hint.solution == ((3, 27), (4, 13), (5, 14), (6, 2))
    assert hint.action == REMOVE and hint.cell == (22, 19)
    seen = follow_hints(level, start, LARGE_006_SOLUTIONS)
    assert len(seen) - 1 == distance(start, LARGE_006_SOLUTIONS)  # the fewest changes


def test_a_winning_set_with_a_spare_brick_is_not_solved() -> None:
    level = Level.load(LARGE_006)
    best = ((3, 27), (4, 12), (5, 2), (5, 14))
    spare = next(c for c in level.brickable_cells if c not in best and simulate(level, best + (c,)).won
                 and c[0] > 15)
    hint = compute_hint(level, set(best) | {spare})
    assert hint.action == REMOVE and hint.cell == spare and hint.solution == best
    assert "5 bricks win, but 4 are enough" in hint.note
    assert compute_hint(level, best).action == SOLVED


def _random_cases() -> list[tuple[int, Level, set[BrickSet]]]:
    cases = []
    for seed in range(200):
        level = small_level(seed, max_side=6).with_limits(budget=3)
        if len(level.brickable_cells) > 20:
            continue
        optimal = brute_minimum_solutions(level)
        if optimal and len(optimal[0]) >= 1:
            cases.append((seed, level.with_limits(budget=len(optimal[0]) + 1), set(optimal)))
    return cases


def test_following_hints_from_useless_bricks_ends_optimal_on_random_levels() -> None:
    """Random small levels, spare budget, start from 1-2 bricks in no minimum solution: every hint agrees
    with brute force, the first one removes, and following them ends on a minimum solution in the fewest
    steps."""
    cases = _random_cases()
    assert len(cases) >= 25
    tried = 0
    for seed, level, optimal in cases:
        used = set().union(*optimal)
        useless = [c for c in level.brickable_cells if c not in used]
        if not useless:
            continue
        start = set(random.Random(seed).sample(useless, min(2, len(useless))))
        first = compute_hint(level, start)
        assert first.action == REMOVE and first.cell in start, (seed, first)
        assert set(first.forced) == set.intersection(*map(set, optimal)), seed
        assert set(first.never_useful) == set(level.brickable_cells) - used, seed
        seen = follow_hints(level, start, optimal)
        assert len(seen) - 1 == distance(start, optimal), seed
        tried += 1
    assert tried >= 20


def test_partial_player_sets_on_random_levels_get_the_closest_solution() -> None:
    """From half of one minimum solution plus a useless brick, the hint keeps the half."""
    for seed, level, optimal in _random_cases()[:20]:
        target = sorted(optimal)[-1]
        used = set().union(*optimal)
        useless = [c for c in level.brickable_cells if c not in used][:1]
        start = set(target[: len(target) // 2 + 1]) | set(useless)
        follow_hints(level, start, optimal)


# ---------------------------------------------------------------------------- cut-short enumeration
def test_incomplete_enumeration_still_keeps_the_players_bricks(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the list of minimum solutions is cut short, the target keeps the player's bricks (solved with
    them as walls) rather than jumping to another solution."""
    level = Level.load(LARGE_006)
    real_solve = registry.solve

    def cut_short(lv: Level, **kw: Any) -> Any:
        result = real_solve(lv, **kw)
        if kw.get("mode") == SolveMode.ALL:
            return replace(result, solutions=result.solutions[:1], bricks=result.solutions[0], complete=False)
        return result

    monkeypatch.setattr(registry, "solve", cut_short)
    first_listed = min(LARGE_006_SOLUTIONS)
    mine = ((3, 27), (4, 13), (6, 2))  # not in the first listed solution
    assert not set(mine) <= set(first_listed)
    hint = compute_hint(level, mine)
    assert not hint.proved and hint.forced == ()
    assert hint.solution == ((3, 27), (4, 13), (5, 14), (6, 2))
    assert hint.action == PLACE
    hint = compute_hint(level, mine + ((4, 1),))  # a read but useless brick: remove it first
    assert hint.solution == ((3, 27), (4, 13), (5, 14), (6, 2)) and (hint.action, hint.cell) == (REMOVE, (4, 1))
    read = set(reach_for(level, SolveContext.create()).read_cells)
    assert set(hint.never_useful) == {c for c in level.brickable_cells if c not in read}


def test_cut_short_enumeration_on_random_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    """With only one minimum solution listed (an enumeration cut short), following the hints from useless
    bricks plus part of another solution still keeps the most bricks and ends optimal (brute force)."""
    real_solve = registry.solve

    def one_listed(lv: Level, **kw: Any) -> Any:
        result = real_solve(lv, **kw)
        if kw.get("mode") == SolveMode.ALL and result.solutions:
            return replace(result, solutions=result.solutions[:1], bricks=result.solutions[0], complete=False)
        return result

    monkeypatch.setattr(registry, "solve", one_listed)
    tried = 0
    for seed, level, optimal in _random_cases():
        if len(optimal) < 2:
            continue
        used = set().union(*optimal)
        useless = [c for c in level.brickable_cells if c not in used][:1]
        start = set(sorted(optimal)[-1][:1]) | set(useless)
        follow_hints(level, start, optimal, proved=False)
        tried += 1
    assert tried >= 8


def test_extend_players_bricks() -> None:
    level = Level.load(LARGE_006)
    ctx = SolveContext.create(time_limit=60)
    both = extend_players_bricks(level, [(4, 12), (4, 13)], 4, ctx)  # in no common solution: keeps one
    assert both in LARGE_006_SOLUTIONS and len({(4, 12), (4, 13)} & set(both or ())) == 1
    assert (4, 1) in reach_for(level, ctx).read_cells
    three = extend_players_bricks(level, [(3, 27), (4, 1), (4, 13), (6, 2)], 4, ctx)  # (4,1): read, useless
    assert three == ((3, 27), (4, 13), (5, 14), (6, 2))
    assert (22, 19) not in reach_for(level, ctx).read_cells  # no live state reads it: dropped, not kept
    found = extend_players_bricks(level, [(6, 2), (22, 19)], 4, ctx)
    assert found is not None and (6, 2) in found and found in LARGE_006_SOLUTIONS


# ---------------------------------------------------------------------------- order and speed
def test_read_order_follows_step_reads() -> None:
    level = Level.from_rows(["> . . T", "XX.X.XX"], frames=12, budget=2)
    assert read_order(level, [(1, 2), (1, 4)], [(1, 4), (1, 2)]) == [(1, 2), (1, 4)]
    # a lemming on its target reads nothing: the cell ahead of the upper lemming's target is never read,
    # so it comes after the cell the lower lemming stands on at frame 2
    level2 = Level.from_rows([">T  ", "XXXX", ">  T", "XX X"], frames=6, budget=2)
    assert simulate(level2, [(0, 2), (3, 2)]).won
    assert read_order(level2, [(0, 2), (3, 2)], [(0, 2), (3, 2)]) == [(3, 2), (0, 2)]
    assert plan(level, [], [(1, 4), (1, 2)]) == ((PLACE, (1, 2)), (PLACE, (1, 4)))


def test_a_hint_on_a_large_level_is_found_within_its_limit() -> None:
    """A hint needs one enumeration by the cheap exact solvers (its time is a figure of ``bench/hints_speed.py``)."""
    level = Level.load(LARGE_006)
    hint = compute_hint(level, [(22, 19)], SolveContext.create(time_limit=30))
    assert hint.action in (PLACE, REMOVE, SOLVED) and hint.min_bricks is not None


@pytest.mark.parametrize("name", ["levels/007_the_original.txt", "levels/014_deep_mine.txt",
                                  "bench/suites/large/004_large.txt", "bench/suites/large/006_large.txt"])
def test_a_hint_costs_one_solve(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint runs one enumeration by the exact solvers, as S does, whatever the player placed.

    Counted, not timed: the seconds are figures of ``bench/hints_speed.py`` (every pack level).
    """
    level = Level.load(REPO / name)
    calls: list[SolveMode] = []
    solve = registry.solve

    def counting_solve(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs["mode"])
        return solve(*args, **kwargs)

    monkeypatch.setattr(registry, "solve", counting_solve)
    for placed in ([], [level.brickable_cells[0]]):
        calls.clear()
        hint = compute_hint(level, placed, SolveContext.create(time_limit=30))
        assert hint.action in (PLACE, REMOVE, SOLVED) and calls == [SolveMode.ALL], (placed, calls)


def test_cancelled_hint_is_unknown() -> None:
    event = threading.Event()
    event.set()
    hint = compute_hint(Level.load(LARGE_006), [], SolveContext.create(cancel=event))
    assert hint.action == hints.UNKNOWN and hint.cell is None


def test_a_solve_under_the_hints_context_shares_its_reachability() -> None:
    """``facade.solve(..., ctx=ctx)`` runs a SolverBase solver under a child of ``ctx``: one analysis."""
    seen: list[object] = []

    class Probe(SolverBase):
        name, exact = "probe", False

        def core(self, level: Level, mode: SolveMode, ctx: SolveContext, partial: Partial) -> Outcome:
            seen.append(reach_for(level, ctx))
            return Outcome(SolveStatus.UNKNOWN)

    level = Level.load(LARGE_006)
    ctx = SolveContext.create(time_limit=60)
    mine = reach_for(level, ctx)
    facade.solve(level, solver=Probe(), ctx=ctx)
    assert seen == [mine] and seen[0] is mine


def test_over_budget_and_zero_brick_levels() -> None:
    level = Level.load(LARGE_006)
    best = ((3, 27), (4, 12), (5, 2), (5, 14))
    extra = ((20, 1), (20, 2), (20, 3))  # seven bricks, budget six
    hint = compute_hint(level, best + extra)
    assert hint.action == REMOVE and hint.cell in extra and "exceed the budget of 6" in hint.note
    assert [a for a, _ in hint.steps] == [REMOVE] * 3 and hint.solution == best
    won = Level.from_rows(["> T", "XXX"], frames=3, budget=1)  # won with no brick
    hint = compute_hint(won, [(0, 1)])
    assert hint.action == REMOVE and hint.cell == (0, 1) and hint.min_bricks == 0
    assert compute_hint(won, []).action == SOLVED


def test_useful_bricks_that_no_minimum_solution_uses_together() -> None:
    """(4,12) and (4,13) are each in a minimum solution, never both: one must go, and the hint says why."""
    level = Level.load(LARGE_006)
    hint = compute_hint(level, [(4, 12), (4, 13)])
    assert hint.action == REMOVE and hint.cell in {(4, 12), (4, 13)}
    assert "no minimum solution uses all your bricks" in hint.note
    assert not set(hint.never_useful) & {(4, 12), (4, 13)}
    follow_hints(level, {(4, 12), (4, 13)}, LARGE_006_SOLUTIONS)


@pytest.mark.parametrize("seed", range(6))
def test_a_hint_from_a_known_list_of_minimum_solutions_is_the_same_hint(seed: int) -> None:
    """``known`` (the list the game enumerates in the background) gives the hint a full enumeration gives."""
    level = small_level(seed)
    known = facade.solve(level, solver="auto", mode="all")
    useless = [c for c in level.brickable_cells if all(c not in s for s in known.solutions)][:1]
    for bricks in ([], useless, list(known.solutions[0][:1]) if known.solutions else []):
        fresh, reused = compute_hint(level, bricks), compute_hint(level, bricks, known=known)
        assert (reused.action, reused.cell, reused.solution, reused.steps) == \
            (fresh.action, fresh.cell, fresh.solution, fresh.steps)
        assert (reused.forced, reused.never_useful, reused.proved) == (fresh.forced, fresh.never_useful, fresh.proved)
