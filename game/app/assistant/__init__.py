"""The AI assistant of the play scene: hints, solutions, deductions and GIF export.

* :mod:`~game.app.assistant.state` — what it knows and shows: immutable, typed, no pygame;
  player-facing solver names and every line of text are pure functions of it.
* :mod:`~game.app.assistant.controller` — :class:`Assistant`: actions become jobs of the app's runner
  (:mod:`game.app.jobs`, in a child process), job events become a new state; it is a
  :class:`~game.app.play_extension.PlayExtension` of the play scene (its marks and its overlay are read
  from the state when the scene draws).
* :mod:`~game.app.assistant.text` — every line the player reads, from the state;
  :mod:`~game.app.assistant.answers` — answers and hints becoming a new state.
* :mod:`~game.app.assistant.tasks` — the solvers Tab offers and the jobs the controller submits.
* :mod:`~game.app.assistant.background` — the jobs outside the solve lane: the prefetch (for hints) and
  the GIF export.
* :mod:`~game.app.assistant.overlay` — the marks on the board and drawing from the state (never-useful
  cells, relaxed densities, the solver badge); draw never mutates.

:func:`install` is a play-scene extension factory (registered by the composition root,
:mod:`game.app.compose`); this package never imports the play scene.
"""

from __future__ import annotations

from typing import Mapping, Protocol

from game.app.assistant.controller import Assistant
from game.app.assistant.tasks import EXACT, SOLVER_CYCLE, solver_choices
from game.app.play_extension import PlayHost

#: The key of the assistant in ``scene.extensions``.
EXTENSION_KEY = Assistant.name


def install(scene: PlayHost) -> Assistant:
    """The assistant of ``scene`` (the scene registers it as its extension ``"assistant"``)."""
    return Assistant(scene)


class HasExtensions(Protocol):
    """A scene with extensions by name (the play scene)."""

    @property
    def extensions(self) -> Mapping[str, object]:
        """The scene's extensions."""


def assistant_of(scene: HasExtensions) -> Assistant:
    """The assistant installed on ``scene`` (KeyError when none is)."""
    found = scene.extensions[EXTENSION_KEY]
    assert isinstance(found, Assistant)
    return found


__all__ = ["Assistant", "EXACT", "EXTENSION_KEY", "SOLVER_CYCLE", "assistant_of", "install",
           "solver_choices"]
