"""Rule derivation: the moves of one lemming read off learned decision-tree rules.

Everything here consults only the learned trees (never :mod:`game.core.rules`):

* :func:`simplified_paths` - leaf rules with unnecessary tests dropped (Quinlan 1987);
* :func:`one_leaf_conditions` - for a single lemming at ``p``, every output a 1-leaf can set
  around it and the static (obstacle/target) condition of that leaf;
* :func:`derived_at_most_one` - a symbolic proof that one lemming is in at most one state per frame;
* :func:`derived_transitions` - the learned moves used by the compact *path* encoding of the
  learned solver (:mod:`ai.solvers.learned.path_model`), when the trees allow it;
* :func:`learned_run_wins` - run the learned moves without bricks.

>>> from ai.learning.rules import load_default_rules
>>> moves = derived_transitions(load_default_rules().model)
>>> sorted({out for out, _ in moves[1]})  # a right-facing lemming: turn, stay on target, walk, fall
[(0, 0, 0), (0, 0, 1), (0, 1, 1), (1, 0, 1)]
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ai.kernel.context import SolveContext
from ai.learning.features import LABELS, WINDOW, all_configurations
from ai.learning.models import TreeModel
from game.core.level import Level

Paths = list[list[tuple[list[tuple[int, int]], int]]]
"""Per channel, the leaf rules of a tree: ``(literals, value)``."""


@dataclass(frozen=True)
class _Trees:
    """A learned model as a cache key: equal exactly when the models' JSON forms are."""

    text: str
    model: TreeModel = field(compare=False, hash=False)


def _trees(model: TreeModel) -> _Trees:
    return _Trees(json.dumps(model.to_json(), sort_keys=True), model)


def simplified_paths(model: TreeModel) -> Paths:
    """The tree's leaf rules with unnecessary tests dropped (Quinlan 1987), per channel.

    A test is dropped from a rule when, on every configuration that can occur and satisfies
    the shorter rule, *the learned tree itself* gives the rule's value: the rule set then
    describes the same function as the tree on those configurations (each configuration
    still satisfies its own leaf's, now shorter, rule and every rule it satisfies agrees).
    Only the learned tree is consulted, never the reference rule.  Shorter clauses propagate
    earlier in CP-SAT.  Kept per model (the views of one model are each worked out once).
    """
    return _simplified(_trees(model))


@lru_cache(maxsize=64)
def _simplified(trees: _Trees) -> Paths:
    model = trees.model
    rows = all_configurations().astype(bool)
    pred = model.predict(rows)
    out = []
    for ch in range(len(LABELS)):
        rules = []
        for lits, value in model.paths(ch):
            kept = list(lits)
            for lit in list(lits):
                trial = [x for x in kept if x != lit]
                mask = np.ones(len(rows), dtype=bool)
                for f, v in trial:
                    mask &= rows[:, f] == bool(v)
                if mask.any() and np.all(pred[mask, ch] == bool(value)):
                    kept = trial
            rules.append((kept, value))
        out.append(rules)
    return out


Condition = dict[tuple[int, int, int], int]
"""Required values of static features on cells relative to a lemming: ``(kind, dr, dc) -> v``
with kind 0 = obstacle, 1 = target."""


def one_leaf_conditions(paths: list[list[tuple[list[tuple[int, int]], int]]]) -> list[list[tuple[tuple[int, int, int], Condition]]]:
    """For a single lemming at ``p`` facing left (``[0]``) or right (``[1]``): every 1-leaf of
    every output ``(dr, dc, channel)`` around ``p`` that can fire, with the static condition it
    puts on cells relative to ``p`` (the leaf's literals with the lemming features evaluated
    for "the lemming is exactly at ``p``"; leaves contradicting that, or needing a cell to be
    both obstacle and target, or ``p`` itself to be an obstacle, are left out)."""
    nw = len(WINDOW)
    out: list[list[tuple[tuple[int, int, int], Condition]]] = []
    for d in range(2):
        conds: list[tuple[tuple[int, int, int], Condition]] = []
        for q in WINDOW:  # q: position of the output cell relative to p
            pos = WINDOW.index((-q[0], -q[1]))  # p's position in q's window
            for ch in range(len(LABELS)):
                for lits, value in paths[ch]:
                    if not value:
                        continue
                    cons: Condition = {}
                    good = True
                    for f, v in lits:
                        kind, w = divmod(f, nw)
                        if kind >= 2:  # lemming feature: 1 exactly at (channel d, position pos)
                            if v != int(kind - 2 == d and w == pos):
                                good = False
                                break
                            continue
                        cell = (kind, q[0] + WINDOW[w][0], q[1] + WINDOW[w][1])
                        if cons.get(cell, v) != v:
                            good = False
                            break
                        cons[cell] = v
                    if good and cons.get((0, 0, 0), 0) == 0:
                        if not any(cons.get((0, r, c)) == 1 and cons.get((1, r, c)) == 1 for _, r, c in cons):
                            conds.append(((q[0], q[1], ch), cons))
        out.append(conds)
    return out


