"""Draw the game's pixel-art sprites and save them as PNGs next to this script.

Run: ``python assets/make_sprites.py`` (headless; no window needed).  Also writes
``sprites_preview.png``, every sprite at 4x on one sheet.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygame  # noqa: E402

from game.app.pixelart import TILE, build_sprites  # noqa: E402


def main() -> int:
    """Save every sprite and a preview sheet."""
    pygame.init()
    out_dir = Path(__file__).resolve().parent
    sprites = build_sprites()
    for name, surf in sorted(sprites.items()):
        pygame.image.save(surf, str(out_dir / f"{name}.png"))
    scale, cols = 4, 8
    rows = (len(sprites) + cols - 1) // cols
    sheet = pygame.Surface((cols * (TILE * scale + 4), rows * (TILE * scale + 4)))
    sheet.fill((60, 60, 80))
    for i, (name, surf) in enumerate(sorted(sprites.items())):
        x, y = (i % cols) * (TILE * scale + 4), (i // cols) * (TILE * scale + 4)
        sheet.blit(pygame.transform.scale(surf, (TILE * scale, TILE * scale)), (x, y))
    pygame.image.save(sheet, str(out_dir / "sprites_preview.png"))
    print(f"saved {len(sprites)} sprites to {out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
