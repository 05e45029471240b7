"""Reverse Life: a start that becomes the target after k steps, or a proof that none exists.

:func:`reverse` tries, within one :class:`ai.kernel.context.SolveContext` (stages 2-4 share all but
:data:`POLISH_SHARE` of the time):

1. the free answers: the all-dead board and the target itself (a still life is its own predecessor);
2. the SAT chain (:mod:`ai.puzzles.life.sat`: CaDiCaL, one generation back at a time, depth first with
   backtracking) for :data:`SAT_SHARE` of the time: an exact start, or a proof that the target has no
   predecessor (then the rest of the time goes to the soft model); every board it meets is a candidate;
3. for k >= 2 on boards of at most :data:`JOINT_MAX_CELLS` cells, the joint exact CP-SAT model of all
   k generations (:mod:`ai.puzzles.life.model`) for :data:`JOINT_SHARE` of the time: a solution is an exact
   start, ``INFEASIBLE`` a proof that none exists;
4. then one generation back at a time with CP-SAT (:func:`predecessor`; each level an equal share of the
   time left, at least :data:`LEVEL_SHARE` of it): the *exact* one-step model (the board as constants)
   for half of the level's time, else the *soft* model (minimise wrong cells) for the rest; the chain
   goes on from what was found (inner levels keep the sparsest predecessor found in their time: sparse
   boards more often have predecessors themselves).  ``INFEASIBLE`` on the first level proves that no
   start exists at all (the target is a Garden of Eden).  Every board of every stage is a candidate
   start; the one with fewest wrong cells after the replay wins;
5. when none is exact, the local search of :mod:`ai.puzzles.life.polish` improves the best one with the rest of
   the time (when it gives up early, it starts again from the same board with other random choices).

On boards of at least :data:`TWO_CORES_MIN_CELLS` cells with k >= 2 and a deadline, stages 2-5 are instead
run on two cores (:mod:`ai.puzzles.life.two_cores`): the SAT chain in a child process (for k >= 3, once it
has stalled short of level k - 1, a second local search takes its place there), and here
stage 4 (for k at most :data:`TWO_CORES_CPSAT_MAX_STEPS`) then the local search (stage 5) as above; the
first exact start ends both.  (Sharing one core, the chain had a fifth
of the time on the benchmark's boards, where a 48-cell target three steps back needed 3.4 s of the chain.)

Memory is bounded by design: a stage whose model would not fit its budget is skipped (the SAT chain,
:func:`ai.puzzles.life.sat.chain_fits`; the CP-SAT models, :class:`ai.puzzles.life.model.ModelTooLarge`) and the
answer says so in its ``note``; on the largest boards only the local search is left.  An answer that is only
one of the free answers of stage 1 is marked as a ``fallback``.

Every start returned is replayed with :func:`game.core.puzzles.life.rules.step`: its wrong cells are counted by the
model, never taken from the solver, and ``exact`` is said only when the replay matches.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

import numpy as np
from ai.kernel.libraries import cp_model
from ai.kernel.context import SolveContext, SolveStopped
from ai.puzzles.life.model import ModelTooLarge, build_model, max_model_clauses, model_clauses, solve_model
from ai.puzzles.life.polish import polish, wrong_cells
from ai.puzzles.life.sat import chain, chain_clauses, chain_fits
from ai.puzzles.life.two_cores import ChainChild, can_fork
from game.core.puzzles.life.board import board_rows
from game.core.puzzles.life.rules import LIFE, Board, Rule, near_cells, trajectory

#: Share of the time limit the SAT chain (:func:`ai.puzzles.life.sat.chain`) gets before the CP-SAT models.
SAT_SHARE = 0.7
#: Share of the time limit the exact model gets before the soft model takes over.
EXACT_SHARE = 0.5
#: Share of the time limit the joint model of all k generations gets (k >= 2) before the step-by-step chain.
JOINT_SHARE = 0.4
#: Largest board (cells) for the joint model: on 25x25 boards it found no start in 4 s of a 10 s limit
#: where the chain finds some (k = 2), and building it for k = 5 alone takes seconds.
JOINT_MAX_CELLS = 300
#: Ask the chain's inner levels for the sparsest predecessor found in their time (not the first one).
SPARSE_CHAIN = True
#: Share of the time limit kept for the local search (:func:`ai.puzzles.life.polish.polish`) when no stage before
#: it found an exact start.
POLISH_SHARE = 0.7
#: Least share of the time left that one level of the step-by-step chain gets.
LEVEL_SHARE = 0.5
#: Run the SAT chain in a child process beside the local search (:mod:`ai.puzzles.life.two_cores`) on boards of
#: at least :data:`TWO_CORES_MIN_CELLS` cells, k >= 2 and a deadline: each gets the whole time instead of a share.
TWO_CORES = True
TWO_CORES_MIN_CELLS = 400
#: On two cores the CP-SAT chain (stage 4) runs before the local search only for k at most this: for k >= 3
#: on the benchmark's 25x25 boards the SAT chain beside it found every exact start, so its time goes to the
#: local search.
TWO_CORES_CPSAT_MAX_STEPS = 2
#: Seconds before the deadline the child's chain stops, and how long after the local search ends (at the
#: deadline) the child's answer is still waited for.
CHILD_MARGIN = 0.1
CHILD_GRACE = 0.05
#: The free answers of stage 1: an answer found this way (and not exact) is a fallback, not a search result.
FALLBACK_METHODS = ("all dead", "target as start")


class ReverseStatus(str, enum.Enum):
    """What :func:`reverse` found."""

    EXACT = "exact"  #: a start whose k-th generation is the target
    APPROXIMATE = "approximate"  #: the best start found in the time; no proof either way
    NONE = "none"  #: proved: no start reaches the target (``start`` is the best approximate one)


@dataclass(frozen=True)
class ReverseResult:
    """A replayed answer: the start, its wrong cells after the steps, and how it was found."""

    status: ReverseStatus
    start: Board
    wrong_cells: int
    steps: int
    rule: Rule
    method: str = ""
    optimal: bool = False  #: the wrong-cell count is proved minimal
    note: str = ""  #: why some stages did not run (their models did not fit the memory budget), when any

    @property
    def fallback(self) -> bool:
        """True when the answer is only a free answer (all dead, the target itself): no search found better."""
        return self.status != ReverseStatus.EXACT and self.method in FALLBACK_METHODS

    @property
    def cells(self) -> int:
        """Cells on the board."""
        return int(self.start.size)

    @property
    def error(self) -> float:
        """Fraction of wrong cells."""
        return self.wrong_cells / self.cells if self.cells else 0.0

    def to_json(self) -> dict[str, Any]:
        """The CLI's JSON object."""
        return {"status": self.status.value, "start": board_rows(self.start), "error": self.error,
                "wrong_cells": self.wrong_cells, "steps": self.steps, "rule": self.rule.name,
                "method": self.method, "optimal": self.optimal, "fallback": self.fallback, "note": self.note}


