"""Why a level has no solution, in words a designer can act on.

:func:`unsolvable_reasons` reads the reachability analysis the exact solvers already compute
(:mod:`ai.solvers.reach`: the states a lemming can occupy on some run, with each brickable cell free or
bricked): a lemming with no live start cannot reach any target within N frames whatever the bricks; run
again with many more frames, the same analysis says whether more frames would help.  A target no lemming
can reach is named too.  That analysis lets a cell be free at one moment and bricked at another, so a lemming
it lets through may still have no way home: when it lets every lemming through, each lemming is solved alone
(exactly), and only when each one can get home alone do the lemmings need bricks that get in each other's way.

>>> from game.core.level import Level
>>> unsolvable_reasons(Level.from_rows(["> X T", "XXXXX"], frames=9, budget=3))
('the lemming cannot reach any target, whatever the bricks, even in 40 frames', 'no lemming can reach the target at row 0, column 4 within 9 frames')
>>> unsolvable_reasons(Level.from_rows(["> ..T", "XX.XX"], frames=3, budget=1))[0]
'the lemming cannot reach any target within 3 frames (it needs more frames)'
>>> unsolvable_reasons(Level.from_rows([">....", "XX.XX", "<...T"], frames=3, budget=1))[0]
'lemming 1 cannot reach any target within 3 frames (it needs more frames)'
"""

from __future__ import annotations

from ai.kernel.base import SolveMode, SolveStatus
from ai.kernel.context import SolveContext, SolveStopped
from ai.solvers import registry
from ai.solvers.reach import analyse
from game.core.level import Level, cell_words
from game.core.level_text import EMPTY, MAX_FRAMES, TARGET
from game.core.physics_views import views
from game.core.teach_words import who

#: Most targets checked one by one for "no lemming can reach it" (each is one more reachability pass).
MAX_TARGETS_CHECKED = 12
#: Fewest frames of the "would more frames help" pass.
MIN_LONG_FRAMES = 40


def long_frames(level: Level) -> int:
    """The frame count of the "more frames" pass: enough to cross the map several times.

    >>> long_frames(Level.from_rows(["> ..T", "XX.XX"], frames=3, budget=1))
    40
    """
    return min(MAX_FRAMES, max(MIN_LONG_FRAMES, 4 * level.frames, 4 * level.height * level.width))


def unsolvable_reasons(level: Level, ctx: SolveContext | None = None) -> tuple[str, ...]:
    """Why no brick set wins ``level`` in N frames: one line per lemming that cannot get home, then the
    targets no lemming can reach (empty when the analysis was stopped or too large)."""
    try:
        return _reasons(level, ctx)
    except (SolveStopped, MemoryError):
        return ()


def stuck_lemmings(level: Level, ctx: SolveContext | None = None) -> tuple[str, ...]:
    """The quick part of :func:`unsolvable_reasons`: one line per lemming that cannot reach any target within
    N frames whatever the bricks (empty when every lemming can, or the analysis was stopped).

    A non-empty answer proves the level has no solution; an empty one proves nothing.

    >>> stuck_lemmings(Level.from_rows(["> ..T", "XX.XX"], frames=9, budget=1))
    ()
    """
    try:
        info = analyse(level, ctx)
    except (SolveStopped, MemoryError):
        return ()
    total = len(info.lemmings)
    return tuple(f"{who(k, total)} cannot reach any target within {level.frames} frames, whatever the bricks"
                 for k, lem in enumerate(info.lemmings) if not lem.feasible)


def _reasons(level: Level, ctx: SolveContext | None) -> tuple[str, ...]:
    info = analyse(level, ctx)
    stuck = [k for k, lem in enumerate(info.lemmings) if not lem.feasible]
    out: list[str] = []
    if stuck:
        more = long_frames(level)
        longer = analyse(level.with_limits(frames=more), ctx) if more > level.frames else info
        for k in stuck:
            name = who(k, len(info.lemmings))
            if longer.lemmings[k].feasible:
                out.append(f"{name} cannot reach any target within {level.frames} frames (it needs more frames)")
            else:
                out.append(f"{name} cannot reach any target, whatever the bricks, even in {more} frames"
                           + _why_never(level, k))
    else:
        out += _alone_reasons(level, ctx)
    out += _unreachable_targets(level, ctx)
    return tuple(out)


def _alone_reasons(level: Level, ctx: SolveContext | None) -> list[str]:
    """The reasons when the reachability analysis lets every lemming through: the lemmings that cannot get
    home even alone (an exact solve each; a level of one lemming is its own proof), else that the lemmings
    get in each other's way."""
    total = len(level.lemmings)
    alone = [False] if total == 1 else [_home_alone(level, k, ctx) for k in range(total)]
    never = [k for k, home in enumerate(alone) if home is False]
    if never:
        return [f"{who(k, total)} cannot get home within {level.frames} frames, whatever the bricks"
                for k in never]
    if all(alone):
        return [f"each lemming can get home on its own, but no one set of bricks brings them all home "
                f"within {level.frames} frames"]
    return [f"no one set of bricks brings every lemming home within {level.frames} frames"]


def _home_alone(level: Level, k: int, ctx: SolveContext | None) -> bool | None:
    """Whether lemming ``k`` alone (the others taken off the map) gets home within N frames with some bricks
    (``None``: the solve was stopped before it knew)."""
    others = {(lem.row, lem.col): EMPTY for i, lem in enumerate(level.lemmings) if i != k}
    probe = level.with_cells(others).with_limits(budget=len(level.brickable_cells))
    res = registry.solve(probe, solver="auto", mode=SolveMode.ANY, ctx=ctx)
    if res.status == SolveStatus.INFEASIBLE:
        return False
    return True if res.bricks is not None else None


def _why_never(level: Level, k: int) -> str:
    """A plain cause for lemming ``k`` never getting home, when one is obvious ('' otherwise)."""
    moves = [b.move for b in views(level.physics).branches if not b.stays]
    lem = level.lemmings[k]
    if not any(dr < 0 for dr, _ in moves) and all(r < lem.row for r, _ in level.targets):
        return " (every target is higher up, and lemmings never climb)"
    return ""


def _unreachable_targets(level: Level, ctx: SolveContext | None) -> list[str]:
    """The targets (up to :data:`MAX_TARGETS_CHECKED`) that no lemming can reach, each checked alone."""
    targets = level.targets
    if len(targets) < 2 or len(targets) > MAX_TARGETS_CHECKED:
        return [f"no lemming can reach the target at {cell_words((r, c))} within {level.frames} frames"
                for r, c in targets if len(targets) == 1 and not _any_feasible(level, ctx)]
    out = []
    for r, c in targets:
        alone = tuple(row.replace(TARGET, EMPTY) if i != r else
                      row[:c].replace(TARGET, EMPTY) + TARGET + row[c + 1:].replace(TARGET, EMPTY)
                      for i, row in enumerate(level.grid))
        probe = Level(level.frames, level.budget, alone, (), level.physics)
        if not _any_feasible(probe, ctx):
            out.append(f"no lemming can reach the target at {cell_words((r, c))} within {level.frames} frames")
    return out


def _any_feasible(level: Level, ctx: SolveContext | None) -> bool:
    return any(lem.feasible for lem in analyse(level, ctx).lemmings)


__all__ = ["long_frames", "stuck_lemmings", "unsolvable_reasons"]
