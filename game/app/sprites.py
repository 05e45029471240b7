"""The sprite sheet: loads the PNGs in ``assets/`` and scales them (nearest neighbour) per cell size; and
which lemming sprite a move shows (:func:`lemming_sprite`)."""

from __future__ import annotations

from pathlib import Path

import pygame

from game.core.outcome import move_of
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


def lemming_sprite(before: tuple[int, int, int], after: tuple[int, int, int], a: float, anim: float) -> str:
    """The sprite of a lemming between two states, chosen by the kind of move the physics made
    (:func:`game.core.outcome.move_of`): moving down falls, moving up climbs (legs going, twice as fast),
    moving along the row walks, turning on the spot turns half way, staying stands.

    >>> lemming_sprite((0, 0, 1), (1, 0, 1), 0.0, 0.0), lemming_sprite((2, 2, -1), (1, 1, -1), 0.5, 0.0)
    ('lem_fall_0', 'lem_walk_l_0')
    """
    (dr, da), turn = move_of(before, after)
    d0, d1 = before[2], after[2]
    if dr > 0:
        return f"lem_fall_{int(anim * 8) % 2}"
    if dr < 0:
        return f"lem_walk_{'r' if d1 > 0 else 'l'}_{int(a * 8) % 4}"
    if da:
        return f"lem_walk_{'r' if d1 > 0 else 'l'}_{int(a * 4) % 4}"
    if turn:
        d = d0 if a < 0.5 else d1
        return f"lem_walk_{'r' if d > 0 else 'l'}_{1 if a < 0.5 else 0}"
    return f"lem_walk_{'r' if d0 > 0 else 'l'}_0"
