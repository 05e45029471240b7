"""The Kiyomi–Matsui integer-program bound on how often each jump can be used.

Any game from ``start`` to ``goal`` uses jump ``j`` some ``x_j`` times, and the counts satisfy
``A x = start - goal`` with ``A`` the jump-incidence matrix of :meth:`game.pegs.Board.move_matrix`
(a jump takes a peg from its start and over cells and puts one on its end cell).  So
``x_j <= max { x_j : A x = start - goal, x >= 0 integer }``; when that program has no solution at all
no game exists.  The bounds are solved with OR-Tools CP-SAT (one model, one objective per jump),
each solve bounded by the solve context.

>>> from game.pegs import english
>>> from ai.context import SolveContext
>>> board, start = english()
>>> bounds = jump_bounds(board, start, board.goal_position(), SolveContext.create())
>>> bounds is not None and len(bounds) == len(board.jumps) and max(bounds) <= 31
True
"""

from __future__ import annotations

from ai.context import SolveContext
from game.pegs import Board


def jump_bounds(board: Board, start: int, goal: int, ctx: SolveContext) -> list[int] | None:
    """Per jump of ``board.jumps``, the most times a game from ``start`` to ``goal`` may use it;
    ``None`` when the integer program proves that no game exists.

    Raises :class:`ai.context.SolveStopped` when ``ctx`` says stop between (or during) solves.
    """
    from ortools.sat.python import cp_model

    left = board.count(start) - board.count(goal)
    if left < 0:
        return None
    model = cp_model.CpModel()
    xs = [model.new_int_var(0, left, f"x{k}") for k in range(len(board.jumps))]
    columns = board.move_matrix()
    rows: dict[int, list[tuple[int, int]]] = {}
    for k, column in enumerate(columns):
        for i, a in column.items():
            rows.setdefault(i, []).append((k, a))
    for _cell, i in board.indices():
        need = (start >> i & 1) - (goal >> i & 1)
        model.add(sum(a * xs[k] for k, a in rows.get(i, [])) == need)
    model.add(sum(xs) == left)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    bounds: list[int] = []
    with ctx.watch(solver.stop_search):
        ctx.check()
        status = solver.solve(model)
        if status == cp_model.INFEASIBLE:
            return None
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            ctx.check()
            return [left] * len(xs)
        for x in xs:
            ctx.check()
            model.maximize(x)
            status = solver.solve(model)
            bounds.append(int(solver.objective_value) if status == cp_model.OPTIMAL else left)
        ctx.check()
    return bounds


__all__ = ["jump_bounds"]
