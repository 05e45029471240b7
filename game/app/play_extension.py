"""How add-ons plug into the play scene: one protocol, :class:`PlayExtension`, registered once.

An extension (the AI assistant, the release observer of "What the AI has learned", a test double)
is made by a factory of the app's registry (``app.registry.play_extensions``, filled by the composition
root :mod:`game.app.compose`), called once with every new play scene (a :class:`PlayHost`); the scene keeps what the factories return (by :attr:`PlayExtension.name`) and then, and only
then, calls them:

* :meth:`~PlayExtension.handle_event` sees every action before the scene (True consumes it);
* :meth:`~PlayExtension.update` once per frame;
* :meth:`~PlayExtension.marks` returns what it shows through the scene's own drawing (ghost bricks and
  coloured cells in the frame view, status lines, footer keys, whether the win/lose panel steps aside):
  a pure read of the extension's state, asked for when the scene draws (nothing is written into the
  scene);
* :meth:`~PlayExtension.draw` paints what the frame view has no field for, in the scene's one draw
  pass, right after the board (it never changes state);
* :meth:`~PlayExtension.on_edit` after every brick change, :meth:`~PlayExtension.on_leave` when the
  scene closes.

:class:`ExtensionBase` has a do-nothing default for each, so an extension writes only what it uses.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence, runtime_checkable

import pygame

from game.core.level import Brick, Level
from game.core.playback import PlayState
from game.core.progress import ProgressStore
from game.core.settings import Settings
from game.app.input import Action
from game.app.jobs import JobRunner
from game.app.render import BoardLayout, FrameView, LevelRenderer

RGBA = tuple[int, int, int, int]


@dataclass(frozen=True)
class Marks:
    """What an extension shows through the play scene's drawing (see the module docstring)."""

    ghost_bricks: tuple[Brick, ...] = ()
    highlights: tuple[tuple[Brick, RGBA], ...] = ()
    status_lines: tuple[str, ...] = ()
    footer_hints: tuple[tuple[str, str], ...] = ()  #: (key, what) pairs; they replace the scene's own for a key
    claims_board: bool = False  #: the win/lose panel and the lost run's marks step aside
    strip_left: int = 0  #: the strip under the top bar is the extension's up to this x (e.g. a badge)
    hide_preview: bool = False  #: the trajectory preview stays off (e.g. before the first release in a mystery world)


#: No marks.
NO_MARKS = Marks()


@dataclass(frozen=True)
class BoardView:
    """What an extension's :meth:`~PlayExtension.draw` gets: the board's layout and the frame on it."""

    layout: BoardLayout
    frame: FrameView


@runtime_checkable
class PlayExtension(Protocol):
    """An add-on of the play scene (see the module docstring)."""

    name: str

    def handle_event(self, action: Action) -> bool:
        """See ``action`` before the scene; True consumes it."""

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds (once per frame)."""

    def marks(self) -> Marks:
        """What to show through the scene's drawing now (a pure read)."""

    def draw(self, surface: pygame.Surface, view: BoardView) -> None:
        """Paint on the board, in the scene's draw pass; never changes state."""

    def on_edit(self) -> None:
        """The bricks changed."""

    def on_leave(self) -> None:
        """The scene is closing."""


class ExtensionBase:
    """Do-nothing defaults of :class:`PlayExtension` (subclass and override what you use)."""

    name = "extension"

    def handle_event(self, action: Action) -> bool:
        """Ignore the action."""
        return False

    def update(self, dt: float) -> None:
        """Nothing to advance."""

    def marks(self) -> Marks:
        """Nothing shown."""
        return NO_MARKS

    def draw(self, surface: pygame.Surface, view: BoardView) -> None:
        """Nothing drawn."""

    def on_edit(self) -> None:
        """Nothing to do."""

    def on_leave(self) -> None:
        """Nothing to stop."""


