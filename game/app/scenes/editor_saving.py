"""The editor's saving: Ctrl+S (at once; a new untitled level asks for its title first), Ctrl+Shift+S (a copy
under a new title, which the editor then edits), the question before saving a level known to have no solution
(known from the editor's analysis, or from an exact check run as a job first), and the question about unsaved
changes before leaving a level (Esc, opening another, a new one, closing the window).  Files go to the user's
levels folder (:meth:`game.core.editor_model.EditorModel.save`)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Protocol

from ai.facade import Analysis, SolveContext, why_no_solution
from game.app import hud
from game.app.input import Act, Action
from game.app.jobs import JobEvent, JobEventKind
from game.app.scenes.dialogs import ConfirmPrompt, TextPrompt
from game.app.scenes.editor_host import EditorHost
from game.core.editor_model import UNTITLED

#: Seconds the check before saving an unanalysed level may take (the exact check: a level with no solution under
#: any physics is found; one that takes longer is saved without a question).
SAVE_CHECK_SECONDS = 5.0
#: What the editor says while that check runs: up until the check ends (taken down then, before its answer
#: opens a prompt), however long a busy machine makes it take, within :data:`CHECKING_SECONDS`.
CHECKING = "checking the level before saving..."
CHECKING_SECONDS = 60.0


class SavingHost(EditorHost, Protocol):
    """What saving needs of the editor."""

    on_close: Callable[[], None] | None  #: run once the editor has closed

    @property
    def analysis(self) -> Analysis | None: ...
    @property
    def message(self) -> str: ...
    def analysis_current(self) -> bool: ...
    def folder(self) -> Path: ...
    def edited(self) -> None: ...
    def refuse_invalid(self, what: str) -> bool: ...
    def say(self, text: str, seconds: float = 3.0, color: tuple[int, int, int] = ...) -> None: ...


class LevelSaving:
    """The save flows of one editor (``host``)."""

    def __init__(self, host: SavingHost) -> None:
        self.host = host

    def save(self, then: Callable[[], None] | None = None) -> None:
        """Save to the user's levels folder (``then`` runs after a good save): at once, or first asking for a
        title when the level is new and still untitled."""
        if self.host.refuse_invalid("save"):
            return
        untitled = self.host.model.path is None and self.host.draft.title in ("", UNTITLED)
        self._check_solution(lambda: self._ask_title(then) if untitled else self._save_then(then))

    def save_as(self) -> None:
        """Ctrl+Shift+S: save a copy under a new title, as a new file; the editor then edits the copy."""
        if self.host.refuse_invalid("save"):
            return

        def done(title: str) -> None:
            if not title.strip():
                self.host.say("a copy needs a title", 3.0, hud.RED)
                return
            try:
                path = self.host.model.save_as(self.host.folder(), title)
            except (OSError, ValueError) as exc:
                self.host.edited()
                self.host.say(f"save failed: {_reason(exc)}", 5.0, hud.RED)
                return
            self.host.edited()
            self.host.say(f"saved a copy: {path.name} (you are editing the copy now)", 4.0, hud.GREEN)

        def file_for(title: str) -> str:
            name = self.host.model.save_path_for_copy(self.host.folder(), title).name
            return f"new file: {name} in {self._shown_folder()}"

        def ask() -> None:
            self.host.app.push(TextPrompt(self.host.app, "Save a copy", "Title of the copy:",
                                          f"{self.host.draft.title or UNTITLED} (copy)", done, max_len=80,
                                          preview=file_for))

        self._check_solution(ask)

    def _save_then(self, then: Callable[[], None] | None) -> None:
        if self.save_now() and then is not None:
            then()

    def _check_solution(self, go_on: Callable[[], None]) -> None:
        """Run ``go_on``, or first ask when the level is known to have no solution (the host may take a moment
        to know: its check runs as a job)."""

        def answered(problem: str | None) -> None:
            if problem is None:
                go_on()
                return
            self.host.app.push(ConfirmPrompt(
                self.host.app, "No solution",
                f"This level has no solution: {problem}. Save anyway?",
                [("N", "keep editing", None), ("Y", "save anyway", go_on), ("Esc", "cancel", None)]))

        self.no_solution_reason(answered)

    def _ask_title(self, then: Callable[[], None] | None) -> None:
        """The save's title prompt (``then`` runs after a good save)."""

        def done(title: str) -> None:
            if not title.strip():
                self.host.say("a level needs a title", 3.0, hud.RED)
                return
            if title != self.host.draft.title:
                self.host.model.set_title(title)
                self.host.edited()
            if self.save_now() and then is not None:
                then()

        def file_for(title: str) -> str:
            model = self.host.model
            if model.path is not None:
                return f"file: {model.path.name} in {self._shown_folder()}"
            return f"new file: {model.save_path(self.host.folder(), title).name} in {self._shown_folder()}"

        self.host.app.push(TextPrompt(self.host.app, "Save level", "Title:", self.host.draft.title or "", done,
                                      preview=file_for))

    def save_now(self) -> bool:
        """Save under the current title; a failure keeps the old file and says why."""
        if self.host.refuse_invalid("save"):
            return False
        try:
            path = self.host.model.save(self.host.folder())
        except (OSError, ValueError) as exc:
            self.host.say(f"save failed: {_reason(exc)} (the previous file is unchanged)", 5.0, hud.RED)
            return False
        self.host.say(f"saved: {path.name}", 3.0, hud.GREEN)
        return True

    def no_solution_reason(self, answer: Callable[[str | None], None]) -> None:
        """Call ``answer`` with why the draft is known to have no solution, or None when none is known: at once
        from its current analysis, else after the exact check run as a job (:func:`ai.facade.why_no_solution`,
        at most :data:`SAVE_CHECK_SECONDS`; a check that fails, is cancelled or runs out of time knows nothing)."""
        a = self.host.analysis
        if a is not None and self.host.analysis_current():
            answer(a.no_solution())
            return
        level = self.host.model.to_level()

        def check(ctx: SolveContext) -> str | None:
            return why_no_solution(level, ctx)

        def ended(event: JobEvent) -> None:
            problem = event.payload if event.kind == JobEventKind.DONE else None
            if self.host.message == CHECKING:  # the check is over: its line would stay behind the next prompt
                self.host.say("", 0.0)
            answer(problem if isinstance(problem, str) else None)

        self.host.say(CHECKING, CHECKING_SECONDS)
        self.host.app.jobs.submit(check, label="save-check", owner=self.host, lane="save-check",
                                  time_limit=SAVE_CHECK_SECONDS, on_done=ended, on_error=ended, on_cancelled=ended)

    def guard_unsaved(self, then: Callable[[], None]) -> None:
        """Run ``then`` now, or after asking what to do with unsaved changes."""
        if not self.host.model.dirty:
            then()
            return
        self.host.app.push(ConfirmPrompt(
            self.host.app, "Unsaved changes",
            "Save this level before leaving it?",
            [("Enter", "save", lambda: self.save(then)), ("D", "discard", then), ("Esc", "keep editing", None)],
        ))

    def exit(self) -> None:
        """Esc: leave the editor (asks about unsaved changes)."""
        self.guard_unsaved(self._close)

    def _close(self) -> None:
        app = self.host.app
        editor: object = self.host  # the editor scene, on the app's stack
        if app.top is editor:
            app.pop()
        elif editor in app.scenes:
            while app.top is not editor and app.scenes:
                app.pop()
            app.pop()
        else:
            return
        if self.host.on_close is not None:
            self.host.on_close()

    def quit_filter(self, action: Action) -> bool:
        """An action filter of the app: closing the window with unsaved changes asks first."""
        app = self.host.app
        editor: object = self.host  # the editor scene, on the app's stack
        if action.kind != Act.QUIT or editor not in app.scenes or not self.host.model.dirty:
            return False
        if isinstance(app.top, (ConfirmPrompt, TextPrompt)):
            return False
        while app.top is not editor:
            app.pop()
        self.guard_unsaved(app.quit)
        return True

    def _shown_folder(self) -> str:
        text = str(self.host.folder())
        home = str(Path.home())
        return "~" + text[len(home):] if text.startswith(home) else text


def _reason(exc: OSError | ValueError) -> str:
    """Why a save failed, in a line."""
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)


__all__ = ["LevelSaving", "SAVE_CHECK_SECONDS", "SavingHost"]
