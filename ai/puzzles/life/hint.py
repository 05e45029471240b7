"""Reverse Life hints: one concrete next step for the start the player is painting.

The player's live cells are the cells they painted.  :func:`hint` answers, within one
:class:`ai.kernel.context.SolveContext`:

* :attr:`HintKind.SOLVED`: the start already becomes the target;
* :attr:`HintKind.ADD`: a start exists that keeps every live cell of the player's (found with a time limit
  first by the chain of one-step solvers of :mod:`ai.puzzles.life.sat`, their cells kept alive in the start,
  then by the joint CNF of :mod:`ai.puzzles.life.joint_sat`, their cells as assumptions); the hint is a cell alive in that start and dead in theirs: one proved alive in *every*
  such start when a check of the best :data:`FORCED_CHECKS` candidates proves one in time, else the
  candidate whose flip leaves the fewest wrong cells.  Following ADD hints one by one ends on an exact start;
* :attr:`HintKind.REMOVE`: no start keeps all their live cells, but one exists without them; the hint
  is the live cell whose flip leaves the fewest wrong cells (a cell of the core at equal counts);
* :attr:`HintKind.NO_START`: no start makes the target at all (proved); the hint
  is the cell whose flip leaves the fewest wrong cells;
* :attr:`HintKind.CLOSER`: the search found nothing in time, or its model does not fit its memory
  budget; the hint is the cell whose flip leaves the fewest wrong cells.

The wrong cells after every single flip are computed first, exactly, by simulation
(:func:`flip_errors`), so there is always a cell to give, whatever the time.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ai.kernel.context import SolveContext, SolveStopped, StopReason
from ai.puzzles.life.joint_sat import JointSat, joint_fits
from ai.puzzles.life.polish import wrong_cells
from ai.puzzles.life.sat import chain
from game.core.puzzles.life.rules import LIFE, Board, Rule, near_cells, step

#: Candidate cells of an ADD hint checked for being alive in every start that keeps the player's cells.
FORCED_CHECKS = 6
#: Share of the time left that the checks of :data:`FORCED_CHECKS` may take together, and at most this many seconds.
FORCED_SHARE = 0.5
FORCED_SECONDS = 1.0
#: Seconds that must be left for the checks when the joint CNF is not built yet (building it takes a while).
FORCED_BUILD_SECONDS = 2.0
#: Share of a hint's time the chain of one-step solvers gets before the joint CNF (with a deadline).
CHAIN_SHARE = 0.5
#: Most boards (of the whole size) stepped at once by :func:`flip_errors` (bounds its memory).
STACK_CELLS = 1 << 22
#: Boards of more cells than this use windows around each flip in :func:`flip_errors`, when they fit.
WINDOW_MIN_CELLS = 1024

Cell = tuple[int, int]


class HintKind(str, enum.Enum):
    """What a hint tells the player (see the module docstring)."""

    SOLVED = "solved"
    ADD = "add"
    REMOVE = "remove"
    NO_START = "no start"
    CLOSER = "closer"


@dataclass(frozen=True)
class LifeHint:
    """One next step: flip ``cell`` (to ``alive``); ``wrong_after`` is the wrong-cell count after that flip."""

    kind: HintKind
    cell: Cell | None
    alive: bool
    wrong_now: int
    wrong_after: int
    forced: bool = False  #: ADD: proved alive in every start that keeps the player's live cells
    start: Board | None = None  #: ADD: the exact start (replayed) the cell comes from
    note: str = ""  #: why the search did not run (its model did not fit its memory budget), when so


def flip_errors(start: Board, target: Board, rule: Rule, steps: int) -> npt.NDArray[np.int64]:
    """Wrong cells after ``steps`` generations of ``start`` with one cell flipped, for every cell (exact).

    >>> blinker = np.zeros((5, 5), dtype=bool); blinker[2, 1:4] = True
    >>> start = blinker.T.copy(); start[1, 2] = False  # the upright blinker, its top cell missing
    >>> errors = flip_errors(start, blinker, LIFE, 1)
    >>> int(errors.min()), [int(v) for v in np.argwhere(errors == errors.min())[0]]
    (0, [1, 2])
    """
    start, target = np.asarray(start, dtype=bool), np.asarray(target, dtype=bool)
    rows, cols = start.shape
    reach = 2 * steps
    if start.size > WINDOW_MIN_CELLS and min(rows, cols) > 2 * reach:
        return _window_errors(start, target, rule, steps)
    return _stack_errors(start, target, rule, steps)


def _stack_errors(start: Board, target: Board, rule: Rule, steps: int) -> npt.NDArray[np.int64]:
    """:func:`flip_errors` by stepping whole boards, a chunk of flipped copies at a time."""
    cells = start.size
    out = np.empty(cells, dtype=np.int64)
    chunk = max(1, STACK_CELLS // max(1, cells))
    for first in range(0, cells, chunk):
        idx = np.arange(first, min(cells, first + chunk))
        boards = np.repeat(start.reshape(1, -1), len(idx), axis=0)
        boards[np.arange(len(idx)), idx] ^= True
        after = step(boards.reshape(len(idx), *start.shape), rule, steps)
        out[idx] = np.count_nonzero(after != target, axis=(1, 2))
    return out.reshape(start.shape)


def _window_errors(start: Board, target: Board, rule: Rule, steps: int) -> npt.NDArray[np.int64]:
    """:func:`flip_errors` by stepping a window of side ``4 * steps + 1`` around each flip.

    A flip changes only cells within ``steps`` of it; the window's own wrap-around spoils only cells
    within ``steps`` of its edge, so the centre square of side ``2 * steps + 1`` is exact.
    """
    rows, cols = start.shape
    reach, inner = 2 * steps, steps
    wrong = step(start, rule, steps) != target
    total = int(np.count_nonzero(wrong))
    span = np.arange(-reach, reach + 1)
    keep = slice(reach - inner, reach + inner + 1)
    out = np.empty(start.size, dtype=np.int64)
    chunk = max(1, STACK_CELLS // span.size ** 2)
    for first in range(0, start.size, chunk):
        idx = np.arange(first, min(start.size, first + chunk))
        r, c = idx // cols, idx % cols
        rr = (r[:, None] + span[None, :]) % rows
        cc = (c[:, None] + span[None, :]) % cols
        patches = start[rr[:, :, None], cc[:, None, :]]
        patches[:, reach, reach] ^= True
        after = step(patches, rule, steps)[:, keep, keep]
        goal = target[rr[:, keep, None], cc[:, None, keep]]
        before = wrong[rr[:, keep, None], cc[:, None, keep]]
        out[idx] = total - np.count_nonzero(before, axis=(1, 2)) + np.count_nonzero(after != goal, axis=(1, 2))
    return out.reshape(start.shape)


def closeness(board: Board, most: int = 8) -> npt.NDArray[np.int64]:
    """Each cell's distance (3x3 rings, on the torus) to the nearest live cell of ``board``, at most ``most``
    (hints at equal wrong cells name a cell near what is on the board, not one in a far corner).

    >>> b = np.zeros((5, 7), dtype=bool); b[0, 0] = True
    >>> closeness(b)[0].tolist()
    [0, 1, 2, 3, 3, 2, 1]
    """
    out = np.full(board.shape, most, dtype=np.int64)
    for radius in range(most - 1, -1, -1):
        out[near_cells(board, radius)] = radius
    return out


def _best(errors: npt.NDArray[np.int64], cells: list[Cell], near: npt.NDArray[np.int64],
          prefer: set[Cell] | None = None) -> Cell:
    """The cell of ``cells`` whose flip leaves the fewest wrong cells (then one of ``prefer``, then the
    nearest to life by ``near``, then the first)."""
    prefer = prefer or set()
    return min(cells, key=lambda rc: (int(errors[rc]), rc not in prefer, int(near[rc])))


def _flip_hint(kind: HintKind, painted: Board, target: Board, errors: npt.NDArray[np.int64], wrong: int,
               cells: list[Cell] | None = None, prefer: set[Cell] | None = None, note: str = "") -> LifeHint:
    """A hint that flips the cell (of ``cells``, default all) leaving the fewest wrong cells."""
    every = cells if cells else [(int(r), int(c)) for r, c in np.ndindex(*painted.shape)]
    cell = _best(errors, every, closeness(painted | target), prefer)
    return LifeHint(kind, cell, not bool(painted[cell]), wrong, int(errors[cell]), note=note)


def hint(painted: Board, target: Board, steps: int, ctx: SolveContext, rule: Rule = LIFE, *,
         forced_checks: int = FORCED_CHECKS) -> LifeHint:
    """One next step for the player's start ``painted`` (see the module docstring).

    Raises :class:`ai.kernel.context.SolveStopped` only when ``ctx`` is cancelled; when its time ends the answer is the
    cell whose flip leaves the fewest wrong cells (:attr:`HintKind.CLOSER`).
    """
    painted, target = np.asarray(painted, dtype=bool), np.asarray(target, dtype=bool)
    wrong = wrong_cells(painted, target, rule, steps)
    if wrong == 0:
        return LifeHint(HintKind.SOLVED, None, False, 0, 0)
    errors = flip_errors(painted, target, rule, steps)
    if not joint_fits(target, rule, steps):
        return _flip_hint(HintKind.CLOSER, painted, target, errors, wrong, note="no search on a board this large")
    live = [(int(r), int(c)) for r, c in np.argwhere(painted)]
    joint = _Joint(target, rule, steps)
    try:
        answer, start = _search(joint, painted, target, rule, steps, ctx)
        if start is None:
            if answer is None:
                return _flip_hint(HintKind.CLOSER, painted, target, errors, wrong)
            if not answer:
                core = set(joint.sat().core())  # not always minimal: a non-empty core can hide "no start at all"
                if not core or joint.sat().solve([], ctx) is False:
                    return _flip_hint(HintKind.NO_START, painted, target, errors, wrong)
                in_core = {(r, c) for r, c in live if joint.var(r, c) in core}
                return _flip_hint(HintKind.REMOVE, painted, target, errors, wrong, live, in_core)
            start = joint.sat().start()
        if wrong_cells(start, target, rule, steps) or (painted & ~start).any():
            raise AssertionError("life hint: a start replays with wrong cells or drops a live cell of the player")
        near = closeness(painted | target)
        missing = sorted(((int(r), int(c)) for r, c in np.argwhere(start & ~painted)),
                         key=lambda rc: (int(errors[rc]), int(near[rc]), rc))
        cell, forced = None, False
        remaining = ctx.remaining()
        if joint.built or remaining is None or remaining >= FORCED_BUILD_SECONDS:
            cell, forced = _forced_cell(joint.sat(), joint.keep(painted), missing[:forced_checks], ctx)
        cell = cell or missing[0]
        return LifeHint(HintKind.ADD, cell, True, wrong, int(errors[cell]), forced, start)
    finally:
        joint.close()


class _Joint:
    """The joint CNF's solver (:class:`ai.puzzles.life.joint_sat.JointSat`), built on first use: on k >= 3
    building it takes longer than the chain often needs to find a start."""

    def __init__(self, target: Board, rule: Rule, steps: int) -> None:
        self.target, self.rule, self.steps = target, rule, steps
        self._sat: JointSat | None = None

    @property
    def built(self) -> bool:
        """True once the solver exists."""
        return self._sat is not None

    def sat(self) -> JointSat:
        """The solver (built now, the first time)."""
        if self._sat is None:
            self._sat = JointSat(self.target, self.rule, self.steps)
        return self._sat

    def var(self, r: int, c: int) -> int:
        """The variable of start cell ``(r, c)``."""
        return int(r * self.target.shape[1] + c + 1)

    def keep(self, painted: Board) -> list[int]:
        """The literals "alive" of the live cells of ``painted``."""
        return [self.var(int(r), int(c)) for r, c in np.argwhere(painted)]

    def close(self) -> None:
        """Free the solver, when built."""
        if self._sat is not None:
            self._sat.close()


def _share(ctx: SolveContext, share: float) -> SolveContext:
    """A child of ``ctx`` with ``share`` of its time left (all of it without a deadline)."""
    remaining = ctx.remaining()
    return ctx.child(time_limit=None if remaining is None else remaining * share)


def _search(joint: _Joint, painted: Board, target: Board, rule: Rule, steps: int,
            ctx: SolveContext) -> tuple[bool | None, Board | None]:
    """Is there a start that keeps the player's live cells: ``(the joint CNF's answer, a start found by the
    chain)``.  With a deadline, the chain of one-step solvers (:func:`ai.puzzles.life.sat.chain`, much faster
    than the joint CNF on some k >= 3 puzzles) looks for such a start with :data:`CHAIN_SHARE` of the time,
    then the joint CNF (which can also prove that no such start exists) has the rest."""
    if ctx.remaining() is None:
        return joint.sat().solve(joint.keep(painted), ctx), None
    found = chain(target, rule, steps, _share(ctx, CHAIN_SHARE), keep=painted)
    if ctx.cancelled():
        raise SolveStopped(StopReason.CANCELLED)
    if found.start is not None:
        return True, found.start
    if found.garden_of_eden:  # the target has no predecessor: False with no core (the joint CNF was not asked)
        return False, None
    if ctx.should_stop():
        return None, None
    return joint.sat().solve(joint.keep(painted), ctx), None


def _forced_cell(sat: JointSat, keep: list[int], candidates: list[Cell],
                 ctx: SolveContext) -> tuple[Cell | None, bool]:
    """The first of ``candidates`` proved alive in every start that keeps the literals ``keep``, in the time
    (:data:`FORCED_SHARE` of what is left, at most :data:`FORCED_SECONDS`), or ``(None, False)``."""
    remaining = ctx.remaining()
    checks = ctx.child(time_limit=None if remaining is None else min(remaining * FORCED_SHARE, FORCED_SECONDS))
    for i, (r, c) in enumerate(candidates):
        left = checks.remaining()
        one = checks.child(time_limit=None if left is None else left / (len(candidates) - i))
        if sat.solve(keep + [-sat.var(r, c)], one) is False:
            return (r, c), True
        if checks.should_stop():
            break
    return None, False


__all__ = ["FORCED_CHECKS", "HintKind", "LifeHint", "closeness", "flip_errors", "hint"]
