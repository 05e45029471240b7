"""Hints computed with learned rules (``python main.py hint LEVEL --rules FILE``).

Every minimum solution is enumerated by the learned solver (:class:`LearnedRuleSolver`, mode
``all``; each replayed by the reference simulator).  The hint leads to the minimum solution that
keeps most of the player's bricks: first a brick of the player's that is in no such solution
(remove it), otherwise the missing brick the lemmings meet first; its steps are the whole way there
(:func:`ai.services.hints.plan`, as the exact hint gives them).  Deductions (forced / never
useful cells) are reported only when the rules re-verify as exact and the enumeration is
complete; unverified rules give at most a "place" hint towards a replayed winning set.

>>> from game.core.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> learned_hint(level, []).action.value, learned_hint(level, [(0, 1)]).action.value
('place', 'remove')
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from ai.services.hints import IMPOSSIBLE, SOLVED, UNKNOWN, Hint, plan
from ai.kernel.base import SolveMode, SolveStatus
from ai.kernel.context import SolveContext
from ai.learning.rules import LearnedRules
from ai.solvers import registry
from ai.solvers.learned import learned_solver
from ai.solvers.learned.solver import LearnedRuleSolver
from game.core.physics import Physics
from game.core.level import Brick, Level
from game.core.rules import check_bricks
from game.core.simulation import simulate


def learned_hint(level: Level, bricks: Iterable[Brick], context: SolveContext | None = None, *,
                 rules: LearnedRules | Physics | str | Path | None = None) -> Hint:
    """The hint for a player who placed ``bricks``, from the learned rules alone (plus replay).

    ``context`` (default: no limit) bounds the enumeration."""
    player = check_bricks(level, bricks, enforce_budget=False)
    solver = learned_solver(rules=rules)
    result = registry.solve(level, solver=solver, mode=SolveMode.ALL, ctx=context)
    trusted = solver.trusted if isinstance(solver, LearnedRuleSolver) else bool(
        result.stats.extra.get("rules_verified"))
    proved = result.status == SolveStatus.OPTIMAL and result.complete and trusted
    if result.status == SolveStatus.INFEASIBLE:
        return Hint(IMPOSSIBLE, None, None, None)
    if not result.solutions:
        return Hint(UNKNOWN, None, None, None)
    minimum = result.min_bricks if result.status == SolveStatus.OPTIMAL else None
    forced: tuple[Brick, ...] = ()
    never: tuple[Brick, ...] = ()
    if proved:
        sols = [set(s) for s in result.solutions]
        forced = tuple(sorted(set.intersection(*sols)))
        used = set.union(*sols)
        never = tuple(c for c in level.brickable_cells if c not in used)
    if len(player) <= level.budget and simulate(level, player).won:
        return Hint(SOLVED, None, player, minimum, forced, never, proved)
    mine = set(player)
    target = max(result.solutions, key=lambda s: (len(mine & set(s)), -len(s), tuple(s)))
    steps = plan(level, player, target, never)  # the whole way, as the exact hint shows it
    action, cell = steps[0]
    return Hint(action, cell, target, minimum, forced, never, proved, steps=steps)
