"""One way to stop: every long job takes the solve context and returns at once, honestly.

Deadlines come from injected clocks and cancels from :class:`tests.stopping.CancelOnPoll` (after a fixed
amount of the job's own work), so nothing here depends on the machine's speed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ai import facade
from ai.services.analysis import analyse_level
from ai.services.hints import compute_hint
from ai.kernel.base import SolveMode, SolveResult, SolveStatus, verify_result
from ai.kernel.context import ManualClock, SolveContext, SolveStopped
from ai.learning.learn import learn_rules
from ai.learning.rules import load_default_rules
from ai.learning.verify import verify_model
from ai.services.generation.generator import generate_levels
from ai.services.generation.readset import ReadSetSolver
from ai.services.rating import rate_level
from ai.solvers.base import SolverBase
from ai.solvers.learned import LearnedRuleSolver
from game.app.export import export_gif
from game.core.level import Level
from tests.conftest import ORIGINAL_PACK
from tests.level_builders import glue
from tests.stopping import CancelOnPoll, expired


def _sixteen_originals() -> tuple[Level, tuple[tuple[tuple[int, int], ...], ...]]:
    """The Original 4x4 times (3 bricks each), and 5 of its optimal sets."""
    original = Level.load(ORIGINAL_PACK)
    level = glue([[original] * 4] * 4, budget=48, title="16 originals")
    result = facade.solve(level, solver="auto", mode="all", time_limit=60)
    assert result.status == SolveStatus.OPTIMAL and len(result.solutions) >= 5
    return level, result.solutions[:5]


def test_the_replay_stops_after_its_grace_and_never_shows_an_unchecked_set() -> None:
    level, sets = _sixteen_originals()
    answer = SolveResult(SolveStatus.OPTIMAL, "test", SolveMode.ALL, sets[0], sets, complete=True)
    # a clock moving 0.05 s at each read: the 0.2 s grace after the stop lets a few sets through
    ctx = SolveContext.create(time_limit=0.0, clock=ManualClock(step=0.05))
    partial = verify_result(level, answer, ctx)
    assert partial.bricks == sets[0] and 1 <= len(partial.solutions) < len(sets)
    assert not partial.complete and "stopped while replaying" in partial.message
    assert set(partial.solutions) <= set(sets)
    # a clock jumping past the grace at once: not even the answer is replayed, so none is shown
    ctx = SolveContext.create(time_limit=0.0, clock=ManualClock(step=1.0))
    dropped = verify_result(level, answer, ctx)
    assert dropped.status == SolveStatus.TIMEOUT and dropped.bricks is None and dropped.solutions == ()
    # without a context every set is replayed
    assert verify_result(level, answer) == answer


@pytest.mark.parametrize("job", ["rate", "analyse", "hint", "generate"])
def test_long_jobs_stop_on_an_expired_context(job: str) -> None:
    level = Level.load(ORIGINAL_PACK)
    if job == "rate":
        assert rate_level(level, expired()).status == "timeout"
    elif job == "analyse":
        assert analyse_level(level, expired()).status == "timeout"
    elif job == "hint":
        assert compute_hint(level, [], expired()).action.value == "unknown"
    else:
        assert list(generate_levels(8, 10, 1, count=3, seed=1, context=expired())) == []


def test_the_learned_solver_stops_inside_its_no_brick_run() -> None:
    """``learned_run_wins`` checks the context (it looped over lemmings x frames without it)."""
    rows = ["X" * 40] + ["X>" + " " * 37 + "X"] * 20 + ["X" + "T" * 38 + "X"]
    level = Level.from_rows(rows, frames=10_000, budget=3)  # 20 lemmings walking for 10,000 frames
    cancel = CancelOnPoll(3)
    solver = facade.get_solver("learned")
    assert isinstance(solver, SolverBase)
    result = solver.solve_in(level, SolveMode.MIN, SolveContext.create(cancel=cancel, solver="learned"))
    assert cancel.fired_at is not None and result.status == SolveStatus.CANCELLED and result.bricks is None


def test_read_set_solver_is_under_the_contract() -> None:
    solver = ReadSetSolver()
    assert isinstance(solver, SolverBase)
    level = Level.load(ORIGINAL_PACK)
    assert solver.solve_in(level, SolveMode.ALL, expired()).status == SolveStatus.TIMEOUT
    result = facade.solve(level, solver=solver, mode="all")
    assert result.status == SolveStatus.OPTIMAL and len(result.solutions) == 6 and result.complete


def test_a_solver_outside_the_base_runs_under_the_callers_context() -> None:
    """Any :class:`ai.kernel.base.Solver` (here one not built on the base) runs under a child of the caller's
    context: it sees the caller's cancel."""
    seen: list[bool] = []

    class Foreign:
        name, exact = "foreign", False

        def solve_in(self, level: Level, mode: SolveMode, ctx: SolveContext) -> SolveResult:
            for _ in range(2000):
                if ctx.cancelled():
                    seen.append(True)
                    return SolveResult(SolveStatus.CANCELLED, self.name, mode)
            return SolveResult(SolveStatus.UNKNOWN, self.name, mode)

    cancel = CancelOnPoll(2)
    result = facade.solve(Level.load(ORIGINAL_PACK), solver=Foreign(), ctx=SolveContext.create(cancel=cancel))
    assert result.status == SolveStatus.CANCELLED and seen


def test_rule_reverification_stops_and_the_solver_verifies_under_its_context() -> None:
    rules = load_default_rules()
    with pytest.raises(SolveStopped):
        verify_model(rules.model, ctx=expired())
    solver = LearnedRuleSolver(rules=rules)
    assert solver._verification is None  # building the solver does no work: the solve does, under its context
    assert solver.solve_in(Level.load(ORIGINAL_PACK), SolveMode.MIN, expired()).status == SolveStatus.TIMEOUT


def test_learning_stops_on_its_context() -> None:
    with pytest.raises(SolveStopped):
        learn_rules(games=1, seed=1, regime="many", context=expired())


def test_gif_export_stops_on_its_context_and_leaves_no_file(tmp_path: object) -> None:
    out = Path(str(tmp_path)) / "run.gif"
    level = Level.load(ORIGINAL_PACK)
    cancel = CancelOnPoll(5)  # a few frames in
    with pytest.raises(SolveStopped):
        export_gif(level, ((2, 1), (5, 4), (6, 6)), out, context=SolveContext.create(cancel=cancel))
    assert cancel.fired_at is not None and not out.exists() and list(out.parent.iterdir()) == []
    assert export_gif(level, ((2, 1), (5, 4), (6, 6)), out, context=SolveContext.create()).won and out.is_file()
