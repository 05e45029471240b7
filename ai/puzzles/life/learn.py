"""Learn a rule over the 3x3 neighbourhood from one observed trajectory.

Every cell of every generation but the last gives one example: its neighbourhood index (0..511) and
its state one generation later.  Two examples that disagree mean no rule over the 3x3 neighbourhood
explains the trajectory.  Otherwise:

* when the examples agree with an outer-totalistic rule (``B.../S...``: the next state depends only on
  the centre and the live-neighbour count) and every (centre, count) pair was seen, that rule is the
  answer: it fixes all 512 entries, seen or not;
* else the answer is the table of the seen entries, and the unseen entries are listed (they are set
  to the outer-totalistic guess where the seen entries of their (centre, count) pair agree, else dead).

The learned rule is replayed on the trajectory before it is returned (it must reproduce every step).

>>> import numpy as np
>>> from game.core.puzzles.life.rules import LIFE, trajectory
>>> boards = trajectory(np.random.default_rng(1).random((25, 25)) < 0.5, LIFE, 10)
>>> learned = learn_rule(boards)
>>> learned.rule.name, learned.status.value, learned.unseen
('B3/S23', 'outer-totalistic', ())
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ai.kernel.context import SolveContext
from game.core.errors import GameError
from game.core.puzzles.life.rules import Board, Rule, centre, neighbourhood_indices, neighbours, step


class LearnStatus(str, enum.Enum):
    """How complete a learned rule is."""

    OUTER_TOTALISTIC = "outer-totalistic"  #: a B/S rule agrees with every example and every pair was seen
    TABLE = "table"  #: all 512 neighbourhoods were seen: the table is exact
    PARTIAL = "partial"  #: some entries were never seen (see ``unseen``)


class InconsistentTrajectory(GameError):
    """The same neighbourhood is followed by both states: no 3x3 rule explains the trajectory."""


@dataclass(frozen=True)
class LearnedRule:
    """A learned rule, which of its 512 entries were seen, and how sure it is."""

    rule: Rule
    status: LearnStatus
    seen: tuple[bool, ...]
    examples: int
    #: Entries the examples do not determine (guessed dead): unseen neighbourhoods, or -- when the examples
    #: agree with a B/S rule -- the neighbourhoods of the (centre, count) pairs never seen.
    unseen: tuple[int, ...] = ()

    @property
    def unseen_pairs(self) -> list[str]:
        """The undetermined (centre, count) pairs as ``B8`` (dead centre, 8 live neighbours) / ``S8``."""
        return sorted({("S" if centre(i) else "B") + str(neighbours(i)) for i in self.unseen})

    def to_json(self) -> dict[str, Any]:
        """The CLI's JSON object."""
        return {"rule": self.rule.name, "status": self.status.value, "examples": self.examples,
                "seen": sum(self.seen), "unseen": list(self.unseen), "unseen_pairs": self.unseen_pairs}


def examples(boards: Sequence[Board]) -> tuple[np.ndarray, np.ndarray]:
    """(neighbourhood index, next state) of every cell of every generation but the last."""
    idx = [neighbourhood_indices(np.asarray(b, dtype=bool)).ravel() for b in boards[:-1]]
    nxt = [np.asarray(b, dtype=bool).ravel() for b in boards[1:]]
    if not idx:
        return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=bool)
    return np.concatenate(idx), np.concatenate(nxt)


def learn_rule(boards: Sequence[Board], ctx: SolveContext | None = None) -> LearnedRule:
    """Learn the rule behind ``boards`` (generations in order; see the module docstring)."""
    if len(boards) < 2:
        raise GameError("a trajectory needs at least two boards (a board and its next generation)")
    index, nxt = examples(boards)
    if ctx is not None:
        ctx.check()
    ones = np.bincount(index, weights=nxt.astype(np.int64), minlength=512)
    total = np.bincount(index, minlength=512)
    clash = np.nonzero((ones > 0) & (ones < total))[0]
    if clash.size:
        i = int(clash[0])
        raise InconsistentTrajectory(
            f"no rule over the 3x3 neighbourhood fits: neighbourhood {i} (centre {'alive' if centre(i) else 'dead'}, "
            f"{neighbours(i)} live neighbours) is followed by both states ({clash.size} such neighbourhoods)")
    seen = tuple(bool(t) for t in total)
    value = [bool(o) for o in ones]
    groups: dict[tuple[bool, int], set[bool]] = {}
    for i in range(512):
        if seen[i]:
            groups.setdefault((centre(i), neighbours(i)), set()).add(value[i])
    totalistic = all(len(v) == 1 for v in groups.values())
    table = []
    for i in range(512):
        g = groups.get((centre(i), neighbours(i)), set())
        table.append(value[i] if seen[i] else (next(iter(g)) if totalistic and len(g) == 1 else False))
    rule = Rule(tuple(table))
    if totalistic and len(groups) == 18:
        status = LearnStatus.OUTER_TOTALISTIC
    elif all(seen):
        status = LearnStatus.TABLE
    else:
        status = LearnStatus.PARTIAL
    for a, b in zip(boards, boards[1:]):  # the replay: the learned rule reproduces every step
        if not np.array_equal(step(np.asarray(a, dtype=bool), rule), np.asarray(b, dtype=bool)):
            raise AssertionError("the learned rule does not replay the trajectory")
    if totalistic:
        unseen = tuple(i for i in range(512) if (centre(i), neighbours(i)) not in groups)
    else:
        unseen = tuple(i for i in range(512) if not seen[i])
    return LearnedRule(rule, status, seen, int(index.size), unseen)


def disagreements(a: Rule, b: Rule) -> list[int]:
    """Neighbourhoods (of all 512) where two rules differ: the check of a learned rule against the truth."""
    return [i for i in range(512) if a.table[i] != b.table[i]]


__all__ = ["InconsistentTrajectory", "LearnStatus", "LearnedRule", "disagreements", "examples", "learn_rule"]
