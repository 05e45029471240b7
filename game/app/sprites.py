"""The sprite sheet: loads the PNGs in ``assets/`` and scales them (nearest neighbour) per cell size."""

from __future__ import annotations

from pathlib import Path

import pygame

from game.app import pixelart

#: Folder of the sprite PNGs (made by ``assets/make_sprites.py``).
ASSETS_DIR = Path(__file__).resolve().parents[2] / "assets"


class Sprites:
    """Named 16x16 sprites, with cached nearest-neighbour scaled copies.

    Works without a display (GIF export): surfaces are only converted when a window exists.
    """

    def __init__(self, folder: Path = ASSETS_DIR) -> None:
        drawn: dict[str, pygame.Surface] | None = None
        self.base: dict[str, pygame.Surface] = {}
        names = _sprite_names()
        for name in names:
            path = folder / f"{name}.png"
            surf: pygame.Surface | None = None
            if path.is_file():
                try:
                    surf = pygame.image.load(str(path))
                except (pygame.error, OSError):
                    surf = None
            if surf is None:
                if drawn is None:
                    drawn = pixelart.build_sprites()
                surf = drawn[name]
            if pygame.display.get_init() and pygame.display.get_surface() is not None:
                surf = surf.convert_alpha()
            self.base[name] = surf
        self._scaled: dict[tuple[str, int], pygame.Surface] = {}

    def get(self, name: str, size: int) -> pygame.Surface:
        """Sprite ``name`` scaled to ``size`` x ``size`` pixels (cached)."""
        key = (name, size)
        surf = self._scaled.get(key)
        if surf is None:
            base = self.base[name]
            surf = base if size == pixelart.TILE else pygame.transform.scale(base, (size, size))
            if len(self._scaled) > 2000:
                self._scaled.clear()
            self._scaled[key] = surf
        return surf


_NAMES: list[str] | None = None


def _sprite_names() -> list[str]:
    global _NAMES
    if _NAMES is None:
        _NAMES = sorted(_expected_names())
    return _NAMES


def _expected_names() -> list[str]:
    names = [f"lem_walk_{d}_{i}" for d in "rl" for i in range(4)]
    names += ["lem_fall_0", "lem_fall_1", "lem_cheer_0", "lem_cheer_1", "brick", "target_0", "target_1", "no", "hover"]
    names += [f"wall_{i}" for i in range(4)] + [f"wall_top_{i}" for i in range(4)] + [f"bg_{i}" for i in range(4)]
    return names


_SHARED: Sprites | None = None


def shared_sprites() -> Sprites:
    """One sprite sheet for the whole process."""
    global _SHARED
    if _SHARED is None:
        _SHARED = Sprites()
    return _SHARED
