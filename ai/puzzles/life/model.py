"""The CP-SAT model of "which start becomes this target after k steps" on a torus, and how it is solved.

Layers ``0 .. k-1`` are Boolean variables, one per cell; layer ``k`` is the target (constants) in the
*exact* model, or free variables compared with the target in the *soft* model (minimise wrong cells).
Each cell of layer ``t + 1`` is the rule applied to its 3x3 neighbourhood in layer ``t``:

* outer-totalistic rules (``B3/S23``, ``B36/S23``, ...): the live-neighbour count is channelled into
  nine indicator literals (exactly one true), then one clause per (centre, count) pair fixes the next
  state -- for a constant next state only the clauses that forbid something remain;
* any other rule: a table constraint over the nine cells and the next state (the rows of the 512-entry
  table that agree with a constant next state, when it is one).

:func:`solve_model` runs CP-SAT within a :class:`ai.kernel.context.SolveContext`: its deadline becomes CP-SAT's
time limit and a cancel reaches ``stop_search`` through the context's one stop-watcher (``ctx.watch``).

A model's size is known before it is built (:func:`model_clauses`): :func:`build_model` refuses one that
would not fit :data:`MODEL_BUDGET_BYTES` with the solver's workers (:func:`max_model_clauses`) with
:class:`ModelTooLarge`, so memory is bounded by design, whatever the board.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from math import comb
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
from ai.kernel.libraries import cp_model
from ai.kernel.cpsat_run import solve_under
from ai.kernel.context import SolveContext
from game.core.puzzles.life.rules import OFFSETS, Board, Rule

#: A cell's value in the model: a Boolean variable or a constant.
Cell = Any

#: Memory one model may take (its proto and CP-SAT's copy of it), in bytes.
MODEL_BUDGET_BYTES = 600 * 2**20
#: Bytes per clause of the model's proto (measured: about 220 on a 40x40 board).
PROTO_BYTES_PER_CLAUSE = 250
#: Bytes per clause and CP-SAT worker while it solves (measured: about 420 with one worker, 380 each with four).
WORKER_BYTES_PER_CLAUSE = 500
#: Output rows of one block of clauses between two checks of the context.
CHECK_ROWS = 4096


class ModelTooLarge(Exception):
    """The model would need more memory than :data:`MODEL_BUDGET_BYTES` (raised before it is built)."""

    def __init__(self, clauses: int, cap: int) -> None:
        super().__init__(f"the model would have {clauses:,} clauses, more than the {cap:,} its memory budget "
                         f"({MODEL_BUDGET_BYTES // 2**20} MB) allows")
        self.clauses = clauses
        self.cap = cap


@dataclass
class ReverseModel:
    """A built model: ``layers[t][r][c]`` (``layers[k]`` is constants in the exact model), and in the soft
    model the literals that are true when a final cell is wrong (``wrong``)."""

    model: cp_model.CpModel
    layers: list[list[list[Cell]]]
    steps: int
    soft: bool
    wrong: list[Any] = field(default_factory=list)

    def start_vars(self) -> list[list[Any]]:
        """The variables of the start layer."""
        return self.layers[0]

    def hint(self, path: list[Board]) -> None:
        """Hint CP-SAT with a trajectory ``path[0..k]`` (start, then each generation)."""
        self.model.clear_hints()  # type: ignore[no-untyped-call]
        for t, layer in enumerate(self.layers):
            if t == self.steps and not self.soft:
                break
            for r, row in enumerate(layer):
                for c, var in enumerate(row):
                    if not isinstance(var, bool):
                        self.model.add_hint(var, bool(path[t][r, c]))

    def start_value(self, solver: cp_model.CpSolver) -> Board:
        """The start layer of CP-SAT's solution."""
        return np.array([[v if isinstance(v, bool) else bool(solver.boolean_value(v)) for v in row]
                         for row in self.layers[0]], dtype=bool)


def _intervals(values: set[int]) -> list[tuple[int, int]]:
    """Maximal runs ``[a, b]`` of consecutive counts in ``values``."""
    out: list[tuple[int, int]] = []
    for v in sorted(values):
        if out and out[-1][1] == v - 1:
            out[-1] = (out[-1][0], v)
        else:
            out.append((v, v))
    return out


