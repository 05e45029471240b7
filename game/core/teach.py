"""Hints that teach: where and why the current run fails, then the idea that fixes it.

Both come from the reference simulator's runs (:func:`game.core.simulation.simulate`) and
:func:`game.core.outcome.explain`, so they are true for the level at hand:

* :func:`why_it_fails` names the first lemming that misses, the frame, its cell and the cells it
  reads there (those of the branch of the level's physics it takes, :mod:`game.core.reads`);
* :func:`the_idea` compares the run with a winning brick set: where the failing lemming's path first
  changes is the idea, said as what must happen ("the lemming must not drop at column 2", "lemming 1
  must turn back before frame 8"), never as the brick that does it.

Cells are written as :func:`game.core.level.cell_words` writes them (counted from 0, as the ruler shows).

>>> from game.core.level import Level
>>> level = Level.from_rows([">  . T", "XX.XXX", "XXXXXX"], frames=9, budget=1)
>>> why_it_fails(level, ()).text
'The lemming drops into a one-cell pit at frame 3: at frame 2, the cell below it (row 1, column 2) is open, so it falls.'
>>> the_idea(level, (), ((1, 2),)).text
'The idea: the lemming must not drop into the pit at column 2 (frame 3).'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from game.core.level import Brick, Level, cell_words, column_words, row_words
from game.core.outcome import FailureKind, LemmingFailure, explain, move_of
from game.core.physics import Offset, State, move_words
from game.core.physics_views import Branch
from game.core.reads import branch_taken, solid_of
from game.core.simulation import Run, simulate
from game.core.teach_words import Change, cell_seen, change_of, does, fall_column, fate, who


@dataclass(frozen=True)
class Lesson:
    """One line of a teaching hint and the cell it is about (drawn highlighted on the board)."""

    text: str
    cell: Brick
    frame: int = 0  #: the frame at which the lemming reads :attr:`cell` (or is there, at the last frame)


def _cell(r: int, c: int) -> str:
    return cell_words((r, c))


def first_failure(run: Run) -> LemmingFailure | None:
    """The lemming whose miss happens first (ties: the lowest number); None when all arrive."""
    failures = explain(run)
    if not failures:
        return None
    last = len(run.tracks[0].path) if run.tracks else 0
    return min(failures, key=lambda f: (f.frame if f.frame is not None else last, f.lemming))


def _reading(level: Level, bricks: Sequence[Brick], state: State) -> tuple[Branch, list[tuple[Brick, Offset, bool]]]:
    """The branch of the level's physics a lemming in ``state`` takes with ``bricks``, and the cells it
    reads there: ``(cell, offset seen from the lemming, solid)``."""
    solid = solid_of(level, bricks)
    branch = branch_taken(level.physics, solid, state)
    r, c, d = state
    return branch, [((r + dr, c + da * d), (dr, da), want) for (dr, da), want in branch.needs]


def _read_words(cell: Brick, offset: Offset, solid: bool, bricks: Sequence[Brick]) -> str:
    what = ("a brick" if cell in set(bricks) else "a wall") if solid else "open"
    return f"{cell_seen(offset)} ({_cell(*cell)}) is {what}"


def why_it_fails(level: Level, bricks: Sequence[Brick]) -> Lesson | None:
    """Where and why the run with ``bricks`` fails (which lemming, which frame, which cell it reads);
    None when every lemming reaches an exit.  The cells are those the level's physics reads there."""
    run = simulate(level, bricks, enforce_budget=False)
    failure = first_failure(run)
    if failure is None:
        return None
    n = len(level.lemmings)
    name = who(failure.lemming, n).capitalize()
    path = run.tracks[failure.lemming].path
    if failure.kind != FailureKind.FELL_INTO_PIT and failure.frame is not None:
        t = failure.frame
        for k in range(failure.frame, len(path) - 1):  # the first turn of its loop, if it turns
            if path[k][:2] == path[k + 1][:2] and path[k][2] != path[k + 1][2]:
                t = k
                break
    elif failure.frame is not None:
        t = max(0, failure.frame - 1)  # the frame it stood on the edge
    else:
        r, c, _ = path[-1]
        return Lesson(f"{name} is {failure.sentence()} (frame {len(path) - 1}), at {_cell(r, c)}: it needs a "
                      "shorter way to an exit.", (r, c), len(path) - 1)
    state = path[t]
    branch, reads = _reading(level, bricks, state)
    r, c, _ = state
    move = move_words(branch.move, branch.turn)
    lead = fate(failure, name, fall_column(path, failure))
    if failure.kind == FailureKind.FELL_INTO_PIT:
        pit = "a one-cell pit" if failure.turning else "the pit"
        lead = f"{name} drops into {pit} at frame {failure.frame}"
    if not reads:
        return Lesson(f"{lead}: at frame {t}, at {_cell(r, c)}, whatever is around it, it {does(move)}.", (r, c), t)
    cell, off, solid = next((x for x in reads if x[1] == branch.move), reads[-1])  # where it moves, else the last read
    return Lesson(f"{lead}: at frame {t}, {_read_words(cell, off, solid, bricks)}, so it {does(move)}.", cell, t)


