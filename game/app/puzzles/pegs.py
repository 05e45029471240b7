"""The peg-solitaire screen: drag a peg over a neighbour onto a hole, undo, ask for a hint or a solution.

Mouse: press on a peg and drag it onto a hole two cells away (or click the peg, then the hole); a move
that cannot be played says why.  Keys: F1 lists them (:data:`game.app.puzzles.pegs_help.PEGS_HELP`); Esc cancels
the thinking, stops the AI's solution being played, drops the peg, or goes back.  A start the three-colour
rule proves lost says so on opening, and explains the rule beside the board
(:mod:`game.app.puzzles.pegs_view`).  Hints and solutions are computed by :func:`ai.facade.pegs_hint` and
:func:`ai.facade.pegs_solve` in a child process (a job of the app's runner,
:class:`game.app.jobs.JobRunner`), so the screen never waits; what an answer settles (a solved line, a position
proved lost) answers later questions in the same game at once (:mod:`game.app.puzzles.pegs_memory`).  A lost
game says how many jumps to undo to reach a position that can finish: when no earlier answer tells, the AI
finds it in the background (:mod:`game.app.puzzles.pegs_ai`).
"""

from __future__ import annotations

from typing import Callable

import pygame

from ai.facade import PegsFinishBack, PegsStatus
from game.core.puzzles.pegs import Board, Cell, Jump, Refusal
from game.core.puzzles.pegs_openings import OPENINGS, Opening
from game.app import hud
from game.app.app import App, HelpPage, Scene
from game.app.puzzles.pegs_help import PEGS_HELP, pegs_footer
from game.app.input import Act, Action, display_key, mouse_held
from game.app.jobs import Execution, Job, JobEvent, JobEventKind, JobHandle
from game.app.puzzles.pegs_ai import HINT_LIMIT, PROOF_WORDS, SEEKING, SOLVE_LIMIT, PegsAsk, back_job, solve_job
from game.app.puzzles.pegs_memory import PegsMemory
from game.app.puzzles.pegs_view import (HOLE, HOLE_EDGE, MESSAGE_SIZE, BoardLayout, board_layout, draw_panel, draw_peg,
                                        draw_tints, draw_title, lost_message, message_lines, message_top,
                                        opening_message, own_name, position_message)
from game.app.render import LevelRenderer
from game.app.sound import Sfx

#: Seconds between two jumps of a solution being played.
PLAY_STEP = 0.35


