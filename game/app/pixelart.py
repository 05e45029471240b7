"""The pixel art of Lemming Bricks, drawn in code (16x16 sprites).

``assets/make_sprites.py`` saves these surfaces as the PNGs in ``assets/``; the game loads
the PNGs (see :mod:`game.app.sprites`) and falls back to drawing them here if they are missing.
"""

from __future__ import annotations

import random

import pygame

#: Side of every tile and sprite, in art pixels.
TILE = 16

Color = tuple[int, int, int]

PALETTE: dict[str, tuple[int, int, int, int]] = {
    ".": (0, 0, 0, 0),
    "G": (108, 214, 72, 255),   # hair
    "g": (52, 140, 52, 255),    # hair shade
    "S": (255, 206, 168, 255),  # skin
    "s": (212, 146, 118, 255),  # skin shade
    "B": (82, 112, 236, 255),   # robe
    "b": (46, 60, 156, 255),    # robe shade
    "K": (24, 20, 36, 255),     # eye
    "o": (150, 40, 50, 255),    # open mouth
    "F": (130, 80, 48, 255),    # feet
    "W": (255, 255, 255, 255),
}
OUTLINE = (22, 16, 34, 255)

_HEAD_R = [
    "................",
    "................",
    "......ggg.......",
    ".....gGGGg......",
    "....gGGGGGG.....",
    "....gGSSSS......",
    ".....SSSKS......",
    ".....sSSSS......",
    "......sSS.......",
    "......BBB.......",
]
_WALK_BODY_R = [
    [".....BBBBBS.....", ".....BBBB.......", ".....bBBb.......", ".....b..b.......", "....b....b......", "....FF...FF....."],
    [".....BBBBS......", ".....BBBB.......", ".....bBBb.......", "......bb........", "......bb........", "......FFF......."],
    ["....SBBBB.......", ".....BBBB.......", ".....bBBb.......", ".....b..b.......", ".....b...b......", "....FF...FF....."],
    [".....BBBBS......", ".....BBBB.......", ".....bBBb.......", "......bb........", "......bb........", "......FFF......."],
]
_FALL = [
    [
        "...S.......S....",
        "...SB.ggg.BS....",
        "....BgGGGgB.....",
        "....BGGGGGB.....",
        ".....GSSSG......",
        ".....SKSKS......",
        ".....SSoSS......",
        "......SSS.......",
        ".....BBBBB......",
        ".....BBBBB......",
        ".....bBBBb......",
        ".....b...b......",
        "....b.....b.....",
        "...FF.....FF....",
        "................",
        "................",
    ],
    [
        "....S.....S.....",
        "....SB.g.BS.....",
        ".....BgGgB......",
        "....gBGGGBg.....",
        ".....GSSSG......",
        ".....SKSKS......",
        ".....SSoSS......",
        "......SSS.......",
        ".....BBBBB......",
        ".....BBBBB......",
        ".....bBBBb......",
        "......b.b.......",
        ".....b...b......",
        "....FF...FF.....",
        "................",
        "................",
    ],
]
_CHEER = [
    "................",
    "................",
    "...S.......S....",
    "...S..ggg..S....",
    "....BgGGGgB.....",
    "....BGGGGGB.....",
    ".....GSSSG......",
    ".....SKSKS......",
    ".....SsssS......",
    "......SSS.......",
    ".....BBBBB......",
    ".....BBBBB......",
    ".....bBBBb......",
    ".....b...b......",
    ".....b...b......",
    "....FF...FF.....",
]


def _from_rows(rows: list[str]) -> pygame.Surface:
    surf = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
    for y, row in enumerate(rows[:TILE]):
        for x, ch in enumerate(row[:TILE]):
            if ch != ".":
                surf.set_at((x, y), PALETTE[ch])
    return _outlined(surf)


