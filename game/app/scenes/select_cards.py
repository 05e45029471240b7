"""A level card of the level select screen (:mod:`game.app.scenes.select`): the map's thumbnail, the level's
number, title and brick counts, the solved mark, the par medal, and the padlock of a locked world's card."""

from __future__ import annotations

import pygame

from game.core.catalog import LevelEntry, Section
from game.core.level import Level
from game.core.progress import LevelStatus
from game.app import hud

CARD_W, CARD_H, GAP = 210, 160, 16
#: The thumbnail's room on a card.
THUMB_SIZE = (CARD_W - 24, CARD_H - 70)


def solved_count(entries: list[LevelEntry], statuses: list[LevelStatus]) -> str:
    """The top bar's count: the pack's levels solved, of the pack's ("pack:" when the player's own levels are
    listed too: they are counted apart, in their own header).

    >>> from game.core.level import Level
    >>> level = Level.from_rows(["> T", "XXX"], 3, 0)
    >>> pack = [LevelEntry("a", None, level), LevelEntry("b", None, level)]
    >>> done = [LevelStatus(True, 0, False), LevelStatus(False, None, False), LevelStatus(True, 0, False)]
    >>> solved_count(pack, done), solved_count(pack + [LevelEntry("u", None, level, Section.USER)], done)
    ('1 / 2 solved', 'pack: 1 / 2 solved')
    """
    solved = [st.solved_now for e, st in zip(entries, statuses) if e.section == Section.PACK]
    count = f"{sum(solved)} / {len(solved)} solved"
    return f"pack: {count}" if any(e.section != Section.PACK for e in entries) else count


def thumbnail(level: Level, size: tuple[int, int]) -> pygame.Surface:
    """A tiny picture of the map: walls, targets, starts."""
    small = pygame.Surface((level.width, level.height))
    small.fill((34, 30, 52))
    colors = {"X": (110, 98, 136), "T": (255, 196, 80), "<": (110, 220, 90), ">": (110, 220, 90)}
    for r, row in enumerate(level.grid):
        for c, ch in enumerate(row):
            if ch in colors:
                small.set_at((c, r), colors[ch])
    k = max(1, min(size[0] // level.width, size[1] // level.height))
    return pygame.transform.scale(small, (level.width * k, level.height * k))


def draw_medal(surface: pygame.Surface, center: tuple[int, int]) -> None:
    """The par medal: a gold coin with a star-like "P" on a ribbon."""
    cx, cy = center
    pygame.draw.polygon(surface, (200, 60, 60), [(cx - 8, cy - 14), (cx - 2, cy - 14), (cx - 4, cy - 2)])
    pygame.draw.polygon(surface, (60, 110, 200), [(cx + 8, cy - 14), (cx + 2, cy - 14), (cx + 4, cy - 2)])
    pygame.draw.circle(surface, (16, 12, 24), (cx, cy + 2), 12)
    pygame.draw.circle(surface, hud.GOLD, (cx, cy + 2), 10)
    pygame.draw.circle(surface, (200, 150, 40), (cx, cy + 2), 10, 2)
    hud.blit_text(surface, "P", (cx, cy + 3), 18, (16, 12, 24), anchor="center")


def draw_card(surface: pygame.Surface, rect: pygame.Rect, entry: LevelEntry, st: LevelStatus, *, label: str,
              selected: bool, thumb: pygame.Surface) -> None:
    """One level's card: its map, ``label`` (its number), title, counts or best, the solved mark (a check, "AI"
    when solved only with an AI solution, "!" when the level changed since) and the par medal."""
    edge = hud.GOLD if selected else ((90, 170, 90) if st.solved_now else hud.PANEL_EDGE)
    hud.panel(surface, rect, alpha=240 if selected else 215, edge=edge)
    if selected:
        pygame.draw.rect(surface, hud.GOLD, rect.inflate(6, 6), 2, border_radius=12)
    surface.blit(thumb, thumb.get_rect(midtop=(rect.centerx, rect.top + 12)))
    hud.badge(surface, label, (rect.left + 10, rect.top + 14), hud.GOLD if entry.section == "pack" else hud.BLUE,
              anchor="topleft", size=22)
    title = entry.title
    while hud.text_width(title, 22) > CARD_W - 16 and len(title) > 4:
        title = title[:-2].rstrip() + "\u2026" if not title.endswith("\u2026") else title[:-2] + "\u2026"
    hud.blit_text(surface, title, (rect.centerx, rect.bottom - 48), 22, hud.WHITE, anchor="midtop")
    lv = entry.level
    info = f"{hud.plural(len(lv.lemmings), 'lemming')} \u00b7 {hud.plural(lv.budget, 'brick')}"
    own = st.solved_now and st.own_best is not None
    if own and st.own_best is not None:
        info = f"your best: {hud.plural(st.own_best, 'brick')}"
    elif st.solved_now and st.assisted:
        info = "solved with AI help"
    elif st.solved and st.best_bricks is not None:
        info = f"best {hud.plural(st.best_bricks, 'brick')}"
    hud.blit_text(surface, hud.fit_text(info, 20, CARD_W - 12), (rect.centerx, rect.bottom - 24), 20, hud.MUTED,
                  anchor="midtop")
    if st.solved:
        cx, cy = rect.right - 22, rect.top + 22
        ai_only = st.assisted and st.own_best is None and not st.changed
        color = (255, 160, 60) if st.changed else (hud.BLUE if ai_only else hud.GREEN)
        pygame.draw.circle(surface, (16, 12, 24), (cx, cy), 14)
        pygame.draw.circle(surface, color, (cx, cy), 12)
        if st.changed:
            hud.blit_text(surface, "!", (cx, cy + 1), 26, (16, 12, 24), anchor="center")
        elif ai_only:  # solved, but only with an AI solution: "AI" instead of a check mark
            hud.blit_text(surface, "AI", (cx, cy + 1), 18, (16, 12, 24), anchor="center")
        else:
            pygame.draw.lines(surface, (16, 12, 24), False, [(cx - 6, cy), (cx - 2, cy + 5), (cx + 6, cy - 5)], 3)
        if st.par_medal and not st.changed:
            draw_medal(surface, (cx - 30, cy))
    if st.changed:
        hud.badge(surface, "changed since solved", (rect.centerx, rect.top + 50), (255, 160, 60),
                  anchor="center", size=18)


def draw_lock(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """Dim a locked card and draw a padlock on it."""
    shade = pygame.Surface(rect.size, pygame.SRCALPHA)
    shade.fill((12, 10, 20, 150))
    surface.blit(shade, rect.topleft)
    cx, cy = rect.centerx, rect.top + 58
    body = pygame.Rect(0, 0, 30, 24)
    body.midtop = (cx, cy)
    pygame.draw.arc(surface, hud.MUTED, pygame.Rect(cx - 10, cy - 16, 20, 30), 0, 3.1416, 4)
    pygame.draw.rect(surface, hud.MUTED, body, border_radius=4)
    pygame.draw.circle(surface, (16, 12, 24), (cx, cy + 10), 4)
