"""Decomposition: a level whose lemmings split into groups that no brick can couple is solved part by part.

Each lemming's winning runs stay inside its live states (:mod:`ai.solvers.reach`), so they read only the cells of
its read map.  :func:`split` joins lemmings whose read maps share a cell; each resulting group becomes a
*part*: the same map with only that group's lemmings (the others' start cells become empty).  Why the
parts' answers combine exactly:

* a brick set wins the level iff its restriction to each part's read cells wins that part: a winning run
  of a part's lemming reads only that part's cells, and no other part's brick lies there;
* so the optimum is the sum of the parts' optima (infeasible when one part is, or when the sum exceeds B),
  and the optimal sets are exactly the products of the parts' optimal sets;
* an emptied start cell is brickable in a part but not in the level: when a part's analysis reads such a
  cell, the part is merged with that cell's lemming (and split again), so a part never uses one.

Parts are solved one after the other by an inner solver (``auto`` without decomposition by default), each
within the budget the earlier parts left.  In mode ``all`` the number of optimal sets is counted without
listing the product (``stats.extra["solution_count"]``, with ``stats.extra["optimal_cells"]`` the cells some
optimal set uses); at most ``max_solutions`` are listed, and the result is ``complete`` only when the whole
product was listed.  Every part's minimum is proved first, in every mode: mode ``all`` then lists each part's
optimal sets within that minimum, so it proves whatever mode ``min`` proves, and a listing stopped by the
limit leaves the proved minimum, the sets found and a message saying which parts' counts are incomplete.

>>> from game.core.level import Level
>>> from ai.solvers.search import SearchSolver
>>> level = Level.from_rows(["> .TX> .T", "XX.XXXX.X"], frames=5, budget=2)
>>> [part.lemmings for part in split(level, SolveContext.create())]
[(0,), (1,)]
>>> result = DecomposeSolver(inner=SearchSolver).solve_in(level, SolveMode.ALL, SolveContext.create())
>>> result.describe()[:28], result.bricks, result.stats.extra["solution_count"]
('optimal: 2 bricks, proved in', ((1, 2), (1, 7)), 1)
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace
from typing import Callable, Iterable

import numpy as np

from ai.kernel.base import BrickSet, SolveMode, SolveResult, SolveStatus, Solver
from ai.kernel.context import SolveContext, StopReason
from ai.solvers.reach import ReachInfo, analyse, reach_for
from ai.solvers.base import Outcome, Partial, SolverBase
from game.core.level import Brick, Level
from game.core.level_text import EMPTY

#: Statuses of a part that the combination can build on.
FINAL = (SolveStatus.OPTIMAL, SolveStatus.INFEASIBLE)


@dataclass(frozen=True)
class Part:
    """One group of lemmings (indices into ``level.lemmings``) and its sub-level.

    The sub-level is cropped to ``box`` (first row, last row, first col, last col of the level): every
    cell a run of the group can occupy or read, with any bricks, lies inside, so the map outside
    (a wall in the crop) is never read.  ``read_cells`` are in the level's coordinates.
    """

    lemmings: tuple[int, ...]
    level: Level
    read_cells: frozenset[tuple[int, int]]
    box: tuple[int, int, int, int]

    def to_level(self, bricks: Iterable[Brick]) -> BrickSet:
        """Bricks of the sub-level in the level's coordinates."""
        return tuple(sorted((r + self.box[0], c + self.box[2]) for r, c in bricks))


def sub_level(level: Level, keep: tuple[int, ...], box: tuple[int, int, int, int] | None = None) -> Level:
    """``level`` with only the lemmings ``keep`` (the others' start cells emptied), cropped to ``box``."""
    r0, r1, c0, c1 = box if box is not None else (0, level.height - 1, 0, level.width - 1)
    rows = [list(row[c0:c1 + 1]) for row in level.grid[r0:r1 + 1]]
    kept = set(keep)
    for k, lem in enumerate(level.lemmings):
        if k not in kept and r0 <= lem.row <= r1 and c0 <= lem.col <= c1:
            rows[lem.row - r0][lem.col - c0] = EMPTY
    return replace(level, grid=tuple("".join(row) for row in rows))