class PegsScene(Scene):
    """Play peg solitaire on the English or French board (or a board of the player's own)."""

    def __init__(self, app: App, board_name: str | None = None, *,
                 extra: tuple[str, Board, int] | None = None) -> None:
        """``board_name``: an opening (by default the board chosen last, kept in the settings); ``extra``: a board
        of the player's own (name, board, start), played first and kept in the Tab cycle (named apart from a shipped
        opening of the same name: :func:`game.app.puzzles.pegs_view.own_name`)."""
        super().__init__(app)
        self.renderer = LevelRenderer()
        #: Where the AI's jobs run (None: the runner's default, a child process where ``fork`` exists).
        self.execution: Execution | None = None
        self.job: JobHandle | None = None  #: the latest hint or solve job
        self.openings: dict[str, Callable[[], Opening]] = dict(OPENINGS)
        if extra is not None:
            name, board, start = own_name(extra[0], self.openings), extra[1], extra[2]
            own = Opening(name, name, board, start, board.goal_position())
            self.openings = {name: lambda: own, **self.openings}
            board_name = name
        self.board_names = list(self.openings)
        #: The AI's settled answers per game (kept over restarts and board changes)
        self.memories: dict[str, PegsMemory] = {}
        self.load(board_name if board_name in self.openings else app.settings.pegs_board)

    # ---------------------------------------------------------------- state
    def load(self, name: str) -> None:
        """Start a new game: the opening ``name`` (a shipped one is remembered as the board chosen last)."""
        self.board_name = name
        if name in OPENINGS and name != self.app.settings.pegs_board:
            self.app.change_settings(pegs_board=name)
        self.opening = self.openings[name]()
        self.board, self.start, self.goal = self.opening.board, self.opening.start, self.opening.goal
        self.position = self.start
        self.history: list[Jump] = []
        self.redo_stack: list[Jump] = []
        self.cursor: Cell = self.board.centre or min(self.board.cells)
        self.selected: Cell | None = None
        self.dragging = False
        self.drag_pos: tuple[int, int] | None = None
        self.hint_jump: Jump | None = None
        self.message = opening_message(self.board, self.goal, explain=self.explain)
        self.playing: list[Jump] = []  #: the AI's jumps still to play (of :attr:`play_total`)
        self.play_timer, self.play_total = 0.0, 0
        self.pending: PegsAsk | None = None  #: what the AI is thinking about
        self.asked_position = self.position
        self.sought: list[int] = []  #: the positions the AI searches for one that can still finish
        self.memory = self.memories.setdefault(name, PegsMemory(self.board, self.goal))
        if self.job is not None:
            self.job.cancel()

    @property
    def explain(self) -> bool:
        """True when the three-colour rule proves this game lost (the panel beside the board says why)."""
        return not self.opening.winnable_by_class

    def winnable_opening(self) -> None:
        """Open the next game the three-colour rule does not rule out (nothing when this one is such a game)."""
        if not self.explain:
            return
        i = self.board_names.index(self.board_name)
        for k in range(1, len(self.board_names) + 1):
            name = self.board_names[(i + k) % len(self.board_names)]
            if self.openings[name]().winnable_by_class:
                self.load(name)
                return

    @property
    def pegs_left(self) -> int:
        """Pegs on the board now."""
        return self.board.count(self.position)

    def jump(self, jump: Jump, *, from_player: bool = True) -> bool:
        """Play ``jump`` when legal; returns whether it was played."""
        if not self.board.is_legal(self.position, jump):
            return False
        self.position = self.board.apply(self.position, jump)
        self.history.append(jump)
        if from_player:
            self.redo_stack.clear()
            self.playing = []
            self._cancel_thinking()
        self.hint_jump = None
        self.selected = None
        self.app.sound.play(Sfx.CLICK)
        self.message = position_message(self.board, self.position, self.goal)
        return True

    def undo(self) -> None:
        """Take back the last jump."""
        self.playing = []
        self._cancel_thinking()
        if not self.history:
            self.message = "Nothing to undo."
            return
        jump = self.history.pop()
        self.position = self.board.undo(self.position, jump)
        self.redo_stack.append(jump)
        self.hint_jump = None
        self.message = position_message(self.board, self.position, self.goal)

    def redo(self) -> None:
        """Play again the last jump taken back."""
        if self.redo_stack:
            jump = self.redo_stack.pop()
            stack = self.redo_stack
            self.jump(jump, from_player=False)
            self.redo_stack = stack

    # ---------------------------------------------------------------- the assistant
    def ask(self, what: PegsAsk) -> None:
        """Ask the AI for a hint or a solution of the current position (at once when an earlier answer
        settles it: :class:`~game.app.puzzles.pegs_memory.PegsMemory`)."""
        self.playing = []
        self._cancel_thinking()
        if self._answer_from_memory(what):
            return
        self._submit(what, solve_job(self.board, self.position, self.goal, what),
                     HINT_LIMIT if what == PegsAsk.HINT else SOLVE_LIMIT)
        self.message = "Thinking..." if what == PegsAsk.HINT else "Solving..."

    def _submit(self, what: PegsAsk, job: Job, time_limit: float) -> None:
        """Run ``job`` (the answer to ``what`` on the current position) in the runner's lane of this screen."""
        self.pending = what
        self.asked_position = self.position
        self.job = self.app.jobs.submit(
            job, label=f"pegs {what.value}", owner=self, lane="ai", time_limit=time_limit,
            on_done=self._on_event, on_error=self._on_event, on_cancelled=self._on_event, execution=self.execution)

    def _answer_from_memory(self, what: PegsAsk) -> bool:
        """Answer ``what`` from the AI's earlier answers in this game, when they settle it."""
        lost = self.memory.lost_since(self.position, self.history)
        line = self.memory.line_from(self.position)
        if lost is not None:
            self._say_lost(*lost, seek=what != PegsAsk.BACK)
        elif line and what == PegsAsk.HINT:
            self.hint_jump = line[0]
            (r1, c1), (r2, c2) = line[0].start, line[0].end
            self.message = f"Hint: jump ({r1},{c1}) to ({r2},{c2})"
        elif line:
            self._play(line)
        return lost is not None or bool(line)

    def _say_lost(self, why: str, ago: int, *, seek: bool) -> None:
        """Say that the game is lost (``why``, ``ago`` jumps back) and how many jumps to undo to reach a position
        known to finish; when none is known yet (and ``seek``), the AI looks for it in the background."""
        back = self.memory.finish_back(self.position, self.history)
        self.message = lost_message(self.board, self.position, self.goal, why, ago, back)
        positions = self.memory.open_positions(self.position, self.history) if back is None and seek else []
        if positions and not self.explain:
            self._submit(PegsAsk.BACK, back_job(self.board, positions, self.goal), HINT_LIMIT)
            self.sought = positions
            self.message += SEEKING

    def _play(self, line: list[Jump]) -> None:
        """Play the AI's solution ``line``, one jump every :data:`PLAY_STEP` seconds."""
        self.playing, self.play_timer, self.play_total = list(line), 0.0, len(line)
        self._say_playing()

    def _say_playing(self) -> None:
        """While the AI's solution is played, the message says how far it is and how to stop it."""
        if self.playing:
            self.message = (f"Solution: {hud.plural(self.play_total, 'jump')}, {self.play_total - len(self.playing)}"
                            f" played (Esc stops, {display_key('Z')} undoes them).")

    def _cancel_thinking(self) -> None:
        if self.pending is not None:
            if self.job is not None:
                self.job.cancel()
            self.pending = None

    def _on_event(self, event: JobEvent) -> None:
        """The end of an AI job (delivered by the app's runner): what it settles goes to :attr:`memory`, which
        then answers the question."""
        if self.pending is None or event.handle is not self.job:
            return
        what, self.pending = self.pending, None
        if what == PegsAsk.BACK:
            self._found_back(event)
            return
        if event.kind in (JobEventKind.ERROR, JobEventKind.CANCELLED):
            self.message = f"The assistant failed: {event.message}" if event.kind == JobEventKind.ERROR else "Stopped."
            return
        answer = event.payload  # a hint or a solve: its status, proof and moves (a solution from the position asked)
        lost = answer.status == PegsStatus.IMPOSSIBLE
        self.memory.learn(self.asked_position, answer.moves,
                          PROOF_WORDS.get(answer.proof, "every sequence of jumps was tried") if lost else None)
        if self.position == self.asked_position and not self._answer_from_memory(what):
            self.message = ("Already solved." if answer.status == PegsStatus.SOLVED else
                            answer.message.capitalize() + "." if what == PegsAsk.HINT else "No answer in time.")

    def _found_back(self, event: JobEvent) -> None:
        """The AI's search for a position of the game that can still finish ended: what it settles goes to
        :attr:`memory`, which then says how many jumps to undo (nothing more when none was found)."""
        self.message = self.message.removesuffix(SEEKING)
        if event.kind != JobEventKind.DONE or self.position != self.asked_position:
            return
        found: PegsFinishBack = event.payload
        for position, proof in found.lost:
            self.memory.learn_lost(position, PROOF_WORDS.get(proof, "every sequence of jumps was tried"))
        if found.index is not None:
            self.memory.learn_line(self.sought[found.index], found.moves)
        self._answer_from_memory(PegsAsk.BACK)

    # ---------------------------------------------------------------- input
    def layout(self) -> BoardLayout:
        """The board's place in the current window (beside the explanation, when one is shown)."""
        return board_layout(self.app.screen.get_size(), self.board, self.explain)

    def help_page(self) -> HelpPage:
        """F1: this screen's own keys."""
        return PEGS_HELP

    def handle_event(self, action: Action) -> None:
        """Mouse drags and clicks, arrows, Enter/Space, Z/Y, R, Tab, H, S, Esc."""
        k = action.kind
        if k == Act.BACK:
            if self.pending is not None:
                seeking = self.pending == PegsAsk.BACK
                self._cancel_thinking()
                self.message = self.message.removesuffix(SEEKING) if seeking else "Stopped."
            elif self.playing:  # the AI's solution being played: stop it where it is (Z takes its jumps back)
                self.playing = []
                self.message = (f"Stopped: {hud.plural(self.pegs_left, 'peg')} left. {display_key('Z')} undoes the "
                                "AI's jumps.")
            elif self.selected is not None:
                self.selected, self.dragging = None, False
            else:
                self.app.pop()
        elif k == Act.CLICK:
            self._press(self.layout().cell_at(action.pos), action.pos)
        elif k == Act.HOVER:
            if self.dragging:
                self.drag_pos = action.pos
            cell = self.layout().cell_at(action.pos)
            if cell is not None:
                self.cursor = cell
        elif k in (Act.UP, Act.DOWN, Act.LEFT, Act.RIGHT):
            self._move_cursor({Act.UP: (-1, 0), Act.DOWN: (1, 0), Act.LEFT: (0, -1), Act.RIGHT: (0, 1)}[k])
        elif k in (Act.CONFIRM, Act.TOGGLE_RUN, Act.PLACE):
            self._press(self.cursor, None)
            self.dragging = False
        elif k == Act.UNDO:
            self.undo()
        elif k == Act.REDO:
            self.redo()
        elif k == Act.RESTART:
            self.load(self.board_name)
        elif k in (Act.CYCLE_SOLVER, Act.NEXT_ITEM, Act.PREV_ITEM):
            step = -1 if k == Act.PREV_ITEM else 1
            i = self.board_names.index(self.board_name)
            self.load(self.board_names[(i + step) % len(self.board_names)])
        elif k == Act.RULER:
            self.winnable_opening()
        elif k == Act.HINT:
            self.ask(PegsAsk.HINT)
        elif k == Act.SOLVE:
            self.ask(PegsAsk.SOLVE)

    def _press(self, cell: Cell | None, pos: tuple[int, int] | None) -> None:
        """A click (or Enter) on ``cell``: pick up a peg, or drop the held peg there."""
        if cell is None:
            if self.selected is not None:
                self._refuse(Refusal.OFF_BOARD)
            return
        self.cursor = cell
        if self.selected is not None and not self.board.has_peg(self.position, cell):
            self._drop(cell)
        elif self.selected is None and not self.board.has_peg(self.position, cell):
            self._refuse(Refusal.NO_PEG)
        elif self.board.has_peg(self.position, cell):
            if self.selected == cell and pos is None:
                self.selected = None
                return
            self.selected = cell
            self.dragging = pos is not None
            self.drag_pos = pos

    def _drop(self, cell: Cell | None) -> None:
        """Drop the held peg on ``cell`` (a jump when legal; on its own cell it stays picked up)."""
        start = self.selected
        self.dragging = False
        if start is None or cell == start:
            return
        refusal = Refusal.OFF_BOARD if cell is None else self.board.refusal(self.position, start, cell)
        jump = None if cell is None else Jump.between(start, cell)
        if refusal is not None or jump is None:
            self._refuse(refusal or Refusal.NOT_IN_LINE)
        else:
            self.jump(jump)

    def _refuse(self, refusal: Refusal) -> None:
        """Say why the move cannot be played, and put the held peg back."""
        self.message = f"Cannot jump: {refusal.value}. A peg jumps over a neighbour onto the empty hole behind it."
        self.app.sound.play(Sfx.CLICK)
        self.selected, self.dragging = None, False

    def _move_cursor(self, step: Cell) -> None:
        r, c = self.cursor
        for k in range(1, max(self.board.height, self.board.width)):
            cell = (r + step[0] * k, c + step[1] * k)
            if self.board.on_board(cell):
                self.cursor = cell
                return

    # ---------------------------------------------------------------- frame
    def update(self, dt: float) -> None:
        """Finish a drag when the button is up, play a solution (the AI's answers come through the
        runner's callbacks)."""
        if self.dragging and not mouse_held(0):
            self._drop(self.layout().cell_at(self.drag_pos))
        if self.playing:
            self.play_timer += dt
            if self.play_timer >= PLAY_STEP:
                self.play_timer = 0.0
                jump = self.playing.pop(0)
                if not self.jump(jump, from_player=False):
                    self.playing = []
                self._say_playing()

    def draw(self, surface: pygame.Surface) -> None:
        """The board, the pegs, the held peg, the hint and the messages."""
        self.renderer.draw_background(surface)
        w, _h = surface.get_size()
        draw_title(surface, self.opening.title, self.pegs_left)
        job = self.job if self.pending is not None else None
        progress = str(getattr(job.last_progress, "message", "") or "") if job is not None else ""
        message = f"{self.message} {progress}" if progress else self.message
        y = message_top()
        for line in message_lines(message, w):
            y = hud.blit_text(surface, line, (w // 2, y), MESSAGE_SIZE, hud.WHITE, anchor="midtop").bottom + 2
        layout = self.layout()
        radius = max(3, layout.cell * 3 // 10)
        if layout.panel is not None:
            draw_tints(surface, layout, self.opening.conflict)
            draw_panel(surface, layout.panel, self.board, self.position, self.goal, self.opening.conflict)
        goal_cell = self.opening.goal_cell
        for cell in sorted(self.board.cells):
            rect = layout.rect(cell)
            pygame.draw.circle(surface, HOLE, rect.center, radius)
            pygame.draw.circle(surface, HOLE_EDGE, rect.center, radius, 2)
            if cell == goal_cell:
                pygame.draw.circle(surface, hud.GREEN, rect.center, radius + 7, 2)
            if cell == self.cursor:
                pygame.draw.rect(surface, hud.BLUE, rect.inflate(-4, -4), 2, border_radius=6)
            held = cell == self.selected and self.dragging and self.drag_pos is not None
            if self.board.has_peg(self.position, cell) and not held:
                draw_peg(surface, rect.center, radius + 4, cell == self.selected)
        if self.hint_jump is not None:
            a, b = layout.rect(self.hint_jump.start).center, layout.rect(self.hint_jump.end).center
            pygame.draw.line(surface, hud.GREEN, a, b, 5)
            pygame.draw.circle(surface, hud.GREEN, b, radius + 6, 3)
        if self.selected is not None and self.dragging and self.drag_pos is not None:
            draw_peg(surface, self.drag_pos, radius + 6, True)
        busy = f"  ({job.elapsed:.1f} s, Esc stops)" if job is not None else ""
        hud.hint_bar(surface, pegs_footer(busy=busy, winnable=self.explain))


__all__ = ["PROOF_WORDS", "BoardLayout", "PegsAsk", "PegsScene"]
