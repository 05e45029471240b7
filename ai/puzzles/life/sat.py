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
tens of milliseconds.  The clauses are made with numpy and given to the solver a few thousand at a time,
the context checked in between (:class:`StepBack`).

Memory is bounded by design: the chain holds one solver per level, so it runs only when
:func:`chain_clauses` fits :data:`SAT_BUDGET_BYTES` (:func:`chain_fits`).
Ctrl-C during a SAT call (which python-sat catches itself) is a :class:`KeyboardInterrupt`, as anywhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterator

import numpy as np
import numpy.typing as npt
import pysolvers
from pysat.solvers import Solver

from ai.kernel.context import SolveContext, SolveStopped
from game.core.puzzles.life.rules import OFFSETS, Board, Rule, near_cells

#: The SAT solver python-sat runs (CaDiCaL 1.9.5: the fastest of CaDiCaL, Glucose 4.2, MiniSat 2.2,
#: MapleChrono and Lingeling on the benchmark's hard 1-step boards; see docs/ARCHITECTURE.md).
SOLVER = "cd19"
#: Conflicts per SAT call between two checks of the context (a few to a few tens of milliseconds).
CONFLICT_SLICE = 3000
#: Fewest conflicts of a slice cut short by the deadline.
MIN_SLICE = 50
#: Most predecessors tried per level of the chain before it backtracks.
BRANCHING = 4
#: Radius of "far from life": cells with no live cell within it are assumed dead first.
QUIET_RADIUS = 2
#: Memory the chain's solvers may take together, in bytes.
SAT_BUDGET_BYTES = 600 * 2**20
#: Bytes per clause of a CaDiCaL solver, learned clauses included (measured: about 190 on a 128x128 board).
SAT_BYTES_PER_CLAUSE = 250
#: Board rows whose clauses are given to the solver between two checks of the context.
CHECK_ROWS = 8


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
    """A greedy cover of ``minterms`` by prime cubes: each time the first prime (in the given order) that
    covers the most minterms still left, the larger cube on a tie."""
    if not minterms:
        return []
    values = np.array([p[0] for p in primes], dtype=np.int64)[:, None]
    masks = np.array([p[1] for p in primes], dtype=np.int64)[:, None]
    terms = np.array(minterms, dtype=np.int64)[None, :]
    members = (terms & ~masks) == values  # prime x minterm
    size = np.array([bin(p[1]).count("1") for p in primes], dtype=np.int64)  # at most 9: below the factor
    left = np.ones(len(minterms), dtype=bool)
    chosen = []
    while left.any():
        best = int(np.argmax(members[:, left].sum(axis=1) * 16 + size))
        chosen.append(primes[best])
        left &= ~members[best]
    return chosen


def _var(r: int, c: int, width: int) -> int:
    """The SAT variable of cell ``(r, c)`` (1-based)."""
    return int(r * width + c + 1)


def _templates(rule: Rule, alive: bool, width: int) -> npt.NDArray[np.int64]:
    """:func:`forbidding_clauses` as rows of ``width`` signed neighbourhood numbers (1-based), padded with 0."""
    clauses = forbidding_clauses(rule, alive)
    out = np.zeros((len(clauses), width), dtype=np.int64)
    for i, clause in enumerate(clauses):
        out[i, :len(clause)] = clause
    return out


def step_back_blocks(board: Board, rule: Rule, rows: int = CHECK_ROWS) -> Iterator[list[list[int]]]:
    """The clauses of :func:`step_back_cnf` (the same, in the same order), ``rows`` board rows at a time."""
    board = np.asarray(board, dtype=bool)
    height, width = board.shape
    var = np.arange(1, board.size + 1, dtype=np.int64).reshape(board.shape)
    near = np.stack([np.roll(var, (-dr, -dc), axis=(0, 1)) for dr, dc in OFFSETS], axis=-1)  # cell -> its 9 vars
    longest = max([len(c) for alive in (False, True) for c in forbidding_clauses(rule, alive)] + [1])
    per_value = [_templates(rule, alive, longest) for alive in (False, True)]
    most = max(len(t) for t in per_value)
    # every cell gets `most` clause rows (its value's clauses, then padding rows), cell after cell
    table = np.zeros((2, most, longest), dtype=np.int64)
    real = np.zeros((2, most), dtype=bool)  # an empty clause is real: it forbids everything
    for alive, templates in enumerate(per_value):
        table[alive, :len(templates)] = templates
        real[alive, :len(templates)] = True
    for top in range(0, height, rows):
        cells = near[top:top + rows].reshape(-1, 9)
        value = board[top:top + rows].ravel().astype(np.int64)
        lits = table[value]  # (cells, most, longest)
        picked = cells[np.arange(len(cells))[:, None, None], np.maximum(np.abs(lits) - 1, 0)]
        signed = np.where(lits > 0, picked, -picked) * (lits != 0)
        flat = signed.reshape(-1, longest)[real[value].ravel()]
        yield [[x for x in row if x] for row in flat.tolist()]


def step_back_cnf(board: Board, rule: Rule) -> list[list[int]]:
    """The CNF whose models are the predecessors of ``board`` (one generation, torus)."""
    return [clause for block in step_back_blocks(board, rule) for clause in block]