def count_clauses(forbidden: set[int]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Clauses over the 8 ring cells that forbid a live count in ``forbidden``.

    Each clause is (cells that must not all be alive, cells that must not all be dead): the count lies
    in ``[a, b]`` exactly when ``a`` cells are alive and ``8 - b`` others dead.  A run is written as such
    clauses or as one run per count, whichever is fewer.

    >>> len(count_clauses({3})), len(count_clauses({4, 5, 6, 7, 8})), len(count_clauses({0, 1}))
    (56, 70, 8)
    """
    out: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for a, b in _intervals(forbidden):
        runs = [(a, b)] if comb(8, a) * comb(8 - a, 8 - b) <= sum(comb(8, v) for v in range(a, b + 1)) else \
            [(v, v) for v in range(a, b + 1)]
        for lo, hi in runs:
            for alive in combinations(range(8), lo):
                rest = [i for i in range(8) if i not in alive]
                for dead in combinations(rest, 8 - hi):
                    out.append((alive, dead))
    return out


@lru_cache(maxsize=64)
def rule_clauses(rule: Rule, value: bool) -> list[tuple[int | None, tuple[int, ...], tuple[int, ...]]]:
    """Clauses that forbid every neighbourhood whose next state under ``rule`` is not ``value``.

    Each is (centre: 0/1 the clause applies only when the centre has that value, ``None`` for both;
    ring cells that must not all be alive; ring cells that must not all be dead), ring cells numbered
    0..7 in bit order without the centre.  Outer-totalistic rules use the count runs of
    :func:`count_clauses`; other rules forbid each bad neighbourhood on its own.

    >>> from game.core.puzzles.life.rules import LIFE
    >>> len(rule_clauses(LIFE, False)), len(rule_clauses(LIFE, True))
    (84, 106)
    """
    bs = rule.bs
    out: list[tuple[int | None, tuple[int, ...], tuple[int, ...]]] = []
    if bs is not None:
        born, survive = bs
        bad = [{n for n in range(9) if (n in group) != value} for group in (born, survive)]
        both = bad[0] & bad[1]
        out += [(None, alive, dead) for alive, dead in count_clauses(both)]
        for c in (0, 1):
            out += [(c, alive, dead) for alive, dead in count_clauses(bad[c] - both)]
        return out
    for index in range(512):
        if rule.table[index] != value:
            ring = [index >> b & 1 for b in range(9) if b != 4]
            out.append((index >> 4 & 1, tuple(i for i in range(8) if ring[i]),
                        tuple(i for i in range(8) if not ring[i])))
    return out


def _neg(x: Cell) -> Cell:
    """The negation of a literal or a constant."""
    return (not x) if isinstance(x, bool) else x.Not()


#: Literal codes of the constants in the vectorised builder (CP-SAT literals are ``i`` and ``-i - 1``).
TRUE_LIT = 1 << 40
FALSE_LIT = -TRUE_LIT - 1


def _codes(layer: list[list[Cell]]) -> npt.NDArray[np.int64]:
    """A layer as CP-SAT literal codes (constants as :data:`TRUE_LIT` / :data:`FALSE_LIT`)."""
    return np.array([[(TRUE_LIT if v else FALSE_LIT) if isinstance(v, bool) else v.index for v in row]
                     for row in layer], dtype=np.int64)


def _add_layer(model: cp_model.CpModel, rule: Rule, src: npt.NDArray[np.int64], dst: npt.NDArray[np.int64],
               ctx: SolveContext | None) -> None:
    """Every clause of one generation, built with numpy: ``dst`` is ``rule`` applied to ``src``.

    Clauses with a true constant are skipped, false constants dropped (see :func:`rule_clauses`).
    """
    inputs = [np.roll(src, (-dr, -dc), axis=(0, 1)).ravel() for dr, dc in OFFSETS]
    mid = inputs[4]
    ring = [v for i, v in enumerate(inputs) if i != 4]
    out = dst.ravel()
    constraints = model.proto.constraints
    for value in (False, True):
        if ctx is not None:
            ctx.check()
        const = (out == TRUE_LIT) | (out == FALSE_LIT)
        keep = ~const | (out == (TRUE_LIT if value else FALSE_LIT))  # constant outputs of the other value: none
        guard = np.where(const, FALSE_LIT, -out - 1 if value else out)[keep]  # holds when out == value
        for c, alive, dead in rule_clauses(rule, value):
            cols = [guard] + [-ring[i][keep] - 1 for i in alive] + [ring[i][keep] for i in dead]
            if c is not None:
                cols.append(-mid[keep] - 1 if c else mid[keep])
            block = np.stack(cols, axis=1)
            block = block[~(block == TRUE_LIT).any(axis=1)]
            for at in range(0, len(block), CHECK_ROWS):
                if ctx is not None:
                    ctx.check()
                _add_clauses(constraints, block[at:at + CHECK_ROWS])


def _add_clauses(constraints: Any, block: npt.NDArray[np.int64]) -> None:
    """One ``bool_or`` constraint per row of ``block`` (false constants dropped)."""
    has_false = (block == FALSE_LIT).any(axis=1)
    for row in block[~has_false].tolist():
        constraints.add().bool_or.literals.extend(row)
    for row in block[has_false].tolist():
        constraints.add().bool_or.literals.extend([x for x in row if x != FALSE_LIT])


def model_clauses(target: Board, rule: Rule, steps: int, *, soft: bool = False) -> int:
    """The clauses :func:`build_model` makes for these arguments, at most (none are dropped or merged).

    >>> from game.core.puzzles.life.rules import LIFE
    >>> board = np.zeros((4, 4), dtype=bool); board[1, 1:4] = True
    >>> built = build_model(board, LIFE, 2)
    >>> len(built.model.proto.constraints) <= model_clauses(board, LIFE, 2) == 16 * 190 + 13 * 84 + 3 * 106
    True
    """
    cells = int(np.asarray(target).size)
    alive = int(np.count_nonzero(target))
    dead_out, alive_out = len(rule_clauses(rule, False)), len(rule_clauses(rule, True))
    free_layers = steps if soft else steps - 1  # layers whose cells are variables, after the start
    last = 0 if soft else alive * alive_out + (cells - alive) * dead_out
    return free_layers * cells * (dead_out + alive_out) + last


def max_model_clauses(workers: int = 1) -> int:
    """The most clauses a model solved by ``workers`` CP-SAT workers may have (:data:`MODEL_BUDGET_BYTES`)."""
    return MODEL_BUDGET_BYTES // (PROTO_BYTES_PER_CLAUSE + WORKER_BYTES_PER_CLAUSE * max(1, workers))


def build_model(target: Board, rule: Rule, steps: int, *, soft: bool = False,
                ctx: SolveContext | None = None, dead: Board | None = None, workers: int = 1) -> ReverseModel:
    """The model of ``steps``-step predecessors of ``target`` (see the module docstring).

    ``dead``: start cells fixed dead (constants), a restriction that makes the model smaller and
    faster; a start it finds is a start, but its ``INFEASIBLE`` proves nothing.
    ``ctx`` (when given) is checked every :data:`CHECK_ROWS` clauses while they are made (about 120,000
    per 25x25 generation).  Raises :class:`ModelTooLarge`, before building anything, when the model solved
    by ``workers`` CP-SAT workers would not fit its memory budget.
    """
    clauses, cap = model_clauses(target, rule, steps, soft=soft), max_model_clauses(workers)
    if clauses > cap:
        raise ModelTooLarge(clauses, cap)
    rows, cols = target.shape
    model = cp_model.CpModel()
    layers: list[list[list[Cell]]] = []
    for t in range(steps + (1 if soft else 0)):
        layers.append([[False if t == 0 and dead is not None and dead[r, c] else model.new_bool_var(f"x{t}_{r}_{c}")
                        for c in range(cols)] for r in range(rows)])
    wrong: list[Any] = []
    if soft:
        final = layers[steps]
        for r in range(rows):
            for c in range(cols):
                wrong.append(_neg(final[r][c]) if target[r, c] else final[r][c])
    else:
        layers.append([[bool(target[r, c]) for c in range(cols)] for r in range(rows)])
    codes = [_codes(layer) for layer in layers]
    for t in range(steps):
        _add_layer(model, rule, codes[t], codes[t + 1], ctx)
    if soft:
        model.minimize(sum(w for w in wrong if not isinstance(w, bool)) + sum(1 for w in wrong if w is True))
    return ReverseModel(model, layers, steps, soft, wrong)


def solve_model(m: ReverseModel, ctx: SolveContext, *, workers: int = 1, seed: int = 0,
                inprocessing: bool = False) -> tuple[Any, cp_model.CpSolver]:
    """Run CP-SAT on ``m`` within ``ctx``; returns (status, solver).  A stop ends CP-SAT within milliseconds.

    CP-SAT's presolve and symmetry detection are off: on these clause models they cost seconds and saved
    nothing.  SAT inprocessing (clause vivification) is off unless ``inprocessing``: it is 80 % of an easy
    25x25 one-step solve (2 s of 2.5 s), but it pays on the harder joint k-step models.
    """
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers = max(1, workers)
    params.cp_model_presolve = False
    params.symmetry_level = 0
    params.use_sat_inprocessing = inprocessing
    params.random_seed = seed
    return solve_under(solver, m.model, ctx), solver


__all__ = ["MODEL_BUDGET_BYTES", "ModelTooLarge", "ReverseModel", "build_model", "max_model_clauses", "model_clauses",
           "solve_model"]
