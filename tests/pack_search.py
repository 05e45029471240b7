"""A small exact search for level design and the pack test (no solver library needed).

A brick only changes a run if some lemming *looks at* its cell (the cell below, or the cell
ahead) before the run with the current bricks would end.  So every winning superset of the
current bricks contains a brick among the cells looked at by the current run: searching over
those cells, depth by depth, is complete.
"""

from __future__ import annotations

from typing import Iterator

from game.core.level import Brick, Level
from game.core.simulation import simulate


def looked_at(level: Level, bricks: tuple[Brick, ...]) -> set[Brick]:
    """Brickable cells the lemmings test (below/ahead) during the run with ``bricks``."""
    run = simulate(level, bricks, enforce_budget=False)
    brickable = level.brickable_map
    placed = set(bricks)
    out: set[Brick] = set()
    for track in run.tracks:
        for i, (r, c, d) in enumerate(track.path[:-1]):
            if track.reached_at is not None and i >= track.reached_at:
                break
            for rr, cc in ((r + 1, c), (r, c + d)):
                if level.in_bounds(rr, cc) and brickable[rr, cc] and (rr, cc) not in placed:
                    out.add((rr, cc))
    return out


def solutions_with(level: Level, k: int) -> Iterator[tuple[Brick, ...]]:
    """Winning brick sets of at most ``k`` bricks reachable by the search (all minimal ones are)."""
    seen: set[tuple[Brick, ...]] = set()

    def rec(bricks: tuple[Brick, ...]) -> Iterator[tuple[Brick, ...]]:
        if bricks in seen:
            return
        seen.add(bricks)
        if simulate(level, bricks, enforce_budget=False).won:
            yield bricks
            return
        if len(bricks) >= k:
            return
        for cell in sorted(looked_at(level, bricks)):
            yield from rec(tuple(sorted(bricks + (cell,))))

    yield from rec(())


def min_bricks(level: Level, limit: int | None = None) -> tuple[int, tuple[Brick, ...]] | None:
    """The fewest bricks that win (and one such set), searching up to ``limit`` (default B)."""
    top = level.budget if limit is None else limit
    for k in range(top + 1):
        for sol in solutions_with(level, k):
            if len(sol) == k:
                return k, sol
    return None