class HostApp(Protocol):
    """The part of the app an extension uses: the progress store (hints are counted there), the
    job runner (every AI job goes through it), the settings and opening a scene by name."""

    @property
    def progress(self) -> ProgressStore:
        """The player's progress."""

    @property
    def jobs(self) -> JobRunner:
        """The app's job runner."""

    @property
    def settings(self) -> Settings:
        """The player's settings."""

    def open(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Build the scene registered as ``name`` and show it on top."""


class PlayHost(Protocol):
    """What an extension factory gets: the play scene, seen through what extensions use (the play scene
    satisfies it; no extension imports the play scene)."""

    @property
    def level(self) -> Level:
        """The level played."""

    @property
    def key(self) -> str | None:
        """The level's progress key (None: nothing is recorded)."""

    @property
    def app(self) -> HostApp:
        """The app."""

    @property
    def renderer(self) -> LevelRenderer:
        """The board renderer."""

    @property
    def bricks(self) -> tuple[Brick, ...]:
        """The bricks on the board now."""

    @property
    def state(self) -> PlayState:
        """Where the playback is (placing, running, ...)."""

    @property
    def ai_bricks(self) -> bool:
        """The bricks on the board are an AI solution applied as it was (not edited since)."""

    def apply_bricks(self, bricks: Sequence[Brick]) -> bool:
        """Put a brick set on the board (on the undo chain); True if it changed."""

    def toggle_run(self) -> None:
        """Release the lemmings (Space)."""

    def ai_solution_shown(self) -> None:
        """The AI showed a solution of the level: its wins are AI-helped, whatever the bricks, until a win with
        bricks the player placed."""

    def say(self, message: str, seconds: float = 2.5, holds: Holds | None = None) -> None:
        """Show a one-line message under the HUD (``holds``: it goes once what it describes changes)."""


class Holds(enum.Enum):
    """What a line on the play screen is true of: it leaves the screen as soon as that changes."""

    BRICKS = "bricks"  #: the bricks on the board (e.g. "no bricks left": an undo makes it false)
    MOMENT = "moment"  #: the bricks and where the run is (e.g. "Space plays it": true only while placing)


@dataclass(frozen=True)
class Tie:
    """A line's tie to what it describes: ``holds`` and what that was when the line was said."""

    holds: Holds
    was: tuple[object, ...]

    @staticmethod
    def now(host: Situated, holds: Holds) -> Tie:
        """The tie of a line said now on ``host``."""
        return Tie(holds, _situation(host, holds))

    def true_on(self, host: Situated) -> bool:
        """True while what the line describes is unchanged on ``host``."""
        return _situation(host, self.holds) == self.was


class Situated(Protocol):
    """What a line on the play screen can describe: the bricks and where the run is."""

    @property
    def bricks(self) -> tuple[Brick, ...]:
        """The bricks on the board now."""

    @property
    def state(self) -> PlayState:
        """Where the playback is."""


def _situation(host: Situated, holds: Holds) -> tuple[object, ...]:
    return (host.bricks,) if holds == Holds.BRICKS else (host.bricks, host.state)


#: Makes an extension for a new play scene (or None: nothing for this one).
PlayExtensionFactory = Callable[[PlayHost], PlayExtension | None]


def merge_marks(marks: list[Marks]) -> Marks:
    """The marks of several extensions together (in registration order).

    >>> merge_marks([Marks(status_lines=("a",)), Marks(ghost_bricks=((1, 2),), claims_board=True)])
    Marks(ghost_bricks=((1, 2),), highlights=(), status_lines=('a',), footer_hints=(), claims_board=True, strip_left=0, hide_preview=False)
    """
    if len(marks) == 1:
        return marks[0]
    return Marks(tuple(b for m in marks for b in m.ghost_bricks), tuple(h for m in marks for h in m.highlights),
                 tuple(line for m in marks for line in m.status_lines),
                 tuple(hint for m in marks for hint in m.footer_hints), any(m.claims_board for m in marks),
                 max(m.strip_left for m in marks), any(m.hide_preview for m in marks))


__all__ = ["BoardView", "ExtensionBase", "Holds", "HostApp", "Marks", "NO_MARKS", "PlayExtension",
           "PlayExtensionFactory", "PlayHost", "RGBA", "Situated", "Tie", "merge_marks"]
