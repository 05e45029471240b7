"""The LP relaxation of a MILP formulation: fractional brick and lemming densities.

The relaxation's objective is a lower bound on the brick count; its densities come back in
``SolveResult.relaxed`` for display (the brick density per cell, and the lemming mass per
frame, state and direction).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ai.kernel.base import RelaxedSolution, SolveStatus
from ai.kernel.context import SolveContext
from ai.solvers.base import Outcome
from ai.solvers.milp.backends import BackendStatus, load_backend
from ai.solvers.milp.model import MilpModel
from game.core.level import Level


def solve_lp(level: Level, model: MilpModel, lp_backend: str, ctx: SolveContext) -> Outcome:
    """Solve the relaxation of ``model`` with ``lp_backend`` (``glop`` or ``clp``)."""
    outcome = load_backend(model, lp_backend, integer=False).solve(ctx)
    size: dict[str, Any] = {"variables": len(model.objective), "constraints": len(model.row_lower)}
    if outcome.status == BackendStatus.INFEASIBLE:
        return Outcome(SolveStatus.INFEASIBLE, complete=True, best_bound=float("inf"), **size)
    if outcome.status != BackendStatus.OPTIMAL or outcome.values is None:
        return Outcome(SolveStatus.TIMEOUT, message="the LP relaxation was stopped before its optimum", **size)
    relaxed = relaxed_solution(level, model, outcome.values)
    return Outcome(SolveStatus.UNKNOWN, message=f"LP relaxation: at least {relaxed.objective:.3f} bricks",
                   best_bound=relaxed.objective, relaxed=relaxed, **size)


def relaxed_solution(level: Level, model: MilpModel, values: npt.NDArray[np.float64]) -> RelaxedSolution:
    """Brick densities and the LP's own lemming densities as a :class:`RelaxedSolution`."""
    obst = np.zeros((level.height, level.width))
    for i, (r, c) in enumerate(model.brick_cells):
        obst[r, c] = values[i]
    occ = np.zeros((level.frames, level.height, level.width, 2))
    for coords, mapping in model.occupancy or ():
        density = mapping.dot(values)  # type: ignore[attr-defined]
        np.add.at(occ, (coords[:, 0], coords[:, 1], coords[:, 2], coords[:, 3]), density)
    if model.occupancy is not None and level.frames == 1:  # no arcs: each lemming at its start
        for lem in level.lemmings:
            occ[0, lem.row, lem.col, 1 if lem.direction == 1 else 0] += 1.0
    for coords, var in model.states:
        np.add.at(occ, (coords[:, 0], coords[:, 1], coords[:, 2], coords[:, 3]), values[var])
    return RelaxedSolution(obstacles=obst, occupancy=occ, objective=float(values[: model.n_bricks].sum()))
