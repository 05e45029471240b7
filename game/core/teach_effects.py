"""What one brick does to a run, found by simulating the level with and without it.

The first lemming whose path the brick changes, the frame its path first differs, what it does there
instead, and what becomes of it without the brick: every hint step that places or removes a brick says
this (never "one of the solutions uses it").

>>> from game.core.level import Level
>>> level = Level.from_rows([">  . T", "XX.XXX", "XXXXXX"], frames=9, budget=1)
>>> effect = brick_effect(level, ((1, 2),), (1, 2))
>>> effect.lemming, effect.frame, effect.text
(0, 3, 'It keeps the lemming from falling at frame 3; without it, the lemming falls into the pit at column 2 at frame 3.')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from game.core.level import Brick, Level
from game.core.outcome import LemmingFailure, explain, move_of
from game.core.simulation import Run, simulate
from game.core.teach_words import change, fall_column, fate, who


@dataclass(frozen=True)
class BrickEffect:
    """What the brick at :attr:`cell` does: lemming :attr:`lemming`'s path with the brick first differs
    from its path without it at :attr:`frame` (both None: no lemming's path changes)."""

    cell: Brick
    lemming: int | None
    frame: int | None
    without: LemmingFailure | None  #: why that lemming misses without the brick (None: it gets home)
    text: str
    doing: str = ""  #: what it makes the lemming do, as a verb phrase ("turns the lemming back at frame 8")


def _failure_of(run: Run, lemming: int) -> LemmingFailure | None:
    return next((f for f in explain(run) if f.lemming == lemming), None)


def first_difference(a: Run, b: Run) -> tuple[int, int] | None:
    """``(frame, lemming)``: the first frame where a lemming's state differs between two runs of one level
    (ties: the lowest lemming), or None when every path is the same."""
    found: tuple[int, int] | None = None
    for k, (ta, tb) in enumerate(zip(a.tracks, b.tracks)):
        for t, (sa, sb) in enumerate(zip(ta.path, tb.path)):
            if sa != sb:
                if found is None or t < found[0]:
                    found = (t, k)
                break
    return found


def _saved(with_it: Run, without: Run) -> tuple[int, int] | None:
    """``(frame, lemming)`` of the first difference among the lemmings the brick brings home (home with it,
    not without it), or None when it brings none home."""
    home = [k for k, (a, b) in enumerate(zip(with_it.tracks, without.tracks))
            if a.reached_at is not None and b.reached_at is None]
    diffs = [(next(t for t, (x, y) in enumerate(zip(with_it.tracks[k].path, without.tracks[k].path)) if x != y), k)
             for k in home]
    return min(diffs) if diffs else None


def brick_effect(level: Level, bricks: Sequence[Brick], cell: Brick) -> BrickEffect:
    """What the brick at ``cell`` does to the run of ``level`` with ``bricks`` (which hold ``cell``):
    compared with the run without it, for the first lemming it brings home (else the first it changes)."""
    placed = tuple(bricks)
    with_it = simulate(level, placed, enforce_budget=False)
    without = simulate(level, tuple(b for b in placed if b != cell), enforce_budget=False)
    diff = first_difference(with_it, without)
    if diff is None:
        return BrickEffect(cell, None, None, None, "No lemming ever reaches it, so it changes nothing.")
    t, k = _saved(with_it, without) or diff
    name = who(k, len(level.lemmings))
    a, b = with_it.tracks[k].path, without.tracks[k].path
    falling = t >= 2 and a[t - 1][0] > a[t - 2][0]  # it was falling already: the brick ends the fall
    doing = change(move_of(a[t - 1], a[t]), move_of(b[t - 1], b[t]), name, t,
                   falling_at=a[t][0] if falling else None)
    missed = _failure_of(without, k)
    then = fate(missed, name, fall_column(b, missed), since=t, falling=falling)
    if missed is None and _failure_of(with_it, k) is None:
        then = f"{name} still gets home, by another way"
    return BrickEffect(cell, k, t, missed, f"It {doing}; without it, {then}.", doing)


__all__ = ["BrickEffect", "brick_effect", "first_difference"]
