"""The assistant's controller: actions become jobs of the app's runner, job events become a new state.

:class:`Assistant` owns the :class:`~game.app.assistant.state.AssistantState` (replaced, never
mutated in place) and submits its jobs to the app's :class:`~game.app.jobs.JobRunner` in three lanes of
its scene: ``solve`` (solves and hints), ``prefetch`` (every minimum solution, for hints) and ``export``
(GIF export, so an export never stops a solve, and it finishes after the scene closed); the last two are
in :mod:`~game.app.assistant.background`.  Every job
runs in a child process: no interpreter lock shared with the UI, and Esc kills the child at once.
The runner delivers the events to the assistant's callbacks once per frame.  The assistant is a
:class:`~game.app.play_extension.PlayExtension` of its scene: the scene offers it every action first
(:meth:`Assistant.handle_event`), reads what it shows from the state when it draws
(:meth:`Assistant.marks`: ghost bricks, highlights, status lines, footer keys) and lets it paint its
overlay in the same draw pass (:meth:`Assistant.draw`); nothing is written into the scene.

A job that fails never shows a Python error: the player reads a friendly line, the details go to
``errors.log`` in the data folder (:func:`game.core.error_log.log_error`).  H and S (default solver)
share one plan per brick set (:func:`ai.facade.player_plan`): S shows the bricks H reveals.

Keys: H hint (again: reveal more), S solve, A all optimal solutions (browse with ``[`` ``]``), Tab
the solver, F deductions, G GIF of the run on screen; with a solution on screen Enter applies it (on
the undo chain) and Space applies and plays it; Esc cancels, then hides.
"""

from __future__ import annotations

from dataclasses import replace

import pygame

from ai import facade
from ai.facade import Hint, SolveContext, SolveMode, SolveResult, Solver
from game.core.error_log import log_error
from game.core.level import Level
from game.core.teach import Lesson
from game.app.assistant.answers import (
    cached_deductions, lesson_for, press_again, with_answer, with_deductions, with_hint, with_plan_answer,
)
from game.app.play_extension import BoardView, Holds, Marks, PlayHost, Tie
from game.app.assistant.background import GifExport, Prefetch
from game.app.assistant.overlay import board_marks, draw_overlay
from game.app.assistant.state import (NOTICE_SECONDS, AssistantState, BrickSet, Running, TaskKind, solver_label,
                                      solver_title)
from game.app.assistant.tasks import (
    EXACT, HINT_TIME_LIMIT, PREFETCH_SOLVER, SOLVE_TIME_LIMIT, SwitchInterval, hint_job,
    player_rules_solvers, solver_choices,
)
from game.app.input import Act, Action
from game.app.jobs import Execution, Job, JobEvent, JobEventKind, JobHandle


