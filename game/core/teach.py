"""Hints that teach: where and why the current run fails, then the idea that fixes it.

Both come from the reference simulator's runs (:func:`game.core.simulation.simulate`) and
:func:`game.core.outcome.explain`, so they are true for the level at hand:

* :func:`why_it_fails` names the first lemming that misses, the frame, its cell and the cells it
  reads there (those of the branch of the level's physics it takes, :mod:`game.core.reads`);
* :func:`the_idea` compares the run with a winning brick set: lemmings never meet, so a lemming's
  path can only change where a cell it reads changes; the first such cell on the failing lemming's
  path is the idea ("a floor over the pit", "a wall to turn it").

Cells are written ``row r, column c`` (0-based, as the ruler N shows).

>>> from game.core.level import Level
>>> level = Level.from_rows([">  . T", "XX.XXX", "XXXXXX"], frames=9, budget=1)
>>> why_it_fails(level, ()).text
'The lemming drops into a one-cell pit at frame 3: at frame 2 it stands at row 0, column 2 and reads the cell below (row 1, column 2), which is open, so it does: fall.'
>>> the_idea(level, (), ((1, 2),)).text
'The idea: the lemming needs a floor over the pit at column 2 (a brick at row 1, column 2) at frame 2, so it does: walk ahead instead of falling.'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from game.core.level import Brick, Level
from game.core.outcome import FailureKind, LemmingFailure, explain
from game.core.physics import Offset, State, move_words, offset_words
from game.core.physics_views import Branch
from game.core.reads import branch_taken, solid_of
from game.core.simulation import Run, simulate


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


def _reading(level: Level, bricks: Sequence[Brick], state: State) -> tuple[Branch, list[tuple[Brick, Offset, bool]]]:
    """The branch of the level's physics a lemming in ``state`` takes with ``bricks``, and the cells it
    reads there: ``(cell, offset seen from the lemming, solid)``."""
    solid = solid_of(level, bricks)
    branch = branch_taken(level.physics, solid, state)
    r, c, d = state
    return branch, [((r + dr, c + da * d), (dr, da), want) for (dr, da), want in branch.needs]


def _read_words(cell: Brick, offset: Offset, solid: bool, bricks: Sequence[Brick]) -> str:
    what = ("a brick" if cell in set(bricks) else "a wall") if solid else "open"
    return f"the cell {offset_words(offset)} ({_cell(*cell)}), which is {what}"


def why_it_fails(level: Level, bricks: Sequence[Brick]) -> Lesson | None:
    """Where and why the run with ``bricks`` fails (which lemming, which frame, which cell it reads);
    None when every lemming reaches an exit.  The cells are those the level's physics reads there."""
    run = simulate(level, bricks, enforce_budget=False)
    failure = first_failure(run)
    if failure is None:
        return None
    n = len(level.lemmings)
    who = _who(failure.lemming, n).capitalize()
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
        return Lesson(f"{who} is {failure.sentence()} (frame {len(path) - 1}), at {_cell(r, c)}: it needs a "
                      "shorter way to an exit.", (r, c), len(path) - 1)
    state = path[t]
    branch, reads = _reading(level, bricks, state)
    r, c, _ = state
    move = move_words(branch.move, branch.turn)
    if not reads:
        return Lesson(f"{who} is {failure.sentence()}: at frame {t}, at {_cell(r, c)}, it reads no cell and "
                      f"does: {move}.", (r, c), t)
    key = next((x for x in reads if x[1] == branch.move), reads[-1])  # the cell it moves into, else the last read
    said = "; ".join(_read_words(cell, off, sol, bricks) for cell, off, sol in reads)
    lead = f"{who} {failure.sentence()}"
    if failure.kind == FailureKind.FELL_INTO_PIT:
        pit = "a one-cell pit" if failure.turning else "the pit"
        lead = f"{who} drops into {pit} at frame {failure.frame}"
    return Lesson(f"{lead}: at frame {t} it stands at {_cell(r, c)} and reads {said}, so it does: {move}.",
                  key[0], t)


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
        state = a[t - 1]  # same state at t-1: a cell it reads there differs
        t -= 1  # the frame it reads the cell
        old, reads = _reading(level, bricks, state)
        new, _ = _reading(level, solution, state)
        for cell, off, _solid in reads:
            if (cell in want) == (cell in have):
                continue
            instead = f"{move_words(new.move, new.turn)} instead of {_gerund(move_words(old.move, old.turn))}"
            if cell in want:
                if off == (1, 0) and failure.kind == FailureKind.FELL_INTO_PIT and t + 1 == failure.frame:
                    return Lesson(f"The idea: {who} needs a floor over the pit at column {cell[1]} (a brick at "
                                  f"{_cell(*cell)}) at frame {t}, so it does: {instead}.", cell)
                return Lesson(f"The idea: {who} needs a brick {_beside(off, 'it')} at {_cell(*cell)} "
                              f"(frame {t}), so it does: {instead}.", cell)
            return Lesson(f"The idea: the brick at {_cell(*cell)} ({_beside(off, who)} at frame {t}) "
                          f"is in its way: without it, it does: {instead}.", cell)
        break
    r, c, _ = a[-1]
    return Lesson(f"The idea: {who} needs its path changed before frame {failure.frame or 0}.", (r, c))


_GERUNDS = {"turn": "turning", "stay": "staying", "climb": "climbing", "fall": "falling", "walk": "walking",
            "step": "stepping"}


def _gerund(words: str) -> str:
    """A move in words as a gerund, for "instead of ...".

    >>> _gerund("fall"), _gerund("turn around"), _gerund("climb ahead and turn")
    ('falling', 'turning around', 'climbing ahead and turning')
    """
    return " ".join(_GERUNDS.get(word, word) for word in words.split())


def _beside(offset: tuple[int, int], whom: str) -> str:
    """Where a cell is, seen from a lemming, in words: ``below it``, ``ahead of it``, ``above and behind it``.

    >>> _beside((1, 0), "it"), _beside((0, 1), "it"), _beside((-1, -1), "the lemming")
    ('below it', 'ahead of it', 'above and behind the lemming')
    """
    words = offset_words(offset).split("-")
    side = {"ahead": "ahead of", "behind": "behind"}
    if words[-1] in side:
        words[-1] = side[words[-1]]
    return " and ".join(words) + " " + whom if words != ["own cell"] else f"{whom}'s own cell"


__all__ = ["Lesson", "first_failure", "the_idea", "why_it_fails"]
