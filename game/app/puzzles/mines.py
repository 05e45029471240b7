"""Minesweeper with an assistant that knows the exact odds.

Left click (or Enter/Space on the cursor) reveals, right click (or F/B) flags; arrows move the cursor.
1/2/3 start a beginner, intermediate or expert board, 4 a custom one (+/- its size, [ ] its mines),
R a new board.  H shows the assistant: proved-safe cells (green), proved mines (red) and every
unknown cell's mine probability; S plays one assistant step (every proved-safe cell, or the least
risky guess); A lets the assistant play on by itself.  The analysis runs in a child
process (a job of the app's runner, :class:`game.app.jobs.JobRunner`), so the game never waits for it, and each
answer is checked against the board before it is shown (:func:`ai.facade.mines_check_against_board`).
"""

from __future__ import annotations

import pygame

from ai.facade import MinesAnalysis, SolveContext
from ai.facade import MinesMoveKind as MoveKind
from ai.facade import MinesWrongAnswerError as WrongAnswerError
from ai.facade import mines_analyze, mines_check_against_board, mines_next_moves
from game.core.error_log import log_error
from game.core.puzzles.mines import MAX_SIDE, Difficulty, MinesBoard, MinesStatus, MinesView
from game.app import hud
from game.app.app import App, Scene
from game.app.input import Act, Action
from game.app.jobs import Execution, Job, JobEvent, JobEventKind, JobHandle

#: Colours of the numbers 1-8.
NUMBER_COLOURS = {1: (120, 180, 255), 2: (120, 230, 120), 3: (255, 110, 110), 4: (190, 140, 255),
                  5: (255, 170, 80), 6: (90, 220, 220), 7: (240, 240, 240), 8: (170, 170, 170)}
#: Seconds between two assistant steps when it plays by itself.
AUTO_STEP = 0.25
#: The custom board a new scene starts with (width, height, mines).
DEFAULT_CUSTOM = (12, 10, 20)


def analyse_job(view: MinesView) -> Job:
    """The job: the exact analysis of ``view`` (runs in the child process)."""

    def job(ctx: SolveContext) -> MinesAnalysis:
        return mines_analyze(view, ctx)

    return job


