"""The pygame front end: app and scene stack, renderer, sprites, input mapping, HUD.

pygame (pygame-ce, imported as ``pygame``) is only ever imported under this package.

* :mod:`game.app.compose` — the composition root: :func:`~game.app.compose.build_app` builds the app, its
  stores, its job runner and its registry (every scene by name, the title menu, the play-scene extensions,
  the side puzzles); every command that starts the game builds it there.
* :mod:`game.app.app` — :class:`~game.app.app.App` (window, main loop, scene stack),
  :class:`~game.app.app.Scene` (``handle_event(action)`` / ``update(dt)`` / ``draw(surface)``) and the
  typed :class:`~game.app.app.Registry`.
* :mod:`game.app.jobs` — the one job runner: every AI job gets one :class:`~ai.facade.SolveContext`.
* :mod:`game.app.input` — the one place that turns pygame events into :class:`~game.app.input.Action`.
* :mod:`game.app.render` — :class:`~game.app.render.LevelRenderer` draws a level state on any Surface
  (the window, or a GIF frame: see :func:`~game.app.render.render_frame`).
* :mod:`game.app.sprites` — the pixel-art sprite sheet (PNGs in ``assets/``).
* :mod:`game.app.scenes` — menu, level select, play, editor (with its view, analysis and dialogs), Endless.
* :mod:`game.app.assistant` — the play scene's AI assistant: state, controller, overlay (a play-scene extension).
"""

from __future__ import annotations

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
