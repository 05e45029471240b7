"""The window's backdrop behind every scene: a dusk gradient with a cave's stalactites and stalagmites.

:meth:`game.app.render.LevelRenderer.draw_background` paints it once per window size (cached).
"""

from __future__ import annotations

import random

import pygame

#: The gradient's colour at the top of the window.
BG_TOP = (24, 20, 44)
#: The gradient's colour at the bottom of the window.
BG_BOTTOM = (62, 40, 78)


def paint_backdrop(size: tuple[int, int]) -> pygame.Surface:
    """The backdrop of a window of ``size``: the gradient in 4-pixel bands, then the cave's silhouettes."""
    bg = pygame.Surface(size)
    h = max(size[1], 1)
    for y in range(0, h, 4):
        k = y / h
        col = tuple(int(a + (b - a) * k) for a, b in zip(BG_TOP, BG_BOTTOM))
        pygame.draw.rect(bg, col, (0, y, size[0], 4))
    _draw_cave_silhouettes(bg)
    return bg


def _draw_cave_silhouettes(bg: pygame.Surface) -> None:
    """Stalactites and stalagmites in two dim layers: depth at the window's edges."""
    w, h = bg.get_size()
    for layer, (color, scale) in enumerate((((30, 22, 52), 1.0), ((20, 14, 36), 0.6))):
        rng = random.Random(7 + layer)
        x = -rng.randint(0, 40)
        while x < w:
            width = int(rng.randint(30, 90) * scale) + 10
            depth = int(rng.randint(20, 110) * scale) + 8
            pygame.draw.polygon(bg, color, [(x, 0), (x + width, 0), (x + width // 2, depth)])
            up = int(rng.randint(10, 80) * scale) + 6
            pygame.draw.polygon(bg, color, [(x + width // 3, h), (x + width + width // 3, h),
                                            (x + width // 2 + width // 3, h - up)])
            x += width - int(10 * scale)
