"""The level editor scene: paint a map, set N and B, play-test, analyse, tighten, save.

The model (grid, tools, resize, N/B, undo/redo, save) is the pygame-free
:class:`~game.core.editor_model.EditorModel`; this scene holds the editor's state, makes the edits and runs the
analysis.  Its parts: :mod:`~game.app.scenes.editor_input` (the keys and the mouse),
:mod:`~game.app.scenes.editor_saving` (saving, and unsaved changes before leaving a level),
:mod:`~game.app.scenes.editor_results` (A, T, and the optimal solutions shown on the board),
:mod:`~game.app.scenes.editor_info` (the level's info and physics), :mod:`~game.app.scenes.editor_view` (how it
looks, with its palette and side panel modules); :mod:`game.app.scenes.dialogs` asks the questions.

Keys: 1-4 pick the tool (wall, erase, lemming, target); click paints (drag paints a stroke,
one undo step); right click erases; Z/Y undo/redo; arrows resize at the bottom and right edges (Up/Down remove/add
a row, Left/Right a column), Ctrl+arrows at the top and left edges (a line holding a lemming or a target is never
removed; one holding walls asks first); +/- frames N; [ / ] budget B; G grid; Space or P play-test; A analyse
(again: cancel); T tighten; V show an optimal solution (, and . show the others); I level info (title, author,
description, hint); Ctrl+S save (a new level asks for its title first); Ctrl+Shift+S save a copy; Ctrl+O open; N
new; Esc exit.

An analysis is about one exact level (its fingerprint: map, lemmings, targets, N, B, physics): after
any change it is shown greyed as stale, and V and T never act on it.  Saving a level known to have no
solution asks first.

Analysis runs in a child process (:class:`~game.app.scenes.editor_analysis.EditorAnalysis`); the editor
polls it once per frame and never waits for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pygame

from ai.facade import Analysis, AnalysisStatus
from game.core.level import Brick, Level
from game.core.storage import user_levels_dir
from game.app import hud
from game.app.app import App, HelpPage, Scene
from game.core.catalog import LevelEntry, Section
from game.core.editor_draft import MAX_EDIT_SIDE, MIN_EDIT_SIDE, Draft, Edge, parse_size
from game.core.editor_model import EditorModel, Tool
from game.app.input import Action, display_key
from game.app.render import BoardLayout, LevelRenderer, fit_layout
from game.app.scenes.dialogs import ConfirmPrompt, OpenPrompt, TextPrompt
from game.app.scenes.editor_analysis import EditorAnalysis
from game.app.scenes.editor_help import editor_help_page, footer_height
from game.app.scenes.editor_info import ask_level_info, ask_physics
from game.app.scenes.editor_input import EditorInput
from game.app.scenes.editor_palette import Button, palette_buttons, panel_widths
from game.app.scenes.editor_saving import LevelSaving
from game.app.scenes.editor_results import AnalysisCommands, SolutionBrowser
from game.app.scenes.editor_view import EditorView

#: Size of a new level when none is chosen.
DEFAULT_NEW_SIZE = (10, 14)
#: What a size typed for a new level must look like.
SIZE_RULE = f"size must read like 10x14 (rows x columns, {MIN_EDIT_SIDE} to {MAX_EDIT_SIDE})"


class EditorScene(Scene):
    """Edit one level.  ``model`` defaults to a new bordered map of :data:`DEFAULT_NEW_SIZE`."""

    def __init__(self, app: App, model: EditorModel | None = None, *,
                 levels_dir: Path | None = None, analysis_solver: str = "auto",
                 analysis_in_process: bool = True) -> None:
        super().__init__(app)
        self.model = model if model is not None else EditorModel.new(*DEFAULT_NEW_SIZE)
        self.levels_dir = levels_dir
        self.tool = Tool.WALL
        self.grid_on = True
        self.solutions = SolutionBrowser(self)  #: the optimal solution shown on the board (V), if any
        self.panel_scroll = 0  #: the first line the right panel shows (the wheel over it scrolls)
        self.anim = 0.0
        self.hover: Brick | None = None
        self.message = ""
        self.message_color = hud.WHITE
        self.message_time = 0.0
        self.renderer = LevelRenderer()
        self.analyser = EditorAnalysis(app.jobs, self, analysis_solver, in_process=analysis_in_process)
        self.commands = AnalysisCommands(self, self.solutions)  #: A and T
        self.view = EditorView(self)
        self.input = EditorInput(self, self.view.panel)
        #: run once the editor has closed (e.g. the level it was opened over reads its saved file again)
        self.on_close: Callable[[], None] | None = None
        self.saving = LevelSaving(self)
        self.app.action_filters.append(self.saving.quit_filter)

    # ================================================================ queries
    @property
    def draft(self) -> Draft:
        """The current draft."""
        return self.model.draft

    def folder(self) -> Path:
        """Where saves go: the user's levels folder."""
        return self.levels_dir if self.levels_dir is not None else user_levels_dir()

    def board_area(self, size: tuple[int, int]) -> pygame.Rect:
        """The rectangle the board is fitted into."""
        w, h = size
        left, right = panel_widths(w)
        top = hud.TOP_BAR + 22
        x0 = left + 28
        return pygame.Rect(x0, top, max(1, w - x0 - right - 28), max(1, h - top - footer_height(w) - 18))

    def layout(self, size: tuple[int, int] | None = None) -> BoardLayout:
        """Where the draft's board is drawn on the app's screen (or a screen of ``size``)."""
        d = self.draft
        return fit_layout(d.height, d.width, self.board_area(size or self.app.screen.get_size()), max_cell=64)

    @property
    def analysis(self) -> Analysis | None:
        """The last analysis (maybe of an older map: see :meth:`analysis_current`)."""
        return self.analyser.result

    @property
    def analysing(self) -> bool:
        """True while an analysis runs."""
        return self.analyser.running

    @property
    def analysis_error(self) -> str:
        """Why the last analysis failed, or ''."""
        return self.analyser.error

    def analysis_current(self) -> bool:
        """True when the shown analysis is about the current draft (map, lemmings, targets, N, B, physics)."""
        return self.analyser.is_current(self.draft)

    def analysis_stale(self) -> bool:
        """True when there is an analysis, but of the draft as it was before a change."""
        return self.analyser.is_stale(self.draft)

    def status_now(self) -> AnalysisStatus | None:
        """The analysis verdict for the current budget ("ok", "over_budget", ...), or None."""
        return self.analyser.verdict(self.draft)

    # ================================================================ actions
    def say(self, text: str, seconds: float = 3.0, color: tuple[int, int, int] = hud.WHITE) -> None:
        """Show a one-line message under the top bar."""
        self.message, self.message_time, self.message_color = text, seconds, color

    def set_tool(self, tool: Tool) -> None:
        """Pick a tool."""
        self.tool = tool
        if tool == Tool.LEMMING:
            self.say("tool: Lemming (click a lemming to turn it round)", 3.0)
        else:
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

    def resize(self, edge: Edge, delta: int) -> None:
        """Add (``delta`` 1) or remove (-1) a row or column at ``edge``.

        A line holding a lemming or a target is not removed (the message names them); one holding
        walls is removed after asking.
        """
        if delta > 0:
            if self.model.grow(edge):
                self._resized()
            else:
                self.say(f"the map can't be larger than {MAX_EDIT_SIDE} x {MAX_EDIT_SIDE}", 2.5, hud.MUTED)
            return
        d = self.draft
        if (d.height if edge.is_row else d.width) <= MIN_EDIT_SIDE:
            self.say(f"the map can't be smaller than {MIN_EDIT_SIDE} x {MIN_EDIT_SIDE}", 2.5, hud.MUTED)
            return
        lost, walls = self.model.removal_loss(edge)
        if lost:
            self.say(f"can't remove the {edge.line}: it holds {' and '.join(lost)}; erase or move "
                     f"{'it' if len(lost) == 1 else 'them'} first", 6.0, hud.RED)
            return
        if walls:
            def remove() -> None:
                if self.model.shrink(edge, force=True):
                    self._resized()
            self.app.push(ConfirmPrompt(
                self.app, f"Remove the {edge.line}?",
                f"It holds {walls} wall{'s' if walls != 1 else ''}, which will be deleted "
                f"({display_key('Z')} undoes it).",
                [("Enter", "remove", remove), ("Esc", "keep it", None)]))
            return
        if self.model.shrink(edge):
            self._resized()

    def _resized(self) -> None:
        self._edited()
        self.say(f"size {self.draft.height} x {self.draft.width}", 1.5)

    def change_frames(self, delta: int) -> None:
        """N += delta."""
        if self.model.set_frames(self.draft.frames + delta):
            self._edited()

    def change_budget(self, delta: int) -> None:
        """B += delta."""
        if self.model.set_budget(self.draft.budget + delta):
            self._edited()

    def cycle_physics(self, step: int = 1) -> None:
        """Switch the lemmings to the next (or previous) physics the game ships."""
        physics = self.model.cycle_physics(step)
        self._edited()
        self.say(f"physics: {physics.name}" + ("" if physics.targets_stop else " (targets do not stop lemmings)"), 2.5)

    def write_physics(self) -> None:
        """J: edit the physics as text (:func:`~game.app.scenes.editor_info.ask_physics`)."""
        ask_physics(self)

    def toggle_grid(self) -> None:
        """Show or hide the grid overlay."""
        self.grid_on = not self.grid_on
        self.say("grid on" if self.grid_on else "grid off", 1.2)

    def refuse_invalid(self, what: str) -> bool:
        """Say why the draft cannot be ``what`` (played, saved...) yet and return True, or return False."""
        problems = self.model.problems()
        if problems:
            self.say(f"can't {what} yet: " + " and ".join(problems), 4.0, hud.RED)
            return True
        return False

    def play_test(self) -> None:
        """Play the current draft at once (no save); Esc comes back to this editor state."""
        if self.refuse_invalid("play-test"):
            return
        level = self.model.to_level()
        title = f"Play-test: {level.title or 'untitled'}"
        self.app.open("play", level, key=None, title=title, back_label="editor")

    # ---------------------------------------------------------------- analysis
    def analyse(self) -> None:
        """A: start the analysis (in a child process; a second press while it runs cancels it)."""
        self.commands.analyse()

    def tighten(self) -> None:
        """T: set B to the minimum bricks and N to the fewest frames (analysing first if needed)."""
        self.commands.tighten()

    # ---------------------------------------------------------------- files
    def save(self, then: Callable[[], None] | None = None) -> None:
        """Save to the user's levels folder (``then`` runs after a good save): at once, or first asking for a
        title when the level is new and still untitled (:class:`~game.app.scenes.editor_saving.LevelSaving`)."""
        self.saving.save(then)

    def save_as(self) -> None:
        """Ctrl+Shift+S: save a copy under a new title, as a new file; the editor then edits the copy."""
        self.saving.save_as()

    def save_now(self) -> bool:
        """Save under the current title; a failure keeps the old file and says why."""
        return self.saving.save_now()

    def level_info(self) -> None:
        """I: the level's title, author, description and hint, one after another."""
        ask_level_info(self)

    def edited(self) -> None:
        """Note an edit made from outside (a dialog): a current solution shown of an older draft is hidden."""
        self._edited()

    def exit(self) -> None:
        """Esc: leave the editor (asks about unsaved changes)."""
        self.saving.exit()

    def open_picker(self) -> None:
        """Ctrl+O: choose a level (the pack's or the user's) to edit."""
        self.app.push(OpenPrompt(self.app, lambda entry: self.saving.guard_unsaved(lambda: self.load_entry(entry))))

    def load_entry(self, entry: LevelEntry) -> None:
        """Edit a catalog entry; pack levels are saved as a copy into the user's folder."""
        user = entry.section == Section.USER and entry.path is not None
        source = f"{entry.section.value}: {entry.path.name}" if entry.path is not None else entry.section.value
        self.load(entry.level, path=entry.path if user else None, source=source)

    def load(self, level: Level, *, path: Path | None = None, source: str = "") -> None:
        """Replace the model with ``level`` (fresh history)."""
        self.model = EditorModel.from_level(level, path=path, source=source)
        self._reset_analysis()
        note = "" if path is not None else " (saving makes a copy in your levels)"
        self.say(f"opened {level.title or source}{note}", 3.0)

    def new_level(self) -> None:
        """N: ask for a size (asked again while it does not read), then start a new bordered map."""

        def made(text: str) -> None:
            size = parse_size(text)
            if size is not None:  # (the prompt's check stays open on a size that does not read)
                self.model = EditorModel.new(*size)
                self._reset_analysis()
                self.say(f"new {size[0]} x {size[1]} level", 2.0)

        def check(text: str) -> str | None:
            return None if parse_size(text) is not None else SIZE_RULE

        def ask() -> None:
            self.app.push(TextPrompt(self.app, "New level", "Size (rows x columns):",
                                     f"{DEFAULT_NEW_SIZE[0]}x{DEFAULT_NEW_SIZE[1]}", made, check=check))

        self.saving.guard_unsaved(ask)

    def _reset_analysis(self) -> None:
        self.analyser.reset()
        self.commands.tighten_pending = False
        self.solutions.visible = False

    def _edited(self) -> None:
        if not self.analysis_current():
            self.solutions.visible = False

    # ================================================================ events
    def handle_event(self, action: Action) -> None:
        """Map actions to edits (see the module docstring for the keys, :class:`EditorInput` for how)."""
        self.input.handle(action)

    def letter_commands(self) -> dict[str, Callable[[], None]]:
        """What each typed letter does (the help page lists every one)."""
        return {
            "a": self.analyse, "t": self.tighten, "g": self.toggle_grid, "n": self.new_level,
            "p": self.play_test, "v": self.solutions.toggle, "k": self.cycle_physics, "j": self.write_physics,
            "i": self.level_info,
        }

    def help_page(self) -> HelpPage:
        """F1: the editor's own keys."""
        return editor_help_page()

    # ================================================================ palette
    def buttons(self, size: tuple[int, int]) -> list[Button]:
        """The palette's buttons for a window of ``size``
        (see :func:`game.app.scenes.editor_palette.palette_buttons`)."""
        return palette_buttons(self, size)

    # ================================================================ update / draw
    def update(self, dt: float) -> None:
        """Animations, the message timer, and the analysis outcome."""
        self.anim += dt
        if self.message_time > 0:
            self.message_time -= dt
            if self.message_time <= 0:
                self.message = ""
        self.commands.poll()

    def on_exit(self) -> None:
        """Stop the analysis and the quit filter."""
        self.analyser.shutdown()
        if self.saving.quit_filter in self.app.action_filters:
            self.app.action_filters.remove(self.saving.quit_filter)

    def draw(self, surface: pygame.Surface) -> None:
        """Backdrop, board, palette, analysis panel, top bar, hints (see :class:`EditorView`)."""
        self.view.draw(surface)