def _result(status: ReverseStatus, start: Board, target: Board, rule: Rule, steps: int, method: str,
            optimal: bool = False, note: str = "") -> ReverseResult:
    """Replay ``start``; an ``exact`` claim that the replay contradicts is an error in the solver."""
    wrong = wrong_cells(start, target, rule, steps)
    if status == ReverseStatus.EXACT and wrong:
        raise AssertionError(f"{method}: an exact start replays with {wrong} wrong cells")
    if status == ReverseStatus.APPROXIMATE and wrong == 0:
        status = ReverseStatus.EXACT
    return ReverseResult(status, start.copy(), wrong, steps, rule, method, optimal or wrong == 0, note)


class StepStatus(str, enum.Enum):
    """What one step back found (see :func:`predecessor`)."""

    EXACT = "exact"
    APPROXIMATE = "approximate"
    NONE = "none"  #: proved: the board has no predecessor (a Garden of Eden)


def far_from_life(board: Board, radius: int = 2) -> Board:
    """Cells with no live cell within ``radius`` (a (2r+1)x(2r+1) square, on the torus).

    >>> b = np.zeros((7, 7), dtype=bool); b[0, 0] = True
    >>> int(far_from_life(b).sum())
    24
    """
    return ~near_cells(board, radius)


def predecessor(board: Board, rule: Rule, ctx: SolveContext, *, workers: int = 1,
                exact_share: float = EXACT_SHARE, sparse: bool = False) -> tuple[StepStatus, Board | None, bool]:
    """One generation back: (status, a start or ``None``, the start's wrong cells are proved minimal).

    The exact model (hinted towards dead cells: sparse predecessors are the common ones), which can also
    prove that no start exists, gets ``exact_share`` of the time left once it is built; then the soft model (cells far from
    life, :func:`far_from_life`, fixed dead: a smaller model), hinted with ``board`` itself, minimises
    wrong cells.  (Fixing those cells in the exact model too was tried: on the random 25x25 boards of
    the benchmark it was no faster.)
    Raises :class:`SolveStopped` when the time ends while the exact model is being built, and
    :class:`ModelTooLarge` when it would not fit its memory budget.
    """
    quiet = far_from_life(board)
    m = build_model(board, rule, 1, ctx=ctx, workers=workers)
    if sparse:  # fewest live cells: sparse boards more often have predecessors themselves
        m.model.minimize(sum(v for row in m.start_vars() for v in row if not isinstance(v, bool)))
    remaining = ctx.remaining()
    exact_ctx = ctx.child(time_limit=None if remaining is None else remaining * exact_share)
    m.hint([np.zeros_like(board)])
    status, solver = solve_model(m, exact_ctx, workers=workers)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return StepStatus.EXACT, m.start_value(solver), True
    del m, solver  # the soft model's budget is the exact model's too
    proved_none = status == cp_model.INFEASIBLE
    status = StepStatus.NONE if proved_none else StepStatus.APPROXIMATE
    try:
        soft = build_model(board, rule, 1, soft=True, ctx=ctx, dead=quiet, workers=workers)
    except (SolveStopped, ModelTooLarge):
        if ctx.cancelled():
            raise
        return status, None, False
    soft.hint(trajectory(board, rule, 1))
    soft_status, solver = solve_model(soft, ctx, workers=workers)
    start = soft.start_value(solver) if soft_status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else None
    return status, start, soft_status == cp_model.OPTIMAL


