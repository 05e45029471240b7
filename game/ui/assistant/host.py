"""What the assistant needs from the scene it is installed on: :class:`AssistantHost`.

The play scene (:class:`game.ui.scenes.play.PlayScene`) satisfies this protocol; the assistant never
imports the play scene, so the two have no import cycle.  The hooks are lists the scene reads every
frame (``ghost_bricks``, ``highlights``, ``status_lines``, ``extra_hints``) or calls
(``interceptors``: actions offered to add-ons first; ``overlays``, ``updaters``, ``on_edit``,
``on_leave``, ``board_claims``: the win/lose panel steps aside while one returns True).
"""

from __future__ import annotations

from typing import Callable, Protocol, Sequence

import pygame

from game.level import Brick, Level
from game.progress import ProgressStore
from game.ui.input import Action
from game.ui.jobs import JobRunner
from game.ui.render import BoardLayout, LevelRenderer

RGBA = tuple[int, int, int, int]


class HostApp(Protocol):
    """The part of the app the assistant uses: the progress store (hints are counted there) and the
    job runner (every AI job goes through it)."""

    @property
    def progress(self) -> ProgressStore:
        """The player's progress."""

    @property
    def jobs(self) -> JobRunner:
        """The app's job runner."""


class AssistantHost(Protocol):
    """A scene that can host the assistant (see the module docstring)."""

    extensions: dict[str, object]
    ghost_bricks: list[Brick]
    highlights: list[tuple[Brick, RGBA]]
    status_lines: list[str]
    extra_hints: list[tuple[str, str]]
    interceptors: list[Callable[[Action], bool]]
    overlays: list[Callable[[pygame.Surface, BoardLayout], None]]
    updaters: list[Callable[[float], None]]
    on_edit: list[Callable[[], None]]
    on_leave: list[Callable[[], None]]
    board_claims: list[Callable[[], bool]]

    @property
    def level(self) -> Level:
        """The level played."""

    @property
    def key(self) -> str | None:
        """The level's progress key (None: hints are not recorded)."""

    @property
    def app(self) -> HostApp:
        """The app (its progress store)."""

    @property
    def renderer(self) -> LevelRenderer:
        """The board renderer (the relaxed overlay draws with its colours)."""

    @property
    def bricks(self) -> tuple[Brick, ...]:
        """The bricks on the board now."""

    def apply_bricks(self, bricks: Sequence[Brick]) -> bool:
        """Put a brick set on the board (on the undo chain); True if it changed."""

    def toggle_run(self) -> None:
        """Release the lemmings (Space)."""


__all__ = ["AssistantHost", "HostApp", "RGBA"]
