"""All k generations of reverse Life as one CNF, solved by CaDiCaL with start cells as assumptions.

Layers ``0 .. k-1`` are variables (cell ``(r, c)`` of layer ``t`` is variable ``t * cells + r * width + c + 1``),
the target is constants.  Each cell of layer ``t + 1`` is tied to its 3x3 neighbourhood in layer ``t`` by
the rule's forbidding clauses (:func:`ai.puzzles.life.sat.forbidding_clauses`), each with the next cell's
literal added (for the target, only the clauses of its value).  On the shipped puzzles it finds a start in
at most a few seconds where the joint CP-SAT model of :mod:`ai.puzzles.life.model` often does not in ten.

:class:`JointSat` asks whether a start keeps some cells alive (or dead): a model is such a start; UNSAT comes
with assumptions that were used (its *core*, not always minimal); an empty core proves that no start
exists at all.
"""

from __future__ import annotations

import numpy as np
from pysat.solvers import Solver

from ai.kernel.context import SolveContext, SolveStopped, StopReason
from ai.puzzles.life.sat import SOLVER, chain_fits, forbidding_clauses, solve_in_slices
from game.core.puzzles.life.rules import OFFSETS, Board, Rule


def joint_cnf(target: Board, rule: Rule, steps: int) -> list[list[int]]:
    """The clauses whose models' first ``target.size`` variables are the ``steps``-step predecessors of ``target``.

    >>> from game.core.puzzles.life.rules import LIFE
    >>> block = np.zeros((4, 4), dtype=bool); block[1:3, 1:3] = True
    >>> s = Solver(name=SOLVER, bootstrap_with=joint_cnf(block, LIFE, 2))
    >>> s.solve(assumptions=[-v for v in range(1, 17) if not block.ravel()[v - 1]])
    True
    >>> s.delete()
    """
    target = np.asarray(target, dtype=bool)
    cells = target.size
    base = np.arange(1, cells + 1, dtype=np.int64).reshape(target.shape)
    out: list[list[int]] = []
    for t in range(steps):
        near = np.stack([np.roll(base + t * cells, (-dr, -dc), axis=(0, 1)) for dr, dc in OFFSETS],
                        axis=-1).reshape(-1, 9)
        last = t + 1 == steps
        for alive in (False, True):
            which = np.flatnonzero(target.ravel() == alive) if last else np.arange(cells)
            for clause in forbidding_clauses(rule, alive):
                bits = np.array([abs(lit) - 1 for lit in clause], dtype=np.int64)
                signs = np.array([1 if lit > 0 else -1 for lit in clause], dtype=np.int64)
                lits = near[which][:, bits] * signs
                if not last:  # "next cell is alive" is the clause's way out when it forbids alive, and so on
                    nxt = (base.ravel()[which] + (t + 1) * cells) * (-1 if alive else 1)
                    lits = np.concatenate([lits, nxt[:, None]], axis=1)
                out.extend(lits.tolist())
    return out


def joint_fits(target: Board, rule: Rule, steps: int) -> bool:
    """True when the joint CNF fits the SAT memory budget (the same size as :func:`ai.puzzles.life.sat.chain`'s)."""
    return chain_fits(target, rule, steps)


class JointSat:
    """A solver holding :func:`joint_cnf`, asked about starts under assumptions on start cells."""

    def __init__(self, target: Board, rule: Rule, steps: int) -> None:
        self.shape = np.asarray(target).shape
        self.width = int(self.shape[1])
        self.solver = Solver(name=SOLVER, bootstrap_with=joint_cnf(target, rule, steps))
        self.solver.set_phases([-v for v in range(1, int(np.prod(self.shape)) * steps + 1)])  # sparse starts first

    def var(self, r: int, c: int) -> int:
        """The variable of start cell ``(r, c)``."""
        return r * self.width + c + 1

    def close(self) -> None:
        """Free the solver."""
        self.solver.delete()

    def solve(self, assumptions: list[int], ctx: SolveContext) -> bool | None:
        """Is there a start with these literals true?  ``None`` when ``ctx`` stopped first (a cancel raises
        :class:`SolveStopped`); asked in slices (:func:`~ai.puzzles.life.sat.solve_in_slices`)."""
        answer = solve_in_slices(self.solver, assumptions, ctx)
        if answer is not None:
            return answer
        if ctx.cancelled():
            raise SolveStopped(StopReason.CANCELLED)
        return None

    def start(self) -> Board:
        """The start of the last model."""
        model = self.solver.get_model()
        cells = int(np.prod(self.shape))
        return (np.array(model[:cells]) > 0).reshape(self.shape)

    def core(self) -> list[int]:
        """The assumptions the last UNSAT answer used (empty: no start at all)."""
        return list(self.solver.get_core() or [])


__all__ = ["JointSat", "joint_cnf", "joint_fits"]
