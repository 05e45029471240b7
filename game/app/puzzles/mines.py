"""Minesweeper with an assistant that knows the exact odds.

Left click (or Enter/Space on the cursor) reveals, right click (or F/B) flags; arrows move the cursor.
1/2/3 start a beginner, intermediate or expert board, 4 a custom one (+/- its size, [ ] its mines; on
a fixed board those keys say how to get there), R a new board; the board chosen last opens on the next visit
(kept in the settings).  The first click always opens an area (no mine in or next to the clicked cell: the
"opening" rule of ``mines bench --rules opening``).
A timer runs on the app's clock (stopped while F1's help or any overlay hides the board) from the first move
to the win or loss, whoever made the moves: the end of a game says who played it, the player, the assistant
or both (:mod:`game.app.puzzles.mines_text`, which holds the screen's other words too); each board size keeps
its wins, losses and best time in the player's data folder (:class:`game.core.puzzles.mines_records.MinesRecords`;
games the assistant helped in count as wins or losses, not for the best time; a game it played by itself does
not count).

H shows the assistant: proved-safe cells (green), proved mines (red; blue, and orange with a cross, under the
colour-blind palette) and every unknown cell's mine probability; S plays one assistant step (every proved-safe
cell, or the best guess, and a guess that hits a mine is explained in plain words); A lets the assistant play on
by itself.  The assistant is the bench's policy (:func:`ai.facade.mines_advise`: the analysis and the moves
chosen from it, in one answer, so the gold cell shown is the guess played, at the chance shown).  The analysis
runs in a child process (a job of the app's runner, :class:`game.app.jobs.JobRunner`), so the game never waits
for it, and each answer is checked against the board before it is shown
(:func:`ai.facade.mines_check_against_board`).  Layout, drawing and the assistant's words:
:mod:`game.app.puzzles.mines_view`.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from ai.facade import MinesAdvice, MinesAnalysis, MinesMoves, SolveContext
from ai.facade import MinesMoveKind as MoveKind
from ai.facade import MinesWrongAnswerError as WrongAnswerError
from ai.facade import mines_advise, mines_check_against_board, mines_first_click
from game.core.error_log import log_error
from game.core.puzzles.mines import Difficulty, FirstClick, MinesBoard, MinesStatus, MinesView, Pos
from game.core.puzzles.mines_records import MinesRecords, format_time
from game.app import hud
from game.app.app import App, HelpPage, Scene
from game.app.puzzles.mines_help import MINES_HELP
from game.app.puzzles.mines_text import (
    CUSTOM_KEYS, BoardChoice, Moves, board_setting, changed_custom, new_board, outcome_words, records_words,
    remembered_board, win_message,
)
from game.app.input import Act, Action
from game.app.jobs import Execution, Job, JobEvent, JobEventKind, JobHandle
from game.app.puzzles.mines_view import (
    BoardPainter, MinesLayout, band_legend, band_lines, board_title, compute_layout, cursor_odds, draw_band,
    draw_header, guess_text,
)

#: Seconds between two assistant steps when it plays by itself.
AUTO_STEP = 0.25


def analyse_job(view: MinesView) -> Job:
    """The job: the exact analysis of ``view`` and the assistant's moves (runs in the child process)."""

    def job(ctx: SolveContext) -> MinesAdvice:
        return mines_advise(view, ctx)

    return job


