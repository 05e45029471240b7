"""The level editor scene: paint a map, set N and B, play-test, analyse, tighten, save.

The model (grid, tools, resize, N/B, undo/redo, save) is the pygame-free
:class:`~game.ui.editor_model.EditorModel`; this scene turns actions into model edits and
draws the draft, a palette on the left and the analysis on the right.

Keys: 1-4 pick the tool (wall, erase, lemming, target); click paints (drag paints a stroke,
one undo step); right click erases; Z/Y undo/redo; arrows resize (Up/Down rows, Left/Right
columns); +/- frames N; [ / ] budget B; G grid; Space or P play-test; A analyse (again:
cancel); T tighten; V show an optimal solution; Ctrl+S save; Ctrl+O open; N new; Esc exit.

Analysis (:func:`ai.assistant.analysis.analyse_level`) runs as an :class:`~ai.assistant.worker.Worker` task in a
forked child process (:func:`game.ui.solver_process.process_task`; in the worker's thread where
``fork`` is missing); the editor polls the worker once per frame and never waits for it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import pygame

from game.level import LEMMING_LEFT, LEMMING_RIGHT, TARGET, WALL, Brick, Level
from game.storage import user_levels_dir
from game.ui import hud
from game.ui.app import App, Scene
from game.ui.editor_model import Draft, EditorModel, Tool, parse_size
from game.ui.input import Act, Action
from game.ui.render import BoardLayout, LevelRenderer, fit_layout, paint_terrain

if TYPE_CHECKING:
    from ai.assistant.analysis import Analysis
    from ai.assistant.worker import Worker

#: Size of a new level when none is chosen.
DEFAULT_NEW_SIZE = (10, 14)
#: Seconds an analysis may take (it runs in the background and A cancels it).
ANALYSIS_TIME_LIMIT = 60.0
#: Palette and analysis panel widths (pixels) on a wide window.
LEFT_W, RIGHT_W = 232, 290

TOOL_COLORS: dict[Tool, tuple[int, int, int]] = {
    Tool.WALL: (190, 170, 230),
    Tool.ERASE: (255, 110, 110),
    Tool.LEMMING: (120, 230, 120),
    Tool.TARGET: (255, 214, 90),
}


def install_menu_entries() -> None:
    """Add "Editor" and "Endless" to the title menu (once)."""
    from game.ui.scenes.menu import MENU_ENTRIES

    labels = {label for label, _ in MENU_ENTRIES}
    if "Editor" not in labels:
        MENU_ENTRIES.append(("Editor", lambda app: EditorScene(app)))
    if "Endless" not in labels:
        from game.ui.scenes.endless import EndlessScene

        MENU_ENTRIES.append(("Endless", lambda app: EndlessScene(app)))


@dataclass
class Button:
    """A clickable palette button."""

    rect: pygame.Rect
    label: str
    run: Callable[[], None]
    key: str = ""
    active: bool = False
    enabled: bool = True
    color: tuple[int, int, int] | None = None
    icon: str = ""


class EditorScene(Scene):
    """Edit one level.  ``model`` defaults to a new bordered map of :data:`DEFAULT_NEW_SIZE`."""

    def __init__(self, app: App, model: EditorModel | None = None, *,
                 levels_dir: Path | None = None, analysis_solver: str = "auto",
                 analysis_in_process: bool = True) -> None:
        super().__init__(app)
        self.model = model if model is not None else EditorModel.new(*DEFAULT_NEW_SIZE)
        self.levels_dir = levels_dir
        self.analysis_solver = analysis_solver
        self.analysis_in_process = analysis_in_process
        self.tool = Tool.WALL
        self.grid_on = True
        self.show_solution = False
        self.anim = 0.0
        self.hover: Brick | None = None
        self.message = ""
        self.message_color = hud.WHITE
        self.message_time = 0.0
        self.renderer = LevelRenderer()
        self.sprites = self.renderer.sprites
        self._terrain: tuple[tuple[object, ...], pygame.Surface] | None = None
        self._grid_overlay: tuple[tuple[int, int, int], pygame.Surface] | None = None
        self._stroke: tuple[Tool, int] | None = None  #: (tool, mouse button index) of a drag
        self._worker: Worker | None = None
        self.analysis: Analysis | None = None
        self.analysis_error = ""
        self.analysing = False
        self._analysed: tuple[tuple[str, ...], int] | None = None  #: (grid, N) the analysis is about
        self._tighten_when_done = False
        self.play_scene: Scene | None = None
        self.app.action_filters.append(self._quit_filter)

    # ================================================================ queries
    @property
    def draft(self) -> Draft:
        """The current draft."""
        return self.model.draft

    def folder(self) -> Path:
        """Where saves go: the user's levels folder."""
        return self.levels_dir if self.levels_dir is not None else user_levels_dir()

    def _panel_widths(self, width: int) -> tuple[int, int]:
        if width >= 1100:
            return LEFT_W, RIGHT_W
        if width >= 800:
            return 200, 230
        return 168, 0

    def board_area(self, size: tuple[int, int]) -> pygame.Rect:
        """The rectangle the board is fitted into."""
        w, h = size
        left, right = self._panel_widths(w)
        top = hud.TOP_BAR + 22
        x0 = left + 28
        return pygame.Rect(x0, top, max(1, w - x0 - right - 28), max(1, h - top - hud.BOTTOM_BAR - 18))

    def layout(self, size: tuple[int, int] | None = None) -> BoardLayout:
        """Where the draft's board is drawn on the app's screen (or a screen of ``size``)."""
        d = self.draft
        return fit_layout(d.height, d.width, self.board_area(size or self.app.screen.get_size()), max_cell=64)

    def analysis_current(self) -> bool:
        """True when the shown analysis is about the current map and N."""
        return self.analysis is not None and self._analysed == (self.draft.grid, self.draft.frames)

    def status_now(self) -> str | None:
        """The analysis verdict for the current budget ("ok", "over_budget", ...), or None."""
        a = self.analysis
        if a is None or not self.analysis_current():
            return None
        if a.min_bricks is not None:
            return "ok" if a.min_bricks <= self.draft.budget else "over_budget"
        return a.status

    # ================================================================ actions
    def say(self, text: str, seconds: float = 3.0, color: tuple[int, int, int] = hud.WHITE) -> None:
        """Show a one-line message under the top bar."""
        self.message, self.message_time, self.message_color = text, seconds, color

    def set_tool(self, tool: Tool) -> None:
        """Pick a tool."""
        self.tool = tool
        self.say(f"tool: {tool.label}", 1.5)

    def paint(self, cell: Brick, tool: Tool | None = None, *, stroke: bool = False) -> bool:
        """Use ``tool`` (default: the current one) on ``cell``."""
        tool = self.tool if tool is None else tool
        changed = self.model.apply(tool, cell, stroke=stroke)
        if changed:
            self._edited()
        return changed

    def undo(self) -> None:
        """Undo the last edit."""
        if self.model.undo():
            self._edited()
            self.say("undo", 1.0)
        else:
            self.say("nothing to undo", 1.5, hud.MUTED)

    def redo(self) -> None:
        """Redo the last undone edit."""
        if self.model.redo():
            self._edited()
            self.say("redo", 1.0)
        else:
            self.say("nothing to redo", 1.5, hud.MUTED)

    def resize(self, d_rows: int, d_cols: int) -> None:
        """Grow or shrink the map by whole rows / columns."""
        d = self.draft
        if self.model.resize(d.height + d_rows, d.width + d_cols):
            self._edited()
            self.say(f"size {self.draft.height} x {self.draft.width}", 1.5)
        else:
            self.say("the map can't be resized further", 2.0, hud.MUTED)

    def change_frames(self, delta: int) -> None:
        """N += delta."""
        if self.model.set_frames(self.draft.frames + delta):
            self._edited()

    def change_budget(self, delta: int) -> None:
        """B += delta."""
        if self.model.set_budget(self.draft.budget + delta):
            self._edited()

    def toggle_grid(self) -> None:
        """Show or hide the grid overlay."""
        self.grid_on = not self.grid_on
        self.say("grid on" if self.grid_on else "grid off", 1.2)

    def _refuse_invalid(self, what: str) -> bool:
        problems = self.model.problems()
        if problems:
            self.say(f"can't {what} yet: " + " and ".join(problems), 4.0, hud.RED)
            return True
        return False

    def play_test(self) -> None:
        """Play the current draft at once (no save); Esc comes back to this editor state."""
        if self._refuse_invalid("play-test"):
            return
        from game.ui.scenes.play import PlayScene

        level = self.model.to_level()
        title = f"Play-test: {level.title or 'untitled'}"
        self.play_scene = self.app.push(PlayScene(self.app, level, key=None, title=title, back_label="editor"))

    # ---------------------------------------------------------------- analysis
    def analyse(self) -> None:
        """Start the analysis in the worker (a second press while it runs cancels it)."""
        if self.analysing:
            assert self._worker is not None
            self._worker.cancel()
            self._tighten_when_done = False
            self.say("analysis cancelled", 2.0, hud.MUTED)
            return
        if self._refuse_invalid("analyse"):
            return
        level = self.model.to_level()
        solver, limit = self.analysis_solver, ANALYSIS_TIME_LIMIT

        def job(report: Callable[[Any], None]) -> Analysis:
            from ai.assistant.analysis import analyse_level

            return analyse_level(level, solver=solver, time_limit=limit, progress=report)

        def thread_task(cancel: Any, report: Callable[[Any], None]) -> Analysis:
            from ai.assistant.analysis import analyse_level

            return analyse_level(level, solver=solver, time_limit=limit, cancel=cancel, progress=report)

        task: Callable[[Any, Callable[[Any], None]], Any] = thread_task
        if self.analysis_in_process:
            # a forked child: a pure-Python solver never takes frames from the UI, and
            # cancelling kills it at once (see game.ui.solver_process)
            from game.ui.solver_process import process_task

            in_child = process_task(job)

            def forked_task(cancel: Any, report: Callable[[Any], None]) -> Any:
                # load the solvers (ortools: ~1 s) here, once, so every forked child has them
                import ai.assistant.analysis  # noqa: F401
                import ai.solvers.portfolio  # noqa: F401

                return None if cancel.is_set() else in_child(cancel, report)

            task = forked_task

        if self._worker is None:
            import atexit

            from ai.assistant.worker import Worker

            self._worker = Worker()
            # quitting mid-analysis: stop the solver before the interpreter goes away
            atexit.register(self._worker.shutdown, 1.0)
        self._analysed = (level.grid, level.frames)
        self.analysis = None
        self.analysis_error = ""
        self.analysing = True
        self.show_solution = False
        self._worker.submit(task, label="analyse")

    def tighten(self) -> None:
        """Set B to the minimum bricks and N to the fewest frames (analysing first if needed)."""
        if self._refuse_invalid("tighten"):
            return
        if not self.analysis_current() or self.analysing:
            self._tighten_when_done = True
            if not self.analysing:
                self.analyse()
            self.say("analysing first, then tightening\u2026", 2.5)
            return
        a = self.analysis
        assert a is not None
        if not a.can_tighten or a.min_bricks is None or a.fewest_frames is None:
            self.say("can't tighten: " + a.headline(), 3.5, hud.RED)
            return
        before = (self.draft.frames, self.draft.budget)
        if self.model.set_limits(a.fewest_frames, a.min_bricks):
            self._edited()
            # the map is unchanged and the new N still admits every optimal set that is fastest:
            self._analysed = (self.draft.grid, self.draft.frames)
            self.analysis = _retarget(a, self.model.to_level())
            self.say(f"tightened: N {before[0]} -> {self.draft.frames}, B {before[1]} -> {self.draft.budget}",
                     3.5, hud.GREEN)
        else:
            self.say("already tight", 2.0, hud.GREEN)

    def toggle_solution(self) -> None:
        """Show/hide an optimal solution from the analysis as ghost bricks."""
        if not self.analysis_current() or self.analysis is None or not self.analysis.solutions:
            self.say("analyse first (A) to see a solution", 2.5, hud.MUTED)
            return
        self.show_solution = not self.show_solution

    def _poll_worker(self) -> None:
        if self._worker is None:
            return
        for ev in self._worker.poll():
            if ev.kind == "done":
                self.analysing = False
                self.analysis = ev.payload
                if self._tighten_when_done:
                    self._tighten_when_done = False
                    if self.analysis_current():
                        self.tighten()
            elif ev.kind == "error":
                self.analysing = False
                self._tighten_when_done = False
                self.analysis_error = ev.message
                self.say(f"analysis failed: {ev.message}", 4.0, hud.RED)
            elif ev.kind == "cancelled":
                self.analysing = False
                self.analysis = None
                self._analysed = None

    # ---------------------------------------------------------------- files
    def save(self, then: Callable[[], None] | None = None) -> None:
        """Ask for a title, then save to the user's levels folder (``then`` runs after a good save)."""
        if self._refuse_invalid("save"):
            return

        def done(title: str) -> None:
            if not title.strip():
                self.say("a level needs a title", 3.0, hud.RED)
                return
            if title != self.draft.title:
                self.model.set_title(title)
                self._edited()
            if self.save_now() and then is not None:
                then()

        def file_for(title: str) -> str:
            if self.model.path is not None:
                return f"file: {self.model.path.name} in {self._shown_folder()}"
            return f"new file: {self.model.save_path(self.folder(), title).name} in {self._shown_folder()}"

        self.app.push(TextPrompt(self.app, "Save level", "Title:", self.draft.title or "", done, preview=file_for))

    def save_now(self) -> bool:
        """Save under the current title; a failure keeps the old file and says why."""
        if self._refuse_invalid("save"):
            return False
        try:
            path = self.model.save(self.folder())
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.say(f"save failed: {reason} (the previous file is unchanged)", 5.0, hud.RED)
            return False
        self.say(f"saved: {path.name}", 3.0, hud.GREEN)
        return True

    def _shown_folder(self) -> str:
        text = str(self.folder())
        home = str(Path.home())
        return "~" + text[len(home):] if text.startswith(home) else text

    def guard_unsaved(self, then: Callable[[], None]) -> None:
        """Run ``then`` now, or after asking what to do with unsaved changes."""
        if not self.model.dirty:
            then()
            return
        self.app.push(ConfirmPrompt(
            self.app, "Unsaved changes",
            "Save this level before leaving it?",
            [("Enter", "save", lambda: self.save(then)), ("D", "discard", then), ("Esc", "keep editing", None)],
        ))

    def exit(self) -> None:
        """Esc: leave the editor (asks about unsaved changes)."""
        self.guard_unsaved(self._close)

    def _close(self) -> None:
        if self.app.top is self:
            self.app.pop()
        elif self in self.app.scenes:
            while self.app.top is not self and self.app.scenes:
                self.app.pop()
            self.app.pop()

    def _quit_filter(self, action: Action) -> bool:
        """Closing the window with unsaved changes asks first."""
        if action.kind != Act.QUIT or self not in self.app.scenes or not self.model.dirty:
            return False
        if isinstance(self.app.top, (ConfirmPrompt, TextPrompt)):
            return False
        while self.app.top is not self:
            self.app.pop()
        self.guard_unsaved(self.app.quit)
        return True

    def open_picker(self) -> None:
        """Ctrl+O: choose a level (the pack's or the user's) to edit."""
        self.app.push(OpenPrompt(self.app, lambda entry: self.guard_unsaved(lambda: self.load_entry(entry))))

    def load_entry(self, entry: Any) -> None:
        """Edit a catalog entry; pack levels are saved as a copy into the user's folder."""
        user = entry.section == "user" and entry.path is not None
        source = f"{entry.section}: {entry.path.name}" if entry.path is not None else entry.section
        self.load(entry.level, path=entry.path if user else None, source=source)

    def load(self, level: Level, *, path: Path | None = None, source: str = "") -> None:
        """Replace the model with ``level`` (fresh history)."""
        self.model = EditorModel.from_level(level, path=path, source=source)
        self._reset_analysis()
        note = "" if path is not None else " (saving makes a copy in your levels)"
        self.say(f"opened {level.title or source}{note}", 3.0)

    def new_level(self) -> None:
        """N: ask for a size, then start a new bordered map."""

        def made(text: str) -> None:
            size = parse_size(text)
            if size is None:
                self.say("size must read like 10x14 (rows x columns, 2 to 64)", 3.5, hud.RED)
                return
            self.model = EditorModel.new(*size)
            self._reset_analysis()
            self.say(f"new {size[0]} x {size[1]} level", 2.0)

        def ask() -> None:
            self.app.push(TextPrompt(self.app, "New level", "Size (rows x columns):",
                                     f"{DEFAULT_NEW_SIZE[0]}x{DEFAULT_NEW_SIZE[1]}", made))

        self.guard_unsaved(ask)

    def _reset_analysis(self) -> None:
        if self._worker is not None and self.analysing:
            self._worker.cancel()
        self.analysing = False
        self.analysis = None
        self._analysed = None
        self._tighten_when_done = False
        self.show_solution = False

    def _edited(self) -> None:
        if not self.analysis_current():
            self.show_solution = False

    # ================================================================ events
    def handle_event(self, action: Action) -> None:
        """Map actions to edits (see the module docstring for the keys)."""
        k = action.kind
        if self._keyboard_paint(action):  # Shift+arrows move the cell cursor, B paints there
            return
        if k == Act.CLICK:
            self._click(action.pos)
        elif k == Act.RIGHT_CLICK:
            cell = self.layout().cell_at(action.pos)
            if cell is not None:
                self.model.end_stroke()
                self.paint(cell, Tool.ERASE)
                self._stroke = (Tool.ERASE, 2)
        elif k == Act.HOVER:
            self._hover(action.pos)
        elif k == Act.TOOL:
            if action.value in {t.value for t in Tool}:
                self.set_tool(Tool(action.value))
        elif k == Act.UNDO:
            self.undo()
        elif k == Act.REDO:
            self.redo()
        elif k == Act.UP:
            self.resize(-1, 0)
        elif k == Act.DOWN:
            self.resize(1, 0)
        elif k == Act.LEFT:
            self.resize(0, -1)
        elif k == Act.RIGHT:
            self.resize(0, 1)
        elif k == Act.SPEED_UP:
            self.change_frames(1)
        elif k == Act.SPEED_DOWN:
            self.change_frames(-1)
        elif k == Act.NEXT_ITEM:
            self.change_budget(1)
        elif k == Act.PREV_ITEM:
            self.change_budget(-1)
        elif k == Act.TOGGLE_RUN:
            self.play_test()
        elif k == Act.SAVE:
            self.save()
        elif k == Act.OPEN:
            self.open_picker()
        elif k == Act.BACK:
            self.exit()
        elif k == Act.SCROLL:
            self.set_tool(Tool((self.tool.value - 1 - action.value) % len(Tool) + 1))
        elif k == Act.TEXT:
            self._letter(action.text.lower())

    def _keyboard_paint(self, action: Action) -> bool:
        """Without a mouse: Shift+arrows move the cursor cell (the hover cell), B uses the tool on it."""
        moves = {Act.UP: (-1, 0), Act.DOWN: (1, 0), Act.LEFT: (0, -1), Act.RIGHT: (0, 1)}
        if action.kind in moves and action.mod & pygame.KMOD_SHIFT:
            dr, dc = moves[action.kind]
            rows, cols = self.draft.height, self.draft.width
            r, c = self.hover if self.hover is not None else (rows // 2, cols // 2)
            self.hover = (max(0, min(rows - 1, r + dr)), max(0, min(cols - 1, c + dc)))
            return True
        if action.kind == Act.PLACE:
            if self.hover is None:
                self.hover = (self.draft.height // 2, self.draft.width // 2)
            else:
                self.model.end_stroke()
                self.paint(self.hover)
            return True
        return False

    def _letter(self, ch: str) -> None:
        commands: dict[str, Callable[[], None]] = {
            "a": self.analyse, "t": self.tighten, "g": self.toggle_grid, "n": self.new_level,
            "p": self.play_test, "v": self.toggle_solution,
        }
        command = commands.get(ch)
        if command is not None:
            command()

    def _click(self, pos: tuple[int, int] | None) -> None:
        if pos is None:
            return
        for button in self.buttons(self.app.screen.get_size()):
            if button.rect.collidepoint(pos):
                button.run()  # a greyed-out action still runs, to say why it can't be done
                return
        cell = self.layout().cell_at(pos)
        if cell is not None:
            self.model.end_stroke()
            self.paint(cell)
            self._stroke = (self.tool, 0) if self.tool != Tool.LEMMING else None

    def _hover(self, pos: tuple[int, int] | None) -> None:
        self.hover = self.layout().cell_at(pos)
        if self._stroke is None:
            return
        tool, button = self._stroke
        held = pygame.mouse.get_pressed(3)[button] if pygame.display.get_init() else False
        if not held:
            self._stroke = None
            self.model.end_stroke()
        elif self.hover is not None:
            self.paint(self.hover, tool, stroke=True)

    # ================================================================ palette
    def buttons(self, size: tuple[int, int]) -> list[Button]:
        """The palette's buttons for a window of ``size`` (rebuilt per call; cheap).

        Rows, columns, N and B each get a label with -/+ buttons on one line; on short
        windows the action buttons go in two columns.
        """
        left, _ = self._panel_widths(size[0])
        x, w = 14, left - 8
        compact = size[1] < 700
        y = hud.TOP_BAR + 38
        out: list[Button] = []
        tool_h = 36 if compact else 40
        for tool in Tool:
            out.append(Button(pygame.Rect(x, y, w, tool_h - 4), tool.label, functools.partial(self.set_tool, tool),
                              key=str(tool.value), active=self.tool == tool, color=TOOL_COLORS[tool],
                              icon=tool.name))
            y += tool_h
        y += 28
        bw = 34

        def pair(value: str, minus: Callable[[], None], plus: Callable[[], None], keys: tuple[str, str]) -> None:
            nonlocal y
            out.append(Button(pygame.Rect(x + w - 2 * bw - 6, y, bw, 30), "\u2212", minus, key=keys[0], icon=value))
            out.append(Button(pygame.Rect(x + w - bw, y, bw, 30), "+", plus, key=keys[1]))
            y += 36

        d = self.draft
        pair(f"rows {d.height}", lambda: self.resize(-1, 0), lambda: self.resize(1, 0), ("Up", "Down"))
        pair(f"cols {d.width}", lambda: self.resize(0, -1), lambda: self.resize(0, 1), ("Left", "Right"))
        pair(f"frames {d.frames}", lambda: self.change_frames(-1), lambda: self.change_frames(1), ("-", "+"))
        pair(f"budget {d.budget}", lambda: self.change_budget(-1), lambda: self.change_budget(1), ("[", "]"))
        y += 10
        valid = self.model.valid
        actions: list[tuple[str, str, Callable[[], None], bool]] = [
            ("Play-test", "Space", self.play_test, valid),
            ("Cancel" if self.analysing else "Analyse", "A", self.analyse, valid),
            ("Tighten", "T", self.tighten, valid),
            ("Save", "Ctrl+S", self.save, valid),
            ("Open", "Ctrl+O", self.open_picker, True),
            ("New", "N", self.new_level, True),
        ]
        if compact:
            half = (w - 6) // 2
            for k, (label, key, run, enabled) in enumerate(actions):
                col, row = k % 2, k // 2
                out.append(Button(pygame.Rect(x + col * (half + 6), y + row * 36, half, 31), label, run,
                                  enabled=enabled))
        else:
            for label, key, run, enabled in actions:
                out.append(Button(pygame.Rect(x, y, w, 32), label, run, key=key, enabled=enabled))
                y += 37
        return out

    # ================================================================ update / draw
    def update(self, dt: float) -> None:
        """Animations, the message timer, and the analysis worker."""
        self.anim += dt
        if self.message_time > 0:
            self.message_time -= dt
            if self.message_time <= 0:
                self.message = ""
        self._poll_worker()

    def on_enter(self) -> None:
        """Back from a play-test: nothing to restore (the model was never touched)."""
        self.play_scene = None

    def on_exit(self) -> None:
        """Stop the analysis and the quit filter."""
        if self._worker is not None:
            self._worker.shutdown(0.2)
        if self._quit_filter in self.app.action_filters:
            self.app.action_filters.remove(self._quit_filter)

    def draw(self, surface: pygame.Surface) -> None:
        """Backdrop, board, palette, analysis panel, top bar, hints."""
        self.renderer.draw_background(surface)
        size = surface.get_size()
        layout = fit_layout(self.draft.height, self.draft.width, self.board_area(size), max_cell=64)
        self._draw_board(surface, layout)
        self._draw_palette(surface)
        self._draw_side(surface)
        self._draw_top(surface)
        hud.hint_bar(surface, [("1-4", "tool"), ("Click", "paint"), ("R-click", "erase"), ("Z/Y", "undo/redo"),
                               ("Space", "play-test"), ("A", "analyse"), ("T", "tighten"), ("G", "grid"),
                               ("Ctrl+S", "save"), ("Esc", "exit")])

    # ---------------------------------------------------------------- board
    def _terrain_surface(self, d: Draft, cell: int) -> pygame.Surface:
        key = (d.grid, cell)
        if self._terrain is None or self._terrain[0] != key:
            self._terrain = (key, paint_terrain(d.grid, cell, self.sprites))
        return self._terrain[1]

    def _grid_surface(self, rows: int, cols: int, cell: int) -> pygame.Surface:
        key = (rows, cols, cell)
        if self._grid_overlay is not None and self._grid_overlay[0] == key:
            return self._grid_overlay[1]
        surf = pygame.Surface((cols * cell, rows * cell), pygame.SRCALPHA)
        for c in range(1, cols):
            strong = c % 5 == 0
            pygame.draw.line(surf, (255, 255, 255, 70 if strong else 34), (c * cell, 0), (c * cell, rows * cell))
        for r in range(1, rows):
            strong = r % 5 == 0
            pygame.draw.line(surf, (255, 255, 255, 70 if strong else 34), (0, r * cell), (cols * cell, r * cell))
        self._grid_overlay = (key, surf)
        return surf

    def _draw_board(self, surface: pygame.Surface, layout: BoardLayout) -> None:
        d = self.draft
        cell = layout.cell
        board = layout.rect
        pygame.draw.rect(surface, (8, 6, 14), board.inflate(12, 12).move(4, 6), border_radius=6)
        pygame.draw.rect(surface, (16, 12, 26), board.inflate(8, 8), border_radius=4)
        surface.blit(self._terrain_surface(d, cell), layout.origin)
        door = self.sprites.get(f"target_{int(self.anim * 4) % 2}", cell)
        bob = int(self.anim * 2) % 2
        for r, row in enumerate(d.grid):
            for c, ch in enumerate(row):
                if ch == TARGET:
                    surface.blit(door, layout.cell_rect(r, c))
                elif ch in (LEMMING_LEFT, LEMMING_RIGHT):
                    name = f"lem_walk_{'r' if ch == LEMMING_RIGHT else 'l'}_{bob}"
                    surface.blit(self.sprites.get(name, cell), layout.cell_rect(r, c))
        if self.show_solution and self.analysis is not None and self.analysis.solutions and self.analysis_current():
            ghost = self.sprites.get("brick", cell).copy()
            ghost.set_alpha(150)
            for r, c in self.analysis.solutions[0]:
                surface.blit(ghost, layout.cell_rect(r, c))
        if self.grid_on and cell >= 6:
            surface.blit(self._grid_surface(d.height, d.width, cell), layout.origin)
        # coordinates along the edges
        if self.grid_on and cell >= 18:
            for c in range(d.width):
                if c % 5 == 0 or d.width <= 16:
                    hud.blit_text(surface, str(c), (layout.cell_rect(0, c).centerx, board.top - 6), 18, hud.MUTED,
                                  anchor="midbottom")
            for r in range(d.height):
                if r % 5 == 0 or d.height <= 16:
                    hud.blit_text(surface, str(r), (board.left - 8, layout.cell_rect(r, 0).centery), 18, hud.MUTED,
                                  anchor="midright")
        if self.hover is not None and self.model.in_bounds(self.hover):
            self._draw_hover(surface, layout, self.hover)

    def _draw_hover(self, surface: pygame.Surface, layout: BoardLayout, cell: Brick) -> None:
        rect = layout.cell_rect(*cell)
        color = TOOL_COLORS[self.tool]
        if self.tool == Tool.WALL:
            ghost = self.sprites.get("wall_top_0", layout.cell).copy()
        elif self.tool == Tool.TARGET:
            ghost = self.sprites.get("target_0", layout.cell).copy()
        elif self.tool == Tool.LEMMING:
            here = self.draft.char_at(cell)
            facing = "l" if here == LEMMING_RIGHT else "r"
            ghost = self.sprites.get(f"lem_walk_{facing}_0", layout.cell).copy()
        else:
            ghost = None
        if ghost is not None:
            ghost.set_alpha(140)
            surface.blit(ghost, rect)
        else:
            veil = pygame.Surface(rect.size, pygame.SRCALPHA)
            veil.fill((255, 60, 60, 70))
            surface.blit(veil, rect)
        pygame.draw.rect(surface, color, rect, max(2, layout.cell // 14))

    # ---------------------------------------------------------------- panels
    def _draw_palette(self, surface: pygame.Surface) -> None:
        size = surface.get_size()
        left, _ = self._panel_widths(size[0])
        buttons = self.buttons(size)
        panel_rect = pygame.Rect(6, hud.TOP_BAR + 8, left + 4, buttons[-1].rect.bottom - hud.TOP_BAR + 4)
        hud.panel(surface, panel_rect, alpha=215)
        hud.blit_text(surface, "TOOLS", (18, hud.TOP_BAR + 15), 20, hud.MUTED)
        first_pair = True
        for b in buttons:
            if b.icon in Tool.__members__:
                self._draw_tool_button(surface, b)
                continue
            if b.label == "\u2212":
                if first_pair:
                    hud.blit_text(surface, "MAP", (18, b.rect.top - 22), 20, hud.MUTED)
                    first_pair = False
                hud.blit_text(surface, b.icon, (18, b.rect.centery), 24, hud.WHITE, anchor="midleft")
            self._draw_plain_button(surface, b)

    def _draw_tool_button(self, surface: pygame.Surface, b: Button) -> None:
        color = b.color or hud.WHITE
        box = pygame.Surface(b.rect.size, pygame.SRCALPHA)
        pygame.draw.rect(box, (color + (70,)) if b.active else (255, 255, 255, 14), box.get_rect(), border_radius=8)
        surface.blit(box, b.rect)
        pygame.draw.rect(surface, color if b.active else hud.PANEL_EDGE, b.rect, 2, border_radius=8)
        icon_size = b.rect.height - 8
        tool = Tool[b.icon]
        names = {Tool.WALL: "wall_top_1", Tool.TARGET: "target_0", Tool.LEMMING: "lem_walk_r_0"}
        icon_rect = pygame.Rect(b.rect.left + 6, b.rect.top + 4, icon_size, icon_size)
        if tool in names:
            surface.blit(self.sprites.get("bg_0", icon_size), icon_rect)
            surface.blit(self.sprites.get(names[tool], icon_size), icon_rect)
        else:
            surface.blit(self.sprites.get("bg_0", icon_size), icon_rect)
            pygame.draw.line(surface, hud.RED, icon_rect.topleft, icon_rect.bottomright, 3)
            pygame.draw.line(surface, hud.RED, icon_rect.bottomleft, icon_rect.topright, 3)
        hud.blit_text(surface, b.label, (icon_rect.right + 10, b.rect.centery), 26,
                      hud.WHITE if b.active else hud.MUTED, anchor="midleft")
        hud.badge(surface, b.key, (b.rect.right - 8, b.rect.centery), (210, 200, 240), anchor="midright", size=18)

    def _draw_plain_button(self, surface: pygame.Surface, b: Button) -> None:
        hovered = self.app.mouse_pos is not None and b.rect.collidepoint(self.app.mouse_pos)
        fill = (60, 50, 96) if hovered and b.enabled else (38, 30, 62)
        pygame.draw.rect(surface, fill, b.rect, border_radius=6)
        edge = hud.GOLD if hovered and b.enabled else hud.PANEL_EDGE
        pygame.draw.rect(surface, edge, b.rect, 1, border_radius=6)
        color = hud.WHITE if b.enabled else (110, 100, 130)
        if b.label in ("\u2212", "+"):
            hud.blit_text(surface, b.label, b.rect.center, 30, color, anchor="center")
            return
        hud.blit_text(surface, b.label, (b.rect.left + 10, b.rect.centery), 24, color, anchor="midleft")
        if b.key:
            t = hud.text(b.key, 18, hud.MUTED if b.enabled else (100, 90, 120), shadow=False)
            surface.blit(t, t.get_rect(midright=(b.rect.right - 8, b.rect.centery)))

    def _draw_side(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        _, right = self._panel_widths(w)
        if right == 0:
            # narrow window: an overlay, only when there is something to say
            if self.analysis is None and not self.analysing and not self.analysis_error and self.model.valid:
                return
            rect = pygame.Rect(w - 250, h - hud.BOTTOM_BAR - 150, 240, 140)
            lines = self._analysis_lines()
        else:
            rect = pygame.Rect(w - right - 8, hud.TOP_BAR + 8, right, 0)
            lines = self._side_lines()
        if right:
            rect.height = 20 + sum(size + 10 for _, size, _ in lines)
        hud.panel(surface, rect, alpha=215)
        y = rect.top + 12
        for text, size, color in lines:
            if text:
                hud.blit_text(surface, text, (rect.left + 14, y), size, color)
            y += size + 8
            if y > rect.bottom - 16:
                break

    def _side_lines(self) -> list[tuple[str, int, tuple[int, int, int]]]:
        """The right panel's lines: the analysis, then the file."""
        return self._analysis_lines() + [("", 4, hud.MUTED)] + self._file_lines()

    def _file_lines(self) -> list[tuple[str, int, tuple[int, int, int]]]:
        out: list[tuple[str, int, tuple[int, int, int]]] = [("FILE", 20, hud.MUTED)]
        m = self.model
        if m.path is not None:
            out.append((m.path.name[:30], 22, hud.WHITE))
            out.append(("unsaved changes" if m.dirty else "saved", 21, hud.GOLD if m.dirty else hud.GREEN))
        else:
            if m.source:
                out.append((f"from {m.source}"[:32], 21, hud.WHITE))
                out.append(("Ctrl+S saves a copy", 21, hud.MUTED))
            else:
                out.append(("new level, not saved yet", 21, hud.WHITE))
            out.append(("in your levels folder", 21, hud.MUTED))
        return out

    def _analysis_lines(self) -> list[tuple[str, int, tuple[int, int, int]]]:
        out: list[tuple[str, int, tuple[int, int, int]]] = [("ANALYSIS", 20, hud.MUTED)]
        problems = self.model.problems()
        if problems:
            out.append(("Not playable yet:", 24, hud.RED))
            out += [("\u2022 " + p.split(" (")[0], 21, hud.WHITE) for p in problems]
            return out
        if self.analysing:
            dots = "." * (1 + int(self.anim * 3) % 3)
            secs = self._worker.elapsed if self._worker is not None else 0.0
            out.append((f"analysing{dots}", 26, hud.BLUE))
            out.append((f"{secs:.1f} s \u2014 A cancels", 21, hud.MUTED))
            progress = self._worker.last_progress if self._worker is not None else None
            if isinstance(progress, str):
                out.append((progress, 20, hud.MUTED))
            return out
        if self.analysis_error:
            out.append(("analysis failed", 26, hud.RED))
            out.append((self.analysis_error[:34], 20, hud.MUTED))
            return out
        a = self.analysis
        if a is None or not self.analysis_current():
            out.append(("press A to analyse", 24, hud.WHITE))
            out.append(("min bricks, solutions,", 21, hud.MUTED))
            out.append(("fewest frames", 21, hud.MUTED))
            if a is not None:
                out.append(("(map or N changed since)", 20, hud.MUTED))
            return out
        status = self.status_now()
        if status == "ok":
            out.append(("SOLVABLE", 30, hud.GREEN))
            out.append((f"within budget B = {self.draft.budget}", 22, hud.WHITE))
        elif status == "over_budget":
            out.append(("UNSOLVABLE", 30, hud.RED))
            out.append((f"within budget B = {self.draft.budget}", 22, hud.RED))
        elif status == "unsolvable":
            out.append(("UNSOLVABLE", 30, hud.RED))
            out.append((f"in N = {self.draft.frames} frames, any budget", 22, hud.RED))
        else:
            out.append((a.headline(), 24, hud.GOLD))
        if a.min_bricks is not None:
            out.append((f"minimum bricks: {a.min_bricks}", 24, hud.WHITE))
            if a.complete:
                kind = "unique" if a.solution_count == 1 else "not unique"
                out.append((f"optimal solutions: {a.solution_count}", 24, hud.WHITE))
                out.append((f"({kind})", 21, hud.GREEN if a.solution_count == 1 else hud.MUTED))
            else:
                out.append((f"optimal solutions: \u2265 {a.solution_count}", 24, hud.WHITE))
            ff = "?" if a.fewest_frames is None else str(a.fewest_frames)
            bound = "" if a.frames_proved else "\u2264 "
            out.append((f"fewest frames: {bound}{ff}", 24, hud.WHITE))
            tight = a.fewest_frames == self.draft.frames and a.min_bricks == self.draft.budget
            out.append(("tight" if tight else "T: tighten to N=%s, B=%d" % (ff, a.min_bricks), 21,
                        hud.GREEN if tight else hud.GOLD))
            out.append(("V: show a solution" if not self.show_solution else "V: hide the solution", 21, hud.MUTED))
        out.append((f"{a.seconds:.2f} s", 20, hud.MUTED))
        return out

    def _draw_top(self, surface: pygame.Surface) -> None:
        w = surface.get_width()
        bar = hud.top_bar(surface)
        d = self.draft
        valid = self.model.valid
        badge = hud.badge(surface, "READY" if valid else "DRAFT", (w - 14, bar.centery),
                          hud.GREEN if valid else hud.GOLD, anchor="midright", size=24)
        stats = [(f"{d.height} x {d.width}", hud.MUTED), (f"N {d.frames}", hud.WHITE), (f"B {d.budget}", hud.GOLD),
                 (f"{d.count(LEMMING_LEFT + LEMMING_RIGHT)} lem \u00b7 {d.count(TARGET)} exit", hud.GREEN)]
        rx = badge.left - 18
        x = 14
        hud.badge(surface, "EDITOR", (x, bar.centery), hud.BLUE, anchor="midleft", size=24)
        x += 100
        for label, color in stats:
            width = hud.text(label, 26).get_width()
            if rx - width < x + 160:
                break
            r = hud.blit_text(surface, label, (rx, bar.centery), 26, color, anchor="midright")
            rx = r.left - 20
        title = (d.title or "Untitled") + (" *" if self.model.dirty else "")
        while len(title) > 3 and hud.text(title, 34).get_width() > rx - x:
            title = title[:-3] + "\u2026"
        hud.blit_text(surface, title, (x, bar.centery), 34, hud.WHITE, anchor="midleft")
        if self.message:
            t = hud.text(self.message, 24, self.message_color)
            area = self.board_area(surface.get_size())
            rect = t.get_rect(midtop=(area.centerx, hud.TOP_BAR + 6))
            hud.panel(surface, rect.inflate(20, 8), alpha=235)
            surface.blit(t, rect)


def _retarget(a: Analysis, level: Level) -> Analysis:
    """The analysis ``a`` restated for the tightened ``level`` (same map, N = fewest, B = min).

    Sets winning in fewer frames are among the optimal sets for the old N, so filtering them
    keeps the count exact when ``a`` was complete.
    """
    from dataclasses import replace

    from ai.assistant.analysis import last_arrival_frame

    sols = tuple(s for s in a.solutions if last_arrival_frame(level, s) is not None)
    return replace(a, level=level, status="ok", solutions=sols, solution_count=max(1, len(sols)))


# ==================================================================== dialogs
class TextPrompt(Scene):
    """A one-line text entry over the scene below: Enter accepts, Esc cancels."""

    transparent = True
    text_entry = True  # typed letters are text, not commands (e.g. M does not mute)

    def __init__(self, app: App, title: str, label: str, initial: str, on_done: Callable[[str], None], *,
                 note: str = "", max_len: int = 60, preview: Callable[[str], str] | None = None) -> None:
        super().__init__(app)
        self.title, self.label, self.text = title, label, initial
        self.on_done, self.note, self.max_len = on_done, note, max_len
        self.preview = preview  #: a line shown under the field, computed from the text
        self.anim = 0.0

    def handle_event(self, action: Action) -> None:
        """Typed characters, Backspace, Enter, Esc."""
        k = action.kind
        if k == Act.TEXT and len(self.text) < self.max_len:
            self.text += action.text
        elif k == Act.CLEAR:
            self.text = self.text[:-1]
        elif k == Act.CONFIRM:
            self.app.pop()
            self.on_done(self.text)
        elif k == Act.BACK:
            self.app.pop()

    def update(self, dt: float) -> None:
        """Blink the caret."""
        self.anim += dt

    def draw(self, surface: pygame.Surface) -> None:
        """A dimmed backdrop and the entry box."""
        _dim(surface)
        w, h = surface.get_size()
        box = pygame.Rect(0, 0, min(600, w - 40), 214)
        box.center = (w // 2, h // 2)
        hud.panel(surface, box, edge=hud.GOLD)
        hud.blit_text(surface, self.title, (box.centerx, box.top + 18), 40, hud.GOLD, anchor="midtop")
        hud.blit_text(surface, self.label, (box.left + 24, box.top + 70), 24, hud.MUTED)
        field = pygame.Rect(box.left + 24, box.top + 96, box.width - 48, 40)
        pygame.draw.rect(surface, (10, 8, 20), field, border_radius=6)
        pygame.draw.rect(surface, hud.PANEL_EDGE, field, 2, border_radius=6)
        caret = "|" if int(self.anim * 2) % 2 == 0 else " "
        shown = self.text
        while len(shown) > 1 and hud.text(shown + caret, 30).get_width() > field.width - 20:
            shown = shown[1:]
        hud.blit_text(surface, shown + caret, (field.left + 10, field.centery), 30, hud.WHITE, anchor="midleft")
        if self.preview is not None:
            hud.blit_text(surface, self.preview(self.text), (field.left + 2, field.bottom + 8), 20, hud.BLUE)
        foot = "Enter: OK    Esc: cancel" + (f"    ({self.note})" if self.note else "")
        hud.blit_text(surface, foot, (box.centerx, box.bottom - 28), 20, hud.MUTED, anchor="midtop")


class ConfirmPrompt(Scene):
    """A question with keyed choices: ``[(key label, text, callback or None), ...]``.

    Enter picks the first choice, Esc the last, a letter key the choice whose key is that letter.
    """

    transparent = True

    def __init__(self, app: App, title: str, question: str,
                 choices: list[tuple[str, str, Callable[[], None] | None]]) -> None:
        super().__init__(app)
        self.title, self.question, self.choices = title, question, choices

    def choose(self, i: int) -> None:
        """Close the prompt and run choice ``i``."""
        self.app.pop()
        run = self.choices[i][2]
        if run is not None:
            run()

    def handle_event(self, action: Action) -> None:
        """Enter, Esc, letters, clicks on the choices."""
        k = action.kind
        if k == Act.CONFIRM:
            self.choose(0)
        elif k == Act.BACK:
            self.choose(len(self.choices) - 1)
        elif k == Act.TEXT:
            for i, (key, _, _) in enumerate(self.choices):
                if len(key) == 1 and key.lower() == action.text.lower():
                    self.choose(i)
                    return
        elif k == Act.CLICK and action.pos is not None:
            for i, rect in enumerate(self._choice_rects(self.app.screen.get_size())):
                if rect.collidepoint(action.pos):
                    self.choose(i)
                    return

    def _box(self, size: tuple[int, int]) -> pygame.Rect:
        box = pygame.Rect(0, 0, min(600, size[0] - 40), 210)
        box.center = (size[0] // 2, size[1] // 2)
        return box

    def _choice_rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        box = self._box(size)
        n = len(self.choices)
        bw = (box.width - 40 - (n - 1) * 12) // n
        return [pygame.Rect(box.left + 20 + i * (bw + 12), box.bottom - 64, bw, 44) for i in range(n)]

    def draw(self, surface: pygame.Surface) -> None:
        """A dimmed backdrop, the question and the choices."""
        _dim(surface)
        box = self._box(surface.get_size())
        hud.panel(surface, box, edge=hud.GOLD)
        hud.blit_text(surface, self.title, (box.centerx, box.top + 18), 40, hud.GOLD, anchor="midtop")
        hud.blit_text(surface, self.question, (box.centerx, box.top + 70), 26, hud.WHITE, anchor="midtop")
        for rect, (key, text, _) in zip(self._choice_rects(surface.get_size()), self.choices):
            pygame.draw.rect(surface, (38, 30, 62), rect, border_radius=8)
            pygame.draw.rect(surface, hud.PANEL_EDGE, rect, 2, border_radius=8)
            k = hud.badge(surface, key, (rect.left + 10, rect.centery), (210, 200, 240), anchor="midleft", size=20)
            hud.blit_text(surface, text, (k.right + 8, rect.centery), 24, hud.WHITE, anchor="midleft")


class OpenPrompt(Scene):
    """Pick a level to edit: the pack's and the user's, as a scrolling list."""

    transparent = True
    ROW = 34

    def __init__(self, app: App, on_pick: Callable[[Any], None]) -> None:
        super().__init__(app)
        from game.ui.catalog import all_entries

        self.entries = all_entries()
        self.cursor = 0
        self.on_pick = on_pick
        self.top_index = 0

    def _box(self, size: tuple[int, int]) -> pygame.Rect:
        box = pygame.Rect(0, 0, min(640, size[0] - 40), min(560, size[1] - 120))
        box.center = (size[0] // 2, size[1] // 2)
        return box

    def _visible(self, size: tuple[int, int]) -> int:
        return max(1, (self._box(size).height - 110) // self.ROW)

    def _row_rect(self, i: int, size: tuple[int, int]) -> pygame.Rect:
        box = self._box(size)
        return pygame.Rect(box.left + 16, box.top + 70 + (i - self.top_index) * self.ROW, box.width - 32, self.ROW - 4)

    def pick(self, i: int) -> None:
        """Close the list and open entry ``i``."""
        if 0 <= i < len(self.entries):
            self.app.pop()
            self.on_pick(self.entries[i])

    def handle_event(self, action: Action) -> None:
        """Up/Down, wheel, Enter, click, Esc."""
        k = action.kind
        n = len(self.entries)
        if k == Act.BACK:
            self.app.pop()
        elif k == Act.CONFIRM:
            self.pick(self.cursor)
        elif k == Act.UP and n:
            self.cursor = (self.cursor - 1) % n
        elif k == Act.DOWN and n:
            self.cursor = (self.cursor + 1) % n
        elif k == Act.SCROLL and n:
            self.cursor = max(0, min(n - 1, self.cursor - action.value))
        elif k in (Act.CLICK, Act.HOVER) and action.pos is not None:
            size = self.app.screen.get_size()
            for i in range(self.top_index, min(n, self.top_index + self._visible(size))):
                if self._row_rect(i, size).collidepoint(action.pos):
                    self.cursor = i
                    if k == Act.CLICK:
                        self.pick(i)
                    return

    def update(self, dt: float) -> None:
        """Keep the cursor in view."""
        vis = self._visible(self.app.screen.get_size())
        if self.cursor < self.top_index:
            self.top_index = self.cursor
        elif self.cursor >= self.top_index + vis:
            self.top_index = self.cursor - vis + 1

    def draw(self, surface: pygame.Surface) -> None:
        """The list of levels."""
        _dim(surface)
        size = surface.get_size()
        box = self._box(size)
        hud.panel(surface, box, edge=hud.GOLD)
        hud.blit_text(surface, "Open a level", (box.centerx, box.top + 16), 40, hud.GOLD, anchor="midtop")
        if not self.entries:
            hud.blit_text(surface, "no levels found", box.center, 28, hud.MUTED, anchor="center")
        for i in range(self.top_index, min(len(self.entries), self.top_index + self._visible(size))):
            e = self.entries[i]
            rect = self._row_rect(i, size)
            if i == self.cursor:
                pygame.draw.rect(surface, (60, 50, 96), rect, border_radius=6)
                pygame.draw.rect(surface, hud.GOLD, rect, 1, border_radius=6)
            tag = "pack" if e.section == "pack" else "yours"
            b = hud.badge(surface, tag, (rect.left + 6, rect.centery), hud.GOLD if e.section == "pack" else hud.BLUE,
                          anchor="midleft", size=18)
            hud.blit_text(surface, e.title, (b.right + 10, rect.centery), 26, hud.WHITE, anchor="midleft")
            lv = e.level
            hud.blit_text(surface, f"{lv.height}x{lv.width}  N {lv.frames}  B {lv.budget}",
                          (rect.right - 8, rect.centery), 20, hud.MUTED, anchor="midright")
        hud.blit_text(surface, "Up/Down: choose   Enter: open   Esc: cancel   (pack levels are saved as a copy)",
                      (box.centerx, box.bottom - 30), 20, hud.MUTED, anchor="midtop")


def _dim(surface: pygame.Surface) -> None:
    veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    veil.fill((6, 4, 16, 150))
    surface.blit(veil, (0, 0))
