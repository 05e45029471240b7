"""Level analysis for designers: minimum bricks, number of optimal solutions, fewest frames.

:func:`analyse_level` asks an exact solver three questions about a (draft) level:

* the **minimum number of bricks** that wins in N frames, whatever the budget B says
  (the solve runs with B raised to the number of free cells, so a draft whose budget is
  too small is reported as "unsolvable within budget: needs K bricks" rather than just
  "infeasible");
* the **number of optimal solutions** (all minimum brick sets; "unique" when there is
  exactly one; "at least k" when the enumeration hit the time limit);
* the **fewest frames** needed with that minimum number of bricks.  Every brick set that
  wins in N' < N frames also wins in N frames (a run over N' frames is a prefix of the run
  over N), so with B = minimum the winning sets for N' are among the optimal sets for N:
  when the enumeration is complete the answer is ``min over optimal sets of
  (last arrival frame + 1)``, with no further solve.  Otherwise a binary search on N with
  the exact solver (mode ``any``) finds it.  Where lemmings may walk off targets none of this
  holds (fewer frames may even need fewer bricks): the counts below N are tried in turn, and the
  first from which the level still needs the minimum is the answer, so Tighten keeps the puzzle.

:func:`tightened` applies the "Tighten" of the editor: B = minimum bricks, N = fewest frames.

>>> from game.core.level import Level
>>> a = analyse_level(Level.from_rows(["> ..T", "XX.XX"], frames=9, budget=0))
>>> a.status.value, a.min_bricks, a.solution_count, a.complete, a.fewest_frames
('over_budget', 1, 1, True, 5)
>>> tightened(a.level, a).frames, tightened(a.level, a).budget
(5, 1)

Imports the game core and the solvers only, never pygame; runs in the UI's worker thread.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Callable

from ai.kernel.base import BrickSet, SolveMode, SolveResult, SolveStatus
from ai.kernel.context import SolveContext
from ai.solvers import registry
from ai.services.unsolvable import stuck_lemmings, unsolvable_reasons
from game.core.level import Level
from game.core.physics_views import views
from game.core.simulation import simulate

#: Default exact solver ("auto" without the race: no solver thread outlives a solve).
DEFAULT_SOLVER = "auto"
#: The exact solver that first asks whether any set within the budget wins, before saving (the fastest at it).
QUICK_SOLVER = "search"
#: Seconds allowed for the whole analysis by default.
DEFAULT_TIME_LIMIT = 60.0
#: Share of the time limit the enumeration of optimal solutions may use (the rest is for
#: the fewest-frames search when the enumeration is cut short).
ENUMERATION_SHARE = 0.6

class AnalysisStatus(str, enum.Enum):
    """What an analysis concluded (see :class:`Analysis`)."""

    OK = "ok"
    OVER_BUDGET = "over_budget"
    UNSOLVABLE = "unsolvable"
    TIMEOUT = "timeout"
    CANCELLED = "cancelled"
    ERROR = "error"


@dataclass(frozen=True)
class Analysis:
    """What :func:`analyse_level` found.

    ``status``: ``ok`` (solvable within the level's budget), ``over_budget`` (solvable,
    but needs more than B bricks), ``unsolvable`` (no brick set wins in N frames),
    ``timeout``, ``cancelled`` or ``error``.  ``fewest_frames`` is the fewest frames with
    ``min_bricks`` bricks (``None`` when unknown); when ``frames_proved`` is False it is
    only an upper bound (a frame count shown to work).  ``complete`` says whether
    ``solution_count`` counts every optimal solution (else it is a lower bound).
    """

    level: Level
    status: AnalysisStatus
    min_bricks: int | None = None
    solution_count: int = 0
    complete: bool = False
    fewest_frames: int | None = None
    frames_proved: bool = False
    solutions: tuple[BrickSet, ...] = ()
    seconds: float = 0.0
    solver: str = ""
    message: str = ""
    reasons: tuple[str, ...] = ()  #: why no brick set wins (status ``unsolvable``), one line each

    def no_solution(self) -> str | None:
        """Why the level as drafted has no solution, in a line (None when it has one, or that is not known)."""
        if self.status == AnalysisStatus.UNSOLVABLE:
            return self.reasons[0] if self.reasons else f"no brick set wins within {self.level.frames} frames"
        if self.status == AnalysisStatus.OVER_BUDGET and self.min_bricks is not None:
            n = self.min_bricks
            return f"it needs {n} brick{'s' if n != 1 else ''} but the budget B is {self.level.budget}"
        return None

    @property
    def solvable(self) -> bool:
        """True when some brick set wins in N frames (at any budget)."""
        return self.min_bricks is not None

    @property
    def within_budget(self) -> bool:
        """True when the level as drafted (budget B) can be won."""
        return self.status == AnalysisStatus.OK

    @property
    def unique(self) -> bool:
        """True when exactly one optimal solution exists (proved)."""
        return self.complete and self.solution_count == 1

    @property
    def can_tighten(self) -> bool:
        """True when :func:`tightened` would give a solvable level."""
        return self.min_bricks is not None and self.fewest_frames is not None

    def headline(self) -> str:
        """One short line: the verdict."""
        if self.status == AnalysisStatus.OK:
            return "solvable within budget"
        if self.status == AnalysisStatus.OVER_BUDGET:
            return f"UNSOLVABLE within budget B={self.level.budget}"
        if self.status == AnalysisStatus.UNSOLVABLE:
            return f"UNSOLVABLE in N={self.level.frames} frames"
        if self.status == AnalysisStatus.TIMEOUT:
            return "analysis timed out"
        if self.status == AnalysisStatus.CANCELLED:
            return "analysis cancelled"
        return f"analysis failed: {self.message}"

    def lines(self) -> list[str]:
        """Detail lines for a panel or the terminal."""
        out: list[str] = []
        if self.min_bricks is not None:
            out.append(f"minimum bricks: {self.min_bricks}"
                       + (f" (budget {self.level.budget})" if self.min_bricks != self.level.budget else ""))
            if self.status == AnalysisStatus.OVER_BUDGET:
                out.append(bricks_over_budget(self.min_bricks, self.level.budget))
            if self.complete:
                kind = "unique" if self.solution_count == 1 else "not unique"
                out.append(f"optimal solutions: {self.solution_count} ({kind})")
            else:
                out.append(f"optimal solutions: at least {self.solution_count}")
            if self.fewest_frames is not None:
                bound = "" if self.frames_proved else "at most "
                out.append(f"fewest frames: {bound}{self.fewest_frames} (N = {self.level.frames})")
        elif self.status == AnalysisStatus.UNSOLVABLE:
            out += list(self.reasons) or ["no brick set wins: more frames, fewer walls or a closer target?"]
        elif self.message:
            out.append(self.message)
        out.append(f"{self.seconds:.2f} s ({self.solver})" if self.solver else f"{self.seconds:.2f} s")
        return out


def bricks_over_budget(min_bricks: int, budget: int) -> str:
    """What a level whose ``min_bricks`` exceed its ``budget`` lacks, as ``check --solve`` and the editor say it.

    >>> bricks_over_budget(3, 2), bricks_over_budget(5, 2)
    ('needs 1 more brick than the budget', 'needs 3 more bricks than the budget')
    """
    extra = min_bricks - budget
    return f"needs {extra} more brick{'s' if extra != 1 else ''} than the budget"


def last_arrival_frame(level: Level, bricks: BrickSet) -> int | None:
    """The frame at which the last lemming reaches a target with ``bricks`` (None if one never does)."""
    run = simulate(level, bricks, enforce_budget=False)
    arrivals = [t.reached_at for t in run.tracks]
    if any(a is None for a in arrivals):
        return None
    return max(a for a in arrivals if a is not None)


def _solve(level: Level, mode: SolveMode, solver: str, ctx: SolveContext) -> SolveResult:
    options: dict[str, Any] = {"race": False} if solver == "auto" else {}
    return registry.solve(level, solver=solver, mode=mode, ctx=ctx, **options)


def analyse_level(
    level: Level,
    context: SolveContext | None = None,
    *,
    solver: str = DEFAULT_SOLVER,
    progress: Callable[[str], None] | None = None,
) -> Analysis:
    """Analyse ``level`` (see the module docstring) within ``context`` (default: no limit).

    The enumeration of the optimal sets gets :data:`ENUMERATION_SHARE` of the time left; a stopped
    analysis returns at once with status ``cancelled`` or ``timeout``.
    """
    ctx = context if context is not None else SolveContext.create(solver="analyse")

    def done(status: AnalysisStatus, **kw: Any) -> Analysis:
        return Analysis(level, status, seconds=ctx.elapsed(), solver=solver, **kw)

    def say(text: str) -> None:
        if progress is not None:
            progress(text)

    res = _minimum(level, solver, ctx, say)
    if res is None:
        return done(AnalysisStatus.CANCELLED)
    if res.status == SolveStatus.INFEASIBLE:
        say("why there is no solution")
        return done(AnalysisStatus.UNSOLVABLE, reasons=unsolvable_reasons(level, ctx))
    if res.bricks is None:
        return done(AnalysisStatus.TIMEOUT, message=res.message or "no solution found in the time limit")
    if res.status != SolveStatus.OPTIMAL:
        return done(AnalysisStatus.TIMEOUT, message=f"best found {len(res.bricks)} bricks, not proved minimal")
    min_bricks = len(res.bricks)
    solutions = tuple(res.solutions) or (res.bricks,)
    status = AnalysisStatus.OK if min_bricks <= level.budget else AnalysisStatus.OVER_BUDGET

    frames = _fewest_frames(level, res, solutions, min_bricks, solver, ctx, say)
    if frames is None:
        return done(AnalysisStatus.CANCELLED)
    fewest, frames_proved = frames
    return done(status, min_bricks=min_bricks, solution_count=len(solutions), complete=res.complete,
                fewest_frames=fewest, frames_proved=frames_proved, solutions=solutions)


def why_no_solution(level: Level, context: SolveContext | None = None) -> str | None:
    """Why ``level`` has no solution, in a line (:meth:`Analysis.no_solution`'s words), or None when a brick set
    within its budget wins or the check stopped before it knew: the quick check (:func:`stuck_lemmings`), then an
    exact solve within the budget, then, when none wins, one with the budget opened up (the minimum, or why
    nothing wins).  The check before the editor saves a level."""
    ctx = context if context is not None else SolveContext.create(solver="save-check")
    stuck = stuck_lemmings(level, ctx)
    if stuck:
        return stuck[0]
    left = ctx.remaining()  # the search answers "any set within B?" fastest; the portfolio when it cannot
    any_set = _solve(level, SolveMode.ANY, QUICK_SOLVER, ctx.child(time_limit=None if left is None else left / 2))
    if any_set.status not in (SolveStatus.FEASIBLE, SolveStatus.OPTIMAL, SolveStatus.INFEASIBLE):
        any_set = _solve(level, SolveMode.ANY, DEFAULT_SOLVER, ctx)
    if any_set.status != SolveStatus.INFEASIBLE:
        return None  # a winning set, or no answer in time: nothing known against the level
    res = _solve(level.with_limits(budget=max(level.budget, len(level.brickable_cells))), SolveMode.MIN,
                 DEFAULT_SOLVER, ctx)
    if res.status == SolveStatus.INFEASIBLE:
        found = Analysis(level, AnalysisStatus.UNSOLVABLE, reasons=unsolvable_reasons(level, ctx))
    elif res.status == SolveStatus.OPTIMAL and res.bricks is not None:
        found = Analysis(level, AnalysisStatus.OVER_BUDGET, min_bricks=len(res.bricks))
    else:
        return f"no set of at most {level.budget} bricks wins within {level.frames} frames"
    return found.no_solution()


def _minimum(level: Level, solver: str, ctx: SolveContext, say: Callable[[str], None]) -> SolveResult | None:
    """Minimum bricks and all optimal sets (``None``: cancelled).

    Within the budget B first (the tighter, usually faster model; a minimum found there is the minimum at
    any budget), then, when nothing wins within B, with the budget opened up to every free cell; each
    enumeration gets :data:`ENUMERATION_SHARE` of the time left.
    """
    def enumeration() -> SolveContext:
        left = ctx.remaining()
        return ctx.child(time_limit=None if left is None else ENUMERATION_SHARE * left)

    say("minimum bricks and optimal solutions")
    res = _solve(level, SolveMode.ALL, solver, enumeration())
    if res.status == SolveStatus.CANCELLED or ctx.cancelled():
        return None
    open_budget = max(level.budget, len(level.brickable_cells)) if res.status == SolveStatus.INFEASIBLE else 0
    if open_budget > level.budget:
        say("minimum bricks beyond the budget")
        res = _solve(level.with_limits(budget=open_budget), SolveMode.ALL, solver, enumeration())
    if res.status == SolveStatus.CANCELLED or ctx.cancelled():
        return None
    return res


def _fewest_frames(level: Level, res: SolveResult, solutions: tuple[BrickSet, ...], min_bricks: int, solver: str,
                   ctx: SolveContext, say: Callable[[str], None]) -> tuple[int, bool] | None:
    """Fewest frames with ``min_bricks`` bricks (the minimum ``res`` proved, its optimal ``solutions``), and
    whether that is proved (``None``: cancelled)."""
    arrivals = [last_arrival_frame(level, s) for s in solutions]
    known = [a + 1 for a in arrivals if a is not None]
    best_known = min(known) if known else level.frames
    # where lemmings may walk off targets, a set that wins in fewer frames need not win in N: search
    if res.complete and level.physics.targets_stop:
        return best_known, True
    say("fewest frames")
    # where lemmings may walk off targets, an early arrival proves nothing about fewer frames: N is what works
    hi = best_known if level.physics.targets_stop else level.frames
    found, proved = _fewest_frames_search(level, min_bricks, hi, solver, ctx)
    if ctx.cancelled():
        return None
    return found, proved


def frames_lower_bound(level: Level) -> int:
    """A cheap lower bound on N from the moves of the level's physics: a lemming moves at most one
    cell a frame (one row and one column at once only if some move is diagonal), and never in a
    direction no move takes it.

    >>> frames_lower_bound(Level.from_rows(["> ..T", "XX.XX"], frames=9, budget=0))
    5
    """
    moves = [b.move for b in views(level.physics).branches if not b.stays]
    down, up = any(dr > 0 for dr, _ in moves), any(dr < 0 for dr, _ in moves)
    sideways, diagonal = any(da for _, da in moves), any(dr and da for dr, da in moves)
    worst = 0
    for lem in level.lemmings:
        dists = []
        for tr, tc in level.targets:
            rows, cols = tr - lem.row, abs(tc - lem.col)
            if (rows > 0 and not down) or (rows < 0 and not up) or (cols and not sideways):
                continue
            dists.append(max(abs(rows), cols) if diagonal else abs(rows) + cols)
        if not dists:
            return level.frames  # no target this lemming's moves can head for: nothing better to say
        worst = max(worst, min(dists))
    return worst + 1


def _fewest_frames_search(level: Level, bricks: int, hi: int, solver: str, ctx: SolveContext) -> tuple[int, bool]:
    """Binary search for the fewest frames that allow a win with ``bricks`` bricks (where a lemming may walk
    off a target, the fewest from which the level still needs all ``bricks``: with fewer frames, fewer bricks
    may win, and tightening N to such a count would make another puzzle).

    ``hi`` is known to work.  Returns ``(frames, proved)``: on a timeout, the best frame
    count shown to work so far and False.
    """
    lo = min(frames_lower_bound(level), hi)  # invariant: the answer lies in [lo, hi], and hi works
    if not level.physics.targets_stop:  # a lemming may walk off a target: winning is not monotone in N
        for frames in range(lo, hi):
            if ctx.should_stop():
                return hi, False
            res = _solve(level.with_limits(frames=frames, budget=bricks), SolveMode.MIN, solver, ctx)
            if res.status == SolveStatus.OPTIMAL and len(res.bricks or ()) == bricks:
                return frames, True
            # fewer bricks win in this many frames (the level tightened to it would be another puzzle), or none
            if res.status not in (SolveStatus.OPTIMAL, SolveStatus.INFEASIBLE):
                return hi, False
        return hi, True
    while lo < hi:
        if ctx.should_stop():
            return hi, False
        mid = (lo + hi) // 2
        probe = level.with_limits(frames=mid, budget=bricks)
        res = _solve(probe, SolveMode.ANY, solver, ctx)
        if res.solved:
            a = last_arrival_frame(level, res.bricks or ())
            hi = min(mid, a + 1) if a is not None else mid
        elif res.status == SolveStatus.INFEASIBLE:
            lo = mid + 1
        else:
            return hi, False
    return hi, True


def tightened(level: Level, analysis: Analysis) -> Level:
    """``level`` with B = the minimum bricks and N = the fewest frames (unchanged when unknown)."""
    return level.with_limits(
        frames=analysis.fewest_frames if analysis.fewest_frames is not None else level.frames,
        budget=analysis.min_bricks if analysis.min_bricks is not None else level.budget,
    )


__all__ = ["Analysis", "analyse_level", "bricks_over_budget", "last_arrival_frame", "tightened", "why_no_solution"]
