"""The figures of a rating (see :mod:`ai.services.rating`) that are measured on the level after its minimum.

* :func:`decoys`: brickable cells near the brick-free run that no optimal solution uses, and their weight;
* :func:`frame_slack`: N minus the fewest frames that still win within B;
* :func:`sharing`: how many lemmings use a brick another lemming uses too;
* :func:`preview_solves`: whether some optimal solution can be built one visibly helpful brick at a time.

Each checks the context often: a stopped rating raises :class:`ai.kernel.context.SolveStopped`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ai.kernel.base import BrickSet, SolveMode, SolveStatus, Solver
from ai.kernel.context import SolveContext
from ai.solvers import registry
from game.core.level import Brick, Level
from game.core.reads import neighbourhood
from game.core.simulation import simulate

#: Chebyshev distance from the run within which an unused cell counts as a decoy.
DECOY_RADIUS = 2
#: Optimal solutions examined for the preview (the first ones listed).
PREVIEW_SAMPLE = 24


def decoys(level: Level, useful: set[Brick], ctx: SolveContext) -> tuple[int, float]:
    """Brickable cells within :data:`DECOY_RADIUS` of the brick-free run that are not ``useful`` (in no
    optimal solution)."""
    ctx.check()
    near = np.zeros((level.height, level.width), dtype=np.int64)  # Chebyshev distance to the run, capped
    on_run = np.zeros((level.height, level.width), dtype=bool)
    for t in simulate(level).tracks:
        ctx.check()
        if t.path:
            cells = np.asarray([(r, c) for r, c, _ in t.path], dtype=np.int64)
            on_run[cells[:, 0], cells[:, 1]] = True
    near[:] = DECOY_RADIUS + 1
    for d in range(DECOY_RADIUS, -1, -1):  # dilate the run by d: cells within d of it
        ctx.check()
        grown = on_run.copy()
        for dr in range(-d, d + 1):
            for dc in range(-d, d + 1):
                grown |= _shifted(on_run, dr, dc)
        near[grown] = d
    count, weight = 0, 0.0
    for cell in set(level.brickable_cells) - useful:
        d = int(near[cell])
        if d <= DECOY_RADIUS:
            count += 1
            weight += 1.0 / (1 + d)
    return count, round(weight, 2)


def _shifted(plane: npt.NDArray[np.bool_], dr: int, dc: int) -> npt.NDArray[np.bool_]:
    """``plane`` moved by ``(dr, dc)`` (cells moved in from outside are False)."""
    out = np.zeros_like(plane)
    h, w = plane.shape
    out[max(0, dr):h + min(0, dr), max(0, dc):w + min(0, dc)] = \
        plane[max(0, -dr):h + min(0, -dr), max(0, -dc):w + min(0, -dc)]
    return out


def frame_slack(level: Level, ctx: SolveContext, solver: str | Solver, needs: int | None = None) -> int | None:
    """N minus the fewest frames that still win within B.

    Where targets stop lemmings a won run stays won, so a binary search finds it; otherwise a lemming
    may walk off a target, so frame counts are tried from 1 up, and (given ``needs``, the level's minimum)
    a count counts only when the level still needs that many bricks there: in fewer frames fewer bricks may
    win, and such a count is no tighter timing of this puzzle.
    """
    def wins(frames: int) -> bool | None:
        short = level.with_limits(frames=frames)
        if needs is not None and not level.physics.targets_stop:
            res = registry.solve(short, solver=solver, mode=SolveMode.MIN, ctx=ctx)
            if res.status == SolveStatus.OPTIMAL:
                return len(res.bricks or ()) == needs
        else:
            res = registry.solve(short, solver=solver, mode=SolveMode.ANY, ctx=ctx)
            if res.status in (SolveStatus.FEASIBLE, SolveStatus.OPTIMAL):
                return True
        if res.status == SolveStatus.INFEASIBLE:
            return False
        ctx.check()  # stopped: the rating is partial
        return None

    if not level.physics.targets_stop:
        for frames in range(1, level.frames):
            won = wins(frames)
            if won is None:
                return None
            if won:
                return level.frames - frames
        return 0
    lo, hi = 1, level.frames  # hi wins
    while lo < hi:
        mid = (lo + hi) // 2
        won = wins(mid)
        if won is None:
            return None
        if won:
            hi = mid
        else:
            lo = mid + 1
    return level.frames - hi


def _users(level: Level, bricks: BrickSet, ctx: SolveContext) -> list[set[int]]:
    """For each brick, the lemmings whose run changes when it is taken away."""
    full = simulate(level, bricks).tracks
    out = []
    for b in bricks:
        ctx.check()
        less = simulate(level, tuple(x for x in bricks if x != b)).tracks
        out.append({i for i, (a, c) in enumerate(zip(full, less)) if a.path != c.path})
    return out


def sharing(level: Level, bricks: BrickSet, ctx: SolveContext) -> int:
    """How many lemmings use a brick that another lemming uses too."""
    shared: set[int] = set()
    for users in _users(level, bricks, ctx):
        if len(users) >= 2:
            shared |= users
    return len(shared)


def _read_cells(level: Level, bricks: set[Brick]) -> set[Brick]:
    """Free brickable cells the current run may read: around every state of the preview, the cells
    the level's physics can read (:func:`game.core.reads.neighbourhood`)."""
    brickable = set(level.brickable_cells)
    run = simulate(level, tuple(sorted(bricks)), enforce_budget=False)
    out: set[Brick] = set()
    for track in run.tracks:
        for state in track.path:
            for cell in neighbourhood(level.physics, state):
                if cell in brickable and cell not in bricks:
                    out.add(cell)
    return out


def _progress_of(level: Level, bricks: frozenset[Brick]) -> tuple[int, int]:
    """(lemmings home, minus the total distance from each run to its nearest target)."""
    run = simulate(level, tuple(sorted(bricks)), enforce_budget=False)
    targets = level.targets
    home = sum(1 for t in run.tracks if t.reached_at is not None)
    dist = 0
    for t in run.tracks:
        dist += min((abs(r - tr) + abs(c - tc) for r, c, _ in t.path for tr, tc in targets), default=0)
    return home, -dist


def preview_solves(level: Level, optimal: tuple[BrickSet, ...], ctx: SolveContext) -> bool:
    """Some optimal solution can be built one brick at a time where each brick lies on a cell
    the current preview reads and visibly helps (more lemmings home, or runs closer to a target)."""
    for solution in optimal[:PREVIEW_SAMPLE]:
        memo: dict[frozenset[Brick], tuple[int, int]] = {}

        def progress(bricks: frozenset[Brick]) -> tuple[int, int]:
            if bricks not in memo:
                memo[bricks] = _progress_of(level, bricks)
            return memo[bricks]

        frontier = {frozenset[Brick]()}
        for _ in solution:
            nxt: set[frozenset[Brick]] = set()
            for placed in frontier:
                ctx.check()
                reads = _read_cells(level, set(placed))
                for cell in solution:
                    if cell not in placed and cell in reads and progress(placed | {cell}) > progress(placed):
                        nxt.add(placed | {cell})
            frontier = nxt
            if not frontier:
                break
        if frontier:
            return True
    return False


__all__ = ["DECOY_RADIUS", "decoys", "frame_slack", "preview_solves", "sharing"]