def _outlined(surf: pygame.Surface) -> pygame.Surface:
    """Add a 1-pixel dark outline around the opaque pixels."""
    w, h = surf.get_size()
    out = surf.copy()
    for y in range(h):
        for x in range(w):
            if surf.get_at((x, y)).a:
                continue
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nx, ny = x + dx, y + dy
                if 0 <= nx < w and 0 <= ny < h and surf.get_at((nx, ny)).a:
                    out.set_at((x, y), OUTLINE)
                    break
    return out


def _shift(rows: list[str], dy: int) -> list[str]:
    blank = "." * TILE
    if dy < 0:
        return rows[-dy:] + [blank] * (-dy)
    return [blank] * dy + rows[:-dy or None]


def lemming_frames() -> dict[str, pygame.Surface]:
    """Walking (4 frames each way), falling (2), cheering (2)."""
    out: dict[str, pygame.Surface] = {}
    for i, body in enumerate(_WALK_BODY_R):
        rows = _HEAD_R + body
        right = _from_rows(rows)
        out[f"lem_walk_r_{i}"] = right
        out[f"lem_walk_l_{i}"] = pygame.transform.flip(right, True, False)
    for i, rows in enumerate(_FALL):
        out[f"lem_fall_{i}"] = _from_rows(rows)
    out["lem_cheer_0"] = _from_rows(_CHEER)
    out["lem_cheer_1"] = _from_rows(_shift(_CHEER, -2))
    return out


def _shade(color: Color, k: float) -> Color:
    return tuple(max(0, min(255, int(v * k))) for v in color)  # type: ignore[return-value]


def wall_tile(seed: int, top: bool) -> pygame.Surface:
    """A stone wall tile; ``top`` adds a mossy cap (used where the cell above is open)."""
    rng = random.Random(1000 + seed)
    surf = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
    base = (96, 86, 118)
    mortar = (54, 46, 70)
    surf.fill(mortar)
    rows = [(0, 4), (4, 4), (8, 4), (12, 4)]
    for i, (y, h) in enumerate(rows):
        offset = 0 if (i + seed) % 2 == 0 else 4
        x = -offset
        while x < TILE:
            w = 8
            k = rng.uniform(0.85, 1.12)
            col = _shade(base, k)
            pygame.draw.rect(surf, col, (x, y, w - 1, h - 1))
            pygame.draw.line(surf, _shade(col, 1.25), (x, y), (x + w - 2, y))
            pygame.draw.line(surf, _shade(col, 0.72), (x, y + h - 2), (x + w - 2, y + h - 2))
            for _ in range(2):
                px, py = x + rng.randrange(1, w - 2), y + rng.randrange(1, max(2, h - 2))
                if 0 <= px < TILE:
                    surf.set_at((px, py), _shade(col, rng.choice((0.8, 1.18))))
            x += w
    if top:
        grass, dark = (96, 190, 84), (50, 126, 62)
        for x in range(TILE):
            depth = 2 + (1 if rng.random() < 0.45 else 0) + (1 if rng.random() < 0.15 else 0)
            for y in range(depth):
                surf.set_at((x, y), grass if y < depth - 1 else dark)
            if rng.random() < 0.25:
                surf.set_at((x, 0), (168, 232, 120))
    return surf


def brick_tile() -> pygame.Surface:
    """The player's brick: warm clay blocks with a bevel, clearly unlike the stone walls."""
    surf = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
    light, mid, dark, mortar = (255, 176, 96), (222, 112, 52), (150, 62, 34), (255, 214, 150)
    surf.fill(mortar)
    layout = [(1, 0, 14), (6, 0, 6), (6, 7, 8), (11, 0, 14)]
    for y, x0, w in [(1, 1, 14), (6, 1, 6), (6, 8, 7), (11, 1, 14)]:
        pygame.draw.rect(surf, mid, (x0, y, w, 4))
        pygame.draw.line(surf, light, (x0, y), (x0 + w - 1, y))
        pygame.draw.line(surf, dark, (x0, y + 3), (x0 + w - 1, y + 3))
    del layout
    pygame.draw.rect(surf, (120, 44, 26), (0, 0, TILE, TILE), 1)
    pygame.draw.line(surf, (255, 236, 190), (1, 1), (1, 1))
    return surf