class _Best:
    """The candidate start with the fewest wrong cells after ``steps`` generations: count, board, method."""

    def __init__(self, target: Board, rule: Rule, steps: int) -> None:
        self.target, self.rule, self.steps = target, rule, steps
        dead = np.zeros_like(target)
        self.wrong, self.start, self.method = wrong_cells(dead, target, rule, steps), dead.copy(), "all dead"

    def consider(self, start: Board, method: str) -> None:
        """Keep ``start`` (a copy) when it has fewer wrong cells than the best so far."""
        wrong = wrong_cells(start, self.target, self.rule, self.steps)
        if wrong < self.wrong:
            self.wrong, self.start, self.method = wrong, start.copy(), method


def reverse(target: Board, steps: int, ctx: SolveContext, rule: Rule = LIFE, *, workers: int = 1,
            exact_share: float = EXACT_SHARE) -> ReverseResult:
    """The best start for ``target`` after ``steps`` generations within ``ctx`` (see the module docstring)."""
    target = np.asarray(target, dtype=bool)
    best = _Best(target, rule, steps)
    best.consider(target, "target as start")
    if best.wrong == 0:
        return _result(ReverseStatus.EXACT, best.start, target, rule, steps, best.method)
    if _two_cores(target, rule, steps, ctx):
        return _reverse_on_two_cores(best, ctx, workers)
    remaining = ctx.remaining()
    stages = ctx.child(time_limit=None if remaining is None else remaining * (1 - POLISH_SHARE))
    skipped = _skipped(target, rule, steps, workers)
    proved_none = optimal = False
    if chain_fits(target, rule, steps):
        remaining = stages.remaining()
        sat_ctx = stages.child(time_limit=None if remaining is None else remaining * SAT_SHARE)
        stages.report("SAT: generations back, depth first")
        found = chain(target, rule, steps, sat_ctx,
                      on_board=lambda level, board: best.consider(board, "sat step by step"))
        if stages.cancelled():
            stages.check()  # raises SolveStopped (cancelled)
        if found.start is not None:
            return _result(ReverseStatus.EXACT, found.start, target, rule, steps, "sat step by step")
        if found.garden_of_eden:  # proved: no start at all; the rest of the time looks for the fewest wrong cells
            proved_none = True
            exact_share = 0.0
    if steps > 1 and target.size <= JOINT_MAX_CELLS and not proved_none:  # all k generations at once (small boards)
        start, proved_none = _joint(target, rule, steps, stages, workers)
        if start is not None:
            return _result(ReverseStatus.EXACT, start, target, rule, steps, "cp-sat joint")
    if model_clauses(target, rule, 1, soft=True) <= max_model_clauses(workers):
        proved_none, optimal = _step_chain(best, stages, workers, exact_share, proved_none)
    _polish_best(best, ctx)
    if best.wrong == 0:
        return _result(ReverseStatus.EXACT, best.start, target, rule, steps, best.method)
    return _result(ReverseStatus.NONE if proved_none else ReverseStatus.APPROXIMATE, best.start, target, rule,
                   steps, best.method, optimal, skipped)


