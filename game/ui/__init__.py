"""The pygame front end: app and scene stack, renderer, sprites, input mapping, HUD.

pygame (pygame-ce, imported as ``pygame``) is only ever imported under this package.

* :mod:`game.ui.app` — :class:`~game.ui.app.App` (window, main loop, scene stack) and
  :class:`~game.ui.app.Scene` (``handle_event(action)`` / ``update(dt)`` / ``draw(surface)``).
* :mod:`game.ui.input` — the one place that turns pygame events into :class:`~game.ui.input.Action`.
* :mod:`game.ui.render` — :class:`~game.ui.render.LevelRenderer` draws a level state on any Surface
  (the window, or a GIF frame: see :func:`~game.ui.render.render_frame`).
* :mod:`game.ui.sprites` — the pixel-art sprite sheet (PNGs in ``assets/``).
* :mod:`game.ui.scenes` — menu, level select, play, editor (with its view, analysis and dialogs), Endless.
* :mod:`game.ui.assistant` — the play scene's AI assistant: state, controller, overlay (a play-scene extension).
"""

from __future__ import annotations

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
