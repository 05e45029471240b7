"""The play scene's keys and mouse: what each action does while placing and while watching a replay.

The arrows move a brick cursor while placing (Shift+arrows at any time) and Enter / B use it; Left/Right
step frames once the lemmings are out.  A click places or removes a brick, hovering shows where one would
go (the mouse hides the cursor).  +/-, P and N change how the run is shown (speed, trajectory preview,
ruler; the preview and the ruler are remembered in the settings).  Functions of a :class:`KeyHost` (the
play scene, :class:`~game.app.scenes.play.PlayScene`).
"""

from __future__ import annotations

from typing import Callable, Protocol

import pygame

from game.core.level import Brick, Level
from game.core.playback import Playback, PlayState
from game.core.session import EditResult, PlaySession
from game.app.app import App
from game.app.input import Act, Action
from game.app.render import BoardLayout

#: What one action does.
Handler = Callable[[Action], None]


class KeyHost(Protocol):
    """What the keys and the mouse use of the play scene."""

    cursor: Brick | None  #: the keyboard cursor (None: hidden, the mouse is in use)
    hover: Brick | None
    message: str  #: one line under the HUD
    message_time: float
    preview: bool
    ruler: bool

    @property
    def app(self) -> App: ...
    @property
    def level(self) -> Level: ...
    @property
    def session(self) -> PlaySession: ...
    @property
    def playback(self) -> Playback: ...
    @property
    def state(self) -> PlayState: ...
    @property
    def last_frame(self) -> int: ...
    def layout(self, size: tuple[int, int] | None = None) -> BoardLayout: ...
    def click_cell(self, cell: Brick) -> EditResult: ...
    def edited(self) -> None: ...
    def say(self, message: str, seconds: float = 2.5) -> None: ...
    def toggle_run(self) -> None: ...
    def step_frames(self, delta: int) -> None: ...
    def seek(self, frame: int) -> None: ...
    def restart(self) -> None: ...
    def next_level(self) -> None: ...
    def back(self) -> None: ...


def placing_bindings(scene: KeyHost) -> dict[Act, Handler]:
    """What each action does when no extension used it (placing bricks and playing the run)."""
    return {
        Act.CLICK: lambda a: click(scene, a),
        Act.HOVER: lambda a: hover(scene, a),
        Act.TOGGLE_RUN: lambda a: scene.toggle_run(),
        Act.RIGHT: lambda a: arrow(scene, 0, 1, a),
        Act.LEFT: lambda a: arrow(scene, 0, -1, a),
        Act.UP: lambda a: move_cursor(scene, -1, 0),
        Act.DOWN: lambda a: move_cursor(scene, 1, 0),
        Act.PLACE: lambda a: _place(scene),
        Act.STEP_FORWARD: lambda a: scene.step_frames(1),
        Act.STEP_BACK: lambda a: scene.step_frames(-1),
        Act.RULER: lambda a: toggle_ruler(scene),
        Act.RIGHT_CLICK: lambda a: click(scene, a),
        Act.SPEED_UP: lambda a: change_speed(scene, 1),
        Act.SPEED_DOWN: lambda a: change_speed(scene, -1),
        Act.RESTART: lambda a: scene.restart(),
        Act.CLEAR: lambda a: _edit(scene, scene.session.clear()),
        Act.UNDO: lambda a: _edit(scene, scene.session.undo()),
        Act.REDO: lambda a: _edit(scene, scene.session.redo()),
        Act.PREVIEW: lambda a: toggle_preview(scene),
        Act.BACK: lambda a: escape(scene),
        Act.CONFIRM: lambda a: confirm(scene),
        Act.FIRST_FRAME: lambda a: scene.seek(0),
        Act.LAST_FRAME: lambda a: scene.seek(scene.last_frame),
    }