class MinesScene(Scene):
    """One Minesweeper board at a time, with the assistant (see the module docstring)."""

    def __init__(self, app: App, difficulty: Difficulty | None = Difficulty.BEGINNER, *,
                 custom: tuple[int, int, int] = DEFAULT_CUSTOM, seed: int | None = None,
                 execution: Execution | None = None) -> None:
        super().__init__(app)
        self.difficulty = difficulty  #: None: the custom board
        self.custom = custom
        self.seed = seed
        #: Where the analysis runs (None: the runner's default, a child process where ``fork`` exists).
        self.execution = execution
        self.show_assistant = False
        self.auto_play = False
        self.step_pending = False  #: play one assistant step once the analysis is there
        self.analysis: MinesAnalysis | None = None
        self.analysed_view: MinesView | None = None
        self._job: JobHandle | None = None
        self._job_view: MinesView | None = None
        self._auto_wait = 0.0
        self.message = ""
        self.cursor = (0, 0)
        self.board = self._new_board()

    # ---- the board ----------------------------------------------------------------------------------
    def _size(self) -> tuple[int, int, int]:
        return self.difficulty.size if self.difficulty is not None else self.custom

    def _new_board(self) -> MinesBoard:
        width, height, mines = self._size()
        return MinesBoard(width, height, mines, seed=self.seed)

    def new_game(self, difficulty: Difficulty | None = None, *, keep: bool = False) -> None:
        """Start a new board (``keep``: the same difficulty; ``None`` with keep=False: the custom one)."""
        if not keep:
            self.difficulty = difficulty
        if self.seed is not None:
            self.seed += 1
        self.board = self._new_board()
        self.cursor = (0, 0)
        self.auto_play = self.step_pending = False
        self.analysis = self.analysed_view = None
        if self._job is not None:
            self._job.cancel()
        self._job = self._job_view = None
        self.message = ""

    def reveal(self, r: int, c: int) -> None:
        """Reveal a cell (the first click is never a mine)."""
        self.board.reveal(r, c)
        if self.board.status == MinesStatus.LOST:
            self.message = "Boom! R for a new board."
            self.auto_play = False
        elif self.board.status == MinesStatus.WON:
            self.message = "Cleared! R for a new board."
            self.auto_play = False

    def flag(self, r: int, c: int) -> None:
        """Flag or unflag a cell."""
        self.board.toggle_flag(r, c)

    def _adjust_custom(self, dsize: int, dmines: int) -> None:
        w, h, m = self.custom
        w = max(2, min(MAX_SIDE // 2, w + dsize))
        h = max(2, min(MAX_SIDE // 2, h + dsize))
        m = max(1, min(w * h - 1, m + dmines))
        self.custom = (w, h, m)
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
        if event.kind == JobEventKind.DONE and isinstance(event.payload, MinesAnalysis) and view is not None:
            self._take(event.payload, view)
        elif event.kind == JobEventKind.ERROR:
            log_error("minesweeper assistant", event.message, event.detail)
            self.message = "the assistant failed (details in errors.log)"
            self.auto_play = self.step_pending = False

    def _take(self, analysis: MinesAnalysis, view: MinesView) -> None:
        if view != self.board.view():
            return  # the board moved on meanwhile
        try:
            mines_check_against_board(self.board, analysis)
        except WrongAnswerError as exc:
            log_error("minesweeper assistant", str(exc), "")
            self.message = "the assistant gave a wrong answer (details in errors.log)"
            self.auto_play = self.step_pending = False
            return
        self.analysis, self.analysed_view = analysis, view

    def assistant_step(self) -> None:
        """Play one assistant step now if the analysis is current, else once it arrives."""
        if not self._playing():
            if self.board.status == MinesStatus.READY:
                self.reveal(0, 0)  # the first click: a corner (never a mine)
            return
        view = self.board.view()
        if self.analysis is None or self.analysed_view != view:
            self.step_pending = True
            return
        self.step_pending = False
        moves = mines_next_moves(view, self.analysis)
        if moves.kind == MoveKind.NONE:
            return
        for r, c in moves.cells:
            if (r, c) in self.board.flags:
                self.board.toggle_flag(r, c)
            self.reveal(r, c)
        if moves.kind == MoveKind.GUESS:
            self.message = f"guessed ({moves.cells[0][0]}, {moves.cells[0][1]}): {float(moves.risk):.1%} risk"

    def wait(self, timeout: float = 30.0) -> None:
        """Ask for the analysis the scene needs, block until it is done (tests, screenshots), then take it."""
        self.update(0.0)
        if self._job is not None:
            self._job.wait(timeout)
        self.app.jobs.pump()
        self.update(0.0)

    # ---- input --------------------------------------------------------------------------------------
    def handle_event(self, action: Action) -> None:
        """See the module docstring for the keys and buttons."""
        k = action.kind
        w, h = self.board.width, self.board.height
        r, c = self.cursor
        if k == Act.BACK:
            self.app.pop()  # the app cancels this scene's job
        elif k in (Act.UP, Act.DOWN, Act.LEFT, Act.RIGHT):
            dr, dc = {Act.UP: (-1, 0), Act.DOWN: (1, 0), Act.LEFT: (0, -1), Act.RIGHT: (0, 1)}[k]
            self.cursor = ((r + dr) % h, (c + dc) % w)
        elif k in (Act.CONFIRM, Act.TOGGLE_RUN):
            self.reveal(r, c)
        elif k in (Act.FORCED, Act.PLACE):
            self.flag(r, c)
        elif k in (Act.CLICK, Act.RIGHT_CLICK, Act.HOVER) and action.pos is not None:
            cell = self.cell_at(action.pos)
            if cell is not None:
                self.cursor = cell
                if k == Act.CLICK:
                    self.reveal(*cell)
                elif k == Act.RIGHT_CLICK:
                    self.flag(*cell)
        elif k == Act.HINT:
            self.show_assistant = not self.show_assistant
        elif k == Act.SOLVE:
            self.assistant_step()
        elif k == Act.ALL_SOLUTIONS:
            self.auto_play = not self.auto_play
            if self.auto_play and self.board.status == MinesStatus.READY:
                self.reveal(0, 0)
        elif k == Act.RESTART:
            self.new_game(keep=True)
        elif k == Act.TOOL and action.value in (1, 2, 3, 4):
            self.new_game(list(Difficulty)[action.value - 1] if action.value != 4 else None)
        elif k in (Act.SPEED_UP, Act.SPEED_DOWN) and self.difficulty is None:
            self._adjust_custom(1 if k == Act.SPEED_UP else -1, 0)
        elif k in (Act.NEXT_ITEM, Act.PREV_ITEM) and self.difficulty is None:
            self._adjust_custom(0, 1 if k == Act.NEXT_ITEM else -1)

    def update(self, dt: float) -> None:
        """Ask for a new analysis when needed, let the assistant play on (the analysis comes through
        the runner's callbacks)."""
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
    def layout(self, size: tuple[int, int]) -> tuple[int, int, int]:
        """``(left, top, cell)`` of the board in a window of ``size``."""
        w, h = size
        avail_w, avail_h = w - 40, h - hud.TOP_BAR - hud.BOTTOM_BAR - 60
        cell = max(8, min(48, avail_w // self.board.width, avail_h // self.board.height))
        left = (w - cell * self.board.width) // 2
        top = hud.TOP_BAR + 40 + (avail_h - cell * self.board.height) // 2
        return left, top, cell

    def cell_at(self, pos: tuple[int, int]) -> tuple[int, int] | None:
        """The cell under a window position, if any."""
        left, top, cell = self.layout(self.app.screen.get_size())
        c, r = (pos[0] - left) // cell, (pos[1] - top) // cell
        if 0 <= r < self.board.height and 0 <= c < self.board.width:
            return r, c
        return None

    def _title(self) -> str:
        w, h, m = self._size()
        name = self.difficulty.value.capitalize() if self.difficulty is not None else "Custom"
        left = m - len(self.board.flags)
        return f"Minesweeper: {name} {w}x{h}, {m} mines ({left} unflagged)"

    def draw(self, surface: pygame.Surface) -> None:
        """The board, the assistant's overlay, the status line and the key hints."""
        surface.fill((24, 20, 40))
        w, h = surface.get_size()
        hud.top_bar(surface)
        hud.blit_text(surface, hud.fit_text(self._title(), 28, w - 40), (20, hud.TOP_BAR // 2), 28, hud.GOLD,
                      anchor="midleft")
        left, top, cell = self.layout((w, h))
        board = self.board
        view = board.view()
        overlay = self.analysis if self.show_assistant and self.analysed_view == view else None
        best = None
        if overlay is not None:
            moves = mines_next_moves(view, overlay)
            best = moves.cells[0] if moves.kind == MoveKind.GUESS else None
        over = board.status in (MinesStatus.WON, MinesStatus.LOST)
        for r in range(board.height):
            for c in range(board.width):
                rect = pygame.Rect(left + c * cell, top + r * cell, cell, cell)
                v = view.at(r, c)
                if v >= 0:
                    pygame.draw.rect(surface, (44, 38, 70), rect)
                    if v:
                        hud.blit_text(surface, str(v), rect.center, max(10, cell - 10), NUMBER_COLOURS[v],
                                      anchor="center", )
                else:
                    pygame.draw.rect(surface, (96, 88, 130), rect)
                    if over and (r, c) in board.mine_set:
                        colour = hud.RED if (r, c) == board.exploded else (20, 20, 20)
                        pygame.draw.circle(surface, colour, rect.center, max(3, cell // 3))
                    elif (r, c) in board.flags:
                        pygame.draw.polygon(surface, hud.RED, [(rect.x + cell // 3, rect.y + cell // 5),
                                                               (rect.right - cell // 4, rect.y + cell * 2 // 5),
                                                               (rect.x + cell // 3, rect.y + cell * 3 // 5)])
                    if overlay is not None and (r, c) in overlay.probability:
                        self._draw_odds(surface, rect, overlay, (r, c), best == (r, c))
                pygame.draw.rect(surface, (30, 26, 50), rect, 1)
        if overlay is not None:
            legend = "assistant: numbers are each hidden cell's mine chance in %; green proved safe, red proved mine, gold the best guess"
            hud.blit_text(surface, hud.fit_text(legend, 20, w - 40), (w // 2, top + cell * board.height + 8), 20,
                          hud.MUTED, anchor="midtop")
        cr, cc = self.cursor
        pygame.draw.rect(surface, hud.WHITE, (left + cc * cell, top + cr * cell, cell, cell), 2)
        status = self.message or ("thinking..." if self._job is not None and self._want_analysis() else "")
        if status:
            hud.blit_text(surface, hud.fit_text(status, 24, w - 40), (w // 2, hud.TOP_BAR + 8), 24, hud.WHITE,
                          anchor="midtop")
        hud.hint_bar(surface, [("Click/Enter", "reveal"), ("Right/F", "flag"), ("H", "assistant"),
                               ("S", "step"), ("A", "auto"), ("1-4", "board"), ("R", "new"), ("Esc", "back")])

    @staticmethod
    def _draw_odds(surface: pygame.Surface, rect: pygame.Rect, analysis: MinesAnalysis, p: tuple[int, int],
                   best: bool) -> None:
        prob = analysis.probability[p]
        cell = rect.width
        if prob == 0:
            pygame.draw.rect(surface, hud.GREEN, rect.inflate(-4, -4), 3)
        elif prob == 1:
            pygame.draw.rect(surface, hud.RED, rect.inflate(-4, -4), 3)
        elif cell >= 22:
            pct = float(prob) * 100
            label = f"{pct:.0f}" if pct >= 1 else "<1"
            hud.blit_text(surface, label, rect.center, max(10, cell // 2 - 2), hud.GOLD if best else hud.WHITE,
                          anchor="center")
        if best:
            pygame.draw.rect(surface, hud.GOLD, rect.inflate(-2, -2), 2)
