"""Level analysis: minimum bricks, optimal solution count, fewest frames, tighten."""

from __future__ import annotations

import threading

import pytest

from ai import facade
from ai.kernel.base import SolveMode, SolveResult, SolveStatus
from ai.services import analysis
from ai.services.analysis import DEFAULT_SOLVER, _fewest_frames_search, analyse_level, tightened
from ai.kernel.context import SolveContext
from tests.stopping import expired
from game.core.level import Level
from game.core.pack import original_level_path


@pytest.fixture(scope="module")
def original() -> Level:
    return Level.load(original_level_path())


@pytest.mark.parametrize("solver", ["auto", "cpsat", "search"])
def test_original_level(original: Level, solver: str) -> None:
    a = analyse_level(original, solver=solver)
    assert a.status == "ok" and a.within_budget
    assert a.min_bricks == 3
    assert a.solution_count == 6 and a.complete and not a.unique
    assert a.fewest_frames == 16 and a.frames_proved
    assert len(set(a.solutions)) == 6


def test_tighten_is_tight(original: Level) -> None:
    a = analyse_level(original)
    tight = tightened(original, a)
    assert (tight.frames, tight.budget) == (16, 3) and tight.grid == original.grid
    assert facade.solve(tight, solver="cpsat").min_bricks == 3
    assert facade.solve(tight.with_limits(frames=15), solver="cpsat").status.value == "infeasible"
    assert facade.solve(tight.with_limits(budget=2), solver="cpsat").status.value == "infeasible"


def test_fewest_frames_binary_search_agrees(original: Level) -> None:
    assert _fewest_frames_search(original, 3, original.frames, DEFAULT_SOLVER, SolveContext.create()) == (16, True)


def test_over_budget_and_unsolvable(original: Level) -> None:
    a = analyse_level(original.with_limits(budget=1))
    assert a.status == "over_budget" and a.min_bricks == 3 and not a.within_budget
    assert "UNSOLVABLE within budget" in a.headline()
    b = analyse_level(original.with_limits(frames=10))
    assert b.status == "unsolvable" and b.min_bricks is None and not b.can_tighten
    assert "UNSOLVABLE" in b.headline()


def test_unique_solution_and_zero_bricks() -> None:
    gap = Level.from_rows(["> ..T", "XX.XX"], frames=9, budget=3)
    a = analyse_level(gap)
    assert (a.min_bricks, a.solution_count, a.unique, a.fewest_frames) == (1, 1, True, 5)
    walk = Level.from_rows([">  T", "XXXX"], frames=9, budget=2)
    b = analyse_level(walk)
    assert (b.min_bricks, b.fewest_frames) == (0, 4)


def test_cancel(original: Level) -> None:
    cancel = threading.Event()
    cancel.set()
    assert analyse_level(original, SolveContext.create(cancel=cancel)).status == "cancelled"
    assert analyse_level(original, expired()).status == "timeout"


def test_tightening_a_level_whose_lemmings_walk_off_targets_keeps_its_minimum() -> None:
    """Clockwork's lemming walks on over its targets: in 3 frames it stands on one without a brick, so N=3
    is no tightening of its 2-brick puzzle; the fewest frames are those from which it still needs 2."""
    level = Level.load("levels/072_clockwork.txt")
    a = analyse_level(level)
    assert a.min_bricks == 2 and a.frames_proved
    tight = tightened(level, a)
    assert tight.frames < level.frames
    assert facade.solve(tight, solver="search").min_bricks == 2


def test_why_no_solution_solves_where_the_quick_check_sees_nothing() -> None:
    """Under careful physics every lemming has a way to a target (the quick check is silent), yet no set wins;
    a budget one short says how many bricks the level needs; a solvable level, or a stopped check, says nothing."""
    original = Level.load(original_level_path())
    careful = Level.from_rows(original.grid, original.frames, original.budget, meta=[("physics", "careful")])
    assert facade.stuck_lemmings(careful) == ()
    assert facade.why_no_solution(careful) == "the lemming cannot get home within 20 frames, whatever the bricks"
    assert facade.why_no_solution(original.with_limits(budget=2)) == "it needs 3 bricks but the budget B is 2"
    one = Level.from_rows(["> ..T", "XX.XX"], frames=9, budget=0)
    assert facade.why_no_solution(one) == "it needs 1 brick but the budget B is 0"
    assert facade.why_no_solution(original) is None
    stopped = threading.Event()
    stopped.set()
    assert facade.why_no_solution(careful, SolveContext.create(cancel=stopped)) is None


def test_why_no_solution_asks_the_search_first_and_the_portfolio_when_it_cannot_answer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether any set within the budget wins: the search (the fastest at it on every pack level), then the
    portfolio only when the search gave no answer."""
    asked: list[str] = []
    real = analysis._solve

    def solve(level: Level, mode: SolveMode, solver: str, ctx: SolveContext) -> SolveResult:
        asked.append(solver)
        if solver == analysis.QUICK_SOLVER and unanswered:
            return SolveResult(SolveStatus.TIMEOUT, solver, mode)
        return real(level, mode, solver, ctx)

    monkeypatch.setattr(analysis, "_solve", solve)
    original = Level.load(original_level_path())
    unanswered = False
    assert analysis.why_no_solution(original) is None and asked == ["search"]
    asked.clear()
    unanswered = True
    assert analysis.why_no_solution(original) is None and asked == ["search", "auto"]
