"""The AI assistant of the play scene: hints, solutions, deductions and GIF export.

The play scene owns one :class:`Assistant` and offers it every action first
(:meth:`Assistant.handle_action`); the assistant draws through the scene's add-on hooks
(``ghost_bricks``, ``highlights``, ``status_lines``, ``overlays``), which
:meth:`PlayScene.current_view` merges into the :class:`~game.ui.render.FrameView`.

Every solver call runs on a :class:`ai.assistant.worker.Worker` thread, so the game keeps drawing at
60 fps: the assistant only polls the worker once per frame.  A spinner shows the solver,
the elapsed time and the best bound reported so far; Esc cancels at once; a new request
replaces the running one; a solver that raises shows its message in the HUD.

Keys: H hint (press again to reveal more), S solve, A all optimal solutions (browse with
``[`` and ``]``), Tab cycles the solver, F shows the deductions (forced / never-useful cells),
G exports the run on screen as a GIF (on a second worker, so it never stops a solve).
With an AI solution on screen, Enter applies it (on the undo chain: Z returns to the
player's bricks) and Space applies it and plays it.
"""

from __future__ import annotations

import math
import os
import sys
import threading
from typing import TYPE_CHECKING, Any, Callable, Sequence

import pygame

from ai.assistant.worker import Worker, WorkerEvent
from game.level import Brick, Level
from game.ui import hud
from game.ui.input import Act, Action
from game.ui.render import BoardLayout
from game.ui.solver_process import fork_available, process_task

if TYPE_CHECKING:
    from ai.base import RelaxedSolution, SolveResult, Solver
    from game.ui.scenes.play import PlayScene

BrickSet = tuple[Brick, ...]

#: The order Tab cycles through (only the solvers present in ``ai.available_solvers()``).
SOLVER_CYCLE: tuple[str, ...] = ("auto", "cpsat", "milp", "search", "gradient", "learned")
#: Solvers that prove optimality (used for the F deductions when the active one is not exact).
EXACT = ("auto", "cpsat", "milp", "search", "brute")
#: Default time limits, in seconds.
SOLVE_TIME_LIMIT = 60.0
HINT_TIME_LIMIT = 10.0
#: How long notices and error messages stay in the HUD, in seconds.
NOTICE_SECONDS = 6.0

#: Overlay colours (RGBA).
PLACE_COLOR = (120, 255, 140, 255)
REMOVE_COLOR = (255, 90, 90, 255)
FORCED_COLOR = (255, 214, 90, 255)
EXTRA_COLOR = (255, 120, 120, 200)
GHOST_COLOR = (120, 200, 255, 220)
SPINNER = "|/-\\"
#: GIL switch interval while a background job runs (seconds; Python's default is 0.005): a
#: pure-Python solver then hands the interpreter back to the UI thread within 1 ms.
BUSY_SWITCH_INTERVAL = 0.001
#: Nice value of the worker threads (Linux: per thread), so the OS favours the UI thread.
WORKER_NICE = 0

_TASK_TEXT = {"solve": "solving", "all": "finding all optimal solutions", "hint": "thinking of a hint",
              "forced": "proving deductions"}


