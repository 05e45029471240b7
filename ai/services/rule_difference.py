"""The rule difference that matters on a level of a mystery world, in one sentence for the hint.

A mystery world's lemmings follow another physics than the classic worlds.  The sentence names the
first place where a lemming of this level does something a classic lemming would not: the run with
the given bricks (the hint gives the player's own, so no brick of the answer is named) is replayed under the
level's physics, and at every frame
the classic rules are asked what they would do in the same spot; the first disagreement is described
("Here lemmings climb one-cell steps: the brick at row 2, column 4 is not a wall to them").  Cells are
written ``row r, column c`` (0-based, as the ruler shows).

>>> from game.core.level import Level
>>> from game.core.physics_catalog import SHIPPED
>>> level = Level.from_rows(["    ", ">X T", "XXXX"], frames=6, budget=0, physics=SHIPPED["climber"])
>>> rule_difference(level)
'Here lemmings climb one-cell steps: the wall at row 1, column 1 is not a wall to them.'
>>> rule_difference(Level.from_rows(["> T", "XXX"], frames=4, budget=0, physics=SHIPPED["careful"]))
'Here lemmings never walk off an edge: they turn back at every drop.'
>>> rule_difference(level.with_physics(SHIPPED["classic"]))
''
"""

from __future__ import annotations

from typing import Iterable

from game.core.level import Brick, Level
from game.core.physics import CLASSIC, Physics, State
from game.core.physics_views import step, views
from game.core.rule_words import action_words
from game.core.simulation import simulate

#: Said when neither the runs nor the usual spots show a difference.
GENERAL = "Here lemmings follow other rules than in the first worlds: release them once and watch what they do."
#: Usual spots (the cells that are solid around a lemming facing ahead) and the sentence for a physics that
#: does something else there than the classic rules.
SPOTS: tuple[tuple[frozenset[tuple[int, int]], str], ...] = (
    (frozenset({(1, 0), (1, 1), (0, 1)}), "Here lemmings climb one-cell steps: a single brick is not a wall to them."),
    (frozenset({(1, 0)}), "Here lemmings never walk off an edge: they turn back at every drop."),
    (frozenset(), "Here lemmings glide as they fall: they move one cell ahead at each step down."),
)


def _where(r: int, c: int) -> str:
    return f"row {r}, column {c}"


def _sentence(level: Level, bricks: frozenset[Brick], state: State, now: State, classic: State) -> str:
    """The sentence for one disagreement: ``now`` is where the lemming at ``state`` goes, ``classic`` where a
    classic lemming would go."""
    r, c, d = state
    moved = (now[0] - r, (now[1] - c) * d)
    expected = (classic[0] - r, (classic[1] - c) * d)
    if level.target_map[r, c] and classic == state and now != state:
        return (f"Here an exit does not stop a lemming: at {_where(r, c)} it walks on, and it must stand on an "
                "exit at the last frame.")
    if moved[0] == -1:
        ahead = (r, c + d)
        what = "brick" if ahead in bricks else "wall"
        return f"Here lemmings climb one-cell steps: the {what} at {_where(*ahead)} is not a wall to them."
    if moved == (0, 0) and now[2] != d and expected[0] >= 0 and expected[1] == 1:
        return (f"Here lemmings never walk off an edge: at {_where(r, c)} they turn back instead of stepping "
                "over the drop.")
    if moved == (1, 1) and expected == (1, 0):
        return (f"Here lemmings glide as they fall: from {_where(r, c)} they move one cell ahead at each step "
                "down instead of falling straight.")
    return (f"Here lemmings follow other rules: at {_where(r, c)} a lemming of the first worlds "
            f"{action_words(expected, classic[2] != d)}, but a lemming here {action_words(moved, now[2] != d)}.")


def _first_difference(level: Level, bricks: tuple[Brick, ...]) -> str:
    """The sentence for the earliest disagreement on the run with ``bricks`` ("" when none)."""
    run = simulate(level, bricks, enforce_budget=False)
    obstacles = level.obstacle_map(bricks)
    targets = level.target_map

    def blocked(r: int, c: int) -> bool:
        return not level.in_bounds(r, c) or bool(obstacles[r, c])

    def on_target(r: int, c: int) -> bool:
        return level.in_bounds(r, c) and bool(targets[r, c])

    for frame in range(level.frames - 1):
        for track in run.tracks:
            state, now = track.path[frame], track.path[frame + 1]
            classic = step(CLASSIC, blocked, on_target, state)
            if classic != now:
                return _sentence(level, frozenset(bricks), state, now, classic)
    return ""


def rule_difference(level: Level, bricks: Iterable[Brick] = ()) -> str:
    """The rule difference that matters on ``level`` ("" for a level of the classic rules): the first place
    where the run with ``bricks`` (e.g. the player's) differs from what classic lemmings would do, else the
    first on the run without bricks, else the physics' difference at a usual spot (:func:`general_difference`)."""
    if views(level.physics).is_classic:
        return ""
    placed = tuple(sorted((int(r), int(c)) for r, c in bricks))
    for attempt in (placed, ()):
        try:
            text = _first_difference(level, attempt)
        except ValueError:  # bricks that do not fit this level
            continue
        if text:
            return text
    return general_difference(level.physics)


def general_difference(physics: Physics) -> str:
    """The difference of ``physics`` from the classic rules at a usual spot (an edge, a step, open air, an
    exit), else :data:`GENERAL`; "" for the classic rules.

    >>> from game.core.physics_catalog import SHIPPED
    >>> general_difference(SHIPPED["restless"])
    'Here an exit does not stop a lemming: it walks on, and it must stand on an exit at the last frame.'
    """
    if views(physics).is_classic:
        return ""
    for solid, text in SPOTS:
        def blocked(r: int, c: int, solid: frozenset[tuple[int, int]] = solid) -> bool:
            return (r, c) in solid
        if step(physics, blocked, lambda r, c: False, (0, 0, 1)) != step(CLASSIC, blocked, lambda r, c: False, (0, 0, 1)):
            return text
    if physics.targets_stop != CLASSIC.targets_stop:
        return ("Here an exit does not stop a lemming: it walks on, and it must stand on an exit at the last "
                "frame.")
    return GENERAL


__all__ = ["GENERAL", "SPOTS", "general_difference", "rule_difference"]
