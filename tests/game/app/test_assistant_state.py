"""The assistant's state and its text, without a scene, a worker or a window."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ai.services.hints import compute_hint
from ai.kernel.base import SolveMode, SolveResult, SolveStats, SolveStatus
from game.core.level import Level, cell_words
from game.app.assistant.answers import hint_steps, order_solutions, with_answer
from game.app.assistant.state import (
    AssistantState,
    HintView,
    Running,
    SolutionView,
    StepKind,
    TaskKind,
    solver_title,
)
from game.app.assistant.text import footer_hints, hint_text, result_text, status_lines
from tests.conftest import ORIGINAL_SOLUTIONS, REPO

ORIGINAL = Level.load(REPO / "levels" / "007_the_original.txt")
SOLS = tuple(sorted(ORIGINAL_SOLUTIONS))


def answer(status: SolveStatus, solver: str = "cpsat", mode: SolveMode = SolveMode.MIN, **kw: object) -> SolveResult:
    return SolveResult(status, solver, mode, stats=SolveStats(seconds=0.25), **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("status, bricks, text", [
    (SolveStatus.OPTIMAL, SOLS[0], "Logic solver: 3 bricks, the fewest possible (proved in 0.25 s)"),
    (SolveStatus.FEASIBLE, SOLS[0], "Logic solver: a solution with 3 bricks, maybe not the fewest (0.25 s)"),
    (SolveStatus.INFEASIBLE, None, "Logic solver: no brick set within the budget wins this level (proved in 0.25 s)"),
    (SolveStatus.TIMEOUT, None, "Logic solver: no answer within the time limit (0.25 s)"),
])
def test_answers_read_as_sentences_with_the_player_facing_name(status: SolveStatus, bricks: object,
                                                              text: str) -> None:
    assert result_text(answer(status, bricks=bricks)) == text


def test_solver_names_for_players_keep_the_technical_name_as_detail() -> None:
    assert solver_title("auto") == "Auto (search + CP-SAT)"
    assert solver_title("cpsat") == "Logic solver (CP-SAT)"
    assert solver_title("milp") == "Optimizer (MILP)"
    assert solver_title("my-solver") == "my-solver"


def test_solutions_closest_to_the_players_bricks_come_first() -> None:
    result = answer(SolveStatus.OPTIMAL, mode=SolveMode.ALL, bricks=SOLS[0], solutions=SOLS, complete=True)
    mine = SOLS[3][:2]
    ordered = order_solutions(result, mine)
    assert set(ordered) == set(SOLS) and ordered[0] == SOLS[3]


def test_the_plan_h_shares_comes_first_among_all_the_solutions() -> None:
    result = answer(SolveStatus.OPTIMAL, mode=SolveMode.ALL, bricks=SOLS[-1], solutions=SOLS, complete=True)
    plan = compute_hint(ORIGINAL, (), known=result)
    assert plan.solution is not None and plan.solution != SOLS[-1]  # not the answer's own best
    state = AssistantState().with_plan((), plan)
    ordered = with_answer(state, ORIGINAL, result, ()).solution
    assert ordered is not None and ordered.solutions[0] == plan.solution and set(ordered.solutions) == set(SOLS)
    assert state.plan_for(()) is plan and state.plan_for(((1, 1),)) is None
    assert state.plan_holding(plan.solution[:1]) == plan.solution


def test_footer_keys_follow_what_is_on_screen() -> None:
    idle = AssistantState(solver_names=("auto",))
    assert ("Enter", "apply") not in footer_hints(idle) and ("H", "hint") in footer_hints(idle)
    busy = replace(idle, running=Running(1, TaskKind.SOLVE, "auto"))
    assert footer_hints(busy)[0] == ("Esc", "cancel")
    result = answer(SolveStatus.OPTIMAL, solver="auto", mode=SolveMode.ALL, bricks=SOLS[0], solutions=SOLS,
                    complete=True)
    showing = replace(idle, solution=SolutionView(result, SOLS))
    keys = footer_hints(showing)
    assert ("Enter", "apply") in keys and ("[ ]", "browse") in keys and ("Esc", "hide") in keys
    lines = status_lines(showing.browse(-1))
    assert lines == ["Auto: 3 bricks, the fewest possible (proved in 0.25 s)  -  solution 6 / 6 (all found)"]


def test_spinner_and_messages_age_out() -> None:
    state = AssistantState(running=Running(4, TaskKind.HINT, "cpsat", elapsed=1.25)).say("hello", 1.0)
    assert status_lines(state) == ["| Logic solver thinking of a hint... 1.2 s  (Esc cancels)", "hello"]
    later = replace(state.tick(1.5), running=None)
    assert status_lines(later) == []


def test_hint_steps_remove_first_then_place_in_the_order_the_lemmings_meet_them() -> None:
    useless = next(c for c in ORIGINAL.brickable_cells if all(c not in s for s in SOLS))
    bricks = (useless,)
    hint = compute_hint(ORIGINAL, bricks)
    assert hint.solution in SOLS
    target = hint.solution
    steps = hint_steps(ORIGINAL, bricks, hint)
    assert steps[0][:2] == (StepKind.REMOVE, useless)
    assert steps[0].why == "No lemming ever reaches it, so it only uses up a brick."
    assert [s.kind for s in steps[1:]] == [StepKind.PLACE] * 3 and {s.cell for s in steps[1:]} == set(target)
    view = HintView(hint, bricks, steps, revealed=1)
    assert hint_text(view) == (f"Hint 1/4: remove the brick at {cell_words(useless)}. No lemming ever reaches it, "
                               "so it only uses up a brick.")
    last = hint_text(replace(view, revealed=4))
    assert last.startswith(f"Hint 4/4: place a brick at {cell_words(steps[3].cell)}. It ")
    assert "solutions uses" not in last and "frame" in last
