"""The assistant's controller: actions become jobs of the app's runner, job events become a new state.

:class:`Assistant` owns the :class:`~game.app.assistant.state.AssistantState` (replaced, never
mutated in place) and submits its jobs to the app's :class:`~game.app.jobs.JobRunner` in three lanes of
its scene: ``solve`` (solves and hints), ``prefetch`` (every minimum solution, for hints) and ``export``
(GIF export, so an export never stops a solve, and it finishes after the scene closed).  Every job
runs in a child process: no interpreter lock shared with the UI, and Esc kills the child at once.
The runner delivers the events to the assistant's callbacks once per frame.  The assistant is a
:class:`~game.app.play_extension.PlayExtension` of its scene: the scene offers it every action first
(:meth:`Assistant.handle_event`), reads what it shows from the state when it draws
(:meth:`Assistant.marks`: ghost bricks, highlights, status lines, footer keys) and lets it paint its
overlay in the same draw pass (:meth:`Assistant.draw`); nothing is written into the scene.

A job that fails never shows a Python error: the player reads a friendly line, the details go to
``errors.log`` in the data folder (:func:`game.core.error_log.log_error`).

Keys: H hint (again: reveal more), S solve, A all optimal solutions (browse with ``[`` ``]``), Tab
the solver, F deductions, G GIF of the run on screen; with a solution on screen Enter applies it (on
the undo chain) and Space applies and plays it; Esc cancels, then hides.
"""

from __future__ import annotations

import sys
from dataclasses import replace

import pygame

from ai import facade
from ai.facade import Hint, SolveContext, SolveMode, SolveResult, SolveStatus, Solver
from game.core.error_log import log_error
from game.core.errors import GameError
from game.core.level import Level
from game.core.storage import user_data_dir
from game.core.teach import the_idea, why_it_fails
from game.app.assistant.host import AssistantHost
from game.app.assistant.overlay import badge_right, draw_overlay
from game.app.assistant.state import (
    AssistantState,
    BrickSet,
    Deductions,
    HintView,
    Running,
    SolutionView,
    StepKind,
    TaskKind,
    deductions_from,
    footer_hints,
    hint_steps,
    hint_text,
    order_solutions,
    result_text,
    solver_label,
    solver_title,
    status_lines,
)
from game.app.export import ExportResult, default_export_path, export_gif
from game.app.export_draw import fit_scale
from game.app.input import Act, Action
from game.app.play_extension import RGBA, BoardView, Marks
from game.app.jobs import Execution, Job, JobEvent, JobEventKind, JobHandle

#: The solver whose every-minimum-solution answer the assistant computes in the background for hints.
PREFETCH_SOLVER = "auto"

#: The solver name of the rules learned from the player's own runs, once they are exact.
PLAYER_RULES_SOLVER = "learned:yours"

#: The order Tab cycles through (only the solvers present in ``facade.available_solvers()``).
SOLVER_CYCLE: tuple[str, ...] = ("auto", "cpsat", "milp", "search", "gradient", "learned")
#: Solvers that prove optimality (used for the F deductions when the active one is not exact).
EXACT = ("auto", "cpsat", "milp", "search", "brute")
#: Default time limits, in seconds.
SOLVE_TIME_LIMIT = 60.0
HINT_TIME_LIMIT = 10.0
#: GIL switch interval while a job runs in a thread (no ``fork``): the UI thread gets the
#: interpreter back within 1 ms (Python's default is 5 ms).
BUSY_SWITCH_INTERVAL = 0.001

#: Overlay colours (RGBA).
PLACE_COLOR: RGBA = (120, 255, 140, 255)
REMOVE_COLOR: RGBA = (255, 90, 90, 255)
FORCED_COLOR: RGBA = (255, 214, 90, 255)
EXTRA_COLOR: RGBA = (255, 120, 120, 200)
GHOST_COLOR: RGBA = (120, 200, 255, 220)
REASON_COLOR: RGBA = (255, 170, 60, 255)  #: the cell a teaching hint talks about


