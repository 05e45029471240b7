"""Reverse Life hints for the command line: the cells alive (or dead) in every start.

:func:`backbone` finds the cells that have the same value in every start (the hints): solve, then ask
for a start that differs from the first on at least one still-common cell, drop the cells that
differ, until no such start exists (then the remaining cells are proved) or the time ends.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ai.kernel.context import SolveContext, SolveStopped
from ai.kernel.libraries import cp_model
from ai.puzzles.life.model import ModelTooLarge, build_model, solve_model
from ai.puzzles.life.polish import wrong_cells
from game.core.puzzles.life.rules import LIFE, Board, Rule


@dataclass(frozen=True)
class Backbone:
    """Cells equal in every start found: ``alive``/``dead`` masks; ``proved`` when no other start exists
    that differs on them (else they are only candidates); ``exists`` is False when no start exists."""

    exists: bool
    alive: Board
    dead: Board
    proved: bool
    example: Board | None = None  #: one exact start (replayed)
    starts_seen: int = 0
    note: str = ""  #: why nothing was tried (the model did not fit its memory budget), when so

    @property
    def count(self) -> int:
        """Forced cells (alive or dead)."""
        return int(self.alive.sum() + self.dead.sum())


def backbone(target: Board, steps: int, ctx: SolveContext, rule: Rule = LIFE, *, workers: int = 1,
             max_rounds: int = 200) -> Backbone:
    """The cells alive (or dead) in every ``steps``-step predecessor of ``target`` (see the module docstring)."""
    target = np.asarray(target, dtype=bool)
    empty = np.zeros_like(target)
    try:
        m = build_model(target, rule, steps, ctx=ctx, workers=workers)
    except ModelTooLarge as exc:
        return Backbone(True, empty, empty.copy(), False, note=f"no hints for this board: {exc}")
    except SolveStopped:
        if ctx.cancelled():
            raise
        return Backbone(True, empty, empty.copy(), False)
    status, solver = solve_model(m, ctx, workers=workers)
    if status == cp_model.INFEASIBLE:
        return Backbone(False, empty, empty.copy(), True)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Backbone(True, empty, empty.copy(), False)
    first = m.start_value(solver)
    if wrong_cells(first, target, rule, steps):
        raise AssertionError("cp-sat backbone: a start replays with wrong cells")
    common = np.ones_like(target)
    seen = 1
    variables = m.start_vars()
    proved = False
    for _ in range(max_rounds):
        cells = list(zip(*np.nonzero(common)))
        if not cells:
            proved = True
            break
        m.model.add_bool_or([variables[r][c].Not() if first[r, c] else variables[r][c] for r, c in cells])
        status, solver = solve_model(m, ctx, workers=workers)
        if status == cp_model.INFEASIBLE:
            proved = True
            break
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        other = m.start_value(solver)
        if wrong_cells(other, target, rule, steps):
            raise AssertionError("cp-sat backbone: a start replays with wrong cells")
        seen += 1
        common &= other == first
        ctx.report(f"backbone: {int(common.sum())} candidate cells", solutions_found=seen)
    return Backbone(True, common & first, common & ~first, proved, first, seen)


__all__ = ["Backbone", "backbone"]
