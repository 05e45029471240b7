"""Difficulty figures of a level, measured by the exact search (what a designer reads).

:func:`rate_level` returns a :class:`Rating`:

* ``min_bricks`` and ``solutions``: the proved minimum and how many optimal brick sets
  there are (``solutions_complete`` says the count is exhaustive);
* ``nodes`` and ``seconds``: search nodes and time the exact search (``ai.solvers.search``)
  spends proving the minimum;
* ``decoys``: brickable cells near the brick-free run (a player would try them) that are
  in no optimal solution, ``decoy_weight`` sums ``1 / (1 + d)`` over them where ``d`` is
  the Chebyshev distance to the nearest cell of the run (a decoy right on the way
  misleads more than one far off);
* ``frame_slack``: N minus the fewest frames that still win within B (0 = tight timing; where lemmings
  walk off targets, the fewest from which the minimum is still needed);
* ``sharing_lemmings``: how many lemmings must share a brick with another lemming (the
  least over the optimal solutions rated): a brick is used by a lemming when taking it
  away changes that lemming's run;
* ``preview_solves``: whether the preview alone gives the answer: some optimal solution
  can be built one brick at a time, each on a cell the current preview reads and each
  visibly helping (more lemmings home, or the runs closer to a target);
* ``score``: one number combining the above (see :func:`difficulty_score`), to order a
  pack and drive Endless.

>>> from game.core.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> r = rate_level(level)
>>> (r.min_bricks, r.solutions, r.frame_slack, r.preview_solves)
(1, 1, 1, True)
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from ai.kernel.base import BrickSet, SolveMode, SolveResult, SolveStatus, Solver
from ai.kernel.context import SolveContext, SolveStopped
from ai.services import rating_figures as figures
from ai.solvers import registry
from game.core.level import Level

#: Optimal solutions examined for brick sharing (the rest are only counted).
SHARING_SAMPLE = 24
#: Seconds at most spent listing the optimal solutions (big levels can have tens of thousands:
#: past this the count is a lower bound, shown with a "+").
ALL_SOLUTIONS_SECONDS = 10.0
#: Optimal sets ``auto`` lists at most for the figures on a level of independent parts (their count and the
#: cells they use are exact without the list; each listed set is replayed, which costs on big levels).
LISTED = 100
#: The player's scale: a score's step 1..10 is 1 + how many of these it reaches.  They are the
#: deciles of the shipped pack's 40 scores (rated 2026-11-23), so "4 / 10" means "harder than
#: about a third of the pack's levels"; a one-gap level reads 1 / 10.
PACK_DECILES: tuple[float, ...] = (4.3, 7.2, 9.0, 9.7, 10.3, 12.0, 12.7, 13.2, 15.0)
#: Decoy weights from which the cells near the path are "some", then "many" (the score's decoy term is 0.15 a
#: unit, at most 3: these are a tenth and a half of that cap).
DECOY_WORDS: tuple[float, float] = (2.0, 10.0)
#: Words for the steps of the scale (1-2, 3-4, 5-6, 7-8, 9-10).
SCALE_WORDS: tuple[str, ...] = ("very easy", "easy", "medium", "hard", "very hard")


def player_step(score: float) -> int:
    """The score on the player's 1..10 scale (by the pack's deciles).

    >>> player_step(0.0), player_step(3.8), player_step(9.28), player_step(15.8)
    (1, 1, 4, 10)
    """
    return 1 + sum(1 for bound in PACK_DECILES if score >= bound)


def player_label(score: float) -> str:
    """What a player reads, e.g. ``Difficulty 4 / 10: medium``... in plain words.

    >>> player_label(9.28), player_label(3.8)
    ('Difficulty 4 / 10: easy', 'Difficulty 1 / 10: very easy')
    """
    step = player_step(score)
    return f"Difficulty {step} / 10: {SCALE_WORDS[(step - 1) // 2]}"


@dataclass(frozen=True)
class Rating:
    """The measured difficulty of one level (see the module docstring)."""

    min_bricks: int | None
    solutions: int
    solutions_complete: bool
    nodes: int
    seconds: float
    decoys: int
    decoy_weight: float
    frame_slack: int | None
    sharing_lemmings: int
    preview_solves: bool
    lemmings: int
    budget: int
    frames: int
    #: OPTIMAL: the minimum proved and every figure measured; INFEASIBLE: proved impossible; TIMEOUT,
    #: CANCELLED or UNKNOWN: stopped (with ``min_bricks`` None the minimum itself is not proved)
    status: SolveStatus = SolveStatus.OPTIMAL
    message: str = ""  #: why the rating is not complete ('' when it is)

    @property
    def solvable(self) -> bool:
        """True when a solution within B and N exists (and was proved)."""
        return self.min_bricks is not None

    @property
    def proved(self) -> bool:
        """True when the verdict has a proof: the minimum is proved, or no solution exists."""
        return self.min_bricks is not None or self.status == SolveStatus.INFEASIBLE

    @property
    def complete(self) -> bool:
        """True when the rating is final: every figure measured, or the level proved impossible."""
        return self.status in (SolveStatus.OPTIMAL, SolveStatus.INFEASIBLE)

    @property
    def unique(self) -> bool:
        """Exactly one optimal solution (proved)."""
        return self.solvable and self.solutions == 1 and self.solutions_complete

    @property
    def score(self) -> float:
        """The combined difficulty (see :func:`difficulty_score`)."""
        return difficulty_score(self)

    @property
    def label(self) -> str:
        """The player-facing difficulty, e.g. ``Difficulty 4 / 10: easy`` (see :func:`player_label`);
        ``No solution`` only when proved, ``Not rated (timed out)`` or ``Not fully rated (...)`` otherwise."""
        if self.status == SolveStatus.INFEASIBLE:
            return "No solution"
        if not self.solvable:
            return f"Not rated ({_VERDICT[self.status]})"
        return player_label(self.score) if self.complete else f"Not fully rated ({_VERDICT[self.status]})"

    def lines(self) -> list[str]:
        """Short display lines in a designer's words (the editor's Analyse panel, ``rate`` output): one difficulty
        number, then only the figures that say something about this level.

        >>> r = Rating(3, 6, True, 180, 0.01, 12, 5.5, 2, 0, False, 1, 3, 20)
        >>> r.lines()  # doctest: +NORMALIZE_WHITESPACE
        ['Difficulty 4 / 10: easy', 'fewest bricks: 3, in 6 different ways',
         'some cells near the path look useful but are in no best solution', 'timing: 2 spare frames',
         'the preview alone does not lead there: some brick helps only together with another',
         'proved by the AI in 180 search steps, 0.01 s']
        >>> Rating(1, 1, True, 3, 0.0, 88, 40.0, 0, 0, True, 1, 1, 20).lines()[2:4]
        ['many cells near the path look useful but are in no best solution', 'timing: tight (no spare frame)']
        >>> Rating(None, 0, False, 0, 0.5, 0, 0.0, None, 0, False, 1, 3, 20, SolveStatus.TIMEOUT).lines()
        ['not rated (timed out): neither a minimum nor the impossibility was proved within B=3, N=20']
        """
        if self.min_bricks is None:
            return [self._unrated_line()]
        ways = (f"in {self.solutions} different way{'s' if self.solutions != 1 else ''}" if self.solutions_complete
                else f"in {self.solutions}+ different ways")
        if self.solutions == 1 and self.solutions_complete:
            ways = "in exactly one way"
        fewest = f"fewest bricks: {self.min_bricks}, {ways}" if self.min_bricks else "no bricks needed"
        proof = f"proved by the AI in {self.nodes} search step{'s' if self.nodes != 1 else ''}, {_secs(self.seconds)}"
        if not self.complete:  # the minimum stands; the other figures were not all measured
            why = f" ({self.message})" if self.message else ""
            return [f"not fully rated ({_VERDICT[self.status]}): the minimum is proved, "
                    f"the other figures were not all measured{why}", fewest, proof]
        lines = [self.label, fewest]
        if self.min_bricks:  # with no brick to place, no cell misleads and the preview has nothing to find
            lines.append(self._decoy_line())
        if self.frame_slack is not None:
            lines.append("timing: tight (no spare frame)" if self.frame_slack == 0 else
                         f"timing: {self.frame_slack} spare frame{'s' if self.frame_slack != 1 else ''}")
        if self.lemmings > 1:
            lines.append(f"shared bricks: {self.sharing_lemmings} of {self.lemmings} lemmings must share")
        if self.min_bricks:
            lines.append("the preview alone leads there: each brick of a best solution visibly helps as it is placed"
                         if self.preview_solves else
                         "the preview alone does not lead there: some brick helps only together with another")
        return lines + [proof]

    def _decoy_line(self) -> str:
        """How much the cells near the path mislead, in words (the weighted count the score uses)."""
        if self.decoys == 0:
            return "no cell near the path misleads: every one a player may try is in a best solution"
        amount = "a few" if self.decoy_weight < DECOY_WORDS[0] else "some" if self.decoy_weight < DECOY_WORDS[1] \
            else "many"
        return f"{amount} cells near the path look useful but are in no best solution"

    def _unrated_line(self) -> str:
        """The one line of a level without a proved minimum: proved impossible, timed out or unknown."""
        limits = f"B={self.budget}, N={self.frames}"
        if self.status == SolveStatus.INFEASIBLE:
            return f"no solution within {limits} (proved impossible)"
        why = f" ({self.message})" if self.message else ""
        return f"not rated ({_VERDICT[self.status]}): neither a minimum nor the impossibility was proved within {limits}{why}"

    def to_json(self) -> dict[str, Any]:
        """A JSON object (``rate --json``): every field plus ``score``, ``unique``, ``proved`` (the minimum or the
        impossibility is proved), ``complete`` (every figure measured, or proved impossible), ``difficulty`` (the
        player's step, null unless complete) and ``label``; ``status`` says how it ended (``infeasible`` is the
        only "No solution"; ``timeout``, ``cancelled``, ``unknown``: not rated, or not fully)."""
        out = asdict(self)
        out["score"] = round(self.score, 2)
        out["unique"] = self.unique
        out["seconds"] = round(self.seconds, 4)
        out["decoy_weight"] = round(self.decoy_weight, 2)
        out["status"] = self.status.value
        out["proved"] = self.proved
        out["complete"] = self.complete
        out["difficulty"] = player_step(self.score) if self.solvable and self.complete else None  #: 1..10
        out["label"] = self.label
        return out


#: The rating's status in a player's words.
_VERDICT: dict[SolveStatus, str] = {
    SolveStatus.OPTIMAL: "proved", SolveStatus.INFEASIBLE: "proved impossible", SolveStatus.TIMEOUT: "timed out",
    SolveStatus.CANCELLED: "cancelled", SolveStatus.UNKNOWN: "unknown", SolveStatus.FEASIBLE: "unknown",
}


def _secs(seconds: float) -> str:
    return f"{seconds:.2f} s" if seconds >= 0.01 else f"{seconds * 1000:.1f} ms"


def difficulty_score(r: Rating) -> float:
    """One number, roughly 0 (nothing to do) to 15 (very hard), from the figures.

    1 per brick of the minimum; 0.5 per lemming beyond the first; log10 of the search
    nodes; when bricks are needed, 1.5 for a unique solution (less the more solutions
    there are; nothing when they were not all listed) and 0.15 per unit of decoy weight (at most 3); 1.5 for tight timing (0.75 for one or two spare frames);
    0.5 per lemming that must share bricks; 2 when the preview does not give the answer.

    >>> difficulty_score(Rating(0, 1, True, 1, 0.0, 0, 0.0, 5, 0, True, 1, 0, 12))
    0.3
    """
    if r.min_bricks is None:
        return 0.0
    score = float(r.min_bricks) + 0.5 * (r.lemmings - 1) + math.log10(1 + r.nodes)
    if r.min_bricks > 0:
        score += 1.5 / math.sqrt(max(1, r.solutions)) if r.solutions_complete else 0.0
        score += min(3.0, 0.15 * r.decoy_weight)
    if r.frame_slack is not None:
        score += 1.5 if r.frame_slack == 0 else 0.75 if r.frame_slack <= 2 else 0.0
    score += 0.5 * r.sharing_lemmings
    score += 0.0 if r.preview_solves else 2.0
    return round(score, 2)


def rate_level(
    level: Level,
    context: SolveContext | None = None,
    *,
    solver: str | Solver = "auto",
    max_solutions: int = 10_000,
) -> Rating:
    """Measure ``level`` (see the module docstring); ``solver`` must be exact (default: ``auto``, the
    machinery of ``solve``, so a level ``solve`` proves is rated and only a proof says "No solution").

    The minimum and the nodes come from one ``min`` solve, the optimal solutions from one
    ``all`` solve (at most ``max_solutions`` of them examined for the decoys, the sharing and the preview),
    the slack from a search on N (:func:`ai.services.rating_figures.frame_slack`).  ``context`` (default: no limit) bounds the whole
    rating: once it stops, the rating returns at once with what it has, its ``status`` saying why it is
    partial (``infeasible`` only with a proof).
    """
    ctx = context if context is not None else SolveContext.create(solver="rate")
    res = registry.solve(level, solver=solver, mode=SolveMode.MIN, ctx=ctx)
    seconds = res.stats.seconds
    lem, budget, frames = len(level.lemmings), level.budget, level.frames
    if res.status != SolveStatus.OPTIMAL or res.bricks is None:
        status, why = _unproved(res, ctx)
        return Rating(None, 0, status == SolveStatus.INFEASIBLE, res.stats.nodes, seconds, 0, 0.0, None, 0,
                      False, lem, budget, frames, status, why)
    k = len(res.bricks)
    lister = registry.get_solver("auto", max_listed=LISTED) if solver == "auto" else solver
    every = registry.solve(level.with_limits(budget=k), solver=lister, mode=SolveMode.ALL,
                           ctx=ctx.child(time_limit=ALL_SOLUTIONS_SECONDS))
    # within B = k every set listed is optimal; a decomposed level counts its sets without listing them all
    sols: tuple[BrickSet, ...] = every.solutions[:max_solutions] or (res.bricks,)
    count = every.solution_count if every.solutions else None
    complete = count is not None
    found = count if count is not None else len(sols)
    try:
        ctx.check()  # stopped while listing: the minimum stands, the rest is not measured
        cells = every.stats.extra.get("optimal_cells") if complete else None  # counted, not all listed
        used = {(int(r), int(c)) for r, c in cells} if cells is not None else {b for s in sols for b in s}
        decoys, weight = figures.decoys(level, used, ctx)
        slack = figures.frame_slack(level, ctx, solver, needs=k)
        sharing = min((figures.sharing(level, s, ctx) for s in sols[:SHARING_SAMPLE]), default=0)
        preview = figures.preview_solves(level, sols, ctx)
    except SolveStopped as stop:
        return Rating(k, found, complete, res.stats.nodes, seconds, 0, 0.0, None, 0, False,
                      lem, budget, frames, SolveStatus(stop.reason.value))
    return Rating(k, found, complete, res.stats.nodes, seconds, decoys, weight, slack, sharing, preview,
                  lem, budget, frames)


def _unproved(res: SolveResult, ctx: SolveContext) -> tuple[SolveStatus, str]:
    """The rating's status and what was found when the minimum search ended without a proved minimum."""
    if res.status == SolveStatus.INFEASIBLE:
        return SolveStatus.INFEASIBLE, ""
    stopped = ctx.stop_reason()
    status: SolveStatus
    if res.status in (SolveStatus.TIMEOUT, SolveStatus.CANCELLED):
        status = res.status
    elif stopped is not None:  # a winning set in hand, or the solver gave up, when the limit came
        status = SolveStatus(stopped.value)
    else:
        status = SolveStatus.UNKNOWN
    bound = res.stats.best_bound
    notes = [f"a solution with {len(res.bricks)} bricks found, not proved minimal"] if res.bricks is not None else []
    notes += [f"at least {bound:.0f} bricks needed"] if bound is not None and 0 < bound < math.inf else []
    notes += [res.message] if res.message and res.bricks is None else []
    return status, "; ".join(notes)
