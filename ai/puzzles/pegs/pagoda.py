"""Pagoda functions learned from LP certificates of dead positions, checked at every search node.

A pagoda function gives each cell a weight ``w`` such that ``w(start) + w(over) >= w(end)`` for every
jump; its value ``P(position)`` (the sum over the pegs) never grows, so a position with
``P(position) < P(goal)`` cannot reach the goal.  By Farkas' lemma the linear relaxation of the
Kiyomi–Matsui program (``A x = position - goal, x >= 0``) has no solution exactly when such a pagoda
exists, and the LP ``min P(position) - P(goal)`` over pagodas with weights in ``[-1, 1]`` finds one.
The search asks for one after proving an expensive position dead (:mod:`ai.puzzles.pegs.search`); the pagoda
then cuts the similar positions met later.  :class:`PagodaCuts` checks all of them at once with one numpy
row of values per board row and row pattern.

>>> from game.core.puzzles.pegs_boards import english
>>> board, start = english()
>>> cuts = PagodaCuts(board, board.goal_position() or 0)
>>> dead = board.position_of([(0, 2), (0, 3), (1, 4), (2, 3), (6, 2)])
>>> cuts.prunes(dead), cuts.learn(dead), cuts.prunes(dead), cuts.learn(start), len(cuts)
(False, True, True, False, 1)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt
from ai.kernel.libraries import pywraplp

from game.core.puzzles.pegs import Board

#: Tolerance on pagoda values (the LP's weights are floating point).
EPS = 1e-7
#: Most pagoda functions kept: each takes a column of 2**width values per board row (36 KB on a 9x9 board),
#: so memory stays bounded (and each check at a node stays fast) however long the search runs.
MAX_CUTS = 1000


class PagodaCuts:
    """The pagoda functions learned so far for one board and goal."""

    def __init__(self, board: Board, goal: int) -> None:
        self.board = board
        self.goal = goal
        self.row_mask = (1 << board.width) - 1
        self.shifts = [r * board.width for r in range(board.height)]
        self.solver = pywraplp.Solver.CreateSolver("GLOP")
        self.w = {i: self.solver.NumVar(-1.0, 1.0, f"w{i}") for _cell, i in board.indices()}
        for j in board.jumps:
            s, o, e = (board.bit(c).bit_length() - 1 for c in (j.start, j.over, j.end))
            self.solver.Add(self.w[s] + self.w[o] - self.w[e] >= 0)
        self.objective = self.solver.Objective()
        self.objective.SetMinimization()
        #: per board row: (row pattern x pagoda) values; the goal's value per pagoda
        self.tables: list[npt.NDArray[np.float64]] = [np.zeros((1 << board.width, 0)) for _ in self.shifts]
        self.thresholds: npt.NDArray[np.float64] = np.zeros(0)
        patterns = np.arange(1 << board.width)
        self._bits = ((patterns[:, None] >> np.arange(board.width)[None, :]) & 1).astype(np.float64)

    def __len__(self) -> int:
        return int(self.thresholds.shape[0])

    def prunes(self, position: int) -> bool:
        """True when a known pagoda proves ``position`` cannot reach the goal."""
        if not len(self):
            return False
        values = sum(table[(position >> shift) & self.row_mask] for table, shift in zip(self.tables, self.shifts))
        return bool((values < self.thresholds - EPS).any())

    def learn(self, position: int) -> bool:
        """Solve the pagoda LP for ``position``; True (and the pagoda kept) when one proves it dead.  With
        :data:`MAX_CUTS` pagodas kept, nothing more is learned (False)."""
        if len(self) >= MAX_CUTS:
            return False
        for i, var in self.w.items():
            self.objective.SetCoefficient(var, float((position >> i & 1) - (self.goal >> i & 1)))
        if self.solver.Solve() != 0 or self.objective.Value() > -1e-6:  # 0: OPTIMAL
            return False
        weights = np.zeros(self.board.height * self.board.width)
        for i, var in self.w.items():
            weights[i] = var.solution_value()
        grid = weights.reshape(self.board.height, self.board.width)
        self.tables = [np.hstack([table, (self._bits @ grid[r])[:, None]]) for r, table in enumerate(self.tables)]
        self.thresholds = np.append(self.thresholds, sum(weights[i] for i in self.w if self.goal >> i & 1))
        return True


@dataclass(frozen=True)
class Pagoda:
    """A pagoda function with whole-number weights that proves ``goal`` unreachable from ``start``."""

    weights: dict[int, int]  #: bit index -> weight
    start_value: int
    goal_value: int

    def grid(self, board: Board) -> str:
        """The weights row by row (``.`` off the board), rows separated by ``/``."""
        rows = []
        for r in range(board.height):
            rows.append(" ".join(str(self.weights[r * board.width + c]) if board.on_board((r, c)) else "."
                                 for c in range(board.width)))
        return " / ".join(rows)


def value(weights: dict[int, int], position: int) -> int:
    """The pagoda value of ``position``: the sum of the weights under its pegs."""
    return sum(w for i, w in weights.items() if position >> i & 1)


def is_pagoda(board: Board, weights: dict[int, int]) -> bool:
    """True when no jump can raise the value: ``w(from) + w(over) >= w(to)`` for every jump."""
    index = dict(board.indices())
    return all(weights[index[j.start]] + weights[index[j.over]] >= weights[index[j.end]] for j in board.jumps)


def certificate(board: Board, start: int, goal: int) -> Pagoda | None:
    """A pagoda function with ``value(start) < value(goal)`` (so no game leads from ``start`` to ``goal``),
    checked in exact arithmetic, or ``None`` when the LP finds none (or its weights do not check)."""
    cuts = PagodaCuts(board, goal)
    if not cuts.learn(start):
        return None
    fractions = {i: Fraction(var.solution_value()).limit_denominator(1000) for i, var in cuts.w.items()}
    scale = math.lcm(*(f.denominator for f in fractions.values()))
    weights = {i: int(f * scale) for i, f in fractions.items()}
    found = Pagoda(weights, value(weights, start), value(weights, goal))
    return found if is_pagoda(board, weights) and found.start_value < found.goal_value else None


def refutes(board: Board, start: int, goal: int | None) -> bool:
    """True when checked pagoda functions (:func:`certificate`) rule out ``goal``; for one peg anywhere
    (``None``), every cell whose single peg the position class allows."""
    mine = board.position_class(start)
    targets = [goal] if goal is not None else [board.bit(c) for c in sorted(board.cells)
                                               if board.position_class(board.bit(c)) == mine]
    return bool(targets) and all(certificate(board, start, target) is not None for target in targets)


__all__ = ["MAX_CUTS", "Pagoda", "PagodaCuts", "certificate", "is_pagoda", "refutes", "value"]