class MinesScene(Scene):
    """One Minesweeper board at a time, with the assistant, a timer and records (see the module docstring)."""

    def __init__(self, app: App, difficulty: Difficulty | None | BoardChoice = BoardChoice.LAST, *,
                 custom: tuple[int, int, int] | None = None, seed: int | None = None,
                 execution: Execution | None = None, records_path: Path | None = None) -> None:
        """``difficulty`` and ``custom`` (width, height, mines): by default the board chosen last (in the settings)."""
        super().__init__(app)
        last, last_custom = remembered_board(app.settings)
        self.difficulty = last if isinstance(difficulty, BoardChoice) else difficulty  #: None: the custom board
        self.custom = custom if custom is not None else last_custom
        self.seed = seed
        #: Where the analysis runs (None: the runner's default, a child process where ``fork`` exists).
        self.execution = execution
        #: Wins, losses and best times per board size (the data folder's unless ``records_path``).
        self.records = MinesRecords.load(records_path)
        for problem in self.records.messages:
            app.toast(problem, 6.0)
        self.records.messages.clear()
        self.show_assistant = False
        self.auto_play = False
        self.step_pending = False  #: play one assistant step once the analysis is there
        self.analysis: MinesAnalysis | None = None
        self.moves: MinesMoves | None = None  #: the assistant's moves from :attr:`analysis`
        self.analysed_view: MinesView | None = None
        self._job: JobHandle | None = None
        self._job_view: MinesView | None = None
        self._auto_wait = 0.0
        self.message = ""
        self.cursor = (0, 0)
        self.board_time = 0.0  #: the timer's clock: seconds this screen was on top (stopped under F1's help)
        self.started_at: float | None = None  #: :attr:`board_time` of the first move
        self.finished_at: float | None = None  #: :attr:`board_time` of the win or loss
        self.assisted = False  #: the assistant opened a cell or showed its odds during this game
        self.played = Moves()  #: this game's moves, the player's and the assistant's
        self.painter = BoardPainter()
        self.board = self._new_board()

    # ---- the board ----------------------------------------------------------------------------------
    def _new_board(self) -> MinesBoard:
        width, height, mines = self.difficulty.size if self.difficulty is not None else self.custom
        return MinesBoard(width, height, mines, seed=self.seed, first_click=FirstClick.AREA)

    def set_board(self, board: MinesBoard) -> None:
        """Play ``board`` from now on (a new game: timer, assistant and message reset)."""
        self.board = board
        self.cursor = (0, 0)
        self.auto_play = self.step_pending = False
        self.analysis = self.analysed_view = self.moves = None
        if self._job is not None:
            self._job.cancel()
        self._job = self._job_view = None
        self.message = ""
        self.started_at = self.finished_at = None
        self.assisted = False
        self.played = Moves()

    def new_game(self, difficulty: Difficulty | None = None, *, keep: bool = False) -> None:
        """Start a new board (``keep``: the same difficulty; ``None`` with keep=False: the custom one, remembered
        as the board chosen last)."""
        if not keep:
            self.difficulty = difficulty
            self.app.change_settings(**board_setting(difficulty, self.custom))
        if self.seed is not None:
            self.seed += 1
        self.set_board(self._new_board())

    def elapsed(self) -> float:
        """Seconds on the timer: from the first click to now, or to the win or loss."""
        if self.started_at is None:
            return 0.0
        end = self.finished_at if self.finished_at is not None else self.board_time
        return max(0.0, end - self.started_at)

    def reveal(self, r: int, c: int, *, by_assistant: bool = False) -> None:
        """Reveal a cell (the first click opens an area) and count the move for whoever made it; the first
        click starts the timer, a win or a loss stops it and is recorded."""
        if not self._playing() and self.board.status != MinesStatus.READY:
            return
        opened = len(self.board.revealed)
        self.board.reveal(r, c)
        if len(self.board.revealed) > opened or self.board.status == MinesStatus.LOST:
            self.played.count(by_assistant)
        if self.started_at is None and (self.board.revealed or self.board.status != MinesStatus.READY):
            self.started_at = self.board_time
        if self.board.status in (MinesStatus.WON, MinesStatus.LOST):
            self._finish(self.board.status == MinesStatus.WON)

    def _finish(self, won: bool) -> None:
        """Stop the timer, save the game in the records and say how it went."""
        self.finished_at = self.board_time
        self.auto_play = False
        seconds = self.elapsed()
        w, h, m = self.board.width, self.board.height, self.board.mines
        before = self.records.get(w, h, m).best_seconds
        after = (self.records.get(w, h, m) if self.played.assistant_alone  # not the player's game: not counted
                 else self.records.record(w, h, m, won=won, seconds=None if self.assisted else seconds))
        for problem in self.records.messages:
            self.app.toast(problem, 5.0)
        self.records.messages.clear()
        took = format_time(seconds)
        if won:
            new_best = after.best_seconds is not None and (before is None or after.best_seconds < before)
            self.message = win_message(took, self.played, self.assisted, new_best)
        else:
            self.message = f"You opened a mine after {took}. {new_board()}"

    def _adjust_custom(self, k: Act) -> None:
        """+/- the custom board's size, [ ] its mines (a new custom board); on a fixed board, say what they do."""
        if self.difficulty is not None:
            self.app.toast(CUSTOM_KEYS, 4.0)
            return
        dsize, dmines = {Act.SPEED_UP: (1, 0), Act.SPEED_DOWN: (-1, 0), Act.NEXT_ITEM: (0, 1)}.get(k, (0, -1))
        self.custom = changed_custom(self.custom, dsize, dmines)
        self.new_game(None)

    # ---- the assistant ------------------------------------------------------------------------------
    def _playing(self) -> bool:
        return self.board.status == MinesStatus.PLAYING

    def _want_analysis(self) -> bool:
        return self._playing() and (self.show_assistant or self.auto_play or self.step_pending)

    def _request_analysis(self) -> None:
        view = self.board.view()
        if self.analysed_view == view or self._job_view == view:
            return
        self._job_view = view
        self._job = self.app.jobs.submit(analyse_job(view), label="mines-analysis", owner=self, lane="analysis",
                                         on_done=self._on_event, on_error=self._on_event,
                                         on_cancelled=self._on_event, execution=self.execution)

    def _on_event(self, event: JobEvent) -> None:
        """The analysis ended (delivered by the app's runner)."""
        if event.handle is not self._job:
            return
        view = self._job_view
        self._job = self._job_view = None
        if event.kind == JobEventKind.DONE and isinstance(event.payload, MinesAdvice) and view is not None:
            self._take(event.payload, view)
        elif event.kind == JobEventKind.ERROR:
            log_error("minesweeper assistant", event.message, event.detail)
            self.message = "The assistant failed (details in errors.log)."
            self.auto_play = self.step_pending = False

    def _take(self, advice: MinesAdvice, view: MinesView) -> None:
        if view != self.board.view():
            return  # the board moved on meanwhile
        analysis = advice.analysis
        try:
            mines_check_against_board(self.board, analysis)
        except WrongAnswerError as exc:
            log_error("minesweeper assistant", str(exc), "")
            self.message = "The assistant gave a wrong answer (details in errors.log)."
            self.auto_play = self.step_pending = False
            return
        self.analysis, self.analysed_view, self.moves = analysis, view, advice.moves

    def toggle_assistant(self) -> None:
        """H: show or hide the assistant's odds (on a board not opened yet, say when they show)."""
        self.show_assistant = not self.show_assistant
        if self.show_assistant and self.board.status == MinesStatus.READY:
            self.app.toast("The assistant shows the mine odds from your first click on.", 2.5)

    def assistant_step(self) -> None:
        """Play one assistant step now if the analysis is current, else once it arrives."""
        if not self._playing():
            if self.board.status == MinesStatus.READY:
                self.assisted = True
                self.reveal(*mines_first_click(self.board.width, self.board.height, FirstClick.AREA),
                            by_assistant=True)
            return
        view = self.board.view()
        if self.moves is None or self.analysed_view != view:
            self.step_pending = True
            return
        self.step_pending = False
        moves = self.moves
        if moves.kind == MoveKind.NONE:
            return
        self.assisted = True
        who = "Auto-play" if self.auto_play else "The assistant"
        for r, c in moves.cells:
            if (r, c) in self.board.flags:
                self.board.toggle_flag(r, c)
            self.reveal(r, c, by_assistant=True)
        if moves.kind == MoveKind.GUESS:
            hit = self.board.status == MinesStatus.LOST
            self.message = guess_text(who, moves.cells[0], moves.risk, hit, moves.win)
            if hit:
                self.message += f" The game lasted {format_time(self.elapsed())}. {new_board()}"
            elif self.board.status == MinesStatus.WON:  # the guess cleared the board: say so, as a win does
                self.message += f" It cleared the board in {format_time(self.elapsed())}. {new_board()}"

    def best_guess(self) -> Pos | None:
        """The cell the assistant would guess now (drawn in gold), or None (cells are proved safe, or the
        analysis is not current)."""
        if self.moves is None or self.analysed_view != self.board.view() or self.moves.kind != MoveKind.GUESS:
            return None
        return self.moves.cells[0]

    def wait(self, timeout: float = 30.0) -> None:
        """Ask for the analysis the scene needs, block until it is done (tests, screenshots), then take it."""
        self.update(0.0)
        if self._job is not None:
            self._job.wait(timeout)
        self.app.jobs.pump()
        self.update(0.0)

    # ---- input --------------------------------------------------------------------------------------
    def help_page(self) -> HelpPage:
        """F1: this screen's own keys."""
        return MINES_HELP

    def handle_event(self, action: Action) -> None:
        """See the module docstring for the keys and buttons."""
        k = action.kind
        w, h = self.board.width, self.board.height
        r, c = self.cursor
        if k == Act.BACK:  # auto-play or a step first (as the AI's work in every scene), then back
            if self.auto_play or self.step_pending:
                self.auto_play = self.step_pending = False
                self.message = "Stopped."
            else:
                self.app.pop()  # the app cancels this scene's job
        elif k in (Act.UP, Act.DOWN, Act.LEFT, Act.RIGHT):
            dr, dc = {Act.UP: (-1, 0), Act.DOWN: (1, 0), Act.LEFT: (0, -1), Act.RIGHT: (0, 1)}[k]
            self.cursor = ((r + dr) % h, (c + dc) % w)
        elif k in (Act.CONFIRM, Act.TOGGLE_RUN):
            self.reveal(r, c)
        elif k in (Act.FORCED, Act.PLACE):
            self.board.toggle_flag(r, c)
        elif k in (Act.CLICK, Act.RIGHT_CLICK, Act.HOVER) and action.pos is not None:
            cell = self.cell_at(action.pos)
            if cell is not None:
                self.cursor = cell
                if k == Act.CLICK:
                    self.reveal(*cell)
                elif k == Act.RIGHT_CLICK:
                    self.board.toggle_flag(*cell)
        elif k in (Act.HINT, Act.SOLVE, Act.ALL_SOLUTIONS) and self.board.status in (MinesStatus.WON, MinesStatus.LOST):
            self.app.toast(f"This game is over: {new_board()}", 2.5)
        elif k == Act.HINT:
            self.toggle_assistant()
        elif k == Act.SOLVE:
            self.assistant_step()
        elif k == Act.ALL_SOLUTIONS:
            self.auto_play = not self.auto_play
            if self.auto_play and self.board.status == MinesStatus.READY:
                self.assistant_step()
        elif k == Act.RESTART:
            self.new_game(keep=True)
        elif k == Act.TOOL and action.value in (1, 2, 3, 4):
            self.new_game(list(Difficulty)[action.value - 1] if action.value != 4 else None)
        elif k in (Act.SPEED_UP, Act.SPEED_DOWN, Act.NEXT_ITEM, Act.PREV_ITEM):
            self._adjust_custom(k)

    def update(self, dt: float) -> None:
        """Ask for a new analysis when needed, let the assistant play on (the analysis comes through
        the runner's callbacks); the timer's clock runs only here, while no help or overlay hides the board."""
        self.board_time += dt
        if self.show_assistant and self._playing():
            self.assisted = True
        if self._want_analysis():
            self._request_analysis()
        if self.step_pending and self.analysed_view == self.board.view():
            self.assistant_step()
        if self.auto_play and self._playing():
            self._auto_wait -= dt
            if self._auto_wait <= 0 and self.analysed_view == self.board.view():
                self._auto_wait = AUTO_STEP
                self.assistant_step()

    # ---- drawing ------------------------------------------------------------------------------------
    def layout(self, size: tuple[int, int]) -> MinesLayout:
        """Where the board and its text go in a window of ``size``."""
        return compute_layout(size, self.board.width, self.board.height)

    def cell_at(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        """The cell under a window position, if any."""
        lay = self.layout(self.app.screen.get_size())
        c, r = (pos[0] - lay.left) // lay.cell, (pos[1] - lay.top) // lay.cell
        if 0 <= r < self.board.height and 0 <= c < self.board.width:
            return r, c
        return None

    def title(self) -> str:
        """The top bar's title: the board, then the mines not flagged yet, or how and when the game ended."""
        name = self.difficulty.value.capitalize() if self.difficulty is not None else "Custom"
        return board_title(name, self.board, outcome_words(self.board.status == MinesStatus.WON, format_time(
            self.elapsed()), self.played, assisted=self.assisted))

    def records_line(self) -> str:
        """The board size's records, for the top bar."""
        return records_words(self.records.get(self.board.width, self.board.height, self.board.mines))

    def legend(self) -> str:
        """What the band under the board explains (:func:`~game.app.puzzles.mines_view.band_legend`)."""
        win = self.moves.win if self.moves is not None and self.moves.kind == MoveKind.GUESS else None
        return band_legend(self.board.status, self.show_assistant, self.shown_analysis() is not None,
                           self.layout(self.app.screen.get_size()).cell, win, self.app.settings.palette)

    def status(self) -> str:
        """The message of the band under the board."""
        return self.message or ("The assistant is thinking..." if self._job is not None and self._want_analysis()
                                else "")

    def shown_analysis(self) -> MinesAnalysis | None:
        """The analysis the overlay shows now (None: no overlay, or none of this board yet)."""
        current = self.show_assistant and self._playing() and self.analysed_view == self.board.view()
        return self.analysis if current else None

    def band(self, width: int) -> list[tuple[str, tuple[int, int, int]]]:
        """The lines of the band under the board in a window ``width`` wide (the window's cells)."""
        shown = self.shown_analysis()
        cell = self.layout(self.app.screen.get_size()).cell
        cursor = cursor_odds(cell, shown.probability if shown is not None else None, self.cursor)
        return band_lines(self.status(), self.legend(), width, cursor)

    def draw(self, surface: pygame.Surface) -> None:
        """The top bar, the board with the assistant's odds, the message and legend, the key hints."""
        surface.fill((24, 20, 40))
        w, h = surface.get_size()
        draw_header(surface, self.title(), f"Time {format_time(self.elapsed())}", self.records_line())
        lay = self.layout((w, h))
        shown = self.shown_analysis()
        odds, best = (shown.probability, self.best_guess()) if shown is not None else (None, None)
        self.painter.draw(surface, lay, self.board, odds, best, self.app.settings.palette)
        cr, cc = self.cursor
        pygame.draw.rect(surface, hud.WHITE, lay.cell_rect(cr, cc), 2)
        draw_band(surface, lay, self.band(w))
        custom = [("+/-", "size"), ("[ ]", "mines")] if self.difficulty is None else []  # the custom board's keys
        hud.hint_bar(surface, [("Click/Enter", "reveal"), ("Right/F", "flag"), *custom, ("H", "assistant"),
                               ("S", "step"), ("A", "auto"), ("1-4", "board"), ("R", "new"), ("Esc", "back")])