def _two_cores(target: Board, rule: Rule, steps: int, ctx: SolveContext) -> bool:
    """Does :func:`reverse` run the SAT chain in a child process beside the local search (see the module docstring)?"""
    return (TWO_CORES and steps >= 2 and target.size >= TWO_CORES_MIN_CELLS and ctx.deadline is not None
            and chain_fits(target, rule, steps) and can_fork())


def _reverse_on_two_cores(best: _Best, ctx: SolveContext, workers: int) -> ReverseResult:
    """The SAT chain in a child process until just before the deadline; here meanwhile the CP-SAT step by
    step chain (stage 4) with the first ``1 - POLISH_SHARE`` of the time, then the local search; the first
    exact start ends both."""
    target, rule, steps = best.target, best.rule, best.steps
    assert ctx.deadline is not None
    ctx.report("SAT chain in a second process, CP-SAT and the local search here")
    child = ChainChild(target, rule, steps, ctx.deadline - CHILD_MARGIN)
    try:
        try:
            here = ctx.child(cancel=child.exact)
            remaining = here.remaining()
            stages = here.child(time_limit=None if remaining is None else remaining * (1 - POLISH_SHARE))
            cpsat = steps <= TWO_CORES_CPSAT_MAX_STEPS
            if cpsat and model_clauses(target, rule, 1, soft=True) <= max_model_clauses(workers):
                _step_chain(best, stages, workers, EXACT_SHARE, False)
            _polish_best(best, here)
        except SolveStopped:
            if ctx.cancelled():
                raise
        if ctx.cancelled():
            ctx.check()  # raises SolveStopped (cancelled)
        answer = child.wait(0.0 if best.wrong == 0 else CHILD_GRACE)
    finally:
        child.stop()
    if answer is not None and answer.start is not None:
        return _result(ReverseStatus.EXACT, answer.start, target, rule, steps, "sat step by step")
    if answer is not None and answer.best is not None:
        best.consider(answer.best, "local search" if answer.polished else "sat step by step")
    if best.wrong == 0:
        return _result(ReverseStatus.EXACT, best.start, target, rule, steps, best.method)
    proved_none = answer is not None and answer.garden_of_eden
    return _result(ReverseStatus.NONE if proved_none else ReverseStatus.APPROXIMATE, best.start, target, rule,
                   steps, best.method)


