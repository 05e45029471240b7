"""How the solvers' answers become what the assistant shows: the solutions in the order they are
browsed, the deductions proved by a complete list, the plan H and S share (its steps, each with what its
brick does to the run) and the teaching presses of H (:func:`teaching` builds them in order).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from ai.facade import Hint, SolveMode, SolveResult, SolveStatus, plan_result
from game.core.errors import GameError
from game.core.level import Brick, Level
from game.core.simulation import simulate
from game.core.teach import Lesson, the_idea, why_it_fails
from game.core.teach_effects import brick_effect
from game.app.assistant.state import AssistantState, BrickSet, Deductions, HintStep, HintView, SolutionView, StepKind
from game.app.assistant.rule_first import rule_lesson
from game.app.assistant.text import hint_text, result_text
from game.app.input import display_key


def order_solutions(result: SolveResult, mine: Sequence[Brick], first: BrickSet | None = None
                    ) -> tuple[BrickSet, ...]:
    """The answer's brick sets: ``first`` (the plan H shares, when it is one of them), else the returned
    best, first; then stably by how many of ``mine`` they keep."""
    if result.bricks is None:
        return ()
    sols = [tuple(s) for s in result.solutions] or [tuple(result.bricks)]
    best = tuple(result.bricks)
    if best in sols:
        sols.remove(best)
        sols.insert(0, best)
    keep = set(mine)
    sols.sort(key=lambda sol: -len(keep.intersection(sol)))
    if first is not None and tuple(first) in sols:
        sols.remove(tuple(first))
        sols.insert(0, tuple(first))
    return tuple(sols)


def deductions_from(level: Level, result: SolveResult) -> Deductions:
    """Forced and never-useful cells from a complete list of optimal solutions."""
    if not result.solutions:
        return Deductions((), tuple(level.brickable_cells))
    sols = [set(s) for s in result.solutions]
    used = set.union(*sols)
    return Deductions(tuple(sorted(set.intersection(*sols))),
                      tuple(c for c in level.brickable_cells if c not in used))


def hint_steps(level: Level, bricks: BrickSet, hint: Hint) -> tuple[HintStep, ...]:
    """The hint's whole way to its solution, as the hint service planned it (removals first, then the
    missing bricks in the order the lemmings read them: :func:`ai.services.hints.read_order`), each with
    what its brick does to the run (:func:`step_why`)."""
    steps: list[HintStep] = []
    board = list(bricks)
    for action, cell in hint.steps:
        if action.value not in ("place", "remove"):
            continue
        kind, at = StepKind(action.value), (int(cell[0]), int(cell[1]))
        steps.append(HintStep(kind, at, step_why(level, tuple(board), hint, kind, at)))
        if kind == StepKind.REMOVE and at in board:
            board.remove(at)
    return tuple(steps)


def step_why(level: Level, board: BrickSet, hint: Hint, kind: StepKind, cell: Brick) -> str:
    """What placing (or removing) the brick at ``cell`` does, simulated with and without it: a brick to
    place in the plan's solution, a brick to remove on the board as it is then (``board``)."""
    if kind == StepKind.PLACE:
        solution = tuple(hint.solution) if hint.solution is not None else (*board, cell)
        return brick_effect(level, solution, cell).text
    effect = brick_effect(level, board, cell)
    if len(board) > level.budget:
        why = f"you have {len(board)} bricks and the budget is {level.budget}"
    elif effect.lemming is None:
        return "No lemming ever reaches it, so it only uses up a brick."
    elif simulate(level, [b for b in board if b != cell], enforce_budget=False).won:
        why = "your bricks win without it"
    else:
        why = "no winning set within the budget keeps all your bricks"
    return f"It {effect.doing}, and {why}."


def cached_deductions(state: AssistantState, level: Level) -> Deductions | None:
    """The deductions from a complete list of the optimal solutions already in the state's cache, if any."""
    for _, mode, result in state.cache:
        if mode == "all" and result.complete:
            return deductions_from(level, result)
    return None