class Assistant:
    """The assistant installed on one play scene (see the module docstring)."""

    #: Its name among the scene's extensions.
    name = "assistant"

    def __init__(self, host: PlayHost, *, solve_time_limit: float | None = SOLVE_TIME_LIMIT,
                 hint_time_limit: float = HINT_TIME_LIMIT) -> None:
        self.host = host
        self.level: Level = host.level
        self.jobs = host.app.jobs
        #: Where the jobs run (None: the runner's default, a child process where ``fork`` exists).
        self.execution: Execution | None = None
        self.handle: JobHandle | None = None  #: the latest solve / hint job
        self.solve_time_limit = solve_time_limit
        self.hint_time_limit = hint_time_limit
        self.gif = GifExport(self)  #: G: the GIF exports (lane ``export``)
        #: Every minimum solution, enumerated in the background once the level opens, for the hints.
        self.prefetch = Prefetch(self)
        self.state = AssistantState(solver_names=tuple(solver_choices()))
        #: Solver objects by name that are not in the registry (e.g. injected by tests).
        self.custom_solvers: dict[str, Solver] = {}
        self._fast_switch = False
        self._lesson: Lesson | None = None  #: where and why the run fails, said by the first hint press
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
        self.state = self.state.with_solver(solver.name, select=select)

    def _offer_player_rules(self) -> None:
        """Offer the rules learned from the player's own runs in the Tab cycle once they are exact
        (:func:`~game.app.assistant.tasks.player_rules_solvers`)."""
        for solver in player_rules_solvers(self.level):
            self.add_solver(solver, select=False)

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
        if mode == SolveMode.MIN and self.solver == PREFETCH_SOLVER:  # the default solver shows H's plan
            return self._request_plan()
        cached = self.state.cached(self.solver, mode.value)
        if cached is not None:
            self.cancel(quiet=True)
            self._show(with_answer(self.state, self.level, cached, self.host.bricks))
            return None
        kind = TaskKind.ALL if mode == SolveMode.ALL else TaskKind.SOLVE
        return self._submit(kind, self._solve_job(self.solver, mode), self.solver, self.solve_time_limit)

    def _request_plan(self) -> int | None:
        """S with the default solver: the solution of the plan H shares for the bricks on the board."""
        return self._plan(TaskKind.PLAN, tuple(self.host.bricks), self.solve_time_limit)

    def _plan(self, kind: TaskKind, bricks: BrickSet, time_limit: float | None) -> int | None:
        """Show the plan for ``bricks`` at once when it is known (a running job stops), else submit the job
        that makes it (its id)."""
        if self.state.plan_for(bricks) is None:
            known = self.state.cached(PREFETCH_SOLVER, SolveMode.ALL.value)  # the minimum solutions, if listed
            job = hint_job(self.level, bricks, known, self.state.plan_holding(bricks))  # keep its solution
            return self._submit(kind, job, PREFETCH_SOLVER, time_limit)
        self.cancel(quiet=True)
        self._planned(kind, bricks, self.state.plan_for(bricks), None)
        return None

    def _planned(self, kind: TaskKind, bricks: BrickSet, plan: Hint | None, waited: float | None) -> None:
        """The plan for ``bricks`` arrived (or was known): H teaches from it, S shows its solution."""
        if plan is None:
            return
        if kind == TaskKind.HINT:
            self._set_hint(bricks, plan)
        else:
            self._show(with_plan_answer(self.state, self.level, bricks, plan, tuple(self.host.bricks), waited))

    def request_hint(self) -> int | None:
        """H teaches in steps: the first press says where and why the current run fails, the second
        names the idea that fixes it, the next ones reveal the bricks (one per press)."""
        self.state = replace(self.state, solution=None)  # a hint replaces the solution on screen
        bricks = tuple(self.host.bricks)
        view = self.state.hint
        run = self.state.running
        if view is None and run is not None and run.kind == TaskKind.HINT:
            return None  # still thinking about this hint: the reason stays on screen
        if view is not None and view.for_bricks == bricks:
            view, counted = press_again(view)
            self._count_hint(counted)
            self.state = replace(self.state, hint=view)
            return None
        self._lesson = lesson_for(self.level, bricks)
        self.state = replace(self.state, hint=None, lesson=self._lesson.text if self._lesson else "")
        return self._plan(TaskKind.HINT, bricks, self.hint_time_limit)  # S's plan, when it made one

    def toggle_forced(self) -> None:
        """F: show or hide the deductions (proved by enumerating every optimal solution)."""
        show = not self.state.show_forced
        self.state = replace(self.state, show_forced=show)
        if not show:
            self.say("deductions hidden")
            return
        known = self.state.deductions or cached_deductions(self.state, self.level)
        if known is not None:
            self.state = replace(self.state, deductions=known)
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
        if self._apply():
            self.say("AI solution applied  -  Z returns to your bricks, Space plays it", holds=Holds.MOMENT)
        else:
            self.say("that solution is already on the board", holds=Holds.BRICKS)
        return True

    def play_shown(self) -> bool:
        """Space with a solution on screen: apply it and release the lemmings."""
        if self.state.shown is None:
            return False
        applied = self._apply()
        self.host.toggle_run()
        if applied:
            self.say("AI solution applied  -  Z returns to your bricks", holds=Holds.BRICKS)
        return True

    def _apply(self) -> bool:
        """Put the shown solution on the board and hide it; False when it was there already."""
        shown = self.state.shown
        self.state = replace(self.state, solution=None)
        if shown is None or shown == tuple(self.host.bricks):
            return False
        self.host.apply_bricks(shown)
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
        self._stop_jobs()
        if not quiet:
            elapsed = self.handle.elapsed if self.handle is not None else 0.0
            self.say(f"{solver_label(run.solver)}: cancelled after {elapsed:.1f} s")

    def export(self, out: str | None = None) -> int | None:
        """G: export the run on screen as a GIF (:class:`~game.app.assistant.gif_export.GifExport`); None
        while another export is still being written."""
        return self.gif.start(out)

    def say(self, text: str, seconds: float = NOTICE_SECONDS, holds: Holds | None = None) -> None:
        """Show a notice line (``holds``: it goes once what it describes changes)."""
        self.state = self.state.say(text, seconds, Tie.now(self.host, holds) if holds is not None else None)

    def on_leave(self) -> None:
        """The scene is leaving (see :meth:`shutdown`)."""
        self.shutdown()

    def shutdown(self) -> None:
        """The scene is leaving: cancel the running solve (an export still finishes)."""
        self._stop_jobs()
        self._fast_switch = SwitchInterval.set(False, self._fast_switch)

    def _stop_jobs(self) -> None:
        """Cancel the solve and the prefetch (their late events are ignored)."""
        self.jobs.cancel(self.host, "solve")
        self.jobs.cancel(self.host, "prefetch")
        self.state = replace(self.state, running=None)

    # ================================================================ per frame
    def update(self, dt: float) -> None:
        """Age the messages and start the prefetch once (the job events came through the callbacks,
        delivered by the app's runner before this)."""
        self.state = self.state.tick(dt).settle(self.host)
        self.prefetch.start()
        if self.state.running is not None and self.handle is not None:
            self.state = replace(self.state, running=replace(self.state.running, elapsed=self.handle.elapsed))
        in_thread = (self.busy or self.state.exporting) and not self.use_processes
        self._fast_switch = SwitchInterval.set(in_thread, self._fast_switch)

    # ================================================================ drawing (reads only)
    def marks(self) -> Marks:
        """What the scene shows for the assistant now (:func:`~game.app.assistant.overlay.board_marks`)."""
        return board_marks(self.state, tuple(self.host.bricks))

    def draw(self, surface: pygame.Surface, view: BoardView) -> None:
        """Never-useful cells, a relaxed answer's densities and the solver badge (reads the state only)."""
        draw_overlay(surface, view.layout, self.state, self.host.renderer)

    def on_edit(self) -> None:
        """The player changed the bricks: a shown hint no longer applies."""
        self.state = self.state.edited(tuple(self.host.bricks))

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
            self.report_failure(f"{run.solver} {run.kind.value}", event, f"{solver_label(run.solver)} could not finish")
            return
        if event.kind == JobEventKind.CANCELLED:
            self.say(f"{solver_label(run.solver)}: cancelled")
            return
        if run.kind in (TaskKind.HINT, TaskKind.PLAN):
            bricks, plan = event.payload
            self._planned(run.kind, bricks, plan, event.elapsed)
            return
        result: SolveResult = event.payload
        self.state = self.state.remember(result)
        if run.kind == TaskKind.FORCED:
            self.state = with_deductions(self.state, self.level, result)
        else:
            self._show(with_answer(self.state, self.level, result, self.host.bricks, waited=event.elapsed))

    def _show(self, state: AssistantState) -> None:
        """Show ``state`` (an answer); a brick set shown makes the level's wins AI-helped (see the host)."""
        self.state = state
        if state.shown is not None:
            self.host.ai_solution_shown()

    def report_failure(self, what: str, event: JobEvent, line: str) -> None:
        """A friendly line on screen; the error and its traceback in the error log."""
        path = log_error(what, event.message, event.detail)
        self.state = self.state.fail(line + (" (details in errors.log)" if path is not None else ""))

    def _set_hint(self, bricks: BrickSet, hint: Hint) -> None:
        state, counted = with_hint(self.state, self.level, bricks, hint, tuple(self.host.bricks), self._lesson)
        self._count_hint(counted)
        self.state = state

    def _count_hint(self, counted: bool) -> None:
        if counted and self.host.key is not None:
            self.host.app.progress.add_hints(self.host.key)


__all__ = ["Assistant"]
