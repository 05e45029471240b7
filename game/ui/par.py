"""Find a level's minimum brick count in the background, for the par medal.

When the player wins on their own and the level's minimum is not known yet (no ``par`` line,
none recorded), :class:`ParFinder` asks an exact solver for it in a child process (through
the assistant's worker, :meth:`ai.assistant.worker.Worker.submit_job`) and records the
answer in the progress file once proved.  It never blocks a frame; leaving the level cancels it.
"""

from __future__ import annotations

from typing import Any, Callable

from ai.assistant.worker import EventKind
from game.level import Level
from game.progress import ProgressStore

#: Seconds the solver may take before the medal is left undecided.
PAR_TIME_LIMIT = 20.0


def _min_job(level: Level) -> Callable[[Callable[[Any], None]], int | None]:
    def job(report: Callable[[Any], None]) -> int | None:
        import ai

        return ai.solve(level, solver="auto", mode="min", time_limit=PAR_TIME_LIMIT).min_bricks
    return job


class ParFinder:
    """One background minimum search per level visit."""

    def __init__(self, progress: ProgressStore, key: str, level: Level) -> None:
        self.progress, self.key, self.level = progress, key, level
        self._worker: Any = None
        self.result: int | None = None
        self.failed = ""

    @property
    def busy(self) -> bool:
        """True while the search runs."""
        return self._worker is not None

    def start(self) -> None:
        """Start the search (no-op when running or when the par is known)."""
        if self._worker is not None or self.progress.par(self.key, self.level) is not None:
            return
        try:
            from ai.assistant.worker import Worker
        except ImportError as exc:  # the game runs without the solvers
            self.failed = str(exc)
            return
        self._worker = Worker()
        job = _min_job(self.level)
        self._worker.submit_job(lambda report, cancel: job(report), label="par")

    def poll(self) -> int | None:
        """Check for the answer; records and returns it once (None otherwise)."""
        if self._worker is None:
            return None
        for event in self._worker.poll():
            if event.kind == EventKind.DONE:
                self.shutdown()
                if isinstance(event.payload, int):
                    self.result = event.payload
                    self.progress.record_min(self.key, self.level, event.payload)
                    return event.payload
                return None
            if event.kind in ("error", "cancelled"):
                self.failed = str(getattr(event, "message", "") or event.kind)
                self.shutdown()
                return None
        return None

    def shutdown(self) -> None:
        """Cancel and let go of the worker."""
        if self._worker is not None:
            worker, self._worker = self._worker, None
            worker.cancel()
            worker.shutdown(timeout=0.2)
