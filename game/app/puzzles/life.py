"""The Reverse Life screen: paint a start pattern that becomes the target picture after k steps.

Three boards side by side: the player's start (painted with the mouse or the keyboard), the start
after the puzzle's steps (or after any step, with , and .), wrong cells marked, and the target (the marks, in the
player's palette, and the words naming them: :mod:`game.app.puzzles.life_view`).
The AI runs in a child process (a job of the app's runner, :class:`game.app.jobs.JobRunner`), so the
game never freezes: H marks one cell to flip next (:func:`ai.facade.life_hint`: a cell of a start that keeps
every live cell painted, or the painted cell to clear, or the flip that leaves the fewest wrong cells),
S fills in the AI's start (:func:`ai.facade.life_reverse`), undoable.  Progress (solved, fewest wrong
cells, the player's winning start) is kept per puzzle in the app's progress store and shown in the title; a
puzzle solved with the AI's start is not counted.  A solved puzzle opens with the player's winning start on
the board (:func:`game.app.puzzles.life_text.kept_start`); "Solved!" is said once, under the result.  The
screen opens on the first puzzle not solved yet; a puzzle left with [ or ] is found again as it was left.

Keys: F1 lists them (:data:`game.app.puzzles.life_help.LIFE_HELP`); Esc stops the AI, else goes back.
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np
import pygame

from ai.facade import LifeHint, SolveContext, SolveStopped, life_hint, life_reverse
from game.core.error_log import log_error
from game.core.errors import GameError
from game.core.puzzles.life.puzzle import LifeModel, LifePuzzle, load_pack
from game.core.puzzles.life.rules import Board, parse_rule
from game.app import hud
from game.app.app import App, HelpPage, Scene
from game.app.puzzles.life_help import LIFE_HELP
from game.app.puzzles.life_text import (HINT_DROPPED, KEPT_MESSAGE, SOLVED_MESSAGE, hint_message, kept_start,
                                        live_cells, progress_words, solution_message, solved_in)
from game.app.input import Act, Action, display_key, mouse_held
from game.app.jobs import Execution, Job, JobEvent, JobHandle
from game.app.palette import pair
from game.app.puzzles.life_view import draw_board, draw_cursor_and_hint, draw_under, draw_wrong, hint_label, status_line
from game.app.render import LevelRenderer

#: Seconds the AI may spend on a solve.
AI_TIME_LIMIT = 10.0
#: Seconds a hint may take (its search; the flip that leaves the fewest wrong cells is its answer after that).
HINT_TIME_LIMIT = 5.0
#: Text size of the message under the boards (two lines at most).
MESSAGE_SIZE = 24


class LifeTask(enum.Enum):
    """What the AI is asked."""

    HINT = "hint"  #: :func:`ai.facade.life_hint`
    SOLVE = "solve"  #: :func:`ai.facade.life_reverse`


def _life_job(kind: LifeTask, target: Board, steps: int, rule_name: str, start: Board | None = None) -> Job:
    """A job of the runner: :attr:`LifeTask.SOLVE`, or :attr:`LifeTask.HINT` for the player's ``start``."""
    painted = None if start is None else start.copy()

    def job(ctx: SolveContext) -> Any:
        rule = parse_rule(rule_name)
        try:
            if kind == LifeTask.HINT and painted is not None:
                return life_hint(painted, target, steps, ctx, rule)
            return life_reverse(target, steps, ctx, rule)
        except SolveStopped:  # cancelled (only in a thread; a child process is killed instead)
            return None
    return job


