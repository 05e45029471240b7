"""Find a level's minimum brick count in the background, for the par medal.

When the player wins on their own and the level's minimum is not known yet (no ``par`` line,
none recorded), :class:`ParFinder` asks an exact solver for it in a child process (a job of the
app's runner, :class:`game.app.jobs.JobRunner`, owned by the play scene) and records the answer in
the progress file once proved.  It never blocks a frame; leaving the level cancels it.
"""

from __future__ import annotations


from ai import facade
from game.core.level import Level
from game.core.progress import ProgressStore
from game.app.jobs import Job, JobEvent, JobHandle, JobRunner

#: Seconds the solver may take before the medal is left undecided.
PAR_TIME_LIMIT = 20.0


def _min_job(level: Level) -> Job:
    """The job: the minimum brick count of ``level`` (None when not proved in time)."""
    def job(ctx: facade.SolveContext) -> int | None:
        return facade.solve(level, solver="auto", mode="min", ctx=ctx).min_bricks
    return job


class ParFinder:
    """One background minimum search per level visit (a job of ``owner`` in ``jobs``)."""

    def __init__(self, jobs: JobRunner, owner: object, progress: ProgressStore, key: str, level: Level) -> None:
        self.jobs, self.owner = jobs, owner
        self.progress, self.key, self.level = progress, key, level
        self.handle: JobHandle | None = None
        self.result: int | None = None

    @property
    def busy(self) -> bool:
        """True while the search runs."""
        return self.handle is not None and self.handle.running

    def start(self) -> None:
        """Start the search (no-op when running or when the par is known)."""
        if self.busy or self.progress.par(self.key, self.level) is not None:
            return
        self.handle = self.jobs.submit(_min_job(self.level), label="par", owner=self.owner, lane="par",
                                       time_limit=PAR_TIME_LIMIT, on_done=self._done)

    def _done(self, event: JobEvent) -> None:
        if isinstance(event.payload, int):
            self.result = event.payload
            self.progress.record_min(self.key, self.level, event.payload)

    def shutdown(self) -> None:
        """Cancel the search."""
        if self.handle is not None:
            self.handle.cancel()
