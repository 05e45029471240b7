"""Every line the hint shows fits the play scene's status strip (wrapped, nothing cut) at 1280x800 and
800x500, beside the solver badge."""

from __future__ import annotations

import pygame

from ai.facade import player_plan
from game.app.assistant.answers import hint_steps, teaching
from game.app.assistant.overlay import badge_right
from game.app.assistant.state import AssistantState, HintView
from game.app.assistant.text import hint_text
from game.app.scenes.play_draw import status_layout
from game.core.level import Level
from game.core.pack import pack_level_paths
from game.core.teach import why_it_fails
from tests.ai.services.test_hint_plan import ROOMY
from tests.conftest import ORIGINAL_PACK


def plan_texts(level: Level, bricks: tuple[tuple[int, int], ...]) -> list[str]:
    """Every line H shows for ``bricks``: the lessons, then each brick revealed."""
    plan = player_plan(level, bricks)
    steps = hint_steps(level, bricks, plan)
    texts = [lesson.text for lesson in teaching(level, bricks, plan, why_it_fails(level, bricks))]
    return texts + [hint_text(HintView(plan, bricks, steps, revealed=k)) for k in range(1, len(steps) + 1)]


def test_every_hint_line_fits_the_status_strip_at_both_window_sizes() -> None:
    pygame.init()
    left = badge_right(AssistantState())
    cases = [(Level.load(path), ()) for path in pack_level_paths()]
    cases.append((Level.load(ORIGINAL_PACK), ((1, 3), (2, 1), (5, 4))))  # a removal and its reason
    cases.append((ROOMY, ((0, 3),)))  # an extension of the player's brick
    for level, bricks in cases:
        for text in plan_texts(level, bricks):
            for width in (800, 1280):
                _, _, lines = status_layout([text], width, left)
                assert len(lines) <= 3 and " ".join(lines) == text, (width, text)  # wrapped, nothing cut