def solver_choices() -> list[str]:
    """The Tab cycle: :data:`SOLVER_CYCLE` filtered by :func:`facade.available_solvers`."""
    present = set(facade.available_solvers())
    return [name for name in SOLVER_CYCLE if name in present] or ["auto"]


class _SwitchInterval:
    """Shortens the GIL switch interval while any in-thread job runs (process-wide, counted)."""

    users = 0
    saved = 0.005

    @classmethod
    def set(cls, on: bool, was: bool) -> bool:
        if on and not was:
            if cls.users == 0:
                cls.saved = sys.getswitchinterval()
                sys.setswitchinterval(min(cls.saved, BUSY_SWITCH_INTERVAL))
            cls.users += 1
        elif was and not on and cls.users > 0:
            cls.users -= 1
            if cls.users == 0:
                sys.setswitchinterval(cls.saved)
        return on


class Assistant:
    """The assistant installed on one play scene (see the module docstring)."""

    #: Its name among the scene's extensions.
    name = "assistant"

    def __init__(self, host: AssistantHost, *, solve_time_limit: float | None = SOLVE_TIME_LIMIT,
                 hint_time_limit: float = HINT_TIME_LIMIT) -> None:
        self.host = host
        self.level: Level = host.level
        self.jobs = host.app.jobs
        #: Where the jobs run (None: the runner's default, a child process where ``fork`` exists).
        self.execution: Execution | None = None
        self.handle: JobHandle | None = None  #: the latest solve / hint job
        self.export_handle: JobHandle | None = None  #: the latest GIF export
        #: Enumerates every minimum solution (``auto``, mode ``all``) in the background once the level opens,
        #: so that H reuses them: a hint then costs no more than S.
        self._prefetch_handle: JobHandle | None = None
        self.solve_time_limit = solve_time_limit
        self.hint_time_limit = hint_time_limit
        self.state = AssistantState(solver_names=tuple(solver_choices()))
        #: Solver objects by name that are not in the registry (e.g. injected by tests).
        self.custom_solvers: dict[str, Solver] = {}
        self._fast_switch = False
        self._lesson_cell: tuple[int, int] | None = None  #: the cell the first hint press talks about
        self._idea_cell: tuple[int, int] | None = None  #: the cell the second press talks about
        self._offer_player_rules()

    # ================================================================ queries
    @property
    def use_processes(self) -> bool:
        """Jobs run in a child process (True where ``fork`` exists) or in a thread of the game."""
        return (self.execution or self.jobs.execution) == Execution.CHILD_PROCESS

    @use_processes.setter
    def use_processes(self, on: bool) -> None:
        self.execution = Execution.CHILD_PROCESS if on else Execution.THREAD

    @property
    def solver(self) -> str:
        """The active solver's name."""
        return self.state.solver

    @property
    def solver_names(self) -> tuple[str, ...]:
        """The Tab cycle."""
        return self.state.solver_names

    @property
    def busy(self) -> bool:
        """True while a solve or hint job runs."""
        return self.state.running is not None

    @property
    def job(self) -> int | None:
        """The running job's id, or None."""
        return self.state.running.job if self.state.running is not None else None

    @property
    def shown(self) -> BrickSet | None:
        """The AI solution on screen (the browsed one after A), or None."""
        return self.state.shown

    # ================================================================ actions
    def handle_event(self, action: Action) -> bool:
        """React to an assistant key; True when the action was used (the scene then ignores it)."""
        kind = action.kind
        if kind == Act.HINT:
            self.request_hint()
        elif kind == Act.SOLVE:
            self.request_solve(SolveMode.MIN)
        elif kind == Act.ALL_SOLUTIONS:
            self.request_solve(SolveMode.ALL)
        elif kind == Act.CYCLE_SOLVER:
            self.cycle_solver()
        elif kind == Act.FORCED:
            self.toggle_forced()
        elif kind == Act.EXPORT_GIF:
            self.export()
        elif kind in (Act.PREV_ITEM, Act.NEXT_ITEM):
            return self.step_browse(-1 if kind == Act.PREV_ITEM else 1)
        elif kind == Act.CONFIRM:
            return self.apply_shown()
        elif kind == Act.TOGGLE_RUN:
            return self.play_shown()
        elif kind == Act.BACK:
            return self.cancel_or_dismiss()
        else:
            return False
        return True

    def add_solver(self, solver: Solver, *, select: bool = True) -> None:
        """Offer a solver object (not in the registry) in the Tab cycle, e.g. a test double."""
        self.custom_solvers[solver.name] = solver
        names = self.state.solver_names
        if solver.name not in names:
            names = (*names, solver.name)
        index = names.index(solver.name) if select else self.state.solver_index
        self.state = replace(self.state, solver_names=names, solver_index=index)

    def _offer_player_rules(self) -> None:
        """Once the rules learned from the player's own runs re-verify as exact, offer them in the Tab cycle
        (:func:`ai.facade.offered_solvers`; the verdict is cached by the rules' content hash)."""
        try:
            offers = facade.offered_solvers(user_data_dir(), self.level.physics)
            for _label, name, options in offers:
                solver = facade.get_solver(name, **options)
                solver.name = PLAYER_RULES_SOLVER
                self.add_solver(solver, select=False)
        except Exception as exc:  # noqa: BLE001 - a broken rules file must never stop the level
            log_error("offering the rules learned from your runs", str(exc), "")

    def _prefetch(self) -> None:
        """Start the background enumeration once; its proved answer goes into the state's cache."""
        if self._prefetch_handle is not None:
            return
        level = self.level

        def job(ctx: SolveContext) -> SolveResult:
            return facade.solve(level, solver=PREFETCH_SOLVER, mode=SolveMode.ALL, ctx=ctx)

        def done(event: JobEvent) -> None:
            if isinstance(event.payload, SolveResult):
                self.state = self.state.remember(event.payload)

        self._prefetch_handle = self.jobs.submit(job, label="prefetch", owner=self.host, lane="prefetch",
                                                 time_limit=self.hint_time_limit, on_done=done,
                                                 execution=self.execution)

    def select_solver(self, name: str) -> None:
        """Make ``name`` (one of :attr:`solver_names`) the active solver."""
        self.state = replace(self.state, solver_index=self.state.solver_names.index(name))

    def cycle_solver(self) -> None:
        """Tab: the next solver (a running job stops; the old answer's ghost bricks and lines go)."""
        self.cancel(quiet=True)
        self.state = self.state.next_solver()
        self.say(f"AI solver: {solver_title(self.solver)}")

    def request_solve(self, mode: SolveMode | str = SolveMode.MIN) -> int | None:
        """S (``min``) / A (``all``): solve the level with the active solver (cached when proved)."""
        mode = SolveMode(mode)
        self.state = replace(self.state, hint=None)  # a solution replaces the hint on screen
        cached = self.state.cached(self.solver, mode.value)
        if cached is not None:
            self.cancel(quiet=True)
            self._show_result(cached)
            return None
        kind = TaskKind.ALL if mode == SolveMode.ALL else TaskKind.SOLVE
        return self._submit(kind, self._solve_job(self.solver, mode), self.solver, self.solve_time_limit)

    def request_hint(self) -> int | None:
        """H teaches in steps: the first press says where and why the current run fails, the second
        names the idea that fixes it, the next ones reveal the bricks (one per press)."""
        self.state = replace(self.state, solution=None)  # a hint replaces the solution on screen
        bricks = tuple(self.host.bricks)
        view = self.state.hint
        run = self.state.running
        if view is None and run is not None and run.kind == TaskKind.HINT:
            return None  # still thinking about this hint: the reason stays on screen
        if view is not None and view.for_bricks == bricks and view.stage == 0 and view.reason:  # again after Esc
            self.state = replace(self.state, hint=replace(view, stage=1, line=view.reason))
            return None
        if view is not None and view.for_bricks == bricks and view.stage == 1 and view.idea:
            self.state = replace(self.state, hint=replace(view, stage=2, line=view.idea))
            return None
        if view is not None and view.for_bricks == bricks:
            view = replace(view, stage=3, focus=None)
            if view.revealed < len(view.steps):
                view = replace(view, revealed=view.revealed + 1)
                self._count_hint()
                view = replace(view, line=hint_text(view))
            else:
                view = replace(view, line=hint_text(view, final=True))
            self.state = replace(self.state, hint=view)
            return None
        level = self.level
        known = self.state.cached(PREFETCH_SOLVER, SolveMode.ALL.value)  # the minimum solutions, if enumerated

        def job(ctx: SolveContext) -> tuple[BrickSet, Hint]:
            return bricks, facade.compute_hint(level, bricks, ctx, known=known)

        try:
            lesson = why_it_fails(self.level, bricks)
        except GameError:  # e.g. bricks that break the rules: the hint says what to remove
            lesson = None
        self.state = replace(self.state, hint=None, lesson=lesson.text if lesson else "")
        self._lesson_cell = lesson.cell if lesson else None
        return self._submit(TaskKind.HINT, job, "cpsat", self.hint_time_limit)

    def toggle_forced(self) -> None:
        """F: show or hide the deductions (proved by enumerating every optimal solution)."""
        show = not self.state.show_forced
        self.state = replace(self.state, show_forced=show)
        if not show:
            self.say("deductions hidden")
            return
        if self.state.deductions is not None:
            return
        for _, mode, result in self.state.cache:
            if mode == "all" and result.complete:
                self.state = replace(self.state, deductions=deductions_from(self.level, result))
                return
        name = self.solver if self.solver in EXACT or self.solver in self.custom_solvers else "auto"
        self._submit(TaskKind.FORCED, self._solve_job(name, SolveMode.ALL), name, self.solve_time_limit)

    def step_browse(self, delta: int) -> bool:
        """``[`` / ``]``: the previous / next optimal solution; False when there is none on screen."""
        if self.state.shown is None:
            return False
        self.state = self.state.browse(delta)
        return True

    def apply_shown(self) -> bool:
        """Enter: put the solution on screen on the board (undoable); False when none is shown."""
        if self.state.shown is None:
            return False
        if not self._apply():
            self.say("that solution is already on the board")
        return True

    def play_shown(self) -> bool:
        """Space with a solution on screen: apply it and release the lemmings."""
        if self.state.shown is None:
            return False
        self._apply()
        self.host.toggle_run()
        return True

    def _apply(self) -> bool:
        """Put the shown solution on the board and hide it; False when it was there already."""
        shown = self.state.shown
        self.state = replace(self.state, solution=None)
        if shown is None or shown == tuple(self.host.bricks):
            return False
        self.host.apply_bricks(shown)
        self.say("AI solution applied  -  Z returns to your bricks, Space plays it")
        return True

    def cancel_or_dismiss(self) -> bool:
        """Esc: cancel the running job, else hide what the assistant shows; False when idle."""
        if self.busy:
            self.cancel()
            return True
        s = self.state
        if s.solution is not None or (s.hint is not None and (s.hint.revealed or s.hint.stage)) or s.show_forced:
            self.state = s.cleared()
            return True
        return False

    def cancel(self, *, quiet: bool = False) -> None:
        """Stop the running job at once (its late events are ignored)."""
        run = self.state.running
        if run is None:
            return
        self.jobs.cancel(self.host, "solve")
        self.jobs.cancel(self.host, "prefetch")
        self.state = replace(self.state, running=None)
        if not quiet:
            elapsed = self.handle.elapsed if self.handle is not None else 0.0
            self.say(f"{solver_label(run.solver)}: cancelled after {elapsed:.1f} s")

    def export(self, out: str | None = None) -> int | None:
        """G: export the run on screen (the AI solution shown, else the player's bricks) as a GIF,
        in a child process (lane ``export``, finishes after the scene closed); None while another export
        is still being written."""
        level, state = self.level, self.state
        if state.exporting:
            self.say("still writing the last GIF...", 3.0)
            return None
        relaxed = state.relaxed
        bricks = tuple(state.shown if state.shown is not None else self.host.bricks)
        subtitle = result_text(state.solution.result) if (
            state.solution is not None and (state.shown is not None or relaxed is not None)) else ""
        path = out or default_export_path(level, suffix="relaxed" if relaxed is not None else "")

        def job(ctx: SolveContext) -> ExportResult:
            return export_gif(level, bricks, path, relaxed=relaxed, subtitle=subtitle,
                              scale=max(1, fit_scale(level)),  # large maps: smaller cells
                              context=ctx)  # Esc stops it between frames

        self.state = replace(self.state, exporting=True).say("exporting GIF...", 30.0)
        self.export_handle = self.jobs.submit(job, label="gif", owner=self.host, lane="export",
                                              on_done=self._on_export_event, on_error=self._on_export_event,
                                              on_cancelled=self._on_export_event, execution=self.execution,
                                              outlive_owner=True)
        return self.export_handle.ident

    def say(self, text: str, seconds: float | None = None) -> None:
        """Show a notice line."""
        self.state = self.state.say(text) if seconds is None else self.state.say(text, seconds)

    def on_leave(self) -> None:
        """The scene is leaving (see :meth:`shutdown`)."""
        self.shutdown()

    def shutdown(self) -> None:
        """The scene is leaving: cancel the running solve (an export still finishes)."""
        self.jobs.cancel(self.host, "solve")
        self.jobs.cancel(self.host, "prefetch")
        self.state = replace(self.state, running=None)
        self._fast_switch = _SwitchInterval.set(False, self._fast_switch)

    # ================================================================ per frame
    def update(self, dt: float) -> None:
        """Age the messages and start the prefetch once (the job events came through the callbacks,
        delivered by the app's runner before this)."""
        self.state = self.state.tick(dt)
        self._prefetch()
        if self.state.running is not None and self.handle is not None:
            self.state = replace(self.state, running=replace(self.state.running, elapsed=self.handle.elapsed))
        in_thread = (self.busy or self.state.exporting) and not self.use_processes
        self._fast_switch = _SwitchInterval.set(in_thread, self._fast_switch)

    # ================================================================ drawing (reads only)
    def marks(self) -> Marks:
        """What the scene shows for the assistant now: the solution's ghost bricks, coloured cells (the
        bricks it drops, deductions, the hint's cells), status lines and footer keys."""
        state = self.state
        bricks = tuple(self.host.bricks)
        ghost: list[tuple[int, int]] = []
        highlights: list[tuple[tuple[int, int], RGBA]] = []
        shown = state.shown
        if shown is not None:
            ghost = [b for b in shown if b not in bricks]
            highlights += [(b, GHOST_COLOR) for b in ghost]
            highlights += [(b, EXTRA_COLOR) for b in sorted(bricks) if b not in shown]
        if state.show_forced and state.deductions is not None:
            highlights += [(b, FORCED_COLOR) for b in state.deductions.forced]
        if state.hint is not None and state.hint.for_bricks == bricks:
            if state.hint.stage == 1 and state.hint.focus is not None:
                highlights.append((state.hint.focus, REASON_COLOR))
            elif state.hint.stage == 2 and self._idea_cell is not None:
                highlights.append((self._idea_cell, REASON_COLOR))
            for step in state.hint.steps[: state.hint.revealed]:
                highlights.append((step.cell, PLACE_COLOR if step.kind == StepKind.PLACE else REMOVE_COLOR))
        return Marks(tuple(ghost), tuple(highlights), tuple(status_lines(state)), tuple(footer_hints(state)),
                     claims_board=state.solution is not None, strip_left=badge_right(state))

    def draw(self, surface: pygame.Surface, view: BoardView) -> None:
        """Never-useful cells, a relaxed answer's densities and the solver badge (reads the state only)."""
        draw_overlay(surface, view.layout, self.state, self.host.renderer)

    def on_edit(self) -> None:
        """The player changed the bricks: a shown hint no longer applies."""
        view = self.state.hint
        if view is not None and view.for_bricks != tuple(self.host.bricks):
            self.state = replace(self.state, hint=replace(view, revealed=0, line="", stage=0))
        if self.state.lesson and self.state.running is None:
            self.state = replace(self.state, lesson="")

    # ================================================================ internals
    def _solve_job(self, name: str, mode: SolveMode) -> Job:
        level = self.level
        impl: str | Solver = self.custom_solvers.get(name, name)

        def job(ctx: SolveContext) -> SolveResult:
            return facade.solve(level, solver=impl, mode=mode, ctx=ctx)

        return job

    def _submit(self, kind: TaskKind, job: Job, solver: str, time_limit: float | None) -> int:
        self.handle = self.jobs.submit(job, label=f"{solver} {kind.value}", owner=self.host, lane="solve",
                                       time_limit=time_limit, on_done=self._on_event, on_progress=self._on_event,
                                       on_error=self._on_event, on_cancelled=self._on_event,
                                       execution=self.execution)
        self.state = replace(self.state, running=Running(self.handle.ident, kind, solver), error=None)
        return self.handle.ident

    def _on_event(self, event: JobEvent) -> None:
        run = self.state.running
        if run is None or event.handle.ident != run.job:
            return
        if event.kind == JobEventKind.PROGRESS:
            self.state = replace(self.state, running=replace(run, progress=event.payload))
            return
        self.state = replace(self.state, running=None)
        if event.kind == JobEventKind.ERROR:
            self._failed(f"{run.solver} {run.kind.value}", event, f"{solver_label(run.solver)} could not finish")
            return
        if event.kind == JobEventKind.CANCELLED:
            self.say(f"{solver_label(run.solver)}: cancelled")
            return
        if run.kind == TaskKind.HINT:
            bricks, hint = event.payload
            self._set_hint(bricks, hint)
            return
        result: SolveResult = event.payload
        self.state = self.state.remember(result)
        if run.kind == TaskKind.FORCED:
            if result.status == SolveStatus.OPTIMAL and result.complete:
                self.state = replace(self.state, deductions=deductions_from(self.level, result))
            else:
                self.say(f"deductions need every optimal solution: {result_text(result)}")
            return
        self._show_result(result, waited=event.elapsed)

    def _failed(self, what: str, event: JobEvent, line: str) -> None:
        """A friendly line on screen; the error and its traceback in the error log."""
        path = log_error(what, event.message, event.detail)
        self.state = self.state.fail(line + (" (details in errors.log)" if path is not None else ""))

    def _on_export_event(self, event: JobEvent) -> None:
        self.state = replace(self.state, exporting=False, notice=None)
        if event.kind == JobEventKind.ERROR:
            self._failed("GIF export", event, "The GIF could not be saved")
        elif event.kind == JobEventKind.DONE:
            path = str(event.payload.path)
            self.state = replace(self.state, export_path=path).say(f"GIF saved: {path}", 12.0)

    def _show_result(self, result: SolveResult, waited: float | None = None) -> None:
        solutions = order_solutions(result, self.host.bricks)
        has_answer = bool(solutions) or result.relaxed is not None
        state = replace(self.state, solution=SolutionView(result, solutions, waited=waited) if has_answer else None)
        state = state.say("" if has_answer else result_text(result, waited))
        if result.mode == SolveMode.ALL and result.complete and state.deductions is None:
            state = replace(state, deductions=deductions_from(self.level, result))
        self.state = state

    def _set_hint(self, bricks: BrickSet, hint: Hint) -> None:
        if hint.proved and self.state.deductions is None:
            self.state = replace(self.state, deductions=Deductions(tuple(hint.forced), tuple(hint.never_useful)))
        view = HintView(hint, bricks, hint_steps(self.level, bricks, hint))
        lesson, self.state = self.state.lesson, replace(self.state, lesson="")
        if tuple(self.host.bricks) != bricks:
            view = replace(view, line="your bricks changed: press H again")
        elif lesson and view.steps and hint.solution is not None:  # teach first: the reason, then the idea
            idea = the_idea(self.level, bricks, hint.solution)
            view = replace(view, stage=1, reason=lesson, line=lesson, idea=idea.text if idea else "",
                           focus=self._lesson_cell)
            if idea is not None:
                self._idea_cell = idea.cell
        else:
            if view.steps:
                view = replace(view, revealed=1)
                self._count_hint()
            view = replace(view, line=hint_text(view))
        self.state = replace(self.state, hint=view)

    def _count_hint(self) -> None:
        key = self.host.key
        if key is not None:
            self.host.app.progress.add_hints(key)


__all__ = ["Assistant", "EXACT", "SOLVER_CYCLE", "solver_choices"]
