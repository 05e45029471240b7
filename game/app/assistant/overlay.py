"""The assistant's drawing: its marks on the board, overlays the frame view has no field for, and the
solver badge.

Drawing only reads an :class:`~game.app.assistant.state.AssistantState`; it never changes anything.
Ghost bricks and coloured highlights go through the scene's frame view instead (:func:`board_marks`,
read by :meth:`~game.app.assistant.controller.Assistant.marks`).
"""

from __future__ import annotations

import numpy as np
import pygame

from game.app import hud
from game.app.assistant.state import AssistantState, BrickSet, StepKind, solver_detail, solver_label
from game.app.assistant.text import footer_hints, status_lines
from game.app.export_relaxed import draw_relaxed
from game.app.input import display_key
from game.app.play_extension import RGBA, Marks
from game.app.render import BoardLayout, LevelRenderer

#: Veil over never-useful cells (RGBA) and the line across them.
NEVER_VEIL = (0, 0, 0, 120)
NEVER_LINE = (110, 100, 140)
#: Mark colours (RGBA).
PLACE_COLOR: RGBA = (120, 255, 140, 255)
REMOVE_COLOR: RGBA = (255, 90, 90, 255)
FORCED_COLOR: RGBA = (255, 214, 90, 255)
EXTRA_COLOR: RGBA = (255, 120, 120, 200)
GHOST_COLOR: RGBA = (120, 200, 255, 220)
REASON_COLOR: RGBA = (255, 170, 60, 255)  #: the cell a teaching hint talks about


def board_marks(state: AssistantState, bricks: BrickSet) -> Marks:
    """What the scene shows for the assistant: the solution's ghost bricks, coloured cells (the bricks it
    drops, deductions, the hint's cells, the cell the lesson on screen is about), status lines and
    footer keys."""
    ghost: list[tuple[int, int]] = []
    highlights: list[tuple[tuple[int, int], RGBA]] = []
    shown = state.shown
    if shown is not None:
        ghost = [b for b in shown if b not in bricks]
        highlights += [(b, GHOST_COLOR) for b in ghost]
        highlights += [(b, EXTRA_COLOR) for b in sorted(bricks) if b not in shown]
    if state.show_forced and state.deductions is not None:
        highlights += [(b, FORCED_COLOR) for b in state.deductions.forced]
    if state.hint is not None and state.hint.for_bricks == bricks:
        if state.hint.focus is not None:
            highlights.append((state.hint.focus, REASON_COLOR))
        for step in state.hint.steps[: state.hint.revealed]:
            highlights.append((step.cell, PLACE_COLOR if step.kind == StepKind.PLACE else REMOVE_COLOR))
    return Marks(tuple(ghost), tuple(highlights), tuple(status_lines(state)), tuple(footer_hints(state)),
                 claims_board=state.solution is not None, strip_left=badge_right(state))


def draw_overlay(surface: pygame.Surface, layout: BoardLayout, state: AssistantState,
                 renderer: LevelRenderer) -> None:
    """Never-useful cells (with the deductions on), a relaxed answer's densities, and the badge."""
    if state.show_forced and state.deductions is not None:
        veil = pygame.Surface((layout.cell, layout.cell), pygame.SRCALPHA)
        veil.fill(NEVER_VEIL)
        for r, c in state.deductions.never_useful:
            rect = layout.cell_rect(r, c)
            surface.blit(veil, rect)
            pygame.draw.line(surface, NEVER_LINE, rect.topleft, rect.bottomright, 1)
    relaxed = state.relaxed
    if relaxed is not None:
        draw_relaxed(surface, layout, np.asarray(relaxed.obstacles), None, renderer)
    draw_badge(surface, state)


def _badge_parts(state: AssistantState) -> tuple[pygame.Rect, pygame.Surface, pygame.Surface | None, pygame.Surface]:
    """The badge's box, label, detail and key (see :func:`draw_badge`)."""
    label = hud.text(f"AI: {solver_label(state.solver)}", 22, hud.GOLD if state.busy else hud.WHITE)
    detail_text = solver_detail(state.solver)
    detail = hud.text(detail_text, 17, hud.MUTED) if detail_text else None
    x, y = 14, hud.TOP_BAR + 12
    width = label.get_width() + (detail.get_width() + 8 if detail is not None else 0)
    extra = 26 if state.busy else 0
    box = pygame.Rect(x, y, width + 20 + extra, label.get_height() + 10)
    return box, label, detail, hud.text(display_key("Tab"), 18, hud.MUTED)  # as bound


def badge_right(state: AssistantState) -> int:
    """The x where the badge (its key included) ends: the status strip stays right of it."""
    box, _, _, keys = _badge_parts(state)
    return box.right + 6 + keys.get_width()


def draw_badge(surface: pygame.Surface, state: AssistantState) -> pygame.Rect:
    """The solver badge under the top bar: ``AI: Logic solver`` with ``CP-SAT`` as detail, a spinner
    while a job runs, and the key that changes it (Tab, as the player bound it)."""
    box, label, detail, keys = _badge_parts(state)
    hud.panel(surface, box, alpha=215)
    surface.blit(label, (box.x + 10, box.y + 5))
    if detail is not None:
        surface.blit(detail, (box.x + 18 + label.get_width(), box.centery - detail.get_height() // 2))
    if state.busy:
        cx, cy = box.right - 18, box.centery
        start = state.anim * 8.0
        pygame.draw.arc(surface, hud.GOLD, pygame.Rect(cx - 8, cy - 8, 16, 16), start, start + 4.0, 3)
    surface.blit(keys, (box.right + 6, box.centery - keys.get_height() // 2))
    return box


__all__ = ["badge_right", "board_marks", "draw_badge", "draw_overlay"]
