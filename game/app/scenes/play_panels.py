"""Where the play scene's end panels sit, and the small panel at the end of a replay.

One placement rule for every panel shown when a run ends (:func:`place_clear_of`): low, above the
timeline (kept in view to scrub), or high, under the status strip, whichever hides less of what matters
most (the cells the assistant points at, the lemmings at their exits), then of the rest. Functions of a
:class:`~game.app.scenes.play.PlayScene`; they only read it.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from game.core.level import Brick
from game.app import hud
from game.app.play_state import PlayState, PlayView
from game.app.render import BoardLayout
from game.app.scenes.timeline import timeline_rect


#: Height of the strip between the top bar and the board (status messages: two lines fit).
STATUS_STRIP = 62


def place_clear_of(box: pygame.Rect, cells: Sequence[Brick], layout: BoardLayout, size: tuple[int, int],
                   *, first: Sequence[Brick] = ()) -> None:
    """Centre ``box`` across a window of ``size``, under the status strip or low, just above the timeline:
    where it hides fewer of the cells of ``first`` (what the assistant points at), then fewer of ``cells``
    (what matters on the board); when both hide as many, under the status strip if ``cells`` sit, on
    average, in the lower half of the board, else low."""
    w, _ = size
    high, low = box.copy(), box.copy()
    high.midtop = (w // 2, hud.TOP_BAR + STATUS_STRIP)
    low.midbottom = (w // 2, timeline_rect(size).top - 6)

    def hidden(place: pygame.Rect) -> tuple[int, int]:
        return (sum(place.colliderect(layout.cell_rect(*cell)) for cell in first),
                sum(place.colliderect(layout.cell_rect(*cell)) for cell in cells))

    rows = [layout.cell_rect(*cell).centery for cell in cells]
    lower = bool(rows) and sum(rows) / len(rows) > layout.rect.centery
    go_high = hidden(high) < hidden(low) or (hidden(high) == hidden(low) and lower)
    box.topleft = (high if go_high else low).topleft


def end_cells(scene: PlayView) -> list[Brick]:
    """What matters on the board when a run ends: where lemmings missed after a lost run, else where
    every lemming stands at the frame shown (at the exits after a win)."""
    if scene.state == PlayState.LOST and scene.failures:
        return [f.cell for f in scene.failures]
    frame = max(0, min(scene.frame, scene.last_frame))
    return [(r, c) for r, c, _ in scene.run.states_at(frame)]


def draw_watched_result(scene: PlayView, surface: pygame.Surface, layout: BoardLayout) -> pygame.Rect:
    """The end of a replay: a small panel clear of the lemmings (no "Level complete!", no confetti);
    returns where it is."""
    w, h = surface.get_size()
    won = scene.state == PlayState.WON
    who = "an AI solution" if scene.assisted else "your run"
    line = f"{hud.plural(len(scene.bricks), 'brick')}, {who}" + ("" if won else ": it no longer wins")
    more = f"Enter: back to the {scene.back_label}   Space: watch again"
    box = pygame.Rect(0, 0, min(560, w - 40), 112 if h >= 600 else 96)
    place_clear_of(box, end_cells(scene), layout, (w, h))
    hud.panel(surface, box, edge=hud.PANEL_EDGE if won else hud.RED)
    size = 32 if h >= 600 else 26
    hud.blit_text(surface, "End of the replay", (box.centerx, box.top + 8), size, hud.WHITE, anchor="midtop")
    hud.blit_text(surface, hud.fit_text(line, 22, box.width - 24), (box.centerx, box.top + size + 16), 22,
                  hud.MUTED if won else hud.RED, anchor="midtop")
    hud.blit_text(surface, hud.fit_text(more, 20, box.width - 24), (box.centerx, box.bottom - 8), 20, hud.MUTED,
                  anchor="midbottom")
    return box
