"""Drawing of the mystery worlds' card and of the panel "What the AI has learned from your runs here".

Pure drawing: each function reads what it is given and paints it; the text wraps to the window (never
cut) at every size from 800x500 up.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from ai.facade import Knowledge
from game.core.mystery import WorldCard
from game.core.rule_words import physics_sentences
from game.app import hud

#: Shown after a rule the player's runs never exercised (the learner guessed it).
NOT_SURE = "not sure yet: your runs never showed it"
#: The same, once the check against the game found every guess right (its rules are exact).
NOT_SURE_RIGHT = "not sure yet: your runs never showed it, but the check says this guess is right"
#: Said of a situation the runs never showed, once the check found the guess there right.
RIGHT_GUESS = " (its guess there is right, the check says)"
#: Colour of what the AI is not yet sure of.
UNSURE_COLOR = hud.GOLD


@dataclass(frozen=True)
class PanelText:
    """What the learned panel says: its title, then ``(line, colour)`` rows."""

    title: str
    rows: tuple[tuple[str, tuple[int, int, int]], ...]


def panel_text(knowledge: Knowledge | None, progress: str, error: str, world: str) -> PanelText:
    """The panel's lines: the learning step while it runs, else every learned rule in words, the ones the
    runs never exercised marked not sure, and what an exit does."""
    title = f"What the AI has learned from your runs in {world}" if world else "What the AI has learned from your runs"
    if error:
        return PanelText(title, ((error, hud.RED),))
    if knowledge is None:
        return PanelText(title, (("Watching your run...", hud.WHITE), (progress or "Reading your runs", hud.MUTED)))
    if knowledge.runs == 0 or knowledge.physics is None:
        return PanelText(title, (("No runs to learn from yet.", hud.WHITE),))
    rows: list[tuple[str, tuple[int, int, int]]] = []
    not_sure = NOT_SURE_RIGHT if knowledge.exact else NOT_SURE  # a guess the check found right
    for i, pic in enumerate(knowledge.pictures, 1):
        rows.append((f"{i}. {pic.words}" + ("" if pic.sure else f" ({not_sure})"),
                     hud.WHITE if pic.sure else UNSURE_COLOR))
    exits = physics_sentences(knowledge.physics)[-1]
    rows.append((exits if knowledge.exits_sure else f"{exits} ({not_sure})",
                 hud.WHITE if knowledge.exits_sure else UNSURE_COLOR))
    for situation in knowledge.unsure:
        rows.append((f"Not sure yet what a lemming does {situation}: your runs never showed one"
                     f"{RIGHT_GUESS if knowledge.exact else ''}.", UNSURE_COLOR))
    if not knowledge.exact and not knowledge.unsure:
        rows.append(("Situations your runs have not shown may still surprise it.", UNSURE_COLOR))
    sure = sum(1 for pic in knowledge.pictures if pic.sure)
    guessed = knowledge.examples < knowledge.configurations
    seen = (f"From {hud.plural(knowledge.runs, 'run')} the AI has seen {knowledge.examples:,} of the "
            f"{knowledge.configurations:,} situations a lemming can be in")
    seen += " (in the others it guesses); " if guessed else "; "
    if sure == len(knowledge.pictures):
        seen += "it saw every rule below at work"
    else:
        seen += f"it saw {sure} of these {hud.plural(len(knowledge.pictures), 'rule')} at work, the others are guesses"
    seen += (". Checked against the game, its rules are exact" + (", the guesses included." if guessed else ".")
             if knowledge.exact else ".")
    rows.insert(0, (seen, hud.MUTED))
    return PanelText(title, tuple(rows))


def draw_learned_panel(surface: pygame.Surface, area: pygame.Rect, text: PanelText) -> pygame.Rect:
    """The panel, centred in ``area`` (the board's area), as tall as its wrapped lines need (rules that do not
    fit are counted in a last line); returns its rect."""
    w = surface.get_width()
    narrow = w < 1000 or area.height < 420
    size, head = (18, 22) if narrow else (22, 28)
    pitch = size + 5
    width = min(860, max(200, area.width - 8))
    inner = width - 32
    title_rows = hud.wrap_text(text.title, head, inner, 2)
    room = max(1, (area.height - 24 - (head + 6) * len(title_rows) - pitch) // pitch)
    rows: list[tuple[str, tuple[int, int, int]]] = []
    left = 0
    for i, (line, color) in enumerate(text.rows):
        parts = hud.wrap_text(line, size, inner, 4)
        if len(rows) + len(parts) > room - (1 if i < len(text.rows) - 1 else 0):
            left = len(text.rows) - i
            break
        rows.extend((part, color) for part in parts)
    if left:
        rows.append((f"... and {left} more (the title menu's \"What the AI has learned\" shows them all)", hud.MUTED))
    box = pygame.Rect(0, 0, width, 20 + (head + 6) * len(title_rows) + pitch * len(rows) + 8)
    box.center = area.center
    box.top = max(box.top, area.top)
    hud.panel(surface, box, alpha=240, edge=hud.GOLD)
    y = box.top + 12
    for line in title_rows:
        hud.blit_text(surface, line, (box.x + 16, y), head, hud.GOLD)
        y += head + 6
    for line, color in rows:
        hud.blit_text(surface, line, (box.x + 16, y), size, color)
        y += pitch
    return box


def draw_world_card(surface: pygame.Surface, card: WorldCard) -> pygame.Rect:
    """The first-visit card of a mystery world over a darkened screen; returns its rect."""
    w, h = surface.get_size()
    veil = pygame.Surface((w, h), pygame.SRCALPHA)
    veil.fill((8, 6, 16, 170))
    surface.blit(veil, (0, 0))
    narrow = w < 1000 or h < 600
    size, head, kicker = (20, 40, 22) if narrow else (26, 56, 26)
    width = min(820, w - 40)
    inner = width - 48
    lines = [(part, hud.WHITE if i else hud.GOLD) for i, line in enumerate(card.lines)
             for part in hud.wrap_text(line, size, inner, 3)]
    pitch = size + 8
    height = 28 + kicker + 10 + head + 18 + pitch * len(lines) + 16 + size + 16
    box = pygame.Rect(0, 0, width, min(h - 20, height))
    box.center = (w // 2, h // 2)
    hud.panel(surface, box, alpha=245, edge=hud.GOLD)
    y = box.top + 20
    hud.blit_text(surface, "A new world", (box.centerx, y), kicker, hud.MUTED, anchor="midtop")
    y += kicker + 10
    hud.blit_text(surface, hud.fit_text(card.title, head, inner), (box.centerx, y), head, hud.GOLD, anchor="midtop")
    y += head + 18
    for line, color in lines:
        hud.blit_text(surface, line, (box.x + 24, y), size, color)
        y += pitch
    hud.blit_text(surface, "Enter or click: start watching", (box.centerx, box.bottom - 12), size, hud.MUTED,
                  anchor="midbottom")
    return box


__all__ = ["NOT_SURE", "PanelText", "UNSURE_COLOR", "draw_learned_panel", "draw_world_card", "panel_text"]
