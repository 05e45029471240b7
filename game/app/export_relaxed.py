"""GIF frames of a fractional solution (:class:`ai.facade.RelaxedSolution`: the gradient solver's
densities or the MILP's LP relaxation): translucent bricks (opacity = density) and translucent
lemming mass, drawn on the window's board by the same renderer.  The frames stop once the mass stops
moving; the captions say "a blend of brick choices" and the share of lemmings home, never solver numbers.
"""

from __future__ import annotations

from typing import Any, Iterator

import numpy as np
import numpy.typing as npt
import pygame

from ai.facade import RelaxedSolution
from game.core.level import Level
from game.core.occupancy import simulate_level
from game.core.outcome import frame_label
from game.core.simulation import Run
from game.app import hud
from game.app.export_draw import DEFAULT_SCALE, Frame, _canvas, _footer, _pg, _title_card, _to_array, cell_size, margins
from game.app.render import FrameView, LevelRenderer


def relaxed_frames(
    level: Level,
    relaxed: RelaxedSolution,
    *,
    scale: float = DEFAULT_SCALE,
    subtitle: str = "",
    renderer: LevelRenderer | None = None,
) -> list[Frame]:
    """Every frame of :func:`iter_relaxed_frames`, as a list."""
    return list(iter_relaxed_frames(level, relaxed, scale=scale, subtitle=subtitle, renderer=renderer))


def iter_relaxed_frames(
    level: Level,
    relaxed: RelaxedSolution,
    *,
    scale: float = DEFAULT_SCALE,
    subtitle: str = "",
    renderer: LevelRenderer | None = None,
    name_physics: bool = True,
) -> Iterator[Frame]:
    """Frames of a fractional solution: translucent bricks (density = opacity) and lemming mass.

    ``relaxed.occupancy`` is ``(N, H, W, 2)``; when it is empty the mass is computed with the
    occupancy simulator (:func:`game.core.occupancy.simulate_level`) from the densities.  ``name_physics``:
    the title card names a physics other than the classic one.
    """
    _pg()
    rend = renderer if renderer is not None else LevelRenderer()
    cell = cell_size(scale)
    margin, _ = margins(cell)
    obst = np.clip(np.asarray(relaxed.obstacles, dtype=np.float64), 0.0, 1.0)
    occ = np.asarray(relaxed.occupancy, dtype=np.float64)
    if occ.ndim != 4 or occ.shape[0] == 0:
        occ = simulate_level(level, obst * level.brickable_map)
    n = occ.shape[0]
    end = still_from(occ)
    empty = Run(level, (), ())  # a run without lemmings: the renderer draws none
    lines = ["A blend of brick choices", "faint bricks are only partly placed"] + ([subtitle] if subtitle else [])
    yield _to_array(_title_card(level, scale, rend, lines, name_physics=name_physics))
    brick = rend.sprites.get("brick", cell)
    lemmings = max(1, len(level.lemmings))
    share = [float((occ[t].sum(axis=-1) * level.target_map).sum()) / lemmings for t in range(n)]
    for t in range(end + 2):
        tt = min(t, end)
        canvas = _canvas(level, scale)
        rend.draw_background(canvas)
        area = pygame.Rect(margin, margin, level.width * cell, level.height * cell)
        layout = rend.draw(canvas, FrameView(level=level, run=empty, t=float(tt), anim=tt / 4.0), area)
        draw_relaxed(canvas, layout, obst, occ[tt], rend, brick=brick, labels=False)  # opacity says it
        if t <= end:
            _footer(canvas, level, cell, tt / max(1, n - 1), frame_label(tt, n), hud.WHITE,
                    right=f"{_percent(share[tt])} home")
        else:
            _footer(canvas, level, cell, tt / max(1, n - 1),
                    f"A blend of brick choices: {_percent(share[-1])} of the lemmings home", hud.BLUE)
        yield _to_array(canvas)


def still_from(occupancy: npt.NDArray[np.float64]) -> int:
    """The first frame from which the lemming mass ``(N, H, W, 2)`` no longer moves (the last frame when it
    always does).

    >>> import numpy as np
    >>> still_from(np.array([[0.0], [1.0], [1.0], [1.0]]).reshape(4, 1, 1, 1))
    1
    """
    n = occupancy.shape[0]
    moves = np.abs(np.diff(occupancy.reshape(n, -1), axis=0)).max(axis=1, initial=0.0) > 1e-9
    changed = np.flatnonzero(moves)
    return int(changed[-1]) + 1 if changed.size else 0


def _percent(share: float) -> str:
    """A share of the lemmings as a whole percentage (``100%`` only when all of it is home)."""
    pct = max(0.0, min(1.0, share)) * 100
    return f"{int(pct) if pct < 100 - 1e-6 else 100}%"


def draw_relaxed(surface: pygame.Surface, layout: Any, obstacles: npt.NDArray[np.float64],
                 mass: npt.NDArray[np.float64] | None, renderer: LevelRenderer, *,
                 brick: pygame.Surface | None = None, labels: bool = True) -> None:
    """Translucent bricks (opacity = density) and lemming mass ``(H, W, 2)`` on a drawn board."""
    cell = layout.cell
    brick = brick if brick is not None else renderer.sprites.get("brick", cell)
    for r, c in np.argwhere(obstacles > 0.02):
        d = float(obstacles[r, c])
        ghost = brick.copy()
        ghost.set_alpha(int(40 + 215 * d))
        rect = layout.cell_rect(int(r), int(c))
        surface.blit(ghost, rect)
        if labels and cell >= 24 and d < 0.995:
            t = hud.text(f"{d:.2f}", max(12, cell // 2), hud.WHITE)
            surface.blit(t, t.get_rect(center=rect.center))
    if mass is None:
        return
    total = mass.sum(axis=-1)
    for r, c in np.argwhere(total > 0.01):
        m = float(min(1.0, total[r, c]))
        right = mass[r, c, 1] >= mass[r, c, 0]
        sprite = renderer.sprites.get(f"lem_walk_{'r' if right else 'l'}_0", cell).copy()
        sprite.set_alpha(int(255 * m ** 0.5))
        rect = layout.cell_rect(int(r), int(c))
        glow = pygame.Surface(rect.size, pygame.SRCALPHA)
        glow.fill((120, 230, 255, int(90 * m ** 0.5)))
        surface.blit(glow, rect)
        surface.blit(sprite, rect)
