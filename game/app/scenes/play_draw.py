"""Drawing the play scene's HUD and panels: the top bar, the status strip, the ruler, the marks of
a lost run, the win/lose panel, confetti, the level's title card and its fade-in.  Functions of a
:class:`~game.app.scenes.play.PlayScene`; they only read it (drawing never changes game state).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import pygame

from game.core.catalog import Section
from game.core.level import Brick
from game.core.outcome import LemmingFailure, frame_label
from game.app import hud
from game.app.input import display_key
from game.app.play_state import PlayState, PlayView
from game.app.render import BoardLayout
from game.app.scenes.play_panels import draw_watched_result, end_cells, place_clear_of
from game.app.scenes.timeline import timeline_rect

#: Text size of the strip when a long line needs three lines of it.
STRIP_SMALL = 16
#: How long the level's title card shows when it opens, in seconds.
INTRO_SECONDS = 1.8
#: Fade-in when a level opens, in seconds.
FADE_IN_SECONDS = 0.25


def draw_hud(scene: PlayView, surface: pygame.Surface) -> None:
    w = surface.get_width()
    bar = hud.top_bar(surface)
    x = 14
    narrow = w < 900
    label = scene.badge_label()
    if label:
        num = hud.badge(surface, label, (x, bar.centery), hud.GOLD, anchor="midleft", size=26)
        x = num.right + 10
    state_rect = hud.badge(surface, scene.state.value.upper(), (w - 10, bar.centery),
                           hud.STATE_COLORS[scene.state.value], anchor="midright", size=20 if narrow else 24)
    used = len(scene.bricks)
    home = scene.run.arrived_by(scene.frame) if scene.state != PlayState.PLACING else 0
    n = len(scene.level.lemmings)
    # stats in visual order (left to right) with a priority (0 = keep longest on narrow windows)
    if narrow:
        stats = [(f"bricks {used}/{scene.level.budget}", hud.GOLD, 0), (f"home {home}/{n}", hud.GREEN, 2),
                 (frame_label(scene.frame, scene.level.frames, short=True), hud.WHITE, 1),
                 (f"{scene.speed}x", hud.MUTED, 3)]
    else:
        stats = [(f"bricks {used} / {scene.level.budget}", hud.GOLD, 0), (f"home {home} / {n}", hud.GREEN, 2),
                 (frame_label(scene.frame, scene.level.frames), hud.WHITE, 1), (f"{scene.speed}x", hud.MUTED, 3)]
    note = scene.note()
    if note:
        stats.insert(0, (note, hud.BLUE, 0))
    size = 22 if narrow else 26
    gap = 12 if narrow else 22
    room = state_rect.left - 12 - (x + (70 if narrow else 120))
    while len(stats) > 1 and sum(hud.text_width(lbl, size) + gap for lbl, _, _ in stats) > room:
        stats.remove(max(stats, key=lambda item: item[2]))
    rx = state_rect.left - 12
    for text, color, _ in reversed(stats):
        r = hud.blit_text(surface, text, (rx, bar.centery), size, color, anchor="midright")
        rx = r.left - gap
    title_size = 28 if narrow else 34
    hud.blit_text(surface, hud.fit_text(scene.title, title_size, max(10, rx - x)), (x, bar.centery), title_size,
                  hud.WHITE, anchor="midleft")
    # progress bar of the run under the top bar
    frac = scene.t / scene.last_frame if scene.last_frame > 0 else 1.0
    pygame.draw.rect(surface, (40, 32, 64), (0, hud.TOP_BAR, w, 4))
    pygame.draw.rect(surface, hud.STATE_COLORS[scene.state.value], (0, hud.TOP_BAR, int(w * frac), 4))
    draw_status_lines(scene, surface)
    hints = scene._hints()
    hud.hint_bar(surface, hints, keep=footer_keep(hints, w, scene.extra_hints))


def status_strip_text(width: int, left: int) -> tuple[int, int, int]:
    """``(text size, centre x, room in pixels)`` of the status strip in a window ``width`` wide whose strip
    starts at ``left`` (right of an extension's badge); a long single line wraps onto two lines of it."""
    if width >= 1000:  # centred on the window, as wide as leaves the badge clear on both sides
        size, centre, room = 22, width // 2, width - 2 * max(left + 16, 30)
    else:  # centred in what the badge leaves, a smaller font
        size, centre, room = 19, (left + 14 + width - 10) // 2, width - left - 34
    return size, centre, max(room, 120)


def status_layout(lines: list[str], width: int, left: int) -> tuple[int, int, list[str]]:
    """``(text size, line step, lines)`` the strip shows ``lines`` as: wrapped onto its two lines when they
    fit there, else onto three lines of :data:`STRIP_SMALL` text (a long hint), else one line each (cut).
    Worked out once per lines and window (the strip is drawn every frame)."""
    size, step, shown = _status_layout(tuple(lines), width, left)
    return size, step, list(shown)


@functools.lru_cache(maxsize=64)
def _status_layout(lines: tuple[str, ...], width: int, left: int) -> tuple[int, int, tuple[str, ...]]:
    size, step, shown = _wrap_status(list(lines), width, left)
    return size, step, tuple(shown)


def _wrap_status(lines: list[str], width: int, left: int) -> tuple[int, int, list[str]]:
    size, _, room = status_strip_text(width, left)
    wrapped = [part for line in lines for part in hud.wrap_text(line, size, room, max_lines=9)]
    if len(wrapped) <= 2:
        return size, size + 5, wrapped
    small = [part for line in lines for part in hud.wrap_text(line, STRIP_SMALL, room, max_lines=9)]
    if len(small) <= 3:
        return STRIP_SMALL, STRIP_SMALL + 3, small
    if len(lines) == 1:
        return size, size + 5, hud.wrap_text(lines[0], size, room, max_lines=2)
    return size, size + 5, lines


def draw_status_lines(scene: PlayView, surface: pygame.Surface) -> list[pygame.Rect]:
    """The status lines in one bubble inside the strip (never over the board nor an extension's badge);
    returns the bubble's rect (none without lines)."""
    w = surface.get_width()
    y = hud.TOP_BAR + 7
    lines = scene.status_strip_lines()
    left = scene.strip_left  # an extension's badge at the left of the strip (the assistant's)
    _, centre, room = status_strip_text(w, left)
    size, step, lines = status_layout(lines, w, left)
    if not lines:
        return []
    if len(lines) > 2:  # three small lines fill the strip from its top
        y = hud.TOP_BAR + 3
    texts = [hud.text(hud.fit_text(line, size, room), size) for line in lines]
    bubble = pygame.Rect(0, 0, max(t.get_width() for t in texts) + 20, step * len(texts) + 1)
    bubble.midtop = (centre, y)
    hud.panel(surface, bubble, alpha=225)
    for k, t in enumerate(texts):
        surface.blit(t, t.get_rect(midtop=(centre, y + 3 + k * step)))
    return [bubble]


def draw_over_board(scene: PlayView, surface: pygame.Surface, layout: BoardLayout, claimed: bool) -> None:
    """What the play scene draws over its board and extensions: a lost run's rings, the HUD, the win/lose
    panel (``claimed``: an extension holds the board, so neither the rings nor the panel), the title card
    and the fade-in as the level opens."""
    if scene.state == PlayState.LOST and not claimed:
        draw_failure_marks(scene, surface, layout)
    draw_hud(scene, surface)
    if scene.state in (PlayState.WON, PlayState.LOST) and not claimed:
        draw_result(scene, surface, layout)
    if scene.anim < INTRO_SECONDS and scene.state == PlayState.PLACING:
        draw_intro(scene, surface, layout)
    if scene.anim < FADE_IN_SECONDS:
        veil = pygame.Surface(surface.get_size())
        veil.set_alpha(int(255 * (1.0 - scene.anim / FADE_IN_SECONDS)))
        surface.blit(veil, (0, 0))


def draw_ruler(scene: PlayView, surface: pygame.Surface, layout: BoardLayout) -> None:
    """Row numbers left of the board, column numbers above it (every cell, or every 5th when small)."""
    cell = layout.cell
    size = max(12, min(20, cell - 2))
    every = 1 if cell >= 16 else 5
    board = layout.rect
    for c in range(0, layout.cols, every):
        x = board.left + c * cell + cell // 2
        hud.blit_text(surface, str(c), (x, board.top - 6), size, hud.MUTED, anchor="midbottom")
    for r in range(0, layout.rows, every):
        y = board.top + r * cell + cell // 2
        hud.blit_text(surface, str(r), (board.left - 6, y), size, hud.MUTED, anchor="midright")


def draw_failure_marks(scene: PlayView, surface: pygame.Surface, layout: BoardLayout) -> None:
    """After a lost run: rings in the lemmings' colours and their numbers on each cell where one missed."""
    colors = scene.path_colors()
    cell = layout.cell
    by_cell: dict[Brick, list[LemmingFailure]] = {}
    for f in scene.failures:
        by_cell.setdefault(f.cell, []).append(f)
    pulse = 0.85 + 0.15 * math.sin(scene.anim * 4.0)
    width = max(3, cell // 12)
    for where, group in by_cell.items():
        rect = layout.cell_rect(*where)
        for k, f in enumerate(group[:4]):
            radius = max(6, int(cell * 0.5 * pulse)) + k * (width + 2)
            pygame.draw.circle(surface, (8, 6, 16), rect.center, radius + 2, width + 2)
            pygame.draw.circle(surface, colors[f.lemming % len(colors)], rect.center, radius, width)
        if len(scene.level.lemmings) > 1:
            label = "+".join(str(f.lemming + 1) for f in group[:3]) + ("+" if len(group) > 3 else "")
            hud.badge(surface, label, (rect.left, rect.top), colors[group[0].lemming % len(colors)],
                      anchor="center", size=max(14, min(22, cell // 2)))


def draw_result(scene: PlayView, surface: pygame.Surface, layout: BoardLayout) -> pygame.Rect | None:
    """The win/lose panel (or the end of a replay's) and where it is (:func:`place_clear_of` when lost or
    watched); none under a menu or dialog (the pause menu would hide its middle, its words, and leave an
    empty frame)."""
    if scene.app.top is not scene:
        return None
    if scene.watching:
        return draw_watched_result(scene, surface, layout)
    won = scene.state == PlayState.WON
    w, h = surface.get_size()
    n = len(scene.level.lemmings)
    if won:
        lines = won_lines(scene)
    else:
        home = scene.run.arrived_by(scene.last_frame)
        lines = [(f"{home} of {hud.plural(n, 'lemming')} reached the exit", hud.WHITE)]
        colors = scene.path_colors()
        for f in scene.failures[:3]:
            lines.append((f.describe(n), colors[f.lemming % len(colors)]))
        if len(scene.failures) > 3:
            lines.append((f"... and {len(scene.failures) - 3} more", hud.MUTED))
    more = f"Enter: {won_next(scene)}" if won else f"{display_key('Enter or R')}: try again   Left: step back"
    head_size = 56 if h >= 600 else 40
    line_h = 30 if h >= 600 else 24
    box = pygame.Rect(0, 0, min(620, w - 40), head_size + 24 + line_h * (len(lines) + 1))
    if won and scene.ghost_bricks:  # the assistant shows solutions: keep the board visible
        box.midbottom = (w // 2, timeline_rect((w, h)).top - 6)
    elif won:  # clear of the lemmings at their exits, then of the bricks that brought them there
        place_clear_of(box, list(scene.bricks), layout, (w, h), first=end_cells(scene))
        if not scene.app.settings.reduced_motion:
            draw_confetti(scene, surface)
    else:  # away from the cells a hint points at and the marked lemmings, so they stay visible
        place_clear_of(box, [f.cell for f in scene.failures], layout, (w, h),
                       first=[cell for cell, _ in scene.highlights])
    hud.panel(surface, box, edge=hud.GOLD if won else hud.RED)
    head = "Level complete!" if won else "Not quite\u2026"
    hud.blit_text(surface, head, (box.centerx, box.top + 10), head_size, hud.GOLD if won else hud.RED,
                  anchor="midtop")
    y = box.top + head_size + 14
    fsize = 26 if h >= 600 else 22
    for text, color in lines:
        hud.blit_text(surface, hud.fit_text(text, fsize, box.width - 24), (box.centerx, y), fsize, color,
                      anchor="midtop")
        y += line_h
    hud.blit_text(surface, more, (box.centerx, y + 2), 22, hud.MUTED, anchor="midtop")
    return box


def _section(scene: PlayView) -> Section | None:
    """Where the playlist's level comes from (None without a playlist)."""
    return scene.playlist[scene.index].section if scene.playlist else None


def won_next(scene: PlayView) -> str:
    """What Enter does after a win: the playlist's next level (an Endless level always has one: the
    Endless mode opens it), else back where the level was opened from."""
    section = _section(scene)
    if scene.index + 1 < len(scene.playlist) or section == Section.ENDLESS:
        return "next level"
    return f"back to the {scene.back_label}"


def won_lines(scene: PlayView) -> list[tuple[str, tuple[int, int, int]]]:
    used = len(scene.bricks)
    detail = f"{hud.plural(used, 'brick')} used"
    if scene.new_best and scene.best_before is not None:
        detail += f" \u2014 new best (was {scene.best_before})!"
    elif scene.best_before is not None:
        detail += f" \u2014 your best: {min(scene.best_before, used)}"
    lines = [(detail, hud.WHITE)]
    par = scene.par()
    if scene.assisted:
        listed = scene.key is not None and _section(scene) in (Section.PACK, Section.USER)  # the select's cards
        where = " (marked in the level list)" if listed else ""
        lines.append((f"solved with AI help{where}", hud.BLUE))
        lines.append(("AI help counts until a win with bricks you placed", hud.MUTED))
    elif par is not None and used <= par:
        lines.append((f"Par! The fewest bricks possible ({par}).", hud.GOLD))
    elif par is not None:
        lines.append((f"par is {hud.plural(par, 'brick')}: can you do it with fewer?", hud.MUTED))
    return lines


def draw_confetti(scene: PlayView, surface: pygame.Surface) -> None:
    """Falling confetti below the top bar (a pure function of the animation clock)."""
    colors = ((255, 214, 90), (120, 230, 120), (120, 180, 255), (255, 120, 200), (255, 255, 255))
    w, h = surface.get_size()
    previous_clip = surface.get_clip()
    top = hud.TOP_BAR + 4
    surface.set_clip(pygame.Rect(0, top, w, max(0, h - top - hud.BOTTOM_BAR)))
    for k in range(48):
        seed = (k * 2654435761) % 1000003
        x0 = (seed % 1000) / 1000.0 * w
        speed = 70 + seed % 90
        y = ((seed % 777) + scene.anim * speed) % (h + 40) - 20
        x = x0 + math.sin(scene.anim * 2 + k) * 18
        size = 8 + seed % 5
        flip = abs(math.cos(scene.anim * 5 + k))
        rect = pygame.Rect(0, 0, max(2, int(size * flip)), size // 2 + 3)
        rect.center = (int(x), int(y))
        pygame.draw.rect(surface, colors[k % len(colors)], rect)
    surface.set_clip(previous_clip)


def intro_heading(scene: PlayView) -> str:
    """The line above the level's title on its title card: where the level comes from, with its label
    (``Level 7``, ``Your level U2``, ``Endless level E3``, ``Level file``, ``Play-test``)."""
    label = scene.badge_label()
    section = _section(scene)
    if not label:
        return "Level file" if section == Section.FILE else "Play-test"
    if section == Section.PACK:
        return f"Level {label}"
    return f"{'Endless level' if section == Section.ENDLESS else 'Your level'} {label}"


def intro_title(scene: PlayView) -> str:
    """The big title of the level's title card: the level's title, without what the heading above it
    already says (a play-test's top bar reads "Play-test: Mine", its card "Play-test" over "Mine")."""
    return scene.title.removeprefix(f"{intro_heading(scene)}: ") or scene.title


def draw_intro(scene: PlayView, surface: pygame.Surface, layout: BoardLayout) -> None:
    """The level's title card, fading out as the level opens."""
    fade = min(1.0, max(0.0, (INTRO_SECONDS - scene.anim) / 0.6))
    lv = scene.level
    head = intro_heading(scene)
    sub = (f"{hud.plural(len(lv.lemmings), 'lemming')} \u00b7 {hud.plural(lv.budget, 'brick')} \u00b7 "
           f"{hud.plural(lv.frames, 'frame')}")
    card = pygame.Surface((min(560, surface.get_width() - 40), 150), pygame.SRCALPHA)
    hud.panel(card, card.get_rect(), alpha=235, edge=hud.GOLD)
    hud.blit_text(card, head, (card.get_width() // 2, 16), 28, hud.MUTED, anchor="midtop")
    hud.blit_text(card, hud.fit_text(intro_title(scene), 52, card.get_width() - 20), (card.get_width() // 2, 46), 52,
                  hud.GOLD, anchor="midtop")
    hud.blit_text(card, sub, (card.get_width() // 2, 106), 24, hud.WHITE, anchor="midtop")
    card.set_alpha(int(255 * fade))
    surface.blit(card, card.get_rect(center=layout.rect.center))


#: The footer keys that stay on a narrow window: the assistant's (with [ ] while several solutions show), Tab
#: and F1 (the help lists the rest) ...
KEPT_KEYS = ("H", "S", "A", "F", "G", "[ ]", "Tab", "F1")
#: ... and, where they fit too, the scene's main keys.
MAIN_KEYS = ("Space", "Esc", "Enter", "Enter/R")


def footer_keep(hints: list[tuple[str, str]], width: int,
                extra: Sequence[tuple[str, str]] = ()) -> list[tuple[str, str]]:
    """The footer hints that stay however narrow the window (:data:`KEPT_KEYS` and the add-ons' own ``extra``,
    such as the key that closes a panel over the board; then :data:`MAIN_KEYS` when they fit beside them at the
    footer's small size), in the order given."""
    kept = [hint for hint in hints if hint[0] in KEPT_KEYS or hint in extra]
    main = [hint for hint in hints if hint[0] in KEPT_KEYS + MAIN_KEYS or hint in extra]
    return main if hud.hints_width(main, hud.SMALL_HINT_SIZE) <= width - 20 else kept


def _without_keys(hints: list[tuple[str, str]], claimed: set[str]) -> list[tuple[str, str]]:
    """The footer ``hints`` without the keys an add-on claims (``Enter/R`` loses ``Enter``).

    >>> _without_keys([("Enter/R", "try again"), ("Esc", "levels"), ("P", "preview")], {"Enter", "Esc"})
    [('R', 'try again'), ('P', 'preview')]
    """
    out = []
    for key, label in hints:
        keys = [k for k in key.split("/") if k not in claimed] if key != "+/-" else [key]
        if keys:
            out.append(("/".join(keys), label))
    return out


def footer_hints(self: PlayView) -> list[tuple[str, str]]:
    """The footer's keys for the state of ``self`` (a play scene); an add-on's keys replace the scene's own."""
    s = self.state
    if self.watching:
        return watch_hints(s, self.back_label)
    if s == PlayState.PLACING:
        hints = [("Click", "brick"), ("Arrows+Enter", "brick"), ("Space", "release"), ("P", "preview"),
                 ("Z/Y", "undo/redo"), (".", "step"), ("Esc", "menu")]
    elif s in (PlayState.RUNNING, PlayState.PAUSED):
        hints = [("Space", "pause" if s == PlayState.RUNNING else "resume"), ("Left/Right", "step"),
                 ("+/-", "speed"), ("R", "restart"), ("P", "preview"), ("Click", "edit"), ("Esc", "menu")]
    elif s == PlayState.WON:
        more = won_next(self)
        hints = [("Enter", more.removeprefix("back to the ")), ("Space", "replay"), ("R", "restart"), ("Esc", "menu")]
    else:
        hints = [("Enter/R", "try again"), ("Left", "step back"), ("P", "preview"), ("Esc", "menu")]
    claimed = {k for key, _ in self.extra_hints for k in key.split("/")}  # "Enter/Esc" claims both keys
    return _without_keys(hints, claimed) + list(self.extra_hints) + [("F1", "keys")]


def watch_hints(state: PlayState, back_label: str) -> list[tuple[str, str]]:
    """The footer's keys while watching a replay (no editing, no hints)."""
    if state == PlayState.PLACING:
        hints = [("Space", "watch"), ("Esc", "menu")]
    elif state in (PlayState.RUNNING, PlayState.PAUSED):
        hints = [("Space", "pause" if state == PlayState.RUNNING else "resume"), ("Left/Right", "step"),
                 ("+/-", "speed"), ("Home/End", "first/last"), ("Esc", "menu")]
    else:
        hints = [("Enter", back_label), ("Space", "watch again"), ("Left", "step back"), ("Esc", "menu")]
    return hints + [("F1", "keys")]


def status_strip_lines(self: PlayView) -> list[str]:
    """The lines shown in the strip under the top bar (at most two; the rest joined into the second)."""
    lines = ([self.message] if self.message else []) + [line for line in self.status_lines if line]
    tip = self.level.meta_value("hint")
    if tip and self.state.value == "placing" and not self.bricks and not lines:
        lines = [tip]
    if len(lines) > 2:
        lines = [lines[0], "  \u00b7  ".join(lines[1:])]
    return lines