def target_tile(frame: int) -> pygame.Surface:
    """The exit: a stone arch with a glowing doorway (two flicker frames)."""
    surf = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
    stone, stone_l, stone_d = (150, 132, 110), (196, 180, 150), (92, 78, 64)
    glow_outer = (255, 150, 50) if frame == 0 else (255, 170, 70)
    glow_mid = (255, 206, 96) if frame == 0 else (255, 224, 120)
    glow_in = (255, 246, 200) if frame == 0 else (255, 255, 230)
    pygame.draw.ellipse(surf, stone, (1, 1, 14, 12))
    pygame.draw.rect(surf, stone, (1, 7, 14, 9))
    pygame.draw.ellipse(surf, stone_l, (1, 1, 14, 12), 1)
    pygame.draw.line(surf, stone_l, (1, 7), (1, 15))
    pygame.draw.line(surf, stone_d, (14, 7), (14, 15))
    pygame.draw.ellipse(surf, glow_outer, (3, 3, 10, 9))
    pygame.draw.rect(surf, glow_outer, (3, 8, 10, 8))
    pygame.draw.ellipse(surf, glow_mid, (4, 5, 8, 8))
    pygame.draw.rect(surf, glow_mid, (4, 9, 8, 7))
    pygame.draw.rect(surf, glow_in, (6, 8, 4, 8))
    sparkles = [(5, 10), (10, 6), (7, 12)] if frame == 0 else [(9, 11), (6, 6), (10, 13)]
    for x, y in sparkles:
        surf.set_at((x, y), (255, 255, 255))
    pygame.draw.rect(surf, (180, 90, 40), (0, 15, TILE, 1))
    return surf


def background_tile(seed: int) -> pygame.Surface:
    """An open cell: dark cave rock with faint speckles."""
    rng = random.Random(2000 + seed)
    surf = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
    base = (34, 30, 52)
    surf.fill(base)
    for _ in range(6):
        x, y = rng.randrange(TILE), rng.randrange(TILE)
        surf.set_at((x, y), _shade(base, rng.choice((0.75, 1.3, 1.45))))
    surf.set_at((0, 0), (44, 40, 66))
    return surf


def no_icon() -> pygame.Surface:
    """The "not here" cue: a red circle with a slash."""
    surf = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
    red = (236, 56, 64, 255)
    pygame.draw.circle(surf, red, (8, 8), 6, 2)
    pygame.draw.line(surf, red, (4, 12), (12, 4), 2)
    return _outlined(surf)


def hover_frame() -> pygame.Surface:
    """Corner brackets around the hovered cell."""
    surf = pygame.Surface((TILE, TILE), pygame.SRCALPHA)
    white = (255, 255, 255, 230)
    for (x, y), (dx, dy) in (((0, 0), (1, 1)), ((15, 0), (-1, 1)), ((0, 15), (1, -1)), ((15, 15), (-1, -1))):
        for k in range(4):
            surf.set_at((x + dx * k, y), white)
            surf.set_at((x, y + dy * k), white)
    return surf


def build_sprites() -> dict[str, pygame.Surface]:
    """Every sprite by name (see ``assets/``)."""
    out = lemming_frames()
    for i in range(4):
        out[f"wall_{i}"] = wall_tile(i, top=False)
        out[f"wall_top_{i}"] = wall_tile(i, top=True)
    out["brick"] = brick_tile()
    out["target_0"] = target_tile(0)
    out["target_1"] = target_tile(1)
    for i in range(4):
        out[f"bg_{i}"] = background_tile(i)
    out["no"] = no_icon()
    out["hover"] = hover_frame()
    return out