def with_answer(state: AssistantState, level: Level, result: SolveResult, mine: Sequence[Brick],
                waited: float | None = None) -> AssistantState:
    """The state showing a solve's answer (its solutions, else a line saying why there is none); the plan
    for ``mine``, when known, comes first."""
    plan = state.plan_for(tuple(mine))
    solutions = order_solutions(result, mine, plan.solution if plan is not None else None)
    has_answer = bool(solutions) or result.relaxed is not None
    state = replace(state, solution=SolutionView(result, solutions, waited=waited) if has_answer else None)
    state = state.say("" if has_answer else result_text(result, waited))
    if result.mode == SolveMode.ALL and result.complete and state.deductions is None:
        state = replace(state, deductions=deductions_from(level, result))
    return state


def with_deductions(state: AssistantState, level: Level, result: SolveResult) -> AssistantState:
    """The state after the deductions' job answered: the deductions, or a line saying why there are none."""
    if result.status == SolveStatus.OPTIMAL and result.complete:
        return replace(state, deductions=deductions_from(level, result))
    return state.say(f"deductions need every optimal solution: {result_text(result)}")


def lesson_for(level: Level, bricks: BrickSet) -> Lesson | None:
    """Where and why the run with ``bricks`` fails (:func:`~game.core.teach.why_it_fails`); None as well for
    bricks that break the rules (the hint then says what to remove)."""
    try:
        return why_it_fails(level, bricks)
    except GameError:
        return None


def teaching(level: Level, bricks: BrickSet, hint: Hint, reason: Lesson | None) -> tuple[Lesson, ...]:
    """The lessons H shows before any brick, one per press: where and why the run with ``bricks`` fails
    (``reason``), then the idea of the hint's solution (what must happen, no brick named)."""
    if reason is None or hint.solution is None:
        return ()
    lessons = [reason]
    idea = the_idea(level, bricks, hint.solution)
    if idea is not None:
        lessons.append(idea)
    return tuple(lessons)


def press_again(view: HintView) -> tuple[HintView, bool]:
    """H again on the same bricks: the next lesson, then one more brick per press; True when a brick was
    revealed (one more hint used)."""
    if view.stage < len(view.lessons):
        view = replace(view, stage=view.stage + 1)
        return replace(view, line=view.lessons[view.stage - 1].text), False
    view = replace(view, stage=len(view.lessons) + 1)
    if view.revealed < len(view.steps):
        view = replace(view, revealed=view.revealed + 1)
        return replace(view, line=hint_text(view)), True
    return replace(view, line=hint_text(view, final=True)), False


def with_hint(state: AssistantState, level: Level, bricks: BrickSet, hint: Hint, now: BrickSet,
              reason: Lesson | None) -> tuple[AssistantState, bool]:
    """The state once the plan for ``bricks`` is known (``now``: the bricks on the board).  With a
    ``reason`` (where the run fails) it teaches first: the reason, then the idea; else the first brick
    shows (True: one hint used)."""
    state = state.with_plan(bricks, hint)
    if hint.proved and state.deductions is None:
        state = replace(state, deductions=Deductions(tuple(hint.forced), tuple(hint.never_useful)))
    view = HintView(hint, bricks, hint_steps(level, bricks, hint))
    state = replace(state, lesson="")
    counted = False
    lessons = teaching(level, bricks, hint, reason) if view.steps else ()
    rule = rule_lesson(level, bricks) if view.steps else None
    if rule is not None:  # a mystery level: first the rule that differs here
        lessons = (rule, *lessons)
    if now != bricks:
        view = replace(view, line=f"your bricks changed: press {display_key('H')} again")
    elif lessons:
        view = replace(view, lessons=lessons, stage=1, line=lessons[0].text)
    else:
        if view.steps:
            view, counted = replace(view, revealed=1), True
        view = replace(view, stage=len(lessons) + 1)
        view = replace(view, line=hint_text(view))
    return replace(state, hint=view), counted


def with_plan_answer(state: AssistantState, level: Level, bricks: BrickSet, plan: Hint, mine: Sequence[Brick],
                     waited: float | None = None) -> AssistantState:
    """S with the default solver: the plan for ``bricks`` (kept for H) shown as the answer."""
    state = state.with_plan(bricks, plan)
    return with_answer(state, level, plan_result(plan, waited or 0.0), mine, waited)


__all__ = ["cached_deductions", "deductions_from", "hint_steps", "lesson_for", "order_solutions", "press_again",
           "step_why", "teaching", "with_answer", "with_deductions", "with_hint", "with_plan_answer"]
