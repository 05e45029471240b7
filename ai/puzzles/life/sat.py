"""Reverse Life with a SAT solver (CaDiCaL through python-sat): one generation back, and a chain of them.

One step back from a known board is a CNF over the start's cells: for every cell of the board, every
assignment of its 3x3 neighbourhood that the rule would turn into the other value is forbidden by one
clause (the clauses of a rule and a next state are computed once, merged where two differ in one
literal: :func:`forbidding_clauses`).  A predecessor is a model; UNSAT proves the board a Garden of Eden.

:func:`chain` goes back k generations depth first: at each level it asks for up to :data:`BRANCHING`
different predecessors (each next one must differ from the last on a cell near life), preferring cells far
from any live cell dead (an assumption first, dropped when it makes the level UNSAT: sparse boards more
often have predecessors themselves), and backtracks from a predecessor that has none.  The best start is
kept by replayed wrong cells whatever happens, so the chain returns what it has when the time ends.

Every SAT call runs under the :class:`~ai.kernel.context.SolveContext`: the solver works in slices of a few
thousand conflicts and the context is checked between two slices, so a deadline or a cancel is seen within
tens of milliseconds.  Ctrl-C during a SAT call (which python-sat catches itself) is a
:class:`KeyboardInterrupt`, as anywhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import numpy as np
import pysolvers
from pysat.solvers import Solver

from ai.kernel.context import SolveContext
from game.core.puzzles.life.rules import OFFSETS, Board, Rule, near_cells

#: The SAT solver python-sat runs (CaDiCaL 1.9.5: the fastest of CaDiCaL, Glucose 4.2, MiniSat 2.2,
#: MapleChrono and Lingeling on the benchmark's hard 1-step boards; see docs/ARCHITECTURE.md).
SOLVER = "cd19"
#: Conflicts per SAT call between two checks of the context (a few to a few tens of milliseconds).
CONFLICT_SLICE = 3000
#: Most predecessors tried per level of the chain before it backtracks.
BRANCHING = 4
#: Radius of "far from life": cells with no live cell within it are assumed dead first.
QUIET_RADIUS = 2


@lru_cache(maxsize=64)
def forbidding_clauses(rule: Rule, alive: bool) -> tuple[tuple[int, ...], ...]:
    """Clauses over the 9 neighbourhood cells (literal ``b + 1`` = cell of bit ``b`` alive, ``-(b + 1)``
    dead) that hold exactly when the rule gives ``alive``: each forbids a cube of neighbourhoods whose next
    state is the other one (cubes merged while two differ in one cell, as in Quine-McCluskey).

    >>> from game.core.puzzles.life.rules import LIFE
    >>> clauses = forbidding_clauses(LIFE, False)
    >>> all(any((lit > 0) == bool(i >> (abs(lit) - 1) & 1) for lit in c)
    ...     for i in range(512) if not LIFE.table[i] for c in clauses)
    True
    """
    bad = [i for i in range(512) if rule.table[i] != alive]
    cubes = {(i, 0) for i in bad}  # (values, don't-care mask)
    primes: set[tuple[int, int]] = set()
    while cubes:
        merged: set[tuple[int, int]] = set()
        used: set[tuple[int, int]] = set()
        by_mask: dict[int, set[int]] = {}
        for value, mask in cubes:
            by_mask.setdefault(mask, set()).add(value)
        for mask, values in by_mask.items():
            for value in values:
                for bit in range(9):
                    b = 1 << bit
                    if mask & b or value & b:
                        continue
                    if value | b in values:
                        merged.add((value, mask | b))
                        used.add((value, mask))
                        used.add((value | b, mask))
        primes |= cubes - used
        cubes = merged
    cover = _cover(sorted(primes), bad)
    return tuple(tuple(-(bit + 1) if value >> bit & 1 else bit + 1 for bit in range(9) if not mask >> bit & 1)
                 for value, mask in cover)


def _cover(primes: list[tuple[int, int]], minterms: list[int]) -> list[tuple[int, int]]:
    """A greedy cover of ``minterms`` by prime cubes (largest first)."""
    left = set(minterms)
    chosen = []
    members = {p: {m for m in left if (m & ~p[1]) == p[0]} for p in primes}
    while left:
        best = max(primes, key=lambda p: (len(members[p] & left), bin(p[1]).count("1")))
        chosen.append(best)
        left -= members[best]
    return chosen


def _var(r: int, c: int, width: int) -> int:
    """The SAT variable of cell ``(r, c)`` (1-based)."""
    return int(r * width + c + 1)


def step_back_cnf(board: Board, rule: Rule) -> list[list[int]]:
    """The CNF whose models are the predecessors of ``board`` (one generation, torus)."""
    height, width = board.shape
    clauses: list[list[int]] = []
    for r in range(height):
        for c in range(width):
            cells = [_var((r + dr) % height, (c + dc) % width, width) for dr, dc in OFFSETS]
            for clause in forbidding_clauses(rule, bool(board[r, c])):
                clauses.append([cells[abs(lit) - 1] if lit > 0 else -cells[abs(lit) - 1] for lit in clause])
    return clauses


#: Boards of at most this many cells (the game's puzzles) try dead cells first: the start the player is
#: shown is sparse (a blinker's predecessor is the other blinker).  On 25x25 random boards it made the
#: slowest of 20 one-step solves 6.6 s instead of 1.2 s, so larger boards keep CaDiCaL's own phases.
SPARSE_FIRST_CELLS = 400


#: In a chain of k >= 2 steps, every board that will be stepped back again is asked for sparse predecessors.
SPARSE_INNER = True


class StepBack:
    """The predecessors of one board, asked for one after another (each different from those before)."""

    def __init__(self, board: Board, rule: Rule, *, sparse: bool | None = None) -> None:
        self.board = np.asarray(board, dtype=bool)
        self.shape = self.board.shape
        self.solver = Solver(name=SOLVER, bootstrap_with=step_back_cnf(self.board, rule))
        if sparse is None:
            sparse = self.board.size <= SPARSE_FIRST_CELLS
        if sparse:  # decide cells dead first: a sparse start reads better
            self.solver.set_phases([-v for v in range(1, self.board.size + 1)])
        near = near_cells(self.board, QUIET_RADIUS)
        width = self.shape[1]
        self.quiet = [-_var(r, c, width) for r, c in zip(*np.nonzero(~near))]
        self.near = [(r, c) for r, c in zip(*np.nonzero(near))]
        self.exhausted = False  #: proved: no further predecessor
        self.found = 0

    def close(self) -> None:
        """Free the solver."""
        self.solver.delete()

    def _solve(self, assumptions: list[int], ctx: SolveContext) -> bool | None:
        """One SAT question under ``ctx``, in slices of :data:`CONFLICT_SLICE` conflicts (None: stopped)."""
        while not ctx.should_stop():
            self.solver.conf_budget(CONFLICT_SLICE)
            try:
                answer = self.solver.solve_limited(assumptions=assumptions)
            except pysolvers.error as exc:
                # python-sat catches Ctrl-C itself during a call and raises its own error: the interruption
                if "interrupt" in str(exc).lower():
                    raise KeyboardInterrupt from None
                raise
            if answer is not None:
                return bool(answer)
        return None

    def next(self, ctx: SolveContext) -> Board | None:
        """Another predecessor, or None (``exhausted`` when proved that none is left)."""
        if self.exhausted or ctx.should_stop():
            return None
        answer = self._solve(self.quiet, ctx) if self.quiet else None
        if answer is False or not self.quiet:
            answer = self._solve([], ctx)
            if answer is False:
                self.exhausted = True
        if not answer:
            return None
        model = self.solver.get_model()
        width = self.shape[1]
        start = np.zeros(self.shape, dtype=bool)
        for r in range(self.shape[0]):
            for c in range(width):
                start[r, c] = model[_var(r, c, width) - 1] > 0
        self.found += 1
        # the next one must differ on a cell near life (cells far from it are free noise); with no life
        # at all, every predecessor is as good as this one
        if self.near:
            self.solver.add_clause([-_var(r, c, width) if start[r, c] else _var(r, c, width)
                                    for r, c in self.near])
        else:
            self.exhausted = True
        return start


@dataclass
class ChainResult:
    """What :func:`chain` found: an exact start (or None), whether the target has no predecessor at all
    (proved), and the deepest exact ancestors met (level, board) for the approximate fallback."""

    start: Board | None
    garden_of_eden: bool
    ancestors: list[tuple[int, Board]]


def chain(target: Board, rule: Rule, steps: int, ctx: SolveContext, *,
          on_board: Callable[[int, Board], None] | None = None) -> ChainResult:
    """Depth-first search for a start ``steps`` generations before ``target`` (see the module docstring)."""
    ancestors: list[tuple[int, Board]] = []
    root = StepBack(target, rule, sparse=True if steps > 1 and SPARSE_INNER else None)
    stack: list[tuple[int, StepBack]] = [(1, root)]
    try:
        while stack and not ctx.should_stop():
            level, node = stack[-1]
            if node.found >= BRANCHING and level > 1:
                node.close()
                stack.pop()
                continue
            pred = node.next(ctx)
            if pred is None:
                if node.exhausted and level == 1:
                    return ChainResult(None, True, ancestors)
                if level > 1 or node.exhausted:
                    stack.pop()
                    if node is not root:
                        node.close()
                continue
            ancestors.append((level, pred))
            if on_board is not None:
                on_board(level, pred)
            if level == steps:
                return ChainResult(pred, False, ancestors)
            stack.append((level + 1, StepBack(pred, rule, sparse=True if level + 1 < steps and SPARSE_INNER else None)))
        return ChainResult(None, False, ancestors)
    finally:
        for _, node in stack:
            node.close()
        root.close()


__all__ = ["BRANCHING", "ChainResult", "StepBack", "chain", "forbidding_clauses", "step_back_cnf"]
