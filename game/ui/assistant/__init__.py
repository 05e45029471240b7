"""The AI assistant of the play scene: hints, solutions, deductions and GIF export.

* :mod:`~game.ui.assistant.state` — what it knows and shows: immutable, typed, no pygame;
  player-facing solver names and every line of text are pure functions of it.
* :mod:`~game.ui.assistant.controller` — :class:`Assistant`: actions become jobs of the app's runner
  (:mod:`game.ui.jobs`, in a child process), job events become a new state, the state goes into the scene's hooks.
* :mod:`~game.ui.assistant.overlay` — drawing from the state (never-useful cells, relaxed densities,
  the solver badge); draw never mutates.
* :mod:`~game.ui.assistant.host` — :class:`AssistantHost`, the small protocol a scene offers.

:func:`install` is a play-scene extension (``game.ui.scenes.play.PLAY_SCENE_EXTENSIONS``, registered by
:mod:`game.ui.scenes`); this package never imports the play scene.
"""

from __future__ import annotations

from game.ui.assistant.controller import EXACT, SOLVER_CYCLE, Assistant, solver_choices
from game.ui.assistant.host import AssistantHost
from game.ui.assistant.overlay import overlay_for

#: The key of the assistant in ``scene.extensions``.
EXTENSION_KEY = "assistant"


def install(scene: AssistantHost) -> Assistant:
    """Create the assistant of ``scene`` and hook it in (actions first, overlay, per-frame update,
    edit and leave callbacks)."""
    assistant = Assistant(scene)
    scene.extensions[EXTENSION_KEY] = assistant
    scene.interceptors.append(assistant.handle_action)
    scene.overlays.append(overlay_for(lambda: assistant.state, scene.renderer))
    scene.updaters.append(assistant.update)
    scene.on_edit.append(assistant.on_edit)
    scene.on_leave.append(assistant.shutdown)
    scene.board_claims.append(lambda: assistant.state.solution is not None)
    assistant.sync()
    return assistant


def assistant_of(scene: AssistantHost) -> Assistant:
    """The assistant installed on ``scene`` (KeyError when none is)."""
    found = scene.extensions[EXTENSION_KEY]
    assert isinstance(found, Assistant)
    return found


__all__ = ["Assistant", "AssistantHost", "EXACT", "EXTENSION_KEY", "SOLVER_CYCLE", "assistant_of", "install",
           "solver_choices"]
