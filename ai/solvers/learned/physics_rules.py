"""The learned solver for rules of the physics class: solve as if the learned physics were the game's.

The learned physics is a value of the same class as the game's own, so every exact encoding applies to
it unchanged: the level is solved under the learned physics (by ``inner``, default ``auto``) and every
answer is replayed by the reference simulator under the level's real physics before anyone sees it.
The answer is claimed optimal, infeasible or complete only when the learned physics moves every lemming
like the level's from any start on any map (:func:`game.core.physics_views.moves_alike`, checked against
the engine's table); otherwise the winners that
replay are offered as ``feasible``.  Without rules, the solver first learns the level's physics by
watching the engine (:func:`ai.learning.physics_asking.learn_by_asking`).

>>> from game.core.level import Level
>>> from game.core.physics_catalog import SHIPPED
>>> level = Level.from_rows(["     T", "   XXX", ">   XX", "XXXXXX"], 12, 2, physics=SHIPPED["climber"])
>>> result = PhysicsRulesSolver(physics=SHIPPED["climber"]).solve_in(level, SolveMode.ALL, SolveContext.create())
>>> result.status.value, result.solutions, result.complete
('optimal', (((2, 2),),), True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ai.kernel.base import SolveMode, SolveStatus
from ai.kernel.context import SolveContext
from ai.learning.observations import random_game
from ai.learning.physics_asking import engine_for, learn_by_asking
from ai.solvers.base import Outcome, Partial, SolverBase
from ai.solvers.base_registry import BASE_SOLVERS, build_solver
from game.core.level import Level
from game.core.physics import Physics
from game.core.physics_views import moves_alike, views
from game.core.simulation import simulate

#: Physics learned by watching the engine, by the engine physics' behaviour key (one process).
_LEARNED: dict[str, Physics] = {}


def learned_by_watching(level: Level, ctx: SolveContext) -> Physics:
    """The physics the AI learns by watching ``level``'s engine (3 random games, then questions)."""
    key = views(level.physics).behaviour_key
    if key not in _LEARNED:
        rng = np.random.default_rng(0)
        games = [random_game(rng, level.physics) for _ in range(3)]
        _LEARNED[key] = learn_by_asking(engine_for(level.physics), games, ctx=ctx).physics
    return _LEARNED[key]


class PhysicsRulesSolver(SolverBase):
    """Solve with a learned physics (see the module docstring)."""

    name = "learned"
    exact = True
    shortcuts = False  # the base's shortcuts use the real physics; this solver knows only the learned one

    def __init__(self, *, physics: Physics | None = None, inner: str = "auto") -> None:
        self.physics = physics
        self.inner = inner

    def core(self, level: Level, mode: SolveMode, ctx: SolveContext, partial: Partial) -> Outcome:
        """Solve under the learned physics, replay under the real one."""
        learned = self.physics if self.physics is not None else learned_by_watching(level, ctx)
        verified = moves_alike(learned, level.physics)
        extra: dict[str, Any] = {"rules_verified": verified, "rules": learned.to_json(),
                                 "rules_learned_by_watching": self.physics is None}
        partial.extra = extra
        inner = build_solver(BASE_SOLVERS, self.inner)
        assert isinstance(inner, SolverBase)
        result = inner.solve_in(level.with_physics(learned), mode, ctx.child(share=False))
        winners = tuple(s for s in result.solutions if simulate(level, s).won)
        wrong = len(result.solutions) - len(winners)
        if verified:
            return Outcome(result.status, solutions=winners, complete=result.complete,
                           best_bound=result.stats.best_bound, nodes=result.stats.nodes,
                           variables=result.stats.variables, constraints=result.stats.constraints,
                           message=result.message, extra={**result.stats.extra, **extra})
        message = ("rules not verified: optimality not claimed" if not wrong else
                   f"the learned rules are wrong: {wrong} brick set(s) they predict to win lose in the real game")
        status = SolveStatus.FEASIBLE if winners else SolveStatus.UNKNOWN
        return Outcome(status, solutions=winners[:1] if mode != SolveMode.ALL else winners, message=message,
                       extra=extra)