def the_idea(level: Level, bricks: Sequence[Brick], solution: Sequence[Brick]) -> Lesson | None:
    """What must happen for the first failing lemming of ``bricks``, as the winning ``solution`` makes it
    happen: how its path must change where it first differs, said without naming a brick; the lesson's cell
    is where the lemming stands then.  None when the run with ``bricks`` already wins."""
    now = simulate(level, bricks, enforce_budget=False)
    failure = first_failure(now)
    if failure is None:
        return None
    better = simulate(level, solution, enforce_budget=False)
    i = failure.lemming
    name = who(i, len(level.lemmings))
    a, b = now.tracks[i].path, better.tracks[i].path
    for t in range(1, min(len(a), len(b))):
        if a[t] != b[t]:
            r, c, _ = a[t - 1]
            falling = t >= 2 and a[t - 1][0] > a[t - 2][0]  # it was falling already: the fall must end
            must = _must(move_of(b[t - 1], b[t]), move_of(a[t - 1], a[t]), (c, a[t][1]), t,
                         failure, fall_column(a, failure), falling_row=r if falling else None)
            return Lesson(f"The idea: {name} {must}.", (r, c), t)
    r, c, _ = a[-1]
    return Lesson(f"The idea: {name} needs another way before frame {failure.frame or 0}.", (r, c))


def _must(new: tuple[Offset, bool], old: tuple[Offset, bool], columns: tuple[int, int], t: int,
          failure: LemmingFailure, pit: int | None, *, falling_row: int | None = None) -> str:
    """What the lemming must do at frame ``t`` (``new``) instead of what it does (``old``), standing at column
    ``columns[0]`` and going to ``columns[1]``; with what becomes of it as it is, unless that says the same.
    ``falling_row``: the row a lemming already falling is in, where its fall must end."""
    here, there = columns
    later = failure.frame if failure.frame is not None and failure.frame > t else None
    as_is = f"; as it is, {fate(failure, 'it', pit)}"
    kind = change_of(new, old)
    if kind == Change.NO_FALL and failure.kind == FailureKind.FELL_INTO_PIT and failure.frame == t:
        return f"must not drop into the pit at {column_words(there)} (frame {t})"
    if kind == Change.NO_FALL and falling_row is not None:
        return f"must stop falling at {row_words(falling_row)} (frame {t}){as_is}"
    if kind == Change.TURN_BACK and later is not None:
        return f"must turn back before frame {later}{as_is}"
    must = {Change.NO_FALL: f"must not drop at {column_words(there)}",
            Change.TURN_BACK: f"must turn back at {column_words(here)}",
            Change.CLIMB: f"must climb up at {column_words(here)}", Change.STOP: f"must stop at {column_words(here)}",
            Change.DROP: f"must drop down at {column_words(there)}",
            Change.NO_TURN: f"must keep going at {column_words(here)} instead of turning",
            Change.OTHER: f"must take another way at {column_words(here)}"}[kind]
    return f"{must} (frame {t}){as_is}"


__all__ = ["Lesson", "first_failure", "the_idea", "why_it_fails"]