def _skipped(target: Board, rule: Rule, steps: int, workers: int) -> str:
    """What :func:`reverse` leaves out on this board because its models would not fit their memory budgets."""
    out = []
    if not chain_fits(target, rule, steps):
        out.append(f"the SAT chain ({chain_clauses(target, rule, steps):,} clauses)")
    clauses, cap = model_clauses(target, rule, 1, soft=True), max_model_clauses(workers)
    if clauses > cap:
        out.append(f"the CP-SAT models ({clauses:,} clauses, at most {cap:,})")
    return f"skipped for the memory cap: {' and '.join(out)}" if out else ""


def _joint(target: Board, rule: Rule, steps: int, stages: SolveContext, workers: int) -> tuple[Board | None, bool]:
    """Stage 3, the joint model of all ``steps`` generations: ``(exact start or None, proved that none exists)``."""
    try:
        remaining = stages.remaining()
        joint_ctx = stages.child(time_limit=None if remaining is None else remaining * JOINT_SHARE)
        stages.report(f"joint model of {steps} steps")
        m = build_model(target, rule, steps, ctx=joint_ctx, workers=workers)
        m.hint([np.zeros_like(target)] * steps)
        status, solver = solve_model(m, joint_ctx, workers=workers, inprocessing=True)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return m.start_value(solver), False
        return None, status == cp_model.INFEASIBLE
    except ModelTooLarge:
        pass
    except SolveStopped:
        if stages.cancelled():
            raise
    return None, False


def _step_chain(best: _Best, stages: SolveContext, workers: int, exact_share: float,
                proved_none: bool) -> tuple[bool, bool]:
    """Stage 4, one generation back at a time with CP-SAT: ``(proved that none exists, the count is minimal)``."""
    steps, current, optimal = best.steps, best.target, False
    try:
        level = 0
        retried = False
        while level < steps:
            remaining = stages.remaining()
            share = max(1.0 / (steps - level), LEVEL_SHARE)  # the first levels decide whether the chain goes on
            level_ctx = stages.child(time_limit=None if remaining is None or retried else remaining * share)
            stages.report(f"step back {level + 1} of {steps}")
            status, pred, minimal = predecessor(current, best.rule, level_ctx, workers=workers,
                                                exact_share=exact_share, sparse=SPARSE_CHAIN and level < steps - 1)
            if level == 0 and (status == StepStatus.NONE or proved_none):
                proved_none = True  # the target has no predecessor at all, so none k steps back either
                optimal = steps == 1 and minimal
            if pred is None:
                if retried or status == StepStatus.NONE or stages.should_stop():
                    break
                retried = True  # once: this level again with all the time left
                continue
            current = pred
            best.consider(current, "cp-sat step by step" if status == StepStatus.EXACT else "cp-sat min wrong cells")
            if best.wrong == 0:
                break
            level += 1
    except ModelTooLarge:
        pass
    except SolveStopped:
        if stages.cancelled():
            raise
    return proved_none, optimal


def _polish_best(best: _Best, ctx: SolveContext) -> None:
    """Stage 5: with no exact start, the rest of the time polishes the best one (again, other choices, when
    the local search gives up)."""
    seed, origin = 0, best.start
    while best.wrong and not ctx.should_stop():
        ctx.report("local search on the best start")
        start, wrong = polish(origin, best.target, best.rule, best.steps, ctx, seed=seed)
        if wrong < best.wrong:
            best.wrong, best.start, best.method = wrong, start, "local search"
        seed += 1
        if ctx.remaining() is None:  # no deadline: one search, until it gives up
            break


__all__ = ["ReverseResult", "ReverseStatus", "reverse", "wrong_cells"]
