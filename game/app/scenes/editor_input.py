"""The level editor's keys and mouse: which action does what (:meth:`EditorInput.bindings`), painting with
the mouse (a drag paints every cell the pointer crosses, one undo step; the right button erases), painting
without it (Shift+arrows move the cell cursor, B paints there), and the wheel (it scrolls the right panel under
the pointer, elsewhere it cycles the tools).  The typed letters are the editor's own
(:meth:`~game.app.scenes.editor.EditorScene.letter_commands`).
"""

from __future__ import annotations

from typing import Callable, Protocol

import pygame

from game.app.input import Act, Action, mouse_held
from game.app.render import BoardLayout
from game.app.scenes.editor_host import EditorHost
from game.app.scenes.editor_palette import Button
from game.app.scenes.editor_panel import SidePanel
from game.app.scenes.editor_results import SolutionBrowser
from game.core.editor_draft import Edge, cells_between
from game.core.editor_model import Tool
from game.core.level import Brick


class InputHost(EditorHost, Protocol):
    """What the keys and the mouse read and change of the editor, and the commands they call."""

    hover: Brick | None
    panel_scroll: int

    @property
    def tool(self) -> Tool: ...
    @property
    def solutions(self) -> SolutionBrowser: ...
    def layout(self) -> BoardLayout: ...
    def buttons(self, size: tuple[int, int]) -> list[Button]: ...
    def paint(self, cell: Brick, tool: Tool | None = None, *, stroke: bool = False) -> bool: ...
    def set_tool(self, tool: Tool) -> None: ...
    def undo(self) -> None: ...
    def redo(self) -> None: ...
    def resize(self, edge: Edge, delta: int) -> None: ...
    def change_frames(self, delta: int) -> None: ...
    def change_budget(self, delta: int) -> None: ...
    def play_test(self) -> None: ...
    def save(self, then: Callable[[], None] | None = None) -> None: ...
    def save_as(self) -> None: ...
    def open_picker(self) -> None: ...
    def exit(self) -> None: ...
    def letter_commands(self) -> dict[str, Callable[[], None]]: ...