class LifeScene(Scene):
    """Reverse Life puzzles (see the module docstring)."""

    def __init__(self, app: App, puzzles: list[LifePuzzle] | None = None, index: int | None = None, *,
                 use_processes: bool | None = None, ai_time_limit: float | None = AI_TIME_LIMIT) -> None:
        super().__init__(app)
        self.ai_time_limit = ai_time_limit  #: seconds per AI job (``None``: until done, for tests)
        self.renderer = LevelRenderer()
        self.error = ""
        try:
            self.puzzles = puzzles if puzzles is not None else load_pack()
        except GameError as exc:
            self.puzzles, self.error = [], str(exc)
        if not self.puzzles and not self.error:
            self.error = "no Reverse Life puzzles found"
        if index is None:  # where the player left off: the first puzzle not solved yet
            index = next((i for i, p in enumerate(self.puzzles) if not solved_in(self.app.progress, p)), 0)
        self.index = max(0, min(index, len(self.puzzles) - 1))
        self.model: LifeModel | None = LifeModel(self.puzzles[self.index]) if self.puzzles else None
        self.cursor = (0, 0)
        self.view_step = self.model.puzzle.steps if self.model else 0
        self.message = ""
        self.hint_cell: tuple[int, int] | None = None
        self.last_hint: LifeHint | None = None  #: the AI's last hint for this puzzle
        self.paint: bool | None = None  #: the value a mouse drag paints
        #: Where the AI's jobs run (None: the runner's default, a child process where ``fork`` exists).
        self.execution: Execution | None = None if use_processes is None else (
            Execution.CHILD_PROCESS if use_processes else Execution.THREAD)
        self.job: JobHandle | None = None
        self.job_kind = LifeTask.HINT
        self.shown: Board | None = None
        self.was_solved = False  #: the start was solved at the last change ("Solved!" is said once per solve)
        self.ai_start: Board | None = None  #: the start the AI put on the board (see :attr:`assisted`)
        self._last_start: Board | None = None  #: the start at the last change
        self._left: dict[int, tuple[LifeModel, Board | None]] = {}  #: the puzzles left by [ ]: model, AI's start
        self._open_kept_start()
        self._refresh()

    # ------------------------------------------------------------------ model
    @property
    def assisted(self) -> bool:
        """True while the start on the board is the one the AI put (not counted as the player's progress; a
        start of the player's own, reached again with Z, is the player's)."""
        m = self.model
        return m is not None and self.ai_start is not None and np.array_equal(m.start, self.ai_start)

    def _refresh(self) -> None:
        """Recompute the shown generation (after every change; draw only reads it)."""
        if self.model is not None:
            self.shown = self.model.generation(self.view_step)

    def load(self, index: int) -> None:
        """Go to puzzle ``index`` (wraps around); cancels the AI."""
        if not self.puzzles:
            return
        if self.job is not None:
            self.job.cancel()
        self.job = None
        self.save_progress()
        if self.model is not None:  # the board as left, with its undo history, for a return to this puzzle
            self._left[self.index] = (self.model, self.ai_start)
        self.index = index % len(self.puzzles)
        self.model, self.ai_start = self._left.pop(self.index, (LifeModel(self.puzzles[self.index]), None))
        self.view_step = self.model.puzzle.steps
        self.cursor, self.hint_cell, self.message, self.last_hint = (0, 0), None, "", None
        self.was_solved, self._last_start = self.model.solved, self.model.start.copy()
        if not self.model.start.any():
            self._last_start = None
            self._open_kept_start()
        self._refresh()

    def _open_kept_start(self) -> None:
        """Put the player's winning start back on a solved puzzle's board (undoable: Z shows the empty board)."""
        board = kept_start(self.app.progress, self.model.puzzle) if self.model is not None else None
        if self.model is not None and board is not None:
            self.model.set_start(board)
            self._last_start, self.was_solved, self.message = board.copy(), True, KEPT_MESSAGE

    def _changed(self) -> None:
        """After every change of the start: the view, the progress (with the start that solves it), and the
        message when it has just become solved."""
        m = self.model
        if m is None or (self._last_start is not None and np.array_equal(self._last_start, m.start)):
            return  # nothing changed (a cell set to the state it had)
        self._last_start = m.start.copy()
        self.hint_cell = None
        stale = self.job if self.job_kind == LifeTask.HINT else None  # a hint on the start before the change
        if stale is not None:
            stale.cancel()
            self.job = None
        self._refresh()
        solved = m.solved
        if not self.assisted and m.start.any() and (solved or m.wrong_cells < m.puzzle.empty_wrong):
            self.app.progress.record_puzzle(m.puzzle.progress_key, m.puzzle.puzzle_hash, m.wrong_cells,
                                            save=solved, start=live_cells(m.start) if solved else None)
        if solved and not self.was_solved:
            self.message = SOLVED_MESSAGE
        elif not solved:  # what was said was about the start before
            self.message = HINT_DROPPED.format(hint=display_key('H')) if stale is not None else ""
        self.was_solved = solved

    def save_progress(self) -> None:
        """Write the progress store (bests are kept in memory while painting, written here and on a solve)."""
        self.app.progress.save()

    def on_exit(self) -> None:
        """Leaving the screen (Esc, or the window closing): the bests kept in memory are written."""
        self.save_progress()

    def progress_label(self, puzzle: LifePuzzle) -> str:
        """``solved``, ``best: N wrong`` or nothing, for ``puzzle`` (see :func:`progress_words`)."""
        return progress_words(self.app.progress, puzzle)

    def solved_count(self) -> int:
        """Puzzles of the list solved (in their current version)."""
        return sum(1 for p in self.puzzles if solved_in(self.app.progress, p))

    # ------------------------------------------------------------------ layout
    def _boards(self, size: tuple[int, int]) -> tuple[int, list[pygame.Rect]]:
        """Cell size and the three board rectangles (start, result, target)."""
        w, h = size
        rows, cols = self.model.puzzle.shape if self.model else (1, 1)
        top, bottom = hud.TOP_BAR + 40, h - hud.BOTTOM_BAR - 40 - 2 * MESSAGE_SIZE
        cell = max(4, min((w - 80) // (3 * cols), (bottom - top) // rows))
        bw, bh = cell * cols, cell * rows
        gap = (w - 3 * bw) // 4
        return cell, [pygame.Rect(gap + i * (bw + gap), top, bw, bh) for i in range(3)]

    def cell_at(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        """The start-board cell under the screen position ``pos``."""
        if self.model is None:
            return None
        cell, rects = self._boards(self.app.screen.get_size())
        if not rects[0].collidepoint(pos):
            return None
        return ((pos[1] - rects[0].y) // cell, (pos[0] - rects[0].x) // cell)

    # ------------------------------------------------------------------ input
    def help_page(self) -> HelpPage:
        """F1: this screen's own keys."""
        return LIFE_HELP

    def handle_event(self, action: Action) -> None:
        """Painting, undo, stepping the view, the AI, switching puzzles (see the module docstring)."""
        k = action.kind
        if k == Act.BACK:  # the AI's work first (as in every scene), then back
            if self.job is not None:
                self.job.cancel()
                self.job, self.message = None, "Stopped."
                return
            self.app.pop()  # the progress is saved on leaving (:meth:`on_exit`)
            return
        m = self.model
        if m is None:
            return
        rows, cols = m.puzzle.shape
        r, c = self.cursor
        moves = {Act.UP: (-1, 0), Act.DOWN: (1, 0), Act.LEFT: (0, -1), Act.RIGHT: (0, 1)}
        if k in moves:
            dr, dc = moves[k]
            self.cursor = ((r + dr) % rows, (c + dc) % cols)
        elif k in (Act.TOGGLE_RUN, Act.CONFIRM, Act.PLACE):
            m.toggle(r, c)
            self._changed()
        elif k in (Act.CLICK, Act.RIGHT_CLICK, Act.HOVER):
            self._mouse(action, m)
        elif k in (Act.UNDO, Act.REDO):
            if m.undo() if k == Act.UNDO else m.redo():
                self._changed()
        elif k in (Act.CLEAR, Act.RESTART):
            m.clear()
            self._changed()
        elif k in (Act.STEP_BACK, Act.STEP_FORWARD):
            self.view_step = max(0, min(m.puzzle.steps, self.view_step + (1 if k == Act.STEP_FORWARD else -1)))
            self._refresh()
        elif k == Act.PREV_ITEM:
            self.load(self.index - 1)
        elif k == Act.NEXT_ITEM:
            self.load(self.index + 1)
        elif k == Act.HINT:
            self._submit(LifeTask.HINT, _life_job(LifeTask.HINT, m.puzzle.target, m.puzzle.steps, m.puzzle.rule.name,
                                                  m.start))
        elif k == Act.SOLVE:
            self._submit(LifeTask.SOLVE, _life_job(LifeTask.SOLVE, m.puzzle.target, m.puzzle.steps,
                                                   m.puzzle.rule.name))

    def _mouse(self, action: Action, m: LifeModel) -> None:
        """Click paints a cell (a drag paints on), right click clears one."""
        k = action.kind
        if k == Act.CLICK and action.pos is not None:
            at = self.cell_at(action.pos)
            if at is not None:
                self.cursor = at
                self.paint = not bool(m.start[at])
                m.set_cell(*at, self.paint)
                self._changed()
        elif k == Act.RIGHT_CLICK and action.pos is not None:
            at = self.cell_at(action.pos)
            if at is not None:
                m.set_cell(*at, False)
                self._changed()
        elif k == Act.HOVER and action.pos is not None and self.paint is not None:
            at = self.cell_at(action.pos)
            if not mouse_held(0):
                self.paint = None
            elif at is not None:
                m.set_cell(*at, self.paint)
                self._changed()

    def _submit(self, kind: LifeTask, job: Job) -> None:
        self.job_kind = kind
        self.message = "The AI is looking for a hint..." if kind == LifeTask.HINT else "The AI is solving..."
        limit = self.ai_time_limit
        if kind == LifeTask.HINT and limit is not None:
            limit = min(limit, HINT_TIME_LIMIT)
        self.job = self.app.jobs.submit(job, label=f"life-{kind.value}", owner=self, lane="ai",
                                        time_limit=limit, on_done=self._on_done,
                                        on_error=self._on_error, on_cancelled=self._on_cancelled,
                                        execution=self.execution)

    def wait(self, timeout: float = 120.0) -> None:
        """Block until the AI's job is done (tests), then take its result."""
        if self.job is not None:
            self.job.wait(timeout)
        self.app.jobs.pump()

    def _current(self, event: JobEvent) -> bool:
        """True for an event of the job asked last (not of a puzzle left behind)."""
        if self.job is None or event.handle is not self.job:
            return False
        self.job = None
        return True

    def _on_done(self, event: JobEvent) -> None:
        if self._current(event) and event.payload is not None and self.model is not None:
            if self.job_kind == LifeTask.SOLVE:
                self._take_solution(event.payload)
            else:
                self._take_hint(event.payload)

    def _on_error(self, event: JobEvent) -> None:
        if self._current(event):
            log_error("Reverse Life AI", event.message, event.detail)
            self.message = "The AI failed (details in errors.log)."

    def _on_cancelled(self, event: JobEvent) -> None:
        if self._current(event):
            self.message = "The AI stopped."

    def update(self, dt: float) -> None:
        """Nothing to advance: the AI's answers come through the runner's callbacks."""

    def _take_solution(self, result: Any) -> None:
        assert self.model is not None
        self.model.set_start(result.start)
        self.ai_start = self.model.start.copy()
        self._changed()
        self.message = solution_message(result.status, result.wrong_cells)

    def _take_hint(self, h: LifeHint) -> None:
        """Mark the hint's cell (the cursor goes there) and say what to do with it."""
        self.hint_cell, self.last_hint = h.cell, h
        if h.cell is not None:
            self.cursor = h.cell
        self.message = hint_message(h)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """Title, the three boards, the message and the key hints."""
        self.renderer.draw_background(surface)
        bar = hud.top_bar(surface)
        hud.hint_bar(surface, [("click/Space", "flip"), ("Z/Y", "undo/redo"), (",/.", "step"), ("H", "hint"),
                               ("S", "solve"), ("[ ]", "puzzle"), ("Esc", "back")])
        m = self.model
        if m is None:
            hud.blit_text(surface, "Reverse Life", (16, bar.centery), 36, hud.GOLD, anchor="midleft")
            hud.blit_text(surface, self.error, (20, hud.TOP_BAR + 20), 26, hud.RED)
            return
        p = m.puzzle
        label = "" if m.solved else self.progress_label(p)  # a solved board says so under the result
        title = f"Reverse Life {self.index + 1}/{len(self.puzzles)}: {p.title}" + (f" ({label})" if label else "")
        right = f"{hud.plural(p.steps, 'step')} of {p.rule.name}, {self.solved_count()}/{len(self.puzzles)} solved"
        room = surface.get_width() - hud.text(right, 26).get_width() - 48
        hud.blit_text(surface, hud.fit_text(title, 28, room), (16, bar.centery), 28, hud.GOLD, anchor="midleft")
        hud.blit_text(surface, right, (surface.get_width() - 16, bar.centery), 26, hud.WHITE, anchor="midright")
        cell, rects = self._boards(surface.get_size())
        shown = self.shown if self.shown is not None else m.start
        final, marks = self.view_step == p.steps, pair(self.app.settings.palette)
        labels = ["Your start", f"After {hud.plural(self.view_step, 'step')}", "Target"]
        for rect, board, label in zip(rects, (m.start, shown, p.target), labels):
            draw_board(surface, rect, cell, board)
            hud.blit_text(surface, label, (rect.centerx, rect.y - 8), 26, hud.WHITE, anchor="midbottom")
        if final:
            draw_wrong(surface, rects[1], cell, shown != p.target, marks)
        draw_cursor_and_hint(surface, rects[0], cell, self.cursor, self.hint_cell, marks)
        room = rects[1].x - rects[0].x - 8  # a board and the gap after it
        under = [(rects[1], status_line(m.solved, m.wrong_cells, final, marks), hud.GREEN if m.solved else hud.WHITE)]
        if self.hint_cell is not None:
            under.append((rects[0], hint_label(marks), marks.good))
        draw_under(surface, under, room)
        message = self.message + (f"  ({self.job.elapsed:.0f} s, Esc stops)" if self.job is not None else "")
        if message:
            for i, line in enumerate(hud.wrap_text(message, MESSAGE_SIZE, surface.get_width() - 40, 2)):
                hud.blit_text(surface, line, (surface.get_width() // 2, rects[0].bottom + 38 + i * MESSAGE_SIZE),
                              MESSAGE_SIZE, hud.GOLD, anchor="midtop")


__all__ = ["AI_TIME_LIMIT", "LifeScene"]
