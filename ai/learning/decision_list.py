"""The shortest decision list found by a beam search: the learner's answer when CP-SAT does not settle one.

A physics of the class is an ordered list of rules, each a conjunction of cell conditions on the 3x3
neighbourhood and an outcome (a move and whether the lemming turns).  :func:`decision_list` grows lists
by the purest, most general conjunctions of at most :data:`MAX_CONDITIONS` conditions
(:class:`Conjunctions`) until every configuration seen is explained, and keeps the list with the fewest
rules, then conditions.  :func:`ai.learning.physics_learner.learn_physics` uses it.

>>> from ai.learning.hidden_directions import outcome_ids
>>> from game.core.physics import CONFIGS
>>> below = 1 << NEIGHBOURS.index((1, 0))
>>> table = np.full(CONFIGS, -1, dtype=np.int64)
>>> table[below], table[0] = outcome_ids(np.array([0, 1]), np.array([1, 0]), np.array([False, False]))
>>> [(rule.when, rule.move) for rule in decision_list(table)]
[((((1, 0), False),), (1, 0)), ((((0, 1), False),), (0, 1))]
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, product

import numpy as np
import numpy.typing as npt

from ai.kernel.context import SolveContext
from ai.learning.hidden_directions import outcome_of
from game.core.physics import CONFIGS, NEIGHBOURS, Rule

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: The most cell conditions one learned rule may hold.
MAX_CONDITIONS = 4


@dataclass(frozen=True)
class Conjunctions:
    """Every conjunction of at most :data:`MAX_CONDITIONS` cell conditions, with the configurations it matches."""

    care: IntArray
    value: IntArray
    size: IntArray
    matches: BoolArray  #: ``(conjunctions, 256)``

    @classmethod
    def build(cls, most: int = MAX_CONDITIONS) -> Conjunctions:
        """All of them, smallest first."""
        care, value, size = [], [], []
        for k in range(most + 1):
            for bits in combinations(range(len(NEIGHBOURS)), k):
                mask = sum(1 << b for b in bits)
                for values in product((0, 1), repeat=k):
                    care.append(mask)
                    value.append(sum(v << b for v, b in zip(values, bits)))
                    size.append(k)
        c, v = np.array(care, dtype=np.int64), np.array(value, dtype=np.int64)
        configs = np.arange(CONFIGS, dtype=np.int64)
        matches = (configs[None, :] & c[:, None]) == v[:, None]
        return cls(c, v, np.array(size, dtype=np.int64), matches)

    def rule(self, index: int, outcome: int) -> Rule:
        """Conjunction ``index`` with ``outcome`` as a :class:`Rule`."""
        when = tuple(sorted((NEIGHBOURS[b], bool(self.value[index] >> b & 1))
                            for b in range(len(NEIGHBOURS)) if self.care[index] >> b & 1))
        dr, da, turn = outcome_of(outcome)
        return Rule(when, (dr, da), turn)


_CONJUNCTIONS: list[Conjunctions] = []


def conjunctions() -> Conjunctions:
    """The conjunctions, built once per process."""
    if not _CONJUNCTIONS:
        _CONJUNCTIONS.append(Conjunctions.build())
    return _CONJUNCTIONS[0]


def _pure_rules(conj: Conjunctions, table: IntArray, remaining: BoolArray, top: int) -> list[tuple[int, int, int]]:
    """The ``top`` best rules for the configurations still unexplained: ``(score, conjunction, outcome)``,
    each pure (every unexplained configuration it covers has its outcome), most covered first, then
    fewest conditions; a move's cell is always required free."""
    out: list[tuple[int, int, int]] = []
    for outcome in np.unique(table[remaining]).tolist():
        dr, da, _ = outcome_of(outcome)
        allowed = np.ones(len(conj.care), dtype=bool)
        if (dr, da) != (0, 0):
            bit = 1 << NEIGHBOURS.index((dr, da))
            allowed = ((conj.care & bit) != 0) & ((conj.value & bit) == 0)
        wrong = remaining & (table != outcome)
        right = remaining & (table == outcome)
        pure = allowed & ~conj.matches[:, wrong].any(axis=1)
        cover = np.where(pure, conj.matches[:, right].sum(axis=1), -1)
        score = cover * 16 - conj.size
        for index in np.argsort(-score, kind="stable")[:top].tolist():
            if cover[index] > 0:
                out.append((int(score[index]), index, outcome))
    out.sort(key=lambda item: -item[0])
    return out[:top]


_Partial = tuple[tuple[tuple[int, int], ...], BoolArray, int]  # a list being grown: rules, unexplained, conditions


def decision_list(table: IntArray, *, width: int = 4, ctx: SolveContext | None = None) -> tuple[Rule, ...]:
    """The shortest decision list found explaining ``table`` (per configuration an outcome, or -1 for never
    seen): a beam search (``width`` partial lists, each grown by its ``width`` best pure rules,
    :func:`_pure_rules`); among the complete lists the one with the fewest rules, then conditions."""
    conj = conjunctions()
    beam: list[_Partial] = [((), table >= 0, 0)]
    finished: list[tuple[int, int, tuple[tuple[int, int], ...]]] = []
    while beam:
        grown: list[_Partial] = []
        for rules, remaining, conditions in beam:
            if ctx is not None:
                ctx.check()
            if not remaining.any():
                finished.append((len(rules), conditions, rules))
                continue
            for _score, index, outcome in _pure_rules(conj, table, remaining, width):
                grown.append((rules + ((index, outcome),), remaining & ~conj.matches[index],
                              conditions + int(conj.size[index])))
        grown.sort(key=lambda p: (len(p[0]) + bool(p[1].any()), int(p[1].sum()), p[2]))
        beam = grown[:width]
    if not finished:
        return ()
    _, _, best = min(finished)
    learned = [conj.rule(index, outcome) for index, outcome in best]
    while learned and learned[-1].when == () and (learned[-1].move, learned[-1].turn) == ((0, 0), False):
        learned.pop()  # "otherwise stay" is what no rule means already
    return tuple(learned)