def chain_clauses(board: Board, rule: Rule, steps: int) -> int:
    """The most clauses :func:`chain`'s solvers hold at once: one solver per level, each as large as the
    largest one-step CNF of a board of this size."""
    most = max(len(forbidding_clauses(rule, alive)) for alive in (False, True))
    return steps * int(np.asarray(board).size) * most


def chain_fits(board: Board, rule: Rule, steps: int) -> bool:
    """True when :func:`chain` on ``board`` fits :data:`SAT_BUDGET_BYTES`."""
    return chain_clauses(board, rule, steps) * SAT_BYTES_PER_CLAUSE <= SAT_BUDGET_BYTES


#: Boards of at most this many cells (the game's puzzles) try dead cells first: the start the player is
#: shown is sparse (a blinker's predecessor is the other blinker).  On 25x25 random boards it made the
#: slowest of 20 one-step solves 6.6 s instead of 1.2 s, so larger boards keep CaDiCaL's own phases.
SPARSE_FIRST_CELLS = 400


#: In a chain of k >= 2 steps, every board that will be stepped back again is asked for sparse predecessors.
SPARSE_INNER = True


def solve_in_slices(solver: Solver, assumptions: list[int], ctx: SolveContext) -> bool | None:
    """Is the formula satisfiable with ``assumptions`` true?  Asked in slices of at most :data:`CONFLICT_SLICE`
    conflicts, ``ctx`` checked between two (``None``: it stopped first); near the deadline a slice is cut to
    the conflicts the last one did per second times the time left, so a busy machine does not overrun it."""
    budget = CONFLICT_SLICE
    while not ctx.should_stop():
        solver.conf_budget(budget)
        began = ctx.clock()
        try:
            answer = solver.solve_limited(assumptions=assumptions)
        except pysolvers.error as exc:
            # python-sat catches Ctrl-C itself during a call and raises its own error: the interruption
            if "interrupt" in str(exc).lower():
                raise KeyboardInterrupt from None
            raise
        if answer is not None:
            return bool(answer)
        took, left = ctx.clock() - began, ctx.remaining()
        if left is not None and took > 0:
            budget = int(min(CONFLICT_SLICE, max(MIN_SLICE, budget * left / took)))
    return None


class StepBack:
    """The predecessors of one board, asked for one after another (each different from those before)."""

    def __init__(self, board: Board, rule: Rule, *, sparse: bool | None = None,
                 ctx: SolveContext | None = None) -> None:
        """Give the solver the board's clauses; ``ctx`` is checked every :data:`CHECK_ROWS` board rows (a
        stop raises :class:`SolveStopped`, the solver freed)."""
        self.board = np.asarray(board, dtype=bool)
        self.shape = self.board.shape
        self.solver = Solver(name=SOLVER)
        try:
            for block in step_back_blocks(self.board, rule):
                if ctx is not None:
                    ctx.check()
                self.solver.append_formula(block)
        except SolveStopped:
            self.solver.delete()
            raise
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
        """One SAT question under ``ctx`` (:func:`solve_in_slices`)."""
        return solve_in_slices(self.solver, assumptions, ctx)

    def next(self, ctx: SolveContext, keep: Board | None = None) -> Board | None:
        """Another predecessor (alive on every live cell of ``keep``, when given), or None (``exhausted``
        when proved that none is left)."""
        if self.exhausted or ctx.should_stop():
            return None
        width = self.shape[1]
        alive = [] if keep is None else [_var(r, c, width) for r, c in zip(*np.nonzero(keep))]
        kept = set(alive)
        quiet = [lit for lit in self.quiet if -lit not in kept]
        answer = self._solve(quiet + alive, ctx) if quiet else None
        if answer is False or not quiet:
            answer = self._solve(alive, ctx)
            if answer is False:
                self.exhausted = True
        if not answer:
            return None
        model = self.solver.get_model()
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
          on_board: Callable[[int, Board], None] | None = None, keep: Board | None = None) -> ChainResult:
    """Depth-first search for a start ``steps`` generations before ``target`` (see the module docstring);
    with ``keep``, only starts alive on its live cells count (the levels above look for any predecessor).

    The caller makes sure it fits its memory budget (:func:`chain_fits`)."""
    keeping = keep is not None and bool(np.any(keep))
    ancestors: list[tuple[int, Board]] = []
    try:
        root = StepBack(target, rule, sparse=True if steps > 1 and SPARSE_INNER else None, ctx=ctx)
    except SolveStopped:
        return ChainResult(None, False, ancestors)
    stack: list[tuple[int, StepBack]] = [(1, root)]
    try:
        while stack and not ctx.should_stop():
            level, node = stack[-1]
            if node.found >= BRANCHING and level > 1:
                node.close()
                stack.pop()
                continue
            pred = node.next(ctx, keep if level == steps else None)
            if pred is None:
                if node.exhausted and level == 1 and not (keeping and steps == 1):
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
            stack.append((level + 1, StepBack(pred, rule, sparse=True if level + 1 < steps and SPARSE_INNER else None,
                                              ctx=ctx)))
        return ChainResult(None, False, ancestors)
    except SolveStopped:  # while a level's clauses were given to its solver
        return ChainResult(None, False, ancestors)
    finally:
        for _, node in stack:
            node.close()
        root.close()


__all__ = ["BRANCHING", "ChainResult", "SAT_BUDGET_BYTES", "StepBack", "chain", "chain_clauses", "chain_fits",
           "forbidding_clauses", "step_back_blocks", "step_back_cnf"]
