"""Hints that teach: where and why the current run fails, then the idea that fixes it.

Both come from the reference simulator's runs (:func:`game.simulation.simulate`) and
:func:`game.outcome.explain`, so they are true for the level at hand:

* :func:`why_it_fails` names the first lemming that misses, the frame, its cell and the cell it
  reads there (the one below when it drops, the one ahead when it turns);
* :func:`the_idea` compares the run with a winning brick set: lemmings never meet, so a lemming's
  path can only change where a cell it reads changes; the first such cell on the failing lemming's
  path is the idea ("a floor over the pit", "a wall to turn it").

Cells are written ``row r, column c`` (0-based, as the ruler N shows).

>>> from game.level import Level
>>> level = Level.from_rows([">  . T", "XX.XXX", "XXXXXX"], frames=9, budget=1)
>>> why_it_fails(level, ()).text
'The lemming drops into a one-cell pit at frame 3: at frame 2 it stands at row 0, column 2 and reads the cell below (row 1, column 2), which is open.'
>>> the_idea(level, (), ((1, 2),)).text
'The idea: the lemming needs a floor over the pit at column 2 (a brick at row 1, column 2) to walk on at frame 2.'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from game.level import Brick, Level
from game.outcome import FailureKind, LemmingFailure, explain
from game.simulation import Run, simulate


@dataclass(frozen=True)
class Lesson:
    """One line of a teaching hint and the cell it is about (drawn highlighted on the board)."""

    text: str
    cell: Brick
    frame: int = 0  #: the frame at which the lemming reads :attr:`cell` (or is there, at the last frame)


def _cell(r: int, c: int) -> str:
    return f"row {r}, column {c}"


def _who(index: int, total: int) -> str:
    return f"lemming {index + 1}" if total > 1 else "the lemming"


def first_failure(run: Run) -> LemmingFailure | None:
    """The lemming whose miss happens first (ties: the lowest number); None when all arrive."""
    failures = explain(run)
    if not failures:
        return None
    last = len(run.tracks[0].path) if run.tracks else 0
    return min(failures, key=lambda f: (f.frame if f.frame is not None else last, f.lemming))


def why_it_fails(level: Level, bricks: Sequence[Brick]) -> Lesson | None:
    """Where and why the run with ``bricks`` fails (which lemming, which frame, which cell it reads);
    None when every lemming reaches an exit."""
    run = simulate(level, bricks, enforce_budget=False)
    failure = first_failure(run)
    if failure is None:
        return None
    n = len(level.lemmings)
    who = _who(failure.lemming, n)
    path = run.tracks[failure.lemming].path
    if failure.kind == FailureKind.FELL_INTO_PIT and failure.frame is not None:
        t = max(0, failure.frame - 1)  # the frame it stood on the edge
        r, c, _ = path[t]
        pit = "a one-cell pit" if failure.turning else "the pit"
        return Lesson(f"{who.capitalize()} drops into {pit} at frame {failure.frame}: at frame {t} it stands at "
                      f"{_cell(r, c)} and reads the cell below ({_cell(r + 1, c)}), which is open.", (r + 1, c), t)
    if failure.kind in (FailureKind.STUCK_TURNING, FailureKind.PACING) and failure.frame is not None:
        t = failure.frame
        for k in range(failure.frame, len(path) - 1):  # the first turn of its loop
            if path[k][:2] == path[k + 1][:2] and path[k][2] != path[k + 1][2]:
                t = k
                break
        r, c, d = path[t]
        solid = "a brick" if (r, c + d) in set(bricks) else "a wall"
        what = "turns on the spot between two walls" if failure.kind == FailureKind.STUCK_TURNING else \
            "paces back and forth between two walls"
        return Lesson(f"{who.capitalize()} {what} from frame {t}: at {_cell(r, c)} it reads the cell ahead "
                      f"({_cell(r, c + d)}), which is {solid}, so it turns.", (r, c + d), t)
    r, c, _ = path[-1]
    doing = "falling" if failure.kind == FailureKind.STILL_FALLING else "walking"
    return Lesson(f"{who.capitalize()} is still {doing} at frame {len(path) - 1} (the last one), at "
                  f"{_cell(r, c)}: it needs a shorter way to an exit.", (r, c), len(path) - 1)


def the_idea(level: Level, bricks: Sequence[Brick], solution: Sequence[Brick]) -> Lesson | None:
    """The idea a winning ``solution`` uses for the first failing lemming of ``bricks``: the first cell
    that lemming reads whose content differs; None when the current run already wins."""
    now = simulate(level, bricks, enforce_budget=False)
    failure = first_failure(now)
    if failure is None:
        return None
    better = simulate(level, solution, enforce_budget=False)
    i, n = failure.lemming, len(level.lemmings)
    who = _who(i, n)
    a, b = now.tracks[i].path, better.tracks[i].path
    have, want = set(bricks), set(solution)
    for t in range(1, min(len(a), len(b))):
        if a[t] == b[t]:
            continue
        r, c, d = a[t - 1]  # same state at t-1: a cell it reads there differs
        t -= 1  # the frame it reads the cell
        below, front = (r + 1, c), (r, c + d)
        if (below in want) != (below in have):
            if below in want and failure.kind == FailureKind.FELL_INTO_PIT and t + 1 == failure.frame:
                return Lesson(f"The idea: {who} needs a floor over the pit at column {c} (a brick at "
                              f"{_cell(*below)}) to walk on at frame {t}.", below)
            if below in want:
                return Lesson(f"The idea: {who} needs a floor at {_cell(*below)}, so it walks on instead of "
                              f"dropping there at frame {t}.", below)
            return Lesson(f"The idea: {who} should drop at column {c}: the brick at {_cell(*below)} is in its way "
                          "down.", below)
        if (front in want) != (front in have):
            if front in want:
                return Lesson(f"The idea: {who} needs a wall to turn it around at {_cell(*front)} "
                              f"(frame {t}), so it heads the other way.", front)
            return Lesson(f"The idea: {who} should walk on at frame {t}: the brick at {_cell(*front)} turns it "
                          "back.", front)
        break
    r, c, _ = a[-1]
    return Lesson(f"The idea: {who} needs its path changed before frame {failure.frame or 0}.", (r, c))


__all__ = ["Lesson", "first_failure", "the_idea", "why_it_fails"]
