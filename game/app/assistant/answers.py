"""How the solvers' answers become what the assistant shows: the solutions in the order they are
browsed, the deductions proved by a complete list, a hint's steps and the teaching presses of H.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from ai.facade import Hint, SolveMode, SolveResult, SolveStatus
from game.core.errors import GameError
from game.core.level import Brick, Level
from game.core.teach import Lesson, the_idea, why_it_fails
from game.app.assistant.state import AssistantState, BrickSet, Deductions, HintStep, HintView, SolutionView, StepKind
from game.app.assistant.rule_first import rule_first
from game.app.assistant.text import hint_text, result_text


def order_solutions(result: SolveResult, mine: Sequence[Brick]) -> tuple[BrickSet, ...]:
    """The answer's brick sets: the returned best first, then stably by how many of ``mine`` they keep."""
    if result.bricks is None:
        return ()
    sols = [tuple(s) for s in result.solutions] or [tuple(result.bricks)]
    best = tuple(result.bricks)
    if best in sols:
        sols.remove(best)
        sols.insert(0, best)
    keep = set(mine)
    sols.sort(key=lambda sol: -len(keep.intersection(sol)))
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
    missing bricks in the order the lemmings read them: :func:`ai.services.hints.read_order`)."""
    return tuple(HintStep(StepKind(action.value), (int(cell[0]), int(cell[1]))) for action, cell in hint.steps
                 if action.value in ("place", "remove"))


def cached_deductions(state: AssistantState, level: Level) -> Deductions | None:
    """The deductions from a complete list of the optimal solutions already in the state's cache, if any."""
    for _, mode, result in state.cache:
        if mode == "all" and result.complete:
            return deductions_from(level, result)
    return None


def with_answer(state: AssistantState, level: Level, result: SolveResult, mine: Sequence[Brick],
                waited: float | None = None) -> AssistantState:
    """The state showing a solve's answer (its solutions, else a line saying why there is none)."""
    solutions = order_solutions(result, mine)
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


def press_again(view: HintView) -> tuple[HintView, bool]:
    """H again on the same bricks: the reason, then the idea, then one more brick per press; True when
    a brick was revealed (one more hint used)."""
    if view.stage == 0 and view.reason:  # again after Esc
        return replace(view, stage=1, line=view.reason), False
    if view.stage == 1 and view.idea:
        return replace(view, stage=2, line=view.idea), False
    view = replace(view, stage=3, focus=None)
    if view.revealed < len(view.steps):
        view = replace(view, revealed=view.revealed + 1)
        return replace(view, line=hint_text(view)), True
    return replace(view, line=hint_text(view, final=True)), False


def with_hint(state: AssistantState, level: Level, bricks: BrickSet, hint: Hint, now: BrickSet,
              lesson_cell: Brick | None) -> tuple[AssistantState, Brick | None, bool]:
    """The state once the hint for ``bricks`` arrived (``now``: the bricks on the board).  With a lesson
    waiting it teaches first (the reason, then the idea, whose cell is returned); else the first brick
    shows (True: one hint used)."""
    if hint.proved and state.deductions is None:
        state = replace(state, deductions=Deductions(tuple(hint.forced), tuple(hint.never_useful)))
    view = HintView(hint, bricks, hint_steps(level, bricks, hint))
    lesson, state = state.lesson, replace(state, lesson="")
    idea_cell, counted = None, False
    if now != bricks:
        view = replace(view, line="your bricks changed: press H again")
    elif lesson and view.steps and hint.solution is not None:  # teach first: the reason, then the idea
        idea = the_idea(level, bricks, hint.solution)
        view = replace(view, stage=1, reason=lesson, line=lesson, idea=idea.text if idea else "", focus=lesson_cell)
        idea_cell = idea.cell if idea is not None else None
    else:
        if view.steps:
            view, counted = replace(view, revealed=1), True
        view = replace(view, line=hint_text(view))
    view = rule_first(view, level)
    return replace(state, hint=view), idea_cell, counted


__all__ = ["cached_deductions", "deductions_from", "hint_steps", "lesson_for", "order_solutions", "press_again", "with_answer",
           "with_deductions", "with_hint"]
