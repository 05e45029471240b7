"""The plan H and S share (ai.services.hint_plan): on every pack level the bricks H reveals are the solution
S shows, each with a proved effect; the plan keeps the player's bricks when a winning set can."""

from __future__ import annotations

from ai.facade import HintAction, SolveContext, SolveStatus, compute_hint, plan_result, player_plan
from ai.services.extension import extension_target
from game.app.assistant.answers import hint_steps, teaching
from game.app.assistant.state import HintView, StepKind
from game.app.assistant.text import hint_text
from game.core.level import Level, cell_words
from game.core.pack import pack_level_paths
from game.core.simulation import simulate
from game.core.teach import why_it_fails
from tests.conftest import ORIGINAL_PACK, ORIGINAL_SOLUTIONS
from tests.game.core.test_teach import check_idea
from tests.game.core.test_teach_effects import check_effect

#: A brick on the top row is in no minimum solution, yet a winning set within the budget keeps it.
ROOMY = Level.from_rows(["      ", ">    T", "XX XXX"], frames=8, budget=2)


def test_on_every_pack_level_the_bricks_h_reveals_are_the_solution_s_shows() -> None:
    planned = 0
    for path in pack_level_paths():
        level = Level.load(path)
        plan = player_plan(level, [], SolveContext.create(time_limit=120))
        shown = plan_result(plan, 0.0)
        if plan.action == HintAction.SOLVED:  # no brick needed: S shows the empty set, H says it wins
            assert shown.bricks == () and simulate(level).won
            continue
        planned += 1
        steps = hint_steps(level, (), plan)
        assert [s.kind for s in steps] == [StepKind.PLACE] * len(steps), path.name
        assert tuple(sorted(s.cell for s in steps)) == shown.bricks, path.name  # H's bricks are S's
        assert shown.status == SolveStatus.OPTIMAL and len(shown.bricks or ()) == plan.min_bricks
        assert simulate(level, shown.bricks or ()).won
        for k, step in enumerate(steps, 1):  # each brick says what it does, as the runs show
            assert step.why == check_effect(level, shown.bricks or (), step.cell), path.name
            line = hint_text(HintView(plan, (), steps, revealed=k))
            assert line.startswith(f"Hint {k}/{len(steps)}") and cell_words(step.cell) in line
            assert "solutions uses" not in line and "does:" not in line
        reason = why_it_fails(level, ())
        lessons = teaching(level, (), plan, reason)
        assert len(lessons) == 2 and lessons[0] == reason, path.name
        check_idea(level, (), shown.bricks or ())  # what must happen, no brick named
    assert planned >= 60


def test_the_plan_keeps_the_players_bricks_when_a_winning_set_within_the_budget_does() -> None:
    top = (0, 3)
    assert compute_hint(ROOMY, [top]).action == HintAction.REMOVE  # optimal-first would take it away
    plan = player_plan(ROOMY, [top])
    assert plan.action == HintAction.PLACE and plan.solution == ((0, 3), (2, 2))
    assert "can win with 2 in all (the fewest possible is 1)" in plan.note
    result = plan_result(plan, 0.1)
    assert result.bricks == plan.solution and result.status == SolveStatus.FEASIBLE
    assert result.message == "keeping yours (the fewest possible is 1)"


def test_partial_solutions_of_the_original_are_extended() -> None:
    level = Level.load(ORIGINAL_PACK)
    for solution in ORIGINAL_SOLUTIONS:
        for keep in (solution[:1], solution[1:]):
            plan = player_plan(level, keep)
            assert plan.action == HintAction.PLACE and set(keep) <= set(plan.solution or ())
            assert plan.solution in ORIGINAL_SOLUTIONS
            assert all(action == HintAction.PLACE for action, _ in plan.steps)


def test_bricks_that_cannot_all_stay_get_one_removed_with_the_reason() -> None:
    level = Level.load(ORIGINAL_PACK)
    mine = ((1, 3), (2, 1), (5, 4))  # three bricks, budget three, and they lose
    assert extension_target(level, mine, (), SolveContext.create()) == (((2, 1), (5, 4), (6, 6)), (1, 3))
    plan = player_plan(level, mine)
    assert plan.steps[0] == (HintAction.REMOVE, (1, 3)) and plan.solution == ((2, 1), (5, 4), (6, 6))
    steps = hint_steps(level, mine, plan)
    assert steps[0].why.endswith("no winning set within the budget keeps all your bricks.")
    effect_frame = check_effect(level, mine, (1, 3))
    assert steps[0].why.startswith(effect_frame.split(";")[0])  # the effect the runs with and without it show


def test_a_winning_set_with_spare_bricks_is_the_players_own() -> None:
    plan = player_plan(ROOMY, [(0, 1), (2, 2)])
    assert plan.action == HintAction.SOLVED and plan.solution == ((0, 1), (2, 2))
    assert plan.note == "your 2 bricks win, but 1 is enough"
    line = hint_text(HintView(plan, ((0, 1), (2, 2)), ()))
    assert line == "Hint: your bricks win this level (1 would be enough)  -  Space plays their run"



def test_an_earlier_plans_solution_is_kept_while_it_holds_the_players_bricks() -> None:
    level = Level.load(ORIGINAL_PACK)
    for solution in ORIGINAL_SOLUTIONS:  # following any of them brick by brick leads to it, not another
        for k in range(len(solution)):
            plan = player_plan(level, solution[:k], prefer=solution)
            assert plan.solution == solution and [c for _, c in plan.steps] == [
                c for c in (cell for _, cell in player_plan(level, (), prefer=solution).steps) if c not in solution[:k]]
    other = sorted(ORIGINAL_SOLUTIONS)[-1]
    mine = next(c for c in sorted(ORIGINAL_SOLUTIONS)[0] if c not in other)
    assert player_plan(level, (mine,), prefer=other).solution != other  # it no longer holds the bricks
    assert not simulate(ROOMY, ((0, 3), (1, 2))).won
    kept = player_plan(ROOMY, [(0, 3)], prefer=((0, 3), (1, 2)))
    assert kept.solution == ((0, 3), (2, 2))  # an earlier set is kept only when it wins