class EditorInput:
    """Turns the app's actions into the commands of one editor (``host``); ``panel`` is its right panel (the
    wheel over it scrolls it)."""

    def __init__(self, host: InputHost, panel: SidePanel) -> None:
        self.host = host
        self.panel = panel
        self._stroke: tuple[Tool, int] | None = None  #: (tool, mouse button index) of a drag
        self._stroke_at: Brick | None = None  #: the cell the drag last painted (the next one paints the line from it)

    def handle(self, action: Action) -> None:
        """Do what ``action`` means in the editor (see the module docstring)."""
        if self._keyboard_paint(action):  # Shift+arrows move the cell cursor, B paints there
            return
        handler = self.bindings().get(action.kind)
        if handler is not None:
            handler(action)

    def bindings(self) -> dict[Act, Callable[[Action], None]]:
        """Which action does what."""
        return {
            Act.CLICK: lambda a: self._click(a.pos), Act.RIGHT_CLICK: self._right_click,
            Act.HOVER: lambda a: self._hover(a.pos), Act.TOOL: self._pick_tool,
            Act.UNDO: lambda a: self.host.undo(), Act.REDO: lambda a: self.host.redo(),
            Act.UP: lambda a: self.host.resize(Edge.TOP if _ctrl(a) else Edge.BOTTOM, -1),
            Act.DOWN: lambda a: self.host.resize(Edge.TOP if _ctrl(a) else Edge.BOTTOM, 1),
            Act.LEFT: lambda a: self.host.resize(Edge.LEFT if _ctrl(a) else Edge.RIGHT, -1),
            Act.RIGHT: lambda a: self.host.resize(Edge.LEFT if _ctrl(a) else Edge.RIGHT, 1),
            Act.SPEED_UP: lambda a: self.host.change_frames(1),
            Act.SPEED_DOWN: lambda a: self.host.change_frames(-1),
            Act.NEXT_ITEM: lambda a: self.host.change_budget(1),
            Act.PREV_ITEM: lambda a: self.host.change_budget(-1),
            Act.TOGGLE_RUN: lambda a: self.host.play_test(),
            Act.SAVE: lambda a: self.host.save_as() if a.mod & pygame.KMOD_SHIFT else self.host.save(),
            Act.OPEN: lambda a: self.host.open_picker(), Act.BACK: lambda a: self.host.exit(),
            Act.SCROLL: self._wheel,
            Act.TEXT: lambda a: self._letter(a.text.lower()),
            Act.STEP_FORWARD: lambda a: self.host.solutions.step(1),
            Act.STEP_BACK: lambda a: self.host.solutions.step(-1),
        }

    def _wheel(self, action: Action) -> None:
        """The wheel scrolls the right panel under the pointer when it holds more than it shows; elsewhere it
        cycles the tools."""
        size = self.host.app.screen.get_size()
        rect, _ = self.panel.side_panel(size)
        _, above, below = self.panel.visible_side_lines(size)
        pointer = self.host.app.mouse_pos
        if pointer is not None and rect.collidepoint(pointer) and (above or below):
            if (action.value < 0 and below) or (action.value > 0 and above):  # from the line shown, no further
                first = self.panel.first_shown(size) - 2 * action.value
                self.host.panel_scroll = max(0, min(first, self.panel.last_scroll(size)))
            return
        self.host.set_tool(Tool((self.host.tool.value - 1 - action.value) % len(Tool) + 1))

    def _right_click(self, action: Action) -> None:
        cell = self.host.layout().cell_at(action.pos)
        if cell is not None:
            self.host.model.end_stroke()
            self.host.paint(cell, Tool.ERASE)
            self._stroke, self._stroke_at = (Tool.ERASE, 2), cell

    def _pick_tool(self, action: Action) -> None:
        if action.value in {t.value for t in Tool}:
            self.host.set_tool(Tool(action.value))

    def _keyboard_paint(self, action: Action) -> bool:
        """Without a mouse: Shift+arrows move the cursor cell (the hover cell), B uses the tool on it."""
        moves = {Act.UP: (-1, 0), Act.DOWN: (1, 0), Act.LEFT: (0, -1), Act.RIGHT: (0, 1)}
        if action.kind in moves and action.mod & pygame.KMOD_SHIFT:
            dr, dc = moves[action.kind]
            rows, cols = self.host.draft.height, self.host.draft.width
            r, c = self.host.hover if self.host.hover is not None else (rows // 2, cols // 2)
            self.host.hover = (max(0, min(rows - 1, r + dr)), max(0, min(cols - 1, c + dc)))
            return True
        if action.kind == Act.PLACE:
            if self.host.hover is None:
                self.host.hover = (self.host.draft.height // 2, self.host.draft.width // 2)
            else:
                self.host.model.end_stroke()
                self.host.paint(self.host.hover)
            return True
        return False

    def _letter(self, ch: str) -> None:
        command = self.host.letter_commands().get(ch)
        if command is not None:
            command()

    def _click(self, pos: tuple[int, int] | None) -> None:
        if pos is None:
            return
        for button in self.host.buttons(self.host.app.screen.get_size()):
            if button.rect.collidepoint(pos):
                button.run()  # a greyed-out action still runs, to say why it can't be done
                return
        cell = self.host.layout().cell_at(pos)
        if cell is not None:
            self.host.model.end_stroke()
            self.host.paint(cell)
            self._stroke = (self.host.tool, 0) if self.host.tool != Tool.LEMMING else None
            self._stroke_at = cell

    def _hover(self, pos: tuple[int, int] | None) -> None:
        self.host.hover = self.host.layout().cell_at(pos)
        if self._stroke is None:
            return
        tool, button = self._stroke
        if not mouse_held(button):
            self._stroke = None
            self.host.model.end_stroke()
        elif self.host.hover is None:
            self._stroke_at = None  # off the board: the stroke goes on from where the pointer comes back
        else:
            start = self._stroke_at if self._stroke_at is not None else self.host.hover
            for cell in cells_between(start, self.host.hover):  # every cell the pointer crossed since the last motion
                self.host.paint(cell, tool, stroke=True)
            self._stroke_at = self.host.hover


def _ctrl(action: Action) -> bool:
    """True when Ctrl was held (arrows then work on the top and left edges)."""
    return bool(action.mod & pygame.KMOD_CTRL)


__all__ = ["EditorInput", "InputHost"]
