"""The one choice the game's hint (H) and solution (S) share for the bricks on the board.

:func:`player_plan` is that choice: :func:`ai.services.hints.compute_hint` in its extending mode, so it
leads to a minimum solution keeping all the player's bricks when there is one, else to the fewest-brick
winning set within the budget that keeps them, else to one that drops a single brick of theirs (which the
hint says to remove first).  The game computes it once per brick set and shows its solution on S
(:func:`plan_result`) and its steps on H, so the bricks H reveals one by one are those S shows.

>>> from game.core.level import Level
>>> level = Level.from_rows(["> . .T", "XX.X.X"], frames=9, budget=3)
>>> plan = player_plan(level, [])
>>> plan.solution, [cell for _, cell in plan.steps]
(((1, 2), (1, 4)), [(1, 2), (1, 4)])
>>> plan_result(plan, 0.5).bricks == plan.solution
True
"""

from __future__ import annotations

from typing import Iterable

from ai.kernel.base import BrickSet, SolveMode, SolveResult, SolveStats, SolveStatus
from ai.kernel.context import SolveContext
from ai.services.hints import IMPOSSIBLE, UNKNOWN, Hint, compute_hint
from game.core.level import Brick, Level

#: The solver name the plan's answer carries (the hint's exact portfolio).
PLAN_SOLVER = "auto"


def player_plan(level: Level, bricks: Iterable[Brick], context: SolveContext | None = None, *,
                known: SolveResult | None = None, prefer: BrickSet | None = None) -> Hint:
    """The plan for a player who placed ``bricks``: the hint, its steps and the solution it leads to.

    ``known``: the level's minimum solutions already enumerated (mode ``all``), reused as
    :func:`~ai.services.hints.compute_hint` does; ``prefer``: the solution of an earlier plan, kept while it
    holds all of ``bricks`` (a player following the hints keeps the same solution)."""
    return compute_hint(level, bricks, context, known=known, extend=True, prefer=prefer)


def plan_result(plan: Hint, seconds: float) -> SolveResult:
    """The plan as the answer S shows: its solution (optimal when it has the proved minimum size),
    found in ``seconds``; no brick set when the plan proved none wins or found none in time."""
    stats = SolveStats(seconds=seconds)
    if plan.action == IMPOSSIBLE:
        return SolveResult(SolveStatus.INFEASIBLE, PLAN_SOLVER, SolveMode.MIN, stats=stats)
    if plan.action == UNKNOWN or plan.solution is None:
        return SolveResult(SolveStatus.TIMEOUT, PLAN_SOLVER, SolveMode.MIN, stats=stats, message=plan.note)
    solution = tuple(plan.solution)
    optimal = plan.min_bricks is not None and len(solution) == plan.min_bricks
    message = ""
    if not optimal and plan.min_bricks is not None:  # an extension of the player's bricks
        message = f"keeping yours (the fewest possible is {plan.min_bricks})"
    return SolveResult(SolveStatus.OPTIMAL if optimal else SolveStatus.FEASIBLE, PLAN_SOLVER, SolveMode.MIN,
                       solution, (solution,), stats=stats, message=message)


__all__ = ["PLAN_SOLVER", "plan_result", "player_plan"]
