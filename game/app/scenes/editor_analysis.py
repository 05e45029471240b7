"""The editor's Analyse: one analysis at a time in a child process, and what it found for which map.

:class:`EditorAnalysis` runs :func:`ai.facade.analyse_level` as a job of the app's runner
(:class:`game.app.jobs.JobRunner`: a child process; a thread where ``fork`` is missing), remembers the
fingerprint of what it analysed (:func:`game.core.editor_draft.level_fingerprint`: the map with its lemmings and
targets, N, B and the physics; a result is *current* only for a draft with that fingerprint), and turns the job's events into an
:class:`Outcome` the editor reacts to.  A failure is written to the error log.

When the level is solvable within its budget, the same child job then rates it
(:func:`ai.facade.rate_level`, the figures a designer uses) with what is left of the time budget:
a rating that does not finish in time (or fails) is dropped with a short note, the analysis is
kept either way.
"""

from __future__ import annotations

import enum
from dataclasses import replace

from ai.facade import (Analysis, AnalysisStatus, Progress, Rating, SolveContext, SolveStatus, analyse_level,
                       last_arrival_frame, rate_level)
from game.core.editor_draft import Draft, level_fingerprint
from game.core.error_log import log_error
from game.core.level import Level
from game.app.jobs import Execution, JobEvent, JobEventKind, JobHandle, JobRunner

#: The label of the analysis job (and of its own progress reports: the stage it is in).
LABEL = "analyse"

#: Seconds an analysis and its rating may take together (it runs in the background and A cancels it).
ANALYSIS_TIME_LIMIT = 60.0
#: Fewest seconds worth starting a rating with, once the analysis is done.
MIN_RATING_SECONDS = 0.5


def analyse_and_rate(level: Level, solver: str, ctx: SolveContext) -> tuple[Analysis, Rating | None, str]:
    """The analysis of ``level``, then its rating within what is left of ``ctx``.

    Returns ``(analysis, rating, note)``: ``rating`` is None when the level is not solvable
    within its budget, the time ran out or the rating failed (``note`` says which, '' otherwise).
    Runs in the job's child process; ``ctx`` (the job's context: its limit and cancel) stops both, and
    each stage is reported through it (``ctx.report``).
    """
    analysis = analyse_level(level, ctx, solver=solver, progress=ctx.report)
    if analysis.status != AnalysisStatus.OK or ctx.cancelled():
        return analysis, None, ""
    left = ctx.remaining()
    if left is not None and left < MIN_RATING_SECONDS:
        return analysis, None, "rating: no time left"
    ctx.report("rating")
    try:
        rating = rate_level(level, ctx)
    except Exception as exc:  # noqa: BLE001 - a failed rating must not lose the analysis
        return analysis, None, f"rating failed ({type(exc).__name__})"
    if ctx.should_stop() or (rating.min_bricks is None and rating.status not in (SolveStatus.OPTIMAL, SolveStatus.INFEASIBLE)):
        return analysis, None, "rating: ran out of time"
    return analysis, rating, ""


class Outcome(str, enum.Enum):
    """How an analysis ended (see :meth:`EditorAnalysis.poll`)."""

    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"