def watching_bindings(scene: KeyHost) -> dict[Act, Handler]:
    """The keys while watching a replay: play, step, speed, seek; nothing edits the bricks."""
    return {
        Act.TOGGLE_RUN: lambda a: scene.toggle_run(),
        Act.RIGHT: lambda a: scene.step_frames(1),
        Act.LEFT: lambda a: scene.step_frames(-1),
        Act.STEP_FORWARD: lambda a: scene.step_frames(1),
        Act.STEP_BACK: lambda a: scene.step_frames(-1),
        Act.RULER: lambda a: toggle_ruler(scene),
        Act.SPEED_UP: lambda a: change_speed(scene, 1),
        Act.SPEED_DOWN: lambda a: change_speed(scene, -1),
        Act.RESTART: lambda a: scene.restart(),
        Act.PREVIEW: lambda a: toggle_preview(scene),
        Act.BACK: lambda a: escape(scene),
        Act.CONFIRM: lambda a: scene.back() if scene.playback.ended else None,
        Act.FIRST_FRAME: lambda a: scene.seek(0),
        Act.LAST_FRAME: lambda a: scene.seek(scene.last_frame),
    }


def _edit(scene: KeyHost, changed: bool) -> None:
    if changed:
        scene.edited()


def _place(scene: KeyHost) -> None:
    place_at_cursor(scene)


def escape(scene: KeyHost) -> None:
    """Esc: close the message on screen and open the pause menu (one press, whatever the messages)."""
    scene.message, scene.message_time = "", 0.0
    scene.playback.pause()
    scene.app.open("pause", scene)


def confirm(scene: KeyHost) -> None:
    """Enter: after a win, the next level; after a loss, try again; while placing, the cursor's brick."""
    if scene.state == PlayState.WON:
        scene.next_level()
    elif scene.state == PlayState.LOST:
        scene.restart()
    elif scene.state == PlayState.PLACING and scene.cursor is not None:
        place_at_cursor(scene)


# ------------------------------------------------------------------ keyboard cursor
def arrow(scene: KeyHost, drow: int, dcol: int, action: Action) -> None:
    """Left/Right: move the cursor while placing (Shift: always); step frames once the lemmings are out."""
    if scene.state == PlayState.PLACING or action.mod & pygame.KMOD_SHIFT:
        move_cursor(scene, drow, dcol)
    else:
        scene.step_frames(dcol)


def move_cursor(scene: KeyHost, drow: int, dcol: int) -> None:
    """Arrows: show / move the brick cursor (clamped to the board)."""
    level = scene.level
    if scene.cursor is None:
        scene.cursor = scene.hover if scene.hover is not None else cursor_home(level)
        scene.hover = None
        return
    r, c = scene.cursor
    scene.cursor = (max(0, min(level.height - 1, r + drow)), max(0, min(level.width - 1, c + dcol)))


def cursor_home(level: Level) -> Brick:
    """Where the cursor first appears: below the first lemming's start, else the middle."""
    if level.lemmings:
        lem = level.lemmings[0]
        return (min(level.height - 1, lem.row + 1), lem.col)
    return (level.height // 2, level.width // 2)


def place_at_cursor(scene: KeyHost) -> EditResult | None:
    """Enter / B: place or remove a brick at the cursor (shows the cursor first if hidden)."""
    if scene.cursor is None:
        move_cursor(scene, 0, 0)
        return None
    return scene.click_cell(scene.cursor)


# ------------------------------------------------------------------ mouse
def click(scene: KeyHost, action: Action) -> None:
    """A click on the board: place or remove a brick there."""
    cell = scene.layout().cell_at(action.pos)
    if cell is not None:
        scene.click_cell(cell)


def hover(scene: KeyHost, action: Action) -> None:
    """The mouse moved: the cell under it (the mouse takes over from the cursor)."""
    scene.hover = scene.layout().cell_at(action.pos)
    if scene.hover is not None:
        scene.cursor = None  # the mouse took over


# ------------------------------------------------------------------ how the run is shown
def change_speed(scene: KeyHost, delta: int) -> None:
    """+/-: next/previous speed in :data:`game.core.settings.SPEEDS` for this visit (the next level of the
    playlist keeps it); the saved default speed is the Settings screen's alone."""
    scene.say(f"speed {scene.playback.change_speed(delta)}x")


def toggle_preview(scene: KeyHost) -> None:
    """P: show/hide the ghost paths of the current bricks (remembered for the next levels)."""
    scene.preview = not scene.preview
    scene.app.change_settings(preview=scene.preview)
    scene.say("trajectory preview on" if scene.preview else "trajectory preview off")


def toggle_ruler(scene: KeyHost) -> None:
    """N: row/column numbers around the board (remembered)."""
    scene.ruler = not scene.ruler
    scene.app.change_settings(ruler=scene.ruler)
    scene.say("ruler on" if scene.ruler else "ruler off")
