"""The assistant's jobs outside its ``solve`` lane: the prefetch and the GIF export.

:class:`Prefetch` enumerates every minimum solution (``auto``, mode ``all``) in the background once the
level opens (lane ``prefetch``), so that H reuses them: a hint then costs no more than S.

:class:`GifExport` is G: the run on screen (the AI solution shown, else the player's bricks) as a GIF
(:func:`~game.app.assistant.tasks.gif_job`), in the lane ``export``: an export never stops a solve, and it
finishes after the scene closed.  While one is written a second G only says so; the assistant's state tells
the player (``exporting``, the notice, then the file's path or a friendly failure line).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Protocol

from ai.facade import SolveResult
from game.core.level import Level
from game.app.assistant.state import AssistantState
from game.app.assistant.tasks import gif_job, prefetch_job
from game.app.assistant.text import saved_gif_text
from game.app.jobs import Execution, JobEvent, JobEventKind, JobHandle, JobRunner
from game.app.play_extension import PlayHost


class JobOwner(Protocol):
    """What these jobs use of the assistant."""

    state: AssistantState

    @property
    def host(self) -> PlayHost: ...
    @property
    def level(self) -> Level: ...
    @property
    def jobs(self) -> JobRunner: ...
    @property
    def execution(self) -> Execution | None: ...
    @property
    def hint_time_limit(self) -> float: ...
    def say(self, text: str, seconds: float = ...) -> None: ...
    def report_failure(self, what: str, event: JobEvent, line: str) -> None: ...


class Prefetch:
    """The background enumeration of one assistant (``owner``)."""

    def __init__(self, owner: JobOwner) -> None:
        self.owner = owner
        self.handle: JobHandle | None = None

    def start(self) -> None:
        """Start the enumeration once; its proved answer goes into the owner's state cache."""
        if self.handle is not None:
            return
        owner = self.owner

        def done(event: JobEvent) -> None:
            if isinstance(event.payload, SolveResult):
                owner.state = owner.state.remember(event.payload)

        self.handle = owner.jobs.submit(prefetch_job(owner.level), label="prefetch", owner=owner.host,
                                        lane="prefetch", time_limit=owner.hint_time_limit, on_done=done,
                                        execution=owner.execution)


class GifExport:
    """The GIF exports of one assistant (``owner``)."""

    def __init__(self, owner: JobOwner) -> None:
        self.owner = owner
        self.handle: JobHandle | None = None  #: the latest export

    def start(self, out: str | None = None) -> int | None:
        """Export the run on screen as a GIF (at ``out``, else the exports folder); the job's id, or None
        while another export is still being written."""
        owner = self.owner
        if owner.state.exporting:
            owner.say("still writing the last GIF...", 3.0)
            return None
        job = gif_job(owner.level, owner.state, tuple(owner.host.bricks), out)
        owner.state = replace(owner.state, exporting=True).say("exporting GIF...", 30.0)
        self.handle = owner.jobs.submit(job, label="gif", owner=owner.host, lane="export",
                                        on_done=self._on_event, on_error=self._on_event,
                                        on_cancelled=self._on_event, execution=owner.execution,
                                        outlive_owner=True)
        return self.handle.ident

    def _on_event(self, event: JobEvent) -> None:
        owner = self.owner
        owner.state = replace(owner.state, exporting=False, notice=None)
        if event.kind == JobEventKind.ERROR:
            owner.report_failure("GIF export", event, "The GIF could not be saved")
        elif event.kind == JobEventKind.DONE:
            info = event.payload
            path = Path(info.path)
            owner.state = replace(owner.state, export_path=str(path)).say(saved_gif_text(path, info.played, info.fps),
                                                                          12.0)
