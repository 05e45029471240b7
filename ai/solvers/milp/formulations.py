"""The MILP formulations by name: ``path`` (the exact solver's default), ``flow`` and ``product``.

* ``path`` (:class:`ai.solvers.milp.flow.PathBuilder`): per lemming a unit flow over the graph of
  states ``(r, c, d)`` with brick-gated arcs, a deadline of ``N − 1`` moves and "every brick is
  read" cuts; about ``N`` times smaller than the others and its LP bound met the optimum on
  every benchmark level tried;
* ``flow`` (:class:`ai.solvers.milp.flow.FlowBuilder`): the same gated flow, time-expanded over
  frames; its LP bound is the optimum on the original level (3, against 5/3 for ``product``);
* ``product`` (:class:`ai.solvers.milp.product.ProductBuilder`, the LP relaxation's default):
  the per-frame model whose relaxation splits a lemming by a 2/3 brick as in the design notes.

>>> from game.core.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> [build_milp(level, formulation=name).n_bricks for name in FORMULATIONS]
[3, 3, 3]
"""

from __future__ import annotations

from ai.kernel.context import SolveContext
from ai.solvers.reach_bounded import Scope
from ai.solvers.milp.flow import FlowBuilder, PathBuilder
from ai.solvers.milp.model import MilpModel, ModelBuilder
from ai.solvers.milp.product import ProductBuilder
from game.core.level import Level

#: The formulations by name.
BUILDERS: dict[str, type[ModelBuilder]] = {"path": PathBuilder, "flow": FlowBuilder, "product": ProductBuilder}
FORMULATIONS = tuple(BUILDERS)


def build_milp(level: Level, info: Scope | None = None, *, cut_depth: int = 0,
               formulation: str = "path", ctx: SolveContext | None = None) -> MilpModel:
    """The model of ``level`` in ``formulation``, with run cuts to ``cut_depth``; ``ctx`` may stop
    the building (:class:`ai.kernel.context.SolveStopped`).  Where targets do not stop lemmings ``path``
    is built as ``flow``."""
    if formulation not in BUILDERS:
        raise ValueError(f"unknown MILP formulation {formulation!r}; choose from {', '.join(FORMULATIONS)}")
    if formulation == "path" and not level.physics.targets_stop:
        formulation = "flow"  # a winning run may pass a state twice: the path graph cannot say so
    return BUILDERS[formulation](level, info, cut_depth=cut_depth, ctx=ctx).build()