def background_priority() -> None:
    """Lower the calling (worker) thread's CPU priority where the OS allows it (threads the
    solver starts, e.g. CP-SAT's, inherit it); never fails."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), WORKER_NICE)
    except (AttributeError, OSError, ValueError):
        pass


class _SwitchInterval:
    """Shortens the GIL switch interval while any assistant job runs (process-wide, counted)."""

    users = 0
    saved = 0.005

    @classmethod
    def acquire(cls) -> None:
        if cls.users == 0:
            cls.saved = sys.getswitchinterval()
            sys.setswitchinterval(min(cls.saved, BUSY_SWITCH_INTERVAL))
        cls.users += 1

    @classmethod
    def release(cls) -> None:
        if cls.users > 0:
            cls.users -= 1
            if cls.users == 0:
                sys.setswitchinterval(cls.saved)


def solver_choices() -> list[str]:
    """The Tab cycle: :data:`SOLVER_CYCLE` filtered by :func:`ai.available_solvers`."""
    from ai import available_solvers

    present = set(available_solvers())
    return [name for name in SOLVER_CYCLE if name in present] or ["auto"]


class Assistant:
    """The assistant component a :class:`~game.ui.scenes.play.PlayScene` hosts.

    State: the :class:`Worker` (and a second one for exports), the active solver, the hint
    and how much of it is revealed, the AI solution on screen (and the list of all optimal
    solutions with the browse index), the deductions overlay, the spinner text.
    """

    def __init__(self, scene: PlayScene, *, solve_time_limit: float | None = SOLVE_TIME_LIMIT,
                 hint_time_limit: float = HINT_TIME_LIMIT) -> None:
        self.scene = scene
        self.level: Level = scene.level
        self.worker = Worker()
        self.export_worker = Worker()
        #: Run solvers and hints in a child process (no shared interpreter lock with the UI;
        #: Esc kills the child at once); False runs them in the worker's thread.
        self.use_processes = fork_available()
        self.solve_time_limit = solve_time_limit
        self.hint_time_limit = hint_time_limit
        self.solver_names: list[str] = solver_choices()
        self.solver_index = 0
        #: Solver objects by name that are not in the registry (e.g. injected by tests).
        self.custom_solvers: dict[str, Solver] = {}
        # running job
        self.job: int | None = None
        self.task = ""             #: kind of the running job: solve, all, hint, forced
        self.task_solver = ""
        self.progress: Any = None  #: last :class:`ai.base.Progress` of the running job
        # the AI solution on screen
        self.result: SolveResult | None = None
        self.solutions: list[BrickSet] = []
        self.browse = 0
        self.relaxed: RelaxedSolution | None = None
        # hints
        self.hint: Any = None      #: the last :class:`ai.assistant.hints.Hint`
        self.hint_for: BrickSet | None = None
        self.hint_steps: list[tuple[str, Brick]] = []  #: (place|remove, cell) in the order revealed
        self.hint_revealed = 0
        self.hint_line = ""
        self.hints_counted = 0     #: hints used in this scene (also saved in the progress file)
        # deductions
        self.show_forced = False
        self.forced: tuple[Brick, ...] | None = None
        self.never_useful: tuple[Brick, ...] = ()
        # messages
        self.notice = ""
        self.notice_time = 0.0
        self.error = ""
        self.error_time = 0.0
        self.export_path = ""
        self.exporting = False
        self.anim = 0.0
        self._cache: dict[tuple[str, str], SolveResult] = {}
        self._fast_switch = False

    # ================================================================ queries
    @property
    def solver(self) -> str:
        """The active solver's name."""
        return self.solver_names[self.solver_index % len(self.solver_names)]

    @property
    def busy(self) -> bool:
        """True while a solver or hint job runs."""
        return self.job is not None and self.worker.busy

    @property
    def shown(self) -> BrickSet | None:
        """The AI solution on screen (the browsed one in ``all`` mode), or None."""
        if not self.solutions:
            return None
        return self.solutions[self.browse % len(self.solutions)]

    def spinner_text(self) -> str:
        """``| cpsat solving... 1.2 s, best 3, bound >= 2 (Esc cancels)`` while a job runs, else ''."""
        if not self.busy:
            return ""
        spin = SPINNER[int(self.anim * 10) % len(SPINNER)]
        text = f"{spin} {self.task_solver} {_TASK_TEXT.get(self.task, self.task)}... {self.worker.elapsed:.1f} s"
        prog = self.progress
        best = getattr(prog, "best_bricks", None)
        bound = getattr(prog, "best_bound", None)
        if best is not None:
            text += f", best {best}"
        if bound is not None:
            text += f", bound >= {bound:.3g}"
        return text + "  (Esc cancels)"

    def status_lines(self) -> list[str]:
        """The HUD lines of the assistant (spinner, solution, hint, notices, errors)."""
        lines = []
        spin = self.spinner_text()
        if spin:
            lines.append(spin)
        if self.result is not None and self.shown is not None:
            head = f"[{self.result.solver}] {self._result_text(self.result)}"
            if len(self.solutions) > 1 or self.result.mode.value == "all":
                head += f"  -  {self.browse + 1} / {len(self.solutions)}"
                head += " (complete)" if self.result.complete else " (maybe more)"
            lines.append(head + "  -  Enter: apply, Space: play")
        elif self.relaxed is not None and self.result is not None:
            mass = float(self.relaxed.obstacles.sum())
            lines.append(f"[{self.result.solver}] relaxed: {mass:.2f} bricks in all (densities shown)")
        if self.hint_line:
            lines.append(self.hint_line)
        if self.show_forced and self.forced is not None:
            lines.append(f"deductions: {len(self.forced)} forced (gold), {len(self.never_useful)} never useful (dark)")
        if self.notice:
            lines.append(self.notice)
        if self.error:
            lines.append(self.error)
        return lines

    # ================================================================ actions
    def handle_action(self, action: Action) -> bool:
        """React to an assistant key; True when the action was used (the scene then ignores it)."""
        kind = action.kind
        if kind == Act.HINT:
            self.request_hint()
        elif kind == Act.SOLVE:
            self.request_solve("min")
        elif kind == Act.ALL_SOLUTIONS:
            self.request_solve("all")
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
        if solver.name not in self.solver_names:
            self.solver_names.append(solver.name)
        if select:
            self.solver_index = self.solver_names.index(solver.name)

    def cycle_solver(self) -> None:
        """Tab: the next solver of :attr:`solver_names`."""
        self.solver_index = (self.solver_index + 1) % len(self.solver_names)
        self.say(f"AI solver: {self.solver}")

    def request_solve(self, mode: str = "min") -> int | None:
        """S (``min``) / A (``all``): solve the level with the active solver (cached when proved)."""
        self.hint_line = ""
        self.hint_revealed = 0  # a solution replaces the hint on screen
        cached = self._cache.get((self.solver, mode))
        if cached is not None:
            self.cancel(quiet=True)
            self._show_result(cached)
            return None
        return self._submit(mode if mode == "all" else "solve", self._solve_task(self.solver, mode), self.solver)

    def request_hint(self) -> int | None:
        """H: compute a hint for the current bricks, or reveal one more step of the current hint."""
        self._clear_solution()  # a hint replaces the solution on screen
        bricks = tuple(self.scene.bricks)
        if self.hint is not None and self.hint_for == bricks:
            if self.hint_revealed < len(self.hint_steps):
                self.hint_revealed += 1
                self._count_hint()
                self.hint_line = self._hint_text()
            else:
                self.hint_line = self._hint_text(final=True)
            return None
        level, limit = self.level, self.hint_time_limit

        def job(report: Callable[[Any], None], cancel: threading.Event) -> Any:
            from ai.assistant.hints import compute_hint

            return bricks, compute_hint(level, bricks, time_limit=limit, cancel=cancel)

        self.hint_line = ""
        return self._submit("hint", self._task(job, preload=("ai.assistant.hints",)), "cpsat")

    def toggle_forced(self) -> None:
        """F: show or hide the deductions (proved by enumerating every optimal solution)."""
        self.show_forced = not self.show_forced
        if not self.show_forced:
            self.say("deductions hidden")
            return
        if self.forced is not None:
            return
        for (name, mode), result in self._cache.items():
            if mode == "all" and result.complete:
                self._set_deductions(result)
                return
        name = self.solver if self.solver in EXACT or self.solver in self.custom_solvers else "auto"
        self._submit("forced", self._solve_task(name, "all"), name)

    def step_browse(self, delta: int) -> bool:
        """``[`` / ``]``: the previous / next optimal solution; False when there is no list."""
        if len(self.solutions) < 1 or self.result is None:
            return False
        self.browse = (self.browse + delta) % len(self.solutions)
        return True

    def apply_shown(self) -> bool:
        """Enter: put the solution on screen on the board (undoable); False when none is shown."""
        shown = self.shown
        if shown is None:
            return False
        if shown == tuple(self.scene.bricks):  # nothing to apply: Enter keeps its usual meaning
            self._clear_solution()
            return False
        self.scene.apply_bricks(shown)
        self._clear_solution()
        self.say("AI solution applied  -  Z returns to your bricks, Space plays it")
        return True

    def play_shown(self) -> bool:
        """Space with a solution on screen: apply it and release the lemmings."""
        if self.shown is None:
            return False
        if not self.apply_shown():  # already the bricks on the board: Space as usual
            return False
        self.scene.toggle_run()
        return True

    def cancel_or_dismiss(self) -> bool:
        """Esc: cancel the running job, else hide what the assistant shows; False when idle."""
        if self.busy:
            self.cancel()
            return True
        if self.shown is not None or self.relaxed is not None or self.hint_revealed or self.show_forced:
            self._clear_solution()
            self.hint_revealed = 0
            self.hint_line = ""
            self.show_forced = False
            return True
        return False

    def cancel(self, *, quiet: bool = False) -> None:
        """Stop the running job at once (its late events are ignored)."""
        if self.job is None:
            return
        self.worker.cancel()
        if not quiet:
            self.say(f"{self.task_solver}: cancelled after {self.worker.elapsed:.1f} s")
        self.job = None
        self.task = ""
        self.progress = None

    def export(self, out: str | None = None) -> int:
        """G: export the run on screen (the AI solution shown, else the player's bricks) as a GIF."""
        from game.ui.export import default_export_path, export_gif

        level = self.level
        relaxed = self.relaxed if self.shown is None else None
        bricks = tuple(self.shown if self.shown is not None else self.scene.bricks)
        subtitle = f"{self.result.solver}: {self._result_text(self.result)}" if (
            self.result is not None and (self.shown is not None or relaxed is not None)) else ""
        path = out or default_export_path(level, suffix="relaxed" if relaxed is not None else "")

        def task(cancel: threading.Event, report: Callable[[Any], None]) -> Any:
            background_priority()
            return export_gif(level, bricks, path, relaxed=relaxed, subtitle=subtitle)

        self.exporting = True
        self._set_fast_switch(True)
        self.say("exporting GIF...", 30.0)
        return self.export_worker.submit(task, label="gif")

    def say(self, text: str, seconds: float = NOTICE_SECONDS) -> None:
        """Show a notice line."""
        self.notice = text
        self.notice_time = seconds

    def shutdown(self) -> None:
        """Cancel the running solve without waiting (the scene is leaving; an export still finishes)."""
        self.worker.cancel()
        self.job = None
        self._set_fast_switch(False)

    # ================================================================ per frame
    def update(self, dt: float) -> None:
        """Collect worker events (never blocks) and refresh the scene's overlay fields."""
        self.anim += dt
        for event in self.worker.poll():
            self._on_event(event)
        for event in self.export_worker.poll():
            self._on_export_event(event)
        if self.notice_time > 0:
            self.notice_time -= dt
            if self.notice_time <= 0:
                self.notice = ""
        if self.error_time > 0:
            self.error_time -= dt
            if self.error_time <= 0:
                self.error = ""
        self._set_fast_switch(self.worker.busy or self.export_worker.busy)
        self.sync_scene()

    def _set_fast_switch(self, on: bool) -> None:
        if on and not self._fast_switch:
            _SwitchInterval.acquire()
        elif not on and self._fast_switch:
            _SwitchInterval.release()
        self._fast_switch = on

    def sync_scene(self) -> None:
        """Write the assistant's overlay into the scene's hooks (read by ``current_view``)."""
        scene = self.scene
        bricks = set(scene.bricks)
        ghost: list[Brick] = []
        highlights: list[tuple[Brick, tuple[int, int, int, int]]] = []
        shown = self.shown
        if shown is not None:
            ghost = [b for b in shown if b not in bricks]
            highlights += [(b, GHOST_COLOR) for b in ghost]
            highlights += [(b, EXTRA_COLOR) for b in sorted(bricks) if b not in shown]
        if self.show_forced and self.forced is not None:
            highlights += [(b, FORCED_COLOR) for b in self.forced]
        if self.hint_for == tuple(scene.bricks):
            for action, cell in self.hint_steps[: self.hint_revealed]:
                highlights.append((cell, PLACE_COLOR if action == "place" else REMOVE_COLOR))
        scene.ghost_bricks[:] = ghost
        scene.highlights[:] = highlights
        scene.status_lines[:] = self.status_lines()

    def on_edit(self) -> None:
        """The player changed the bricks: a shown hint no longer applies."""
        if self.hint is not None and self.hint_for != tuple(self.scene.bricks):
            self.hint_revealed = 0
            self.hint_line = ""

    # ================================================================ drawing
    def draw_overlay(self, surface: pygame.Surface, layout: BoardLayout) -> None:
        """Board overlays the FrameView has no field for (never-useful cells, relaxed densities),
        and the solver badge with the spinner."""
        if self.show_forced and self.forced is not None:
            veil = pygame.Surface((layout.cell, layout.cell), pygame.SRCALPHA)
            veil.fill((0, 0, 0, 120))
            for r, c in self.never_useful:
                rect = layout.cell_rect(r, c)
                surface.blit(veil, rect)
                pygame.draw.line(surface, (110, 100, 140), rect.topleft, rect.bottomright, 1)
        if self.relaxed is not None and self.shown is None:
            import numpy as np

            from game.ui.export import draw_relaxed

            draw_relaxed(surface, layout, np.asarray(self.relaxed.obstacles), None, self.scene.renderer)
        self._draw_badge(surface)

    def badge_text(self) -> str:
        """The solver badge under the top bar, e.g. ``AI: cpsat``."""
        return f"AI: {self.solver}"

    def _draw_badge(self, surface: pygame.Surface) -> None:
        label = self.badge_text()
        t = hud.text(label, 22, hud.GOLD if self.busy else hud.WHITE)
        x, y = 14, hud.TOP_BAR + 12
        extra = 26 if self.busy else 0
        box = pygame.Rect(x, y, t.get_width() + 20 + extra, t.get_height() + 10)
        hud.panel(surface, box, alpha=215)
        surface.blit(t, (x + 10, y + 5))
        if self.busy:
            cx, cy = box.right - 18, box.centery
            start = self.anim * 8.0
            pygame.draw.arc(surface, hud.GOLD, pygame.Rect(cx - 8, cy - 8, 16, 16), start, start + 4.0, 3)
        keys = hud.text("Tab", 18, hud.MUTED)
        surface.blit(keys, (box.right + 6, box.centery - keys.get_height() // 2))

    # ================================================================ internals
    @staticmethod
    def _result_text(result: SolveResult) -> str:
        """``describe()`` without the solution count of mode ``all`` (the HUD shows ``k / n``)."""
        return result.describe().split(";")[0]

    def _solve_task(self, name: str, mode: str) -> Callable[[threading.Event, Callable[[Any], None]], Any]:
        level, limit = self.level, self.solve_time_limit
        impl: str | Solver = self.custom_solvers.get(name, name)

        def job(report: Callable[[Any], None], cancel: threading.Event) -> Any:
            import ai

            return ai.solve(level, solver=impl, mode=mode, time_limit=limit, progress=report, cancel=cancel)

        return self._task(job, preload=_solver_modules(name))

    def _task(self, job: Callable[[Callable[[Any], None], threading.Event], Any], *,
              preload: tuple[str, ...] = ()) -> Callable[[threading.Event, Callable[[Any], None]], Any]:
        """A worker task running ``job(report, cancel)`` in a child process (see
        :mod:`game.ui.solver_process`), or in the worker's thread when :attr:`use_processes` is off."""
        if self.use_processes:
            return process_task(lambda report: job(report, threading.Event()), preload=preload)

        def task(cancel: threading.Event, report: Callable[[Any], None]) -> Any:
            background_priority()
            return job(report, cancel)

        return task

    def _submit(self, kind: str, task: Callable[[threading.Event, Callable[[Any], None]], Any],
                solver: str) -> int:
        self.job = self.worker.submit(task, label=f"{solver} {kind}")
        self._set_fast_switch(True)
        self.task = kind
        self.task_solver = solver
        self.progress = None
        self.error = ""
        return self.job

    def _on_event(self, event: WorkerEvent) -> None:
        if event.job != self.job:
            return
        if event.kind == "progress":
            self.progress = event.payload
            return
        kind, solver = self.task, self.task_solver
        self.job = None
        self.task = ""
        self.progress = None
        if event.kind == "error":
            self.error = f"{solver} failed: {event.message.removeprefix('JobFailed: ')}"
            self.error_time = NOTICE_SECONDS * 2
            return
        if event.kind == "cancelled":
            self.say(f"{solver}: cancelled")
            return
        if kind == "hint":
            bricks, hint = event.payload
            self._set_hint(bricks, hint)
            return
        result: SolveResult = event.payload
        if result.status.value in ("optimal", "infeasible"):
            self._cache[(solver, result.mode.value)] = result
        if kind == "forced":
            if result.status.value == "optimal" and result.complete:
                self._set_deductions(result)
            else:
                self.say(f"deductions need a complete enumeration: {result.describe()}")
            return
        self._show_result(result)

    def _on_export_event(self, event: WorkerEvent) -> None:
        if event.kind == "progress":
            return
        self.exporting = False
        if event.kind == "error":
            self.error = f"GIF export failed: {event.message}"
            self.error_time = NOTICE_SECONDS * 2
            self.notice = ""
        elif event.kind == "done":
            self.export_path = str(event.payload.path)
            self.say(f"GIF saved: {self.export_path}", NOTICE_SECONDS * 2)

    def _show_result(self, result: SolveResult) -> None:
        self.result = result
        self.browse = 0
        self.relaxed = None
        if result.bricks is not None:
            sols = list(result.solutions) if result.solutions else [result.bricks]
            if result.bricks in sols:  # show the returned best first ...
                sols.remove(result.bricks)
                sols.insert(0, result.bricks)
            mine = set(self.scene.bricks)  # ... after those closest to the player's bricks
            sols.sort(key=lambda sol: -len(mine.intersection(sol)))
            self.solutions = [tuple(s) for s in sols]
            if result.relaxed is not None:
                self.relaxed = result.relaxed
            self.say("")
        else:
            self.solutions = []
            if result.relaxed is not None:
                self.relaxed = result.relaxed
            else:
                self.say(f"[{result.solver}] {result.describe()}")
        if result.mode.value == "all" and result.complete and self.forced is None:
            self._set_deductions(result)

    def _clear_solution(self) -> None:
        self.solutions = []
        self.browse = 0
        self.relaxed = None

    def _set_deductions(self, result: SolveResult) -> None:
        if not result.solutions:
            self.forced, self.never_useful = (), tuple(self.level.brickable_cells)
            return
        sols = [set(s) for s in result.solutions]
        used = set.union(*sols)
        self.forced = tuple(sorted(set.intersection(*sols)))
        self.never_useful = tuple(c for c in self.level.brickable_cells if c not in used)

    def _set_hint(self, bricks: BrickSet, hint: Any) -> None:
        self.hint = hint
        self.hint_for = bricks
        if getattr(hint, "proved", False) and self.forced is None:
            self.forced = tuple(hint.forced)
            self.never_useful = tuple(hint.never_useful)
        self.hint_steps = _hint_steps(self.level, bricks, hint)
        self.hint_revealed = 0
        if tuple(self.scene.bricks) != bricks:
            self.hint_line = "your bricks changed: press H again"
            return
        if self.hint_steps:
            self.hint_revealed = 1
            self._count_hint()
        self.hint_line = self._hint_text()

    def _count_hint(self) -> None:
        self.hints_counted += 1
        key = self.scene.key
        if key is not None:
            self.scene.app.progress.add_hints(key)

    def _hint_text(self, *, final: bool = False) -> str:
        hint = self.hint
        action = getattr(hint, "action", "unknown")
        if action == "solved":
            return "Hint: your bricks already win  -  press Space"
        if action == "impossible":
            return "Hint: no brick set within the budget wins this level"
        if not self.hint_steps:
            return "Hint: no hint found in the time allowed"
        k = self.hint_revealed
        what, cell = self.hint_steps[k - 1]
        where = f"({cell[0]},{cell[1]})"
        forced = set(getattr(hint, "forced", ()) or ())
        never = set(getattr(hint, "never_useful", ()) or ())
        n = getattr(hint, "min_bricks", None) or (len(hint.solution) if hint.solution else 0)
        if what == "place":
            why = ("this cell is a brick in every solution" if cell in forced
                   else f"the lemmings need it on the way to a {n}-brick solution")
            text = f"Hint {k}/{len(self.hint_steps)}: place a brick at {where}: {why}"
        else:
            why = ("this cell never helps in any optimal solution" if cell in never
                   else "the closest winning set does without it")
            text = f"Hint {k}/{len(self.hint_steps)}: remove the brick at {where}: {why}"
        if final or k == len(self.hint_steps):
            text += "  (that is the whole solution)"
        return text


def _hint_steps(level: Level, bricks: BrickSet, hint: Any) -> list[tuple[str, Brick]]:
    """The hint's first cell, then the rest of the way to its solution (removals first, then the
    missing bricks in the order the lemmings meet them)."""
    cell = getattr(hint, "cell", None)
    solution = getattr(hint, "solution", None)
    if cell is None or solution is None:
        return []
    first = (str(hint.action), tuple(cell))
    steps: list[tuple[str, Brick]] = [first]
    removals = [b for b in bricks if b not in solution]
    missing = [b for b in solution if b not in bricks]
    for b in removals:
        if ("remove", b) != first:
            steps.append(("remove", b))
    for b in _read_order(level, tuple(solution), missing):
        if ("place", b) != first:
            steps.append(("place", b))
    return steps


def _read_order(level: Level, solution: BrickSet, cells: Sequence[Brick]) -> list[Brick]:
    """``cells`` sorted by the first frame a lemming reads them (stands on or walks into them)."""
    from game.simulation import simulate

    first: dict[Brick, int] = {}
    wanted = set(cells)
    for track in simulate(level, solution).tracks:
        for t, (r, c, d) in enumerate(track.path):
            for cell in ((r + 1, c), (r, c + d)):
                if cell in wanted and cell not in first:
                    first[cell] = t
    return sorted(cells, key=lambda b: (first.get(b, math.inf), b))


def _solver_modules(name: str) -> tuple[str, ...]:
    """The module of a registered solver (to import once in the game's process), if any."""
    from ai import SOLVER_REGISTRY

    target = SOLVER_REGISTRY.get(name)
    return (target.split(":")[0],) if target else ()


def install(scene: PlayScene) -> Assistant:
    """Create the assistant of ``scene`` and hook it in (overlay, per-frame update, edit callback)."""
    assistant = Assistant(scene)
    scene.overlays.append(assistant.draw_overlay)
    scene.updaters.append(assistant.update)
    scene.on_edit.append(assistant.on_edit)
    scene.extra_hints.extend([("H", "hint"), ("S", "solve"), ("A", "all"), ("F", "deduce"), ("G", "GIF")])
    return assistant


__all__ = ["Assistant", "SOLVER_CYCLE", "install", "solver_choices"]