def may_split(level: Level, ctx: SolveContext) -> bool:
    """Cheap first test: do the lemmings' read cells fall into more than one group? (:func:`split` decides.)"""
    parent = _read_groups(reach_for(level, ctx))
    return reach_for(level, ctx).feasible and len({_root(parent, k) for k in range(len(parent))}) > 1


def _root(parent: list[int], k: int) -> int:
    while parent[k] != k:
        parent[k] = parent[parent[k]]
        k = parent[k]
    return k


def _read_groups(info: ReachInfo) -> list[int]:
    """Union-find parents joining lemmings that share a read cell (lemmings no brick affects: one group)."""
    parent = list(range(len(info.lemmings)))
    owner: dict[int, int] = {}
    blind: list[int] = []
    for k, lem in enumerate(info.lemmings):
        cells = np.flatnonzero(lem.read_map)
        if cells.size == 0:
            blind.append(k)
        for index in cells.tolist():
            if index in owner:
                parent[_root(parent, k)] = _root(parent, owner[index])
            else:
                owner[index] = k
    for k in blind[1:]:
        parent[_root(parent, k)] = _root(parent, blind[0])
    return parent


def split(level: Level, ctx: SolveContext) -> list[Part]:
    """The finest grouping of the lemmings that no brick couples (one part: the level does not split)."""
    info = reach_for(level, ctx)
    count = len(level.lemmings)
    parent = _read_groups(info)

    def find(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    def union(a: int, b: int) -> None:
        parent[find(a)] = find(b)

    whole = [Part(tuple(range(count)), level, frozenset(info.read_cells), (0, level.height - 1, 0, level.width - 1))]
    if len({find(k) for k in range(count)}) == 1 or not info.feasible:
        return whole  # (an infeasible level is answered by reachability, not by parts)
    # Extents with every start cell brickable: they hold the runs of any part, whichever starts it empties.
    starts = [(lem.row, lem.col) for lem in level.lemmings]
    loose_map = level.brickable_map.copy()
    for r, c in starts:
        loose_map[r, c] = True
    extents = [lem.extent for lem in analyse(level, ctx, brickable=loose_map).lemmings]
    while True:
        groups: dict[int, list[int]] = {}
        for k in range(count):
            groups.setdefault(find(k), []).append(k)
        if len(groups) == 1:
            return whole
        parts = []
        merged = False
        for members in groups.values():
            ctx.check()
            box = (min(extents[k][0] for k in members), max(extents[k][1] for k in members),
                   min(extents[k][2] for k in members), max(extents[k][3] for k in members))
            part_level = sub_level(level, tuple(members), box)
            part_info = reach_for(part_level, ctx)
            for other, (r, c) in enumerate(starts):
                inside = box[0] <= r <= box[1] and box[2] <= c <= box[3]
                if inside and find(other) != find(members[0]) and part_info.read_map[r - box[0], c - box[2]]:
                    union(other, members[0])  # the part would use another lemming's start: not separable
                    merged = True
            reads = frozenset((r + box[0], c + box[2]) for r, c in part_info.read_cells)
            parts.append(Part(tuple(members), part_level, reads, box))
        if not merged:
            return sorted(parts, key=lambda p: (len(p.read_cells), p.lemmings))


class DecomposeSolver(SolverBase):
    """Solves a level part by part (see the module doc); a level that does not split goes to ``inner`` whole."""

    name = "decompose"
    exact = True

    def __init__(self, *, inner: Callable[[], Solver], max_solutions: int = 1000) -> None:
        self.inner = inner
        self.max_solutions = max_solutions

    def core(self, level: Level, mode: SolveMode, ctx: SolveContext, partial: Partial) -> Outcome:
        """Split, solve the parts, combine."""
        parts = split(level, ctx)
        if len(parts) == 1:
            whole = self.inner().solve_in(level, mode, ctx.child())
            return _outcome_of(whole, parts=1)
        return self.combine(level, mode, ctx, partial, parts)

    def combine(self, level: Level, mode: SolveMode, ctx: SolveContext, partial: Partial,
                parts: list[Part]) -> Outcome:
        """Prove each part's minimum within the budget left; in mode ``all`` then list each part's optimal sets.

        The minima come first in every mode, so mode ``all`` proves whatever mode ``min`` proves; a part whose
        listing is stopped keeps the optimal sets it found and the count is marked incomplete.
        """
        minima = self._minima(level, ctx, partial, parts)
        if isinstance(minima, Outcome):
            return minima
        bound = float(sum(len(m) for m in minima))
        extra: dict[str, object] = {"parts": len(parts), "part_optima": [len(m) for m in minima]}
        if mode != SolveMode.ALL:
            return Outcome(SolveStatus.OPTIMAL, solutions=[tuple(sorted(b for m in minima for b in m))],
                           best_bound=bound, complete=True, extra=extra)
        sets_per_part, missing = self._optimal_sets(ctx, parts, minima)
        count = math.prod(len(s) for s in sets_per_part)
        combined = [tuple(sorted(b for s in choice for b in s))
                    for choice in itertools.islice(itertools.product(*sets_per_part), self.max_solutions)]
        extra["solution_count"] = count
        extra["solution_count_exact"] = not missing
        if not missing:  # every cell some optimal set uses (what a capped listing may not show)
            extra["optimal_cells"] = sorted({b for sets in sets_per_part for s in sets for b in s})
        if missing:
            message = (f"count incomplete: at least {_sets(count)}, {len(combined)} listed; " + "; ".join(missing))
        else:
            message = "" if count <= self.max_solutions else f"{count} optimal solutions; {self.max_solutions} listed"
        return Outcome(SolveStatus.OPTIMAL, solutions=combined, best_bound=bound,
                       complete=not missing and count <= self.max_solutions, extra=extra, message=message)

    def _minima(self, level: Level, ctx: SolveContext, partial: Partial,
                parts: list[Part]) -> list[BrickSet] | Outcome:
        """One minimum set per part (level coordinates), each part within the budget the earlier ones left;
        or the outcome when a part is infeasible or not proved."""
        spent, minima = 0, []
        solved: dict[tuple[int, tuple[str, ...]], SolveResult] = {}  # identical parts are solved once
        for index, part in enumerate(parts):
            ctx.report(f"part {index + 1} of {len(parts)} ({len(part.lemmings)} lemmings): minimum")
            budget = level.budget - spent
            known = solved.get((part.level.frames, part.level.grid))
            if known is not None and known.bricks is not None and len(known.bricks) <= budget:
                result = known  # optimal within any budget that holds its optimum
            elif known is not None:
                result = SolveResult(SolveStatus.INFEASIBLE, self.name, SolveMode.MIN)
            else:
                result = self.inner().solve_in(part.level.with_limits(budget=budget), SolveMode.MIN, ctx.child())
                if result.status == SolveStatus.OPTIMAL:
                    solved[(part.level.frames, part.level.grid)] = result
            if result.status == SolveStatus.INFEASIBLE:
                return Outcome(SolveStatus.INFEASIBLE, complete=True, best_bound=float("inf"),
                               message=f"part {index + 1} of {len(parts)} cannot be won within the "
                                       f"{budget} bricks the other parts leave",
                               extra={"parts": len(parts)})
            if result.status != SolveStatus.OPTIMAL or result.bricks is None:
                found = result.stats.best_bound
                partial.bound(spent + (found if found is not None else 0.0))
                ctx.check()  # stopped: the base answers with the bound
                return Outcome(SolveStatus.UNKNOWN, best_bound=partial.best_bound,
                               message=f"part {index + 1} of {len(parts)}: {result.describe()}",
                               extra={"parts": len(parts), "parts_solved": index})
            spent += len(result.bricks)
            partial.bound(spent)
            minima.append(_own(part, result.bricks))
        return minima

    def _optimal_sets(self, ctx: SolveContext, parts: list[Part],
                      minima: list[BrickSet]) -> tuple[list[list[BrickSet]], list[str]]:
        """Each part's optimal sets (level coordinates), listed within the part's own minimum, and what is
        missing: one note per part whose listing did not finish (it keeps the sets it found).

        Never raises on a stop: the minima are proved, so a stopped listing still gives an answer.
        """
        out: list[list[BrickSet]] = []
        missing: list[str] = []
        listed: dict[tuple[int, tuple[str, ...]], tuple[list[BrickSet], int, bool]] = {}  # by map: sets, part, done
        for index, (part, minimum) in enumerate(zip(parts, minima)):
            key = (part.level.frames, part.level.grid)
            name = f"part {index + 1} of {len(parts)}"
            sets: list[BrickSet]
            if not minimum:  # won with no brick: the empty set is its only minimum set
                sets, done, why = [()], True, ""
            elif key in listed:  # the same map elsewhere: its sets, moved
                own, first, done = listed[key]
                sets, why = [_shift(s, part.box) for s in own], f"the same map as part {first + 1}"
            elif ctx.should_stop():
                sets, done, why = [minimum], False, f"{_stopped(ctx, 'stopped')} before its listing began (its minimum set only)"
            else:
                ctx.report(f"{name} ({len(part.lemmings)} lemmings): optimal sets")
                result = self.inner().solve_in(part.level.with_limits(budget=len(minimum)), SolveMode.ALL,
                                               ctx.child())
                found = {_own(part, s) for s in result.solutions if len(s) == len(minimum)}
                sets = sorted(found | {minimum})
                done = result.status == SolveStatus.OPTIMAL and result.complete
                why = f"{_stopped(ctx, f'unfinished ({result.status.value})')} after {_sets(len(sets))}"
                listed[key] = ([_shift(s, part.box, -1) for s in sets], index, done)
            out.append(sets)
            if not done:
                missing.append(f"{name}: {why}")
        return out, missing


def _sets(count: int) -> str:
    """``count`` optimal sets, in words (``1 optimal set``, ``2 optimal sets``)."""
    return f"{count} optimal set{'' if count == 1 else 's'}"


def _stopped(ctx: SolveContext, otherwise: str) -> str:
    """Why a part's listing ended early: the time limit, a cancel, or ``otherwise`` (the inner solver's own)."""
    reason = ctx.stop_reason()
    if reason is StopReason.TIMEOUT:
        return "stopped at the time limit"
    return "cancelled" if reason is StopReason.CANCELLED else otherwise


def _own(part: Part, bricks: Iterable[Brick]) -> BrickSet:
    """A part's set in the level's coordinates, on the part's own read cells (a minimum set has no other brick)."""
    return tuple(b for b in part.to_level(bricks) if b in part.read_cells)


def _shift(bricks: BrickSet, box: tuple[int, int, int, int], sign: int = 1) -> BrickSet:
    """``bricks`` moved by the top-left corner of ``box`` (``sign`` -1: into the box's own coordinates)."""
    return tuple(sorted((r + sign * box[0], c + sign * box[2]) for r, c in bricks))


def _outcome_of(result: SolveResult, **extra: object) -> Outcome:
    """An inner solver's result as this solver's outcome."""
    return Outcome(result.status, solutions=result.solutions or ([result.bricks] if result.bricks else []),
                   complete=result.complete, best_bound=result.stats.best_bound, nodes=result.stats.nodes,
                   variables=result.stats.variables, constraints=result.stats.constraints,
                   message=result.message, relaxed=result.relaxed,
                   extra={**result.stats.extra, **extra})


__all__ = ["DecomposeSolver", "Part", "may_split", "split", "sub_level"]
