"""The Kiyomi–Matsui integer program: does any game exist, and how often can each jump be used?

Any game from ``start`` to ``goal`` uses jump ``j`` some ``x_j`` times, and the counts satisfy
``A x = start - goal`` with ``A`` the jump-incidence matrix of :meth:`game.core.puzzles.pegs.Board.move_matrix`
(a jump takes a peg from its start and over cells and puts one on its end cell).  So no game exists
when that system has no non-negative integer solution (:func:`ip_feasible`, OR-Tools CP-SAT), and
``x_j <= floor(max { x_j : A x = start - goal, x >= 0 })`` (:func:`lp_jump_bounds`, the linear
relaxation solved by GLOP through ``pywraplp``: 76 small LPs take about 0.05 s where the integer
maximisations take seconds).  The LP is also where pagoda functions live: by Farkas' lemma it is
infeasible exactly when some pagoda function proves the goal unreachable.

>>> from game.core.puzzles.pegs_boards import english
>>> from ai.kernel.context import SolveContext
>>> board, start = english()
>>> bounds = jump_bounds(board, start, board.goal_position(), SolveContext.create())
>>> bounds is not None and len(bounds) == len(board.jumps) and max(bounds) <= 31
True
"""

from __future__ import annotations

import math

from ai.kernel.libraries import cp_model, pywraplp
from ai.kernel.context import SolveContext
from ai.kernel.cpsat_run import leave_ctrl_c_to_python
from game.core.puzzles.pegs import Board

#: Seconds the CP-SAT feasibility check may take before it counts as "not refuted".
FEASIBILITY_SECONDS = 1.0


def _rows(board: Board, start: int, goal: int) -> list[tuple[list[tuple[int, int]], int]]:
    """Per cell: the (jump index, coefficient) terms of ``A x`` and the right-hand side."""
    rows: dict[int, list[tuple[int, int]]] = {}
    for k, column in enumerate(board.move_matrix()):
        for i, a in column.items():
            rows.setdefault(i, []).append((k, a))
    return [(rows.get(i, []), (start >> i & 1) - (goal >> i & 1)) for _cell, i in board.indices()]


def ip_feasible(board: Board, start: int, goal: int, ctx: SolveContext,
                time_limit: float = FEASIBILITY_SECONDS) -> bool:
    """False when ``A x = start - goal`` has no non-negative integer solution (no game exists);
    True when it has one, or when CP-SAT could not decide within ``time_limit``."""
    left = board.count(start) - board.count(goal)
    if left < 0:
        return False
    model = cp_model.CpModel()
    xs = [model.new_int_var(0, left, f"x{k}") for k in range(len(board.jumps))]
    for terms, need in _rows(board, start, goal):
        model.add(sum(a * xs[k] for k, a in terms) == need)
    model.add(sum(xs) == left)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = time_limit
    leave_ctrl_c_to_python(solver)
    ctx.check()
    with ctx.watch(solver.stop_search):
        status = solver.solve(model)
    ctx.check()
    return bool(status != cp_model.INFEASIBLE)


def lp_jump_bounds(board: Board, start: int, goal: int, ctx: SolveContext) -> list[int] | None:
    """Per jump of ``board.jumps``, ``floor`` of its largest use in the linear relaxation;
    ``None`` when even the relaxation has no solution (no game exists)."""
    left = board.count(start) - board.count(goal)
    if left < 0:
        return None
    solver = pywraplp.Solver.CreateSolver("GLOP")
    xs = [solver.NumVar(0.0, float(left), f"x{k}") for k in range(len(board.jumps))]
    for terms, need in _rows(board, start, goal):
        solver.Add(sum(a * xs[k] for k, a in terms) == need)
    bounds = []
    for x in xs:
        ctx.check()
        solver.Maximize(x)
        status = solver.Solve()
        if status == pywraplp.Solver.INFEASIBLE:
            return None
        bounds.append(min(left, math.floor(x.solution_value() + 1e-6)) if status == pywraplp.Solver.OPTIMAL
                      else left)
    return bounds


def jump_bounds(board: Board, start: int, goal: int, ctx: SolveContext) -> list[int] | None:
    """The jump bounds of :func:`lp_jump_bounds`, or ``None`` when :func:`ip_feasible` or the LP prove
    that no game exists.  Raises :class:`ai.kernel.context.SolveStopped` when ``ctx`` says stop."""
    if not ip_feasible(board, start, goal, ctx):
        return None
    return lp_jump_bounds(board, start, goal, ctx)


__all__ = ["FEASIBILITY_SECONDS", "ip_feasible", "jump_bounds", "lp_jump_bounds"]