def derived_at_most_one(model: TreeModel, simplified: bool = False) -> bool:
    """Whether the learned trees *prove* that one lemming stays in at most one state per frame.

    Checked on the trees alone, exhaustively and symbolically.  Put a single lemming at cell
    ``p`` facing either way at frame ``t - 1`` (nothing else of its own map is occupied).
    Only the 9 cells ``q`` around ``p`` can see it (every 1-leaf requires some lemming feature
    set, checked by :func:`derived_transitions`).  For every such ``q``, output channel and 1-leaf,
    the leaf's lemming literals must agree with "the lemming is exactly at ``p``" and its
    obstacle/target literals become constraints on absolute cells around ``p``.  If no two
    of these (for different outputs) can hold together on any obstacle/target/empty
    assignment (a cell is not both an obstacle and a target; the lemming's own cell is no
    obstacle), the trees never put the lemming in two states at frame ``t``; by induction from
    the single start state, at most one state per lemming and frame is true in every run of
    the learned rules.  The constraint is then implied by the clauses (redundant), and the
    solver adds it to strengthen CP-SAT's propagation.  No hand-written rule is involved.
    ``simplified``: check the rules of :func:`simplified_paths` instead of the trees' own paths.
    """
    return _at_most_one(_trees(model), simplified)


@lru_cache(maxsize=64)
def _at_most_one(trees: _Trees, simplified: bool) -> bool:
    model = trees.model
    paths = simplified_paths(model) if simplified else [model.paths(ch) for ch in range(len(LABELS))]
    ok = True
    for d in range(2):
        conds = one_leaf_conditions(paths)[d]
        for i in range(len(conds)):
            for j in range(i + 1, len(conds)):
                (out_a, a), (out_b, b) = conds[i], conds[j]
                if out_a == out_b:
                    continue
                merged = dict(a)
                clash = False
                for cell, v in b.items():
                    if merged.get(cell, v) != v:
                        clash = True
                        break
                    merged[cell] = v
                if not clash:
                    clash = any(merged.get((0, r, c)) == 1 and merged.get((1, r, c)) == 1 for _, r, c in merged)
                if not clash:
                    ok = False
                    break
            if not ok:
                break
    return ok


def derived_transitions(model: TreeModel) -> list[list[tuple[tuple[int, int, int], Condition]]] | None:
    """The learned moves of a single lemming, derived from the trees, when they allow the
    compact *path* encoding (:class:`ai.solvers.learned.path_model.PathModel`); ``None`` otherwise.

    ``[d]`` lists, for a lemming facing ``d`` at ``p``, each output ``(dr, dc, channel)`` a
    1-leaf can set and the static condition of that leaf (:func:`one_leaf_conditions`).
    Required, all checked on the trees alone: every 1-leaf needs some lemming feature (no
    lemming from nothing); at most one output fires (:func:`derived_at_most_one`), so the run
    is a path of states; and a lemming on a target is absorbing: every condition compatible
    with "``p`` is a target" is the lemming's own state, and one of them requires nothing
    else, so it fires unconditionally.
    """
    return _transitions(_trees(model))


@lru_cache(maxsize=64)
def _transitions(trees: _Trees) -> list[list[tuple[tuple[int, int, int], Condition]]] | None:
    model = trees.model
    paths = [model.paths(ch) for ch in range(len(LABELS))]
    lem0 = 2 * len(WINDOW)
    result: list[list[tuple[tuple[int, int, int], Condition]]] | None = one_leaf_conditions(paths)
    if any(value and not any(v and f >= lem0 for f, v in lits) for ch in range(len(LABELS)) for lits, value in paths[ch]):
        result = None
    elif not derived_at_most_one(model):
        result = None
    else:
        assert result is not None
        for d in range(2):
            on_target = [(out, c) for out, c in result[d] if c.get((1, 0, 0), 1) == 1]
            if any(out != (0, 0, d) for out, _ in on_target) or not any(
                    set(c.items()) <= {((1, 0, 0), 1), ((0, 0, 0), 0)} for _, c in on_target):
                result = None
                break
    return result


#: Frames of one lemming's learned run between two ``ctx.check()`` calls.
CHECK_EVERY = 256


def learned_run_wins(level: Level, moves: list[list[tuple[tuple[int, int, int], Condition]]],
                     start_state: dict[int, int] | None = None, *, ctx: SolveContext | None = None) -> bool:
    """Run every lemming with the learned moves (:func:`derived_transitions`) and no brick;
    whether all end on a target.  Uses only the learned rules (a brickable cell is free).
    ``start_state`` maps a start direction (0 left, 1 right) to the model's state (default: itself).
    ``ctx.check()`` runs every :data:`CHECK_EVERY` frames (lemmings × frames can be 10^8 steps)."""
    h, w = level.height, level.width
    walls, targets = level.wall_map, level.target_map

    def static(kind: int, r: int, c: int) -> int:
        if not (0 <= r < h and 0 <= c < w):
            return 1 - kind
        return int(targets[r, c]) if kind == 1 else int(walls[r, c])

    for lem in level.lemmings:
        r, c, ch = lem.row, lem.col, 0 if lem.direction < 0 else 1
        if start_state is not None:
            ch = start_state[ch]
        for frame in range(level.frames - 1):
            if ctx is not None and frame % CHECK_EVERY == 0:
                ctx.check()
            for (dr, dc, och), cond in moves[ch]:
                if all(static(kind, r + cr, c + cc) == v for (kind, cr, cc), v in cond.items()):
                    r, c, ch = r + dr, c + dc, och
                    break
            else:
                return False
            if not (0 <= r < h and 0 <= c < w):
                return False
        if not targets[r, c]:
            return False
    return True