class EditorAnalysis:
    """The analysis of the editor's draft (see the module docstring)."""

    def __init__(self, jobs: JobRunner, owner: object, solver: str = "auto", *, in_process: bool = True) -> None:
        self.jobs, self.owner = jobs, owner
        self.solver = solver
        self.in_process = in_process
        self.result: Analysis | None = None
        self.rating: Rating | None = None  #: the level's rating, computed after the analysis
        self.rating_note = ""  #: why there is no rating ('' when there is one or none was tried)
        self.error = ""  #: the last failure's message ('' after a new start)
        self.running = False
        self.about: str | None = None  #: the fingerprint of the level the result is about
        self._job: JobHandle | None = None
        self._outcome: Outcome | None = None  #: how the last job ended, until :meth:`poll` reads it
        self._stage = ""  #: what the running analysis is doing now (its own last report)

    def is_current(self, draft: Draft) -> bool:
        """True when the result is about ``draft``: its map, lemmings, targets, N, B and physics."""
        return self.result is not None and self.about == draft.fingerprint

    def is_stale(self, draft: Draft) -> bool:
        """True when there is a result, but about a level other than ``draft`` (something changed since)."""
        return self.result is not None and not self.running and self.about != draft.fingerprint

    def verdict(self, draft: Draft) -> AnalysisStatus | None:
        """The verdict for ``draft``'s budget (``ok``, ``over_budget``, ...), None without a current result."""
        a = self.result
        if a is None or not self.is_current(draft):
            return None
        if a.min_bricks is not None:
            return AnalysisStatus.OK if a.min_bricks <= draft.budget else AnalysisStatus.OVER_BUDGET
        return a.status

    @property
    def elapsed(self) -> float:
        """Seconds the running analysis has taken so far."""
        return self._job.elapsed if self._job is not None else 0.0

    @property
    def progress(self) -> str:
        """What the running analysis is doing now (a line of text; '' before its first report)."""
        return self._stage if self.running else ""

    def start(self, level: Level) -> None:
        """Analyse ``level`` in the background."""
        solver = self.solver

        def job(ctx: SolveContext) -> tuple[Analysis, Rating | None, str]:
            return analyse_and_rate(level, solver, ctx)

        self.about = level_fingerprint(level)
        self.result, self.error, self.running, self._stage = None, "", True, ""
        self.rating, self.rating_note = None, ""
        self._job = self.jobs.submit(job, label=LABEL, owner=self.owner, lane="analysis",
                                     time_limit=ANALYSIS_TIME_LIMIT, on_progress=self._progress,
                                     on_done=self._ended, on_error=self._ended, on_cancelled=self._ended,
                                     execution=None if self.in_process else Execution.THREAD)

    def cancel(self) -> None:
        """Stop the running analysis (its ``cancelled`` outcome follows)."""
        if self._job is not None and self.running:
            self._job.cancel()

    def reset(self) -> None:
        """Forget everything (a new map): cancel a running analysis, drop the result."""
        self.cancel()
        self.running, self.result, self.about = False, None, None
        self.rating, self.rating_note = None, ""

    def retarget(self, level: Level) -> None:
        """The result restated for the tightened ``level`` (same map, N = fewest, B = min).

        Sets winning in fewer frames are among the optimal sets for the old N, so filtering them keeps
        the count exact when the result was complete.
        """
        a = self.result
        assert a is not None
        sols = tuple(s for s in a.solutions if last_arrival_frame(level, s) is not None)
        self.result = replace(a, level=level, status=AnalysisStatus.OK, solutions=sols,
                              solution_count=max(1, len(sols)))
        self.rating, self.rating_note = None, "rating: press A to rate the tightened level"
        self.about = level_fingerprint(level)

    def poll(self) -> Outcome | None:
        """How the analysis ended, if it did since the last call (never blocks)."""
        outcome, self._outcome = self._outcome, None
        return outcome

    def _progress(self, ev: JobEvent) -> None:
        """A progress report: the analysis's own reports name its stage (the solvers' reports are not shown)."""
        if ev.handle is self._job and isinstance(ev.payload, Progress) and ev.payload.solver == LABEL:
            self._stage = ev.payload.message

    def _ended(self, ev: JobEvent) -> None:
        """The job's end, delivered by the app's runner."""
        if ev.handle is not self._job:
            return
        if ev.kind == JobEventKind.DONE:
            self.result, self.rating, self.rating_note = ev.payload
            self.running, self._outcome = False, Outcome.DONE
        elif ev.kind == JobEventKind.ERROR:
            log_error("editor analysis", ev.message, ev.detail)
            self.running, self.error, self._outcome = False, ev.message, Outcome.FAILED
        elif ev.kind == JobEventKind.CANCELLED:
            self.running, self.result, self.about, self._outcome = False, None, None, Outcome.CANCELLED
            self.rating, self.rating_note = None, ""

    def shutdown(self) -> None:
        """The editor is closing: stop the analysis (the app also drops the editor's jobs)."""
        if self._job is not None:
            self._job.cancel()


__all__ = ["ANALYSIS_TIME_LIMIT", "EditorAnalysis", "Outcome", "analyse_and_rate"]
