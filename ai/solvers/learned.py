"""The learned-rule solver: solve levels with CP-SAT using only rules learned from games.

The dynamics come *only* from a learned decision tree per direction channel
(:mod:`ai.learning`).  As in the design notes, each tree becomes CNF clauses, one per
path to a leaf: ``l1 and ... and lk -> y == v``, instantiated for every lemming, frame
``t >= 1`` and cell, where ``y`` is the cell's channel at frame ``t`` and the literals read
the 3x3 neighbourhood at frame ``t - 1``.  Added to that: the start state (frame 0), the
goal (every lemming on some target cell at the last frame) and the budget ``sum b <= B``.
No hand-written movement rule is used anywhere in the encoding.

Per-lemming maps: the game says lemmings do not interact, so each lemming has its own
occupancy map, exactly as in the data the rules were learned from.

**Two encodings.**  ``encoding="path"`` (the default, used with verified rules) and
``encoding="time"`` (the clause-per-tree-path encoding above, also the fallback).

*path* (:class:`_PathModel`, as compact as the hand-coded :class:`ai.solvers.cpsat.PathModel`):
the moves of one lemming are *derived from the learned trees*, never written by hand.
:func:`one_leaf_conditions` evaluates every 1-leaf of both trees symbolically for a
single lemming at ``p`` (all 9 output cells around it; the leaf's lemming literals must
agree with "the lemming is exactly at ``p``"), giving the learned moves
``p -> p + (dr, dc), channel`` with the obstacle/target condition of the leaf on cells
around ``p``.  :func:`derived_transitions` accepts them only when three properties are
proven on the trees, exhaustively over every obstacle/target/empty assignment (pairwise
satisfiability of the leaf conditions): no 1-leaf fires without a lemming feature; at most
one output fires (:func:`derived_at_most_one`), so a run is a path of states; and a
lemming on a target stays there unconditionally.  The model then has, per lemming and live
state, a visit literal and a frame variable, an edge per learned move whose condition is
instantiated on the level (walls/outside are obstacles, brickable cells are brick
variables) and the goal "some target state is visited".  Every brick set extends to
exactly one assignment (so mode ``all`` enumerates brick sets one-to-one).  On the
benchmark suites it is as fast as the hand-coded CP-SAT model or faster
(``bench/results.md``).  Before building it, :func:`learned_run_wins` runs the learned
moves without bricks: when they win (and the replay agrees), the empty set is the answer.

*time* (:func:`encode`): one clause per tree path and frame, as described above; with
``derived=True`` it also gets redundant constraints derived from the trees: *support*
clauses (a lemming state is true only if the lemming literal of one of its possible
1-leaves is true at ``t - 1``: sound because the true state is set by the one leaf that
is reached, and every 1-leaf needs a lemming feature) and per-frame *at-most-one*
groups (:func:`derived_at_most_one`).  They cut CP-SAT's conflicts 4x on the large suite
but slow each conflict down more than that, so they are off by default.

**Which variables exist (a sound restriction derived from the learned rules).**  Before
building the model, every feature is given a three-valued value: walls and cells outside
the map are obstacle 1, targets/starts/other non-brickable cells obstacle 0, brickable
cells *unknown*; frame 0 is known from the start state.  Frame by frame, each cell's
output is computed by evaluating the learned tree in three-valued logic: a leaf is
*possible* when none of its literals is known false; if every possible leaf has the same
value the output is that constant, otherwise it is unknown and gets a variable.  This is
a sound over-approximation of the learned dynamics: for any brick set, the concrete run
of the learned rules reaches exactly one leaf per cell, that leaf is among the possible
ones, so a known output equals the concrete one.  Clauses whose literal is known false
are dropped (already satisfied), known-true literals are removed, and bricks on cells that
no remaining clause reads are fixed to 0 (such a brick cannot change the learned run, so
it never belongs to a minimal solution).  Each lemming state variable is then a function
of the bricks (every tree reaches exactly one leaf), so mode ``all`` enumerates brick sets
one-to-one with CP-SAT's ``enumerate_all_solutions``.

**Dead states (verified rules only).**  A backward pass over the same structure fixes to 0
the states from which no chain of learned 1-leaves reaches a target at the last frame
(:func:`encode`).  On the shipped rules the live states found this way are exactly those
of the hand-written analysis in :mod:`ai.reach` (checked on the pack and the large suite
while developing), although nothing of it is used here.  The propagation is evaluated
sparsely (:func:`encode_sparse`, only cells next to a possible lemming state);
:func:`encode_dense` is the plain whole-map version, kept as the reference the tests
compare it with.

**Trust.**  Every solution is replayed with the reference simulator; if a replay
disagrees, the solver reports ``unknown`` with "the learned rules are wrong" instead of
returning the brick set.  Optimality, infeasibility and completeness are claimed only
when the rules carry an exhaustive verification with no error (:mod:`ai.learning.verify`);
otherwise winning sets are reported as ``feasible`` and "no solution" as ``unknown``.

**Default rules.**  ``ai/learning/default_rules.json`` is shipped: learned by
``python main.py learn --out ai/learning/default_rules.json`` (100 random games, seed 0,
decision tree; verified exact).  If that file is missing, rules are learned on first use
with the same settings and cached in ``user_data_dir()/learned_rules.json``.

>>> from game.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> r = LearnedRuleSolver().solve(level, mode=SolveMode.ALL)
>>> r.status.value, r.solutions, r.complete
('optimal', (((1, 2),),), True)
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ai.base import (
    BrickSet,
    Progress,
    ProgressCallback,
    SolveMode,
    SolveResult,
    SolveStats,
    SolveStatus,
)
from ai.learning.features import LABELS, WINDOW
from ai.learning.models import TreeModel
from ai.learning.rules import DEFAULT_RULES_PATH, LearnedRules
from game.level import Brick, Level
from game.simulation import simulate

UNKNOWN = 2
"""Three-valued logic: 0, 1 or unknown."""

#: Cache file for rules learned on first use (when the shipped file is missing).
CACHE_NAME = "learned_rules.json"

_default_rules: LearnedRules | None = None
_default_lock = threading.Lock()


def default_rules() -> LearnedRules:
    """The shipped rules, or rules learned once (seed 0) and cached in the user data dir."""
    global _default_rules
    with _default_lock:
        if _default_rules is None:
            if DEFAULT_RULES_PATH.exists():
                _default_rules = LearnedRules.load(DEFAULT_RULES_PATH)
            else:
                from game.storage import user_data_dir

                cache = user_data_dir() / CACHE_NAME
                if cache.exists():
                    _default_rules = LearnedRules.load(cache)
                else:
                    from ai.learning.learn import learn_rules

                    _default_rules = learn_rules(model="tree").rules
                    _default_rules.save(cache)
        return _default_rules


# ------------------------------------------------------------------------ encoding
#: Padding value for "no literal" in clause arrays.
_NONE = np.iinfo(np.int64).min


def _pos(ids: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """CP-SAT proto literal of variables ``ids``."""
    return ids


def _neg(ids: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """CP-SAT proto literal of the negation of variables ``ids``."""
    return -ids - 1


@dataclass
class Encoding:
    """The three-valued propagation and the clauses of one level, as CP-SAT proto literals.

    Variables ``0 .. n_bricks-1`` are the bricks of ``brick_cells``; the others are lemming
    states.  ``values[k]`` is ``(N, H, W, 2)`` int8 in {0, 1, UNKNOWN}; ``clauses`` is a list
    of int64 arrays ``(m, width)`` (one clause per row, padded with ``_NONE``); ``goal[k]``
    lists the literals of lemming ``k`` standing on a target at the last frame (``None``
    when already known true).
    """

    level: Level
    values: list[npt.NDArray[np.int8]]
    brick_cells: list[Brick]
    n_vars: int
    clauses: list[npt.NDArray[np.int64]] = field(default_factory=list)
    goal: list[list[int] | None] = field(default_factory=list)
    goal_impossible: bool = False
    used_bricks: set[int] = field(default_factory=set)
    #: derived redundant constraints (see :func:`derived_at_most_one`): per lemming and frame,
    #: the ids of the unknown state variables of which at most one may be true
    at_most_one: list[list[int]] = field(default_factory=list)
    #: derived redundant "support" clauses (see :func:`encode_sparse`), same layout as ``clauses``
    support: list[npt.NDArray[np.int64]] = field(default_factory=list)

    @property
    def n_clauses(self) -> int:
        """Number of clauses."""
        return sum(len(c) for c in self.clauses)

    @property
    def n_derived(self) -> int:
        """Number of derived redundant constraints (support clauses and at-most-one groups)."""
        return sum(len(c) for c in self.support) + len(self.at_most_one)


def _shifted(plane: npt.NDArray[Any], fill: Any) -> list[npt.NDArray[Any]]:
    """The 9 window shifts of an ``(H, W)`` plane (value at ``(i+dr, j+dc)``), ``fill`` outside."""
    h, w = plane.shape
    padded = np.pad(plane, 1, constant_values=fill)
    return [padded[1 + dr : 1 + dr + h, 1 + dc : 1 + dc + w] for dr, dc in WINDOW]


_simplified_cache: dict[str, list[list[tuple[list[tuple[int, int]], int]]]] = {}


def simplified_paths(model: TreeModel) -> list[list[tuple[list[tuple[int, int]], int]]]:
    """The tree's leaf rules with unnecessary tests dropped (Quinlan 1987), per channel.

    A test is dropped from a rule when, on every configuration that can occur and satisfies
    the shorter rule, *the learned tree itself* gives the rule's value: the rule set then
    describes the same function as the tree on those configurations (each configuration
    still satisfies its own leaf's, now shorter, rule and every rule it satisfies agrees).
    Only the learned tree is consulted, never the reference rule.  Shorter clauses propagate
    earlier in CP-SAT.
    """
    import json as _json

    from ai.learning.features import all_configurations

    key = _json.dumps(model.to_json(), sort_keys=True)
    if key in _simplified_cache:
        return _simplified_cache[key]
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
    _simplified_cache[key] = out
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


_amo_cache: dict[str, bool] = {}


def derived_at_most_one(model: TreeModel, paths: list[list[tuple[list[tuple[int, int]], int]]] | None = None) -> bool:
    """Whether the learned trees *prove* that one lemming stays in at most one state per frame.

    Checked on the trees alone, exhaustively and symbolically.  Put a single lemming at cell
    ``p`` facing either way at frame ``t - 1`` (nothing else of its own map is occupied).
    Only the 9 cells ``q`` around ``p`` can see it (every 1-leaf requires some lemming feature
    set, checked by :func:`encode_sparse`).  For every such ``q``, output channel and 1-leaf,
    the leaf's lemming literals must agree with "the lemming is exactly at ``p``" and its
    obstacle/target literals become constraints on absolute cells around ``p``.  If no two
    of these (for different outputs) can hold together on any obstacle/target/empty
    assignment (a cell is not both an obstacle and a target; the lemming's own cell is no
    obstacle), the trees never put the lemming in two states at frame ``t``; by induction from
    the single start state, at most one state per lemming and frame is true in every run of
    the learned rules.  The constraint is then implied by the clauses (redundant), and the
    solver adds it to strengthen CP-SAT's propagation.  No hand-written rule is involved.
    """
    import json as _json

    key = _json.dumps(model.to_json(), sort_keys=True) + str(paths is not None)
    if key in _amo_cache:
        return _amo_cache[key]
    if paths is None:
        paths = [model.paths(ch) for ch in range(len(LABELS))]
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
    _amo_cache[key] = ok
    return ok


def encode_dense(level: Level, model: TreeModel, *, cancel: threading.Event | None = None,
                 simplify: bool = False, prune: bool = False) -> Encoding:
    """Propagate the learned rules in three-valued logic and emit the clauses (see the module docstring).

    With ``prune``, dead states are fixed to 0 first: states from which no chain of learned
    1-leaves (each read through the lemming feature it requires) reaches a target at the
    last frame.  Sound when the learned rules keep a lemming in exactly one state per frame
    and never create one from nothing (true for verified-exact rules): a lemming in a dead
    state cannot end on a target, so no solution is lost.  The solver prunes only with
    verified rules.
    """
    h, w, n = level.height, level.width, level.frames
    paths = simplified_paths(model) if simplify else [model.paths(ch) for ch in range(len(LABELS))]
    brick_cells = list(level.brickable_cells)
    brick_id = np.full((h, w), -1, dtype=np.int64)
    for i, (r, c) in enumerate(brick_cells):
        brick_id[r, c] = i
    next_id = len(brick_cells)
    obst = np.where(level.wall_map, 1, np.where(level.brickable_map, UNKNOWN, 0)).astype(np.int8)
    obst_vals = _shifted(obst, 1)
    obst_ids = _shifted(brick_id, -1)
    tgt_vals = _shifted(level.target_map.astype(np.int8), 0)
    enc = Encoding(level, [], brick_cells, 0)
    used = np.zeros(len(brick_cells) + 1, dtype=bool)
    static_vals = obst_vals + tgt_vals
    static_possible = []
    for ch in range(len(LABELS)):
        per_leaf = []
        for lits, _ in paths[ch]:
            possible = np.ones((h, w), dtype=bool)
            for f, v in lits:
                if f < 2 * len(WINDOW):
                    possible &= static_vals[f] != (1 - v)
            per_leaf.append(possible)
        static_possible.append(per_leaf)
    ones = [[(i, [f for f, v in lits if v and f >= 2 * len(WINDOW)]) for i, (lits, value) in enumerate(paths[ch])
             if value] for ch in range(len(LABELS))]

    # outputs where no lemming feature is set (static); the box optimisation needs them all 0
    base_zero = not any(
        value and static.any() and all(not v for f, v in lits if f >= 2 * len(WINDOW))
        for ch in range(len(LABELS))
        for (lits, value), static in zip(paths[ch], static_possible[ch])
    )
    n_lem_feats = len(WINDOW)
    lem_offsets = [WINDOW[i] for i in range(n_lem_feats)]

    def run(k: int, dead: npt.NDArray[np.bool_] | None, emit: bool) -> tuple[
            npt.NDArray[np.int8], npt.NDArray[np.int64], list[list[list[npt.NDArray[np.bool_]]]]]:
        """Propagate one lemming; cells farther than one from any possible state at ``t - 1``
        see no lemming feature, so (when the rules never create a lemming from nothing) only a
        bounding box around those states is evaluated."""
        nonlocal next_id
        lem = level.lemmings[k]
        vals = np.zeros((n, h, w, 2), dtype=np.int8)
        ids = np.full((n, h, w, 2), -1, dtype=np.int64)
        vals[0, lem.row, lem.col, 0 if lem.direction < 0 else 1] = 1
        empty = np.zeros((h, w), dtype=bool)
        masks: list[list[list[npt.NDArray[np.bool_]]]] = [[[], []]]
        for t in range(1, n):
            if cancel is not None and cancel.is_set():
                raise _Cancelled
            masks.append([])
            prev = vals[t - 1]
            nz = (prev != 0).any(axis=-1)
            if base_zero:
                if not nz.any():
                    for ch in range(len(LABELS)):
                        masks[t].append([empty] * len(paths[ch]))
                    continue
                rs, cs = np.nonzero(nz)
                r0, r1 = max(0, int(rs.min()) - 1), min(h, int(rs.max()) + 2)
                c0, c1 = max(0, int(cs.min()) - 1), min(w, int(cs.max()) + 2)
            else:
                r0, r1, c0, c1 = 0, h, 0, w
            pv = np.pad(prev, ((1, 1), (1, 1), (0, 0)), constant_values=0)
            pid = np.pad(ids[t - 1], ((1, 1), (1, 1), (0, 0)), constant_values=-1)
            lem_vals = [pv[1 + r0 + dr : 1 + r1 + dr, 1 + c0 + dc : 1 + c1 + dc, c]
                        for c in range(2) for dr, dc in lem_offsets]
            lem_ids = [pid[1 + r0 + dr : 1 + r1 + dr, 1 + c0 + dc : 1 + c1 + dc, c]
                       for c in range(2) for dr, dc in lem_offsets]
            box = (slice(r0, r1), slice(c0, c1))
            feat_vals = [plane[box] for plane in static_vals] + lem_vals
            feat_ids = [plane[box] for plane in obst_ids] + [None] * n_lem_feats + lem_ids
            for ch in range(len(LABELS)):
                can_one = np.zeros((r1 - r0, c1 - c0), dtype=bool)
                can_zero = np.zeros((r1 - r0, c1 - c0), dtype=bool)
                possible_leaves = []
                for (lits, value), static in zip(paths[ch], static_possible[ch]):
                    possible = static[box].copy()
                    for f, v in lits:
                        if f >= 2 * len(WINDOW):  # lemming feature (the others are in ``static``)
                            possible &= feat_vals[f] != (1 - v)
                    possible_leaves.append(possible)
                    if value:
                        can_one |= possible
                    else:
                        can_zero |= possible
                full_masks = []
                if not emit:  # pass 1 of pruning: dead_states reads the masks of 1-leaves
                    for (_, value), possible in zip(paths[ch], possible_leaves):
                        m = empty
                        if value:
                            m = np.zeros((h, w), dtype=bool)
                            m[box] = possible
                        full_masks.append(m)
                masks[t].append(full_masks)
                unknown = can_one & can_zero
                if dead is not None:
                    unknown &= ~dead[t, r0:r1, c0:c1, ch]
                    can_one &= ~dead[t, r0:r1, c0:c1, ch]
                vals[t, r0:r1, c0:c1, ch] = np.where(unknown, UNKNOWN, np.where(can_one, 1, 0))
                count = int(unknown.sum())
                if not count or not emit:
                    continue
                ids_box = ids[t, r0:r1, c0:c1, ch]
                ids_box[unknown] = np.arange(next_id, next_id + count)
                next_id += count
                for (lits, value), possible in zip(paths[ch], possible_leaves):
                    cells = unknown & possible
                    if not cells.any():
                        continue
                    rr, cc = np.nonzero(cells)
                    cols = []
                    for f, v in lits:
                        open_ = feat_vals[f][rr, cc] == UNKNOWN
                        fids = feat_ids[f]
                        assert fids is not None or not open_.any()
                        fid = fids[rr, cc] if fids is not None else np.full(len(rr), -1, dtype=np.int64)
                        if f < len(WINDOW):  # obstacle feature: a brick variable
                            used[np.where(open_, fid, len(brick_cells))] = True
                        cols.append(np.where(open_, _neg(fid) if v else _pos(fid), _NONE))
                    y = ids_box[rr, cc]
                    cols.append(_pos(y) if value else _neg(y))
                    enc.clauses.append(np.stack(cols, axis=1))
        return vals, ids, masks

    def dead_states(vals: npt.NDArray[np.int8], masks: list[list[list[npt.NDArray[np.bool_]]]]) -> npt.NDArray[np.bool_]:
        """States from which no chain of learned 1-leaves leads to a target at the last frame."""
        alive = np.zeros((n, h, w, 2), dtype=bool)
        alive[n - 1] = (vals[n - 1] != 0) & level.target_map[:, :, None]
        for t in range(n - 1, 0, -1):
            src = np.zeros((h + 2, w + 2, 2), dtype=bool)
            for ch in range(len(LABELS)):
                for i, feats in ones[ch]:
                    ys = alive[t, :, :, ch] & masks[t][ch][i]
                    if not ys.any():
                        continue
                    for f in feats:
                        c_src = (f - 2 * len(WINDOW)) // len(WINDOW)
                        dr, dc = WINDOW[f % len(WINDOW)]
                        src[1 + dr : 1 + dr + h, 1 + dc : 1 + dc + w, c_src] |= ys
            alive[t - 1] = src[1:-1, 1:-1] & (vals[t - 1] != 0)
        dead_mask: npt.NDArray[np.bool_] = (vals != 0) & ~alive
        return dead_mask

    for k in range(len(level.lemmings)):
        dead = None
        if prune:
            vals0, _, masks0 = run(k, None, False)
            dead = dead_states(vals0, masks0)
            if (dead & (vals0 == 1)).any():
                enc.goal_impossible = True
        vals, ids, _ = run(k, dead, True)
        enc.values.append(vals)
        last_vals, last_ids = vals[n - 1], ids[n - 1]
        if (last_vals[level.target_map] == 1).any():
            enc.goal.append(None)
        else:
            goal_lits = [int(last_ids[r, c, ch]) for (r, c) in level.targets for ch in range(2)
                         if last_vals[r, c, ch] == UNKNOWN]
            if not goal_lits:
                enc.goal_impossible = True
            enc.goal.append(goal_lits)
    enc.n_vars = next_id
    enc.used_bricks = set(np.flatnonzero(used[: len(brick_cells)]).tolist())
    return enc


def encode_sparse(level: Level, model: TreeModel, *, cancel: threading.Event | None = None,
                  simplify: bool = False, prune: bool = False, derived: bool = False) -> Encoding:
    """Same result as :func:`encode_dense` (same variables and clauses), computed sparsely: only
    cells whose window holds a possible lemming state at ``t - 1`` are evaluated, all tree
    leaves at once.  Used when the rules never create a lemming from nothing (otherwise the
    dense version runs)."""
    h, w, n = level.height, level.width, level.frames
    paths = simplified_paths(model) if simplify else [model.paths(ch) for ch in range(len(LABELS))]
    nf = 4 * len(WINDOW)
    lem0 = 2 * len(WINDOW)
    # leaf tables: required value per feature (-1 = not tested)
    req = []
    leaf_val = []
    for ch in range(len(LABELS)):
        table = np.full((len(paths[ch]), nf), -1, dtype=np.int8)
        for j, (lits, _) in enumerate(paths[ch]):
            for f, v in lits:
                table[j, f] = v
        req.append(table)
        leaf_val.append(np.array([bool(v) for _, v in paths[ch]]))
    for ch in range(len(LABELS)):  # does some 1-leaf fire without any lemming feature set?
        for j, (lits, value) in enumerate(paths[ch]):
            if value and all(not v for f, v in lits if f >= lem0):
                return encode_dense(level, model, cancel=cancel, simplify=simplify, prune=prune)
    support = derived
    amo = derived and derived_at_most_one(model, paths if simplify else None)
    ph, pw = h + 2, w + 2
    size = ph * pw
    off = np.array([dr * pw + dc for dr, dc in WINDOW], dtype=np.int64)
    interior = np.zeros(size, dtype=bool)
    interior.reshape(ph, pw)[1:-1, 1:-1] = True
    brick_cells = list(level.brickable_cells)
    brick_id: npt.NDArray[np.int64] = np.full((ph, pw), -1, dtype=np.int64)
    for i, (r, c) in enumerate(brick_cells):
        brick_id[r + 1, c + 1] = i
    brick_id = brick_id.reshape(-1)
    obst = np.pad(np.where(level.wall_map, 1, np.where(level.brickable_map, UNKNOWN, 0)).astype(np.int8), 1,
                  constant_values=1).reshape(-1)
    tgt = np.pad(level.target_map.astype(np.int8), 1, constant_values=0).reshape(-1)
    target_flat = tgt.astype(bool)
    enc = Encoding(level, [], brick_cells, 0)
    used = np.zeros(len(brick_cells) + 1, dtype=bool)
    next_id = len(brick_cells)
    ones = [[(j, [f for f, v in lits if v and f >= lem0]) for j, (lits, value) in enumerate(paths[ch]) if value]
            for ch in range(len(LABELS))]
    # per channel: the 1-leaves and, for each, one lemming feature it requires (for support clauses)
    one_leaf = [np.array([j for j, _ in ones[ch]], dtype=np.int64) for ch in range(len(LABELS))]
    one_feat = [np.array([fs[0] for _, fs in ones[ch]], dtype=np.int64) for ch in range(len(LABELS))]

    def run(k: int, dead: npt.NDArray[np.bool_] | None, emit: bool) -> tuple[
            npt.NDArray[np.int8], npt.NDArray[np.int64], list[Any]]:
        nonlocal next_id
        lem = level.lemmings[k]
        vals = np.zeros((n, size, 2), dtype=np.int8)
        ids = np.full((n, size, 2), -1, dtype=np.int64)
        vals[0, (lem.row + 1) * pw + lem.col + 1, 0 if lem.direction < 0 else 1] = 1
        record: list[Any] = [None]
        for t in range(1, n):
            if cancel is not None and cancel.is_set():
                raise _Cancelled
            nz = np.flatnonzero((vals[t - 1] != 0).any(axis=1))
            if len(nz) == 0:
                record.append(None)
                continue
            cand = np.unique((nz[:, None] - off[None, :]).reshape(-1))
            cand = cand[interior[cand]]
            win = cand[:, None] + off[None, :]  # (n_c, 9)
            feats = np.concatenate([obst[win], tgt[win], vals[t - 1][win, 0], vals[t - 1][win, 1]], axis=1)
            fids = np.concatenate([brick_id[win], np.full(win.shape, -1, dtype=np.int64),
                                   ids[t - 1][win, 0], ids[t - 1][win, 1]], axis=1)
            per_ch = []
            for ch in range(len(LABELS)):
                table = req[ch]
                conflict = ((table[None] != -1) & (feats[:, None, :] == (1 - table[None]))).any(axis=2)
                possible = ~conflict  # (n_c, n_leaves)
                can_one = (possible & leaf_val[ch][None]).any(axis=1)
                can_zero = (possible & ~leaf_val[ch][None]).any(axis=1)
                unknown = can_one & can_zero
                if dead is not None:
                    alive_here = ~dead[t, cand, ch]
                    unknown &= alive_here
                    can_one &= alive_here
                vals[t, cand, ch] = np.where(unknown, UNKNOWN, np.where(can_one, 1, 0))
                per_ch.append(possible)
                count = int(unknown.sum())
                if not count or not emit:
                    continue
                new_ids = np.arange(next_id, next_id + count)
                ids[t, cand[unknown], ch] = new_ids
                next_id += count
                y_all = np.full(len(cand), -1, dtype=np.int64)
                y_all[unknown] = new_ids
                # one clause per (unknown cell, possible leaf), all at once
                ci, lj = np.nonzero(unknown[:, None] & possible)
                r = table[lj]  # (m, 36) required values
                open_ = (r != -1) & (feats[ci] == UNKNOWN)
                fid = fids[ci]
                lits = np.where(open_, np.where(r == 1, _neg(fid), _pos(fid)), _NONE)
                bricks_read = np.where(open_[:, : len(WINDOW)], fid[:, : len(WINDOW)], len(brick_cells))
                used[bricks_read.reshape(-1)] = True
                y = y_all[ci]
                ylit = np.where(leaf_val[ch][lj], _pos(y), _neg(y))
                width = int(open_.sum(axis=1).max()) if len(ci) else 0
                order = np.argsort(~open_, axis=1, kind="stable")[:, :width]
                packed = np.take_along_axis(lits, order, axis=1)
                enc.clauses.append(np.concatenate([packed, ylit[:, None]], axis=1))
                if support:
                    # derived support: y -> OR(lemming literal of each possible 1-leaf)
                    ui = np.flatnonzero(unknown)
                    js = one_leaf[ch]
                    fl = one_feat[ch]
                    pv = possible[ui][:, js]  # (n_u, n_ones)
                    fv = feats[ui][:, fl]
                    fi = fids[ui][:, fl]
                    keep = ~(pv & (fv == 1)).any(axis=1)
                    openl = pv & (fv == UNKNOWN)
                    lits = np.where(openl, _pos(fi), _NONE)[keep]
                    lits.sort(axis=1)
                    dup = np.zeros_like(lits, dtype=bool)
                    dup[:, 1:] = lits[:, 1:] == lits[:, :-1]
                    lits[dup] = _NONE
                    lits = np.sort(lits, axis=1)[:, ::-1]  # real literals first, padding (min int) last
                    width = int((lits != _NONE).sum(axis=1).max()) if len(lits) else 0
                    enc.support.append(np.concatenate([_neg(y_all[ui][keep])[:, None], lits[:, :width]], axis=1))
            record.append((cand, per_ch))
        return vals, ids, record

    def dead_states(vals: npt.NDArray[np.int8], record: list[Any]) -> npt.NDArray[np.bool_]:
        alive = np.zeros((n, size, 2), dtype=bool)
        alive[n - 1] = (vals[n - 1] != 0) & target_flat[:, None]
        for t in range(n - 1, 0, -1):
            src = np.zeros((size, 2), dtype=bool)
            if record[t] is not None:
                cand, per_ch = record[t]
                for ch in range(len(LABELS)):
                    alive_c = alive[t, cand, ch]
                    if not alive_c.any():
                        continue
                    for j, feats_j in ones[ch]:
                        ys = cand[alive_c & per_ch[ch][:, j]]
                        for f in feats_j:
                            src[ys + off[f % len(WINDOW)], (f - lem0) // len(WINDOW)] = True
            alive[t - 1] = src & (vals[t - 1] != 0)
        dead_mask: npt.NDArray[np.bool_] = (vals != 0) & ~alive
        return dead_mask

    for k in range(len(level.lemmings)):
        dead = None
        if prune:
            vals0, _, rec0 = run(k, None, False)
            dead = dead_states(vals0, rec0)
            if (dead & (vals0 == 1)).any():
                enc.goal_impossible = True
        vals, ids, _ = run(k, dead, True)
        grid_vals = vals.reshape(n, ph, pw, 2)[:, 1:-1, 1:-1]
        grid_ids = ids.reshape(n, ph, pw, 2)[:, 1:-1, 1:-1]
        enc.values.append(np.ascontiguousarray(grid_vals))
        last_vals, last_ids = grid_vals[n - 1], grid_ids[n - 1]
        if (last_vals[level.target_map] == 1).any():
            enc.goal.append(None)
        else:
            goal_lits = [int(last_ids[r, c, ch]) for (r, c) in level.targets for ch in range(2)
                         if last_vals[r, c, ch] == UNKNOWN]
            if not goal_lits:
                enc.goal_impossible = True
            enc.goal.append(goal_lits)
        if amo:
            for t in range(1, n):
                unknown_ids = ids[t][vals[t] == UNKNOWN]
                if len(unknown_ids) == 0:
                    continue
                if (vals[t] == 1).any():  # the lemming is known to be elsewhere
                    enc.support.append(_neg(unknown_ids)[:, None])
                elif len(unknown_ids) > 1:
                    enc.at_most_one.append(unknown_ids.tolist())
    enc.n_vars = next_id
    enc.used_bricks = set(np.flatnonzero(used[: len(brick_cells)]).tolist())
    return enc


def encode(level: Level, model: TreeModel, *, cancel: threading.Event | None = None,
           simplify: bool = False, prune: bool = False, derived: bool = False) -> Encoding:
    """Propagate the learned rules in three-valued logic and emit the clauses (see the module
    docstring and :func:`encode_dense`); the sparse implementation is used when it applies."""
    return encode_sparse(level, model, cancel=cancel, simplify=simplify, prune=prune, derived=derived)


class _Cancelled(Exception):
    pass


# ------------------------------------------------------------------------ solving
class _Model:
    """The CP-SAT model built from an :class:`Encoding` (written straight into the proto)."""

    def __init__(self, enc: Encoding) -> None:
        from ortools.sat.python import cp_model

        self.cp = cp_model
        self.model = cp_model.CpModel()
        proto = self.model.Proto()
        for _ in range(enc.n_vars):
            proto.variables.add().domain.extend([0, 1])
        constraints = proto.constraints
        for block in enc.clauses:
            if block.shape[1] and (block != _NONE).all():
                for row in block.tolist():
                    constraints.add().bool_or.literals.extend(row)
            else:
                for row in block.tolist():
                    constraints.add().bool_or.literals.extend([v for v in row if v != _NONE])
        for block in enc.support:
            for row in block.tolist():
                constraints.add().bool_or.literals.extend([v for v in row if v != _NONE])
        for group in enc.at_most_one:
            constraints.add().at_most_one.literals.extend(group)
        for lits in enc.goal:
            if lits is not None:
                constraints.add().bool_or.literals.extend(lits)
        self.bricks: dict[Brick, Any] = {}
        for i, cell in enumerate(enc.brick_cells):
            if i in enc.used_bricks:
                self.bricks[cell] = self.model.get_bool_var_from_proto_index(i)
            else:  # no clause reads this brick: it cannot change the learned run
                constraints.add().bool_or.literals.extend([-i - 1])
        self.count = sum(self.bricks.values()) if self.bricks else 0
        self.model.add(self.count <= enc.level.budget)
        self.n_vars = enc.n_vars

    def bricks_of(self, solver: Any) -> BrickSet:
        return tuple(sorted(cell for cell, v in self.bricks.items() if solver.Value(v)))



# ------------------------------------------------------------------ path encoding
_path_cache: dict[str, Any] = {}


def derived_transitions(model: TreeModel) -> list[list[tuple[tuple[int, int, int], Condition]]] | None:
    """The learned moves of a single lemming, derived from the trees, when they allow the
    compact *path* encoding (:class:`_PathModel`); ``None`` otherwise.

    ``[d]`` lists, for a lemming facing ``d`` at ``p``, each output ``(dr, dc, channel)`` a
    1-leaf can set and the static condition of that leaf (:func:`one_leaf_conditions`).
    Required, all checked on the trees alone: every 1-leaf needs some lemming feature (no
    lemming from nothing); at most one output fires (:func:`derived_at_most_one`), so the run
    is a path of states; and a lemming on a target is absorbing: every condition compatible
    with "``p`` is a target" is the lemming's own state, and one of them requires nothing
    else, so it fires unconditionally.
    """
    import json as _json

    key = _json.dumps(model.to_json(), sort_keys=True)
    if key in _path_cache:
        return _path_cache[key]  # type: ignore[no-any-return]
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
    _path_cache[key] = result
    return result


def learned_run_wins(level: Level, moves: list[list[tuple[tuple[int, int, int], Condition]]]) -> bool:
    """Run every lemming with the learned moves (:func:`derived_transitions`) and no brick;
    whether all end on a target.  Uses only the learned rules (a brickable cell is free)."""
    h, w = level.height, level.width
    walls, targets = level.wall_map, level.target_map

    def static(kind: int, r: int, c: int) -> int:
        if not (0 <= r < h and 0 <= c < w):
            return 1 - kind
        return int(targets[r, c]) if kind == 1 else int(walls[r, c])

    for lem in level.lemmings:
        r, c, ch = lem.row, lem.col, 0 if lem.direction < 0 else 1
        for _ in range(level.frames - 1):
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


class _PathModel:
    """The compact path encoding, built from the learned moves (:func:`derived_transitions`).

    A lemming's run under the learned rules is a path of states ``(r, c, channel)`` (at most
    one output fires per frame, derived from the trees).  Per lemming and live state ``s``:
    ``v[s]`` (the run visits ``s``), ``f[s]`` (frame of the visit); for each learned move
    ``s -> s'`` with condition ``C`` (the 1-leaf's obstacle/target literals on the level's
    cells: walls/outside are obstacles, targets known, brickable cells brick variables) an
    edge ``e = v[s] and C`` with ``e -> f[s'] = f[s] + 1``; ``v[s'] <-> OR(incoming e)``; a
    visited non-target state needs one of its edges (otherwise the learned rules leave the
    lemming nowhere and it cannot win).  Targets are absorbing (derived), so the goal is
    ``OR(v[s], s on a target)``.  Live states: reachable from the start and able to reach a
    target in time over possible moves; edges to other states are forbidden.  ``f`` strictly
    increases along edges, so no cycle supports itself: each brick set extends to exactly one
    assignment (enumeration yields no duplicates).  Bricks no live move reads are absent (0).
    """

    def __init__(self, level: Level, moves: list[list[tuple[tuple[int, int, int], Condition]]]) -> None:
        from ortools.sat.python import cp_model

        self.cp = cp_model
        self.model = cp_model.CpModel()
        self.goal_impossible = False
        h, w, n = level.height, level.width, level.frames
        walls, targets, brickable = level.wall_map, level.target_map, level.brickable_map
        self.bricks: dict[Brick, Any] = {}

        def static(kind: int, r: int, c: int) -> int:
            """0, 1 or UNKNOWN (a brick)."""
            if not (0 <= r < h and 0 <= c < w):
                return 1 - kind
            if kind == 1:
                return int(targets[r, c])
            return 1 if walls[r, c] else (UNKNOWN if brickable[r, c] else 0)

        def succ(state: tuple[int, int, int]) -> list[tuple[tuple[int, int, int], list[tuple[Brick, int]]]]:
            r, c, ch = state
            if targets[r, c]:
                return []
            out = []
            for (dr, dc, och), cond in moves[ch]:
                lits: list[tuple[Brick, int]] = []
                ok = True
                for (kind, cr, cc), v in cond.items():
                    val = static(kind, r + cr, c + cc)
                    if val == UNKNOWN:
                        lits.append(((r + cr, c + cc), v))
                    elif val != v:
                        ok = False
                        break
                if ok:
                    out.append(((r + dr, c + dc, och), lits))
            return out

        self.n_states = 0
        goals = []
        for k, lem in enumerate(level.lemmings):
            start = (lem.row, lem.col, 0 if lem.direction < 0 else 1)
            # forward distances over possible moves
            lo = {start: 0}
            edges: dict[tuple[int, int, int], list[tuple[tuple[int, int, int], list[tuple[Brick, int]]]]] = {}
            frontier = [start]
            while frontier:
                nxt = []
                for st in frontier:
                    edges[st] = [(d, l) for d, l in succ(st) if 0 <= d[0] < h and 0 <= d[1] < w]
                    if lo[st] >= n - 1:
                        continue
                    for d, _ in edges[st]:
                        if d not in lo:
                            lo[d] = lo[st] + 1
                            nxt.append(d)
                frontier = nxt
            # backward distances to a target state
            back_adj: dict[tuple[int, int, int], list[tuple[int, int, int]]] = {}
            for st, es in edges.items():
                for d, _ in es:
                    back_adj.setdefault(d, []).append(st)
            back = {st: 0 for st in lo if targets[st[0], st[1]]}
            frontier = list(back)
            while frontier:
                nxt = []
                for st in frontier:
                    for p in back_adj.get(st, ()):
                        if p not in back:
                            back[p] = back[st] + 1
                            nxt.append(p)
                frontier = nxt
            cand = [st for st in lo if st in back and lo[st] + back[st] <= n - 1]
            # exact live frames: reachable at frame t from the start and able to reach a target by N-1
            index = {st: i for i, st in enumerate(cand)}
            src = np.array([index[st] for st in cand for d, _ in edges[st] if d in index], dtype=np.int64)
            dst = np.array([index[d] for st in cand for d, _ in edges[st] if d in index], dtype=np.int64)
            absorbing = np.array([bool(targets[st[0], st[1]]) for st in cand], dtype=bool)
            fwd = np.zeros((n, len(cand)), dtype=bool)
            if start in index:
                fwd[0, index[start]] = True
            for t in range(1, n):
                fwd[t, dst[fwd[t - 1, src]]] = True
                fwd[t] |= fwd[t - 1] & absorbing
            bwd = np.zeros((n, len(cand)), dtype=bool)
            bwd[n - 1] = absorbing
            for t in range(n - 2, -1, -1):
                bwd[t, src[bwd[t + 1, dst]]] = True
                bwd[t] |= absorbing
            alive = fwd & bwd
            frames_of = {st: np.flatnonzero(alive[:, i]).tolist() for i, st in enumerate(cand) if alive[:, i].any()}
            live = set(frames_of)
            if start not in live:
                self.goal_impossible = True
                return
            lo = {st: ts[0] for st, ts in frames_of.items()}
            self.n_states += len(live)
            v: dict[tuple[int, int, int], Any] = {st: (True if st == start else self.model.new_bool_var(""))
                                                  for st in live}
            f = {st: self.model.new_int_var_from_domain(cp_model.Domain.from_values(frames_of[st]), "")
                 for st in live}
            incoming: dict[tuple[int, int, int], list[Any]] = {st: [] for st in live}
            for st in live:
                if targets[st[0], st[1]]:
                    continue
                out_edges = []
                for d, lits in edges[st]:
                    blits = [self._brick(cell) if val else self._brick(cell).Not() for cell, val in lits]
                    if d not in live:  # the move leads nowhere useful: forbid it
                        clause = [b.Not() for b in blits]
                        if v[st] is not True:
                            clause.append(v[st].Not())
                        self.model.add_bool_or(clause)
                        continue
                    conj = blits if v[st] is True else [v[st], *blits]
                    e: Any
                    if not conj:
                        e = True
                    elif len(conj) == 1:
                        e = conj[0]
                    else:
                        e = self.model.new_bool_var("")
                        for lit in conj:
                            self.model.add_implication(e, lit)
                        self.model.add_bool_or([e, *(lit.Not() for lit in conj)])
                    out_edges.append(e)
                    incoming[d].append(e)
                    ct = self.model.add(f[d] == f[st] + 1)
                    if e is not True:
                        ct.only_enforce_if(e)
                # a visited non-target state must move on (else the lemming vanishes and loses)
                if any(e is True for e in out_edges):
                    continue
                clause = list(out_edges)
                if v[st] is not True:
                    clause.append(v[st].Not())
                self.model.add_bool_or(clause)
            for st in live:
                if st == start:
                    self.model.add(f[st] == 0)
                    continue
                ins = [e for e in incoming[st]]
                if any(e is True for e in ins):
                    self.model.add(v[st] == 1)
                    continue
                self.model.add_bool_or([v[st].Not(), *ins])
                for e in ins:
                    self.model.add_implication(e, v[st])
                self.model.add(f[st] == lo[st]).only_enforce_if(v[st].Not())
            goal = [v[st] for st in live if targets[st[0], st[1]]]
            if any(g is True for g in goal):
                continue
            goals.append(goal)
            self.model.add_bool_or(goal)
        self.count = sum(self.bricks.values()) if self.bricks else 0
        self.model.add(self.count <= level.budget)
        self.n_vars = len(self.model.proto.variables)
        self.n_constraints = len(self.model.proto.constraints)

    def _brick(self, cell: Brick) -> Any:
        if cell not in self.bricks:
            self.bricks[cell] = self.model.new_bool_var(f"b{cell[0]}_{cell[1]}")
        return self.bricks[cell]

    def bricks_of(self, solver: Any) -> BrickSet:
        return tuple(sorted(cell for cell, v in self.bricks.items() if solver.Value(v)))


@dataclass
class _Run:
    status: str
    bricks: BrickSet | None
    conflicts: int


class LearnedRuleSolver:
    """CP-SAT on the CNF of learned rules (see the module docstring).

    Options: ``rules`` (a :class:`LearnedRules` or a path to a rules JSON file; default the
    shipped rules), ``workers`` (CP-SAT search workers, default 1), ``presolve`` (CP-SAT
    presolve; off by default: on these clause models it costs more than it saves, 3x on
    the pack), ``simplify`` (drop unnecessary tests from the clauses, see
    :func:`simplified_paths`; off by default, it did not speed up the pack), ``prune`` (fix
    dead states to 0, see :func:`encode`; on by default, used only with verified rules),
    ``encoding`` (``path``, the default: the learned moves derived from the trees, see the
    module docstring, used when the rules are verified and the derivation succeeds; ``time``:
    one clause per tree path and frame), ``derived`` (time encoding only: add the derived
    support and at-most-one constraints; off by default).
    """

    name = "learned"
    exact = True

    def __init__(self, *, rules: LearnedRules | str | Path | None = None, workers: int = 1,
                 presolve: bool = False, simplify: bool = False, prune: bool = True, derived: bool = False,
                 encoding: str = "path") -> None:
        if encoding not in ("path", "time"):
            raise ValueError(f"unknown encoding {encoding!r}; choose path or time")
        if rules is None:
            rules = default_rules()
        elif not isinstance(rules, LearnedRules):
            rules = LearnedRules.load(rules)
        if not isinstance(rules.model, TreeModel):
            raise ValueError(f"the learned solver needs decision-tree rules, not {rules.model.kind}")
        self.rules = rules
        self.workers = workers
        self.presolve = presolve
        self.simplify = simplify
        self.prune = prune
        self.derived = derived
        self.encoding = encoding

    # -- one CP-SAT call, stoppable
    def _run(self, m: _Model, deadline: float | None, cancel: threading.Event | None,
             collect: list[BrickSet] | None = None) -> _Run:
        """One CP-SAT solve; with ``collect``, enumerate every solution into it."""
        cp = m.cp
        solver = cp.CpSolver()
        solver.parameters.num_search_workers = self.workers
        solver.parameters.cp_model_presolve = self.presolve
        callback = None
        if collect is not None:
            solver.parameters.enumerate_all_solutions = True
            sink = collect

            class _Collect(cp.CpSolverSolutionCallback):  # type: ignore[misc,name-defined]
                def on_solution_callback(self) -> None:
                    sink.append(tuple(sorted(c for c, v in m.bricks.items() if self.Value(v))))

            callback = _Collect()
        if deadline is not None:
            solver.parameters.max_time_in_seconds = max(0.001, deadline - time.perf_counter())
        done = threading.Event()

        def watch() -> None:
            while not done.wait(0.02):
                if cancel is not None and cancel.is_set():
                    solver.StopSearch()
                    return

        watcher = threading.Thread(target=watch, daemon=True) if cancel is not None else None
        if watcher:
            watcher.start()
        try:
            code = solver.Solve(m.model, callback) if callback is not None else solver.Solve(m.model)
        finally:
            done.set()
            if watcher:
                watcher.join()
        name = {cp.OPTIMAL: "optimal", cp.FEASIBLE: "feasible", cp.INFEASIBLE: "infeasible"}.get(code, "unknown")
        bricks = m.bricks_of(solver) if name in ("optimal", "feasible") else None
        return _Run(name, bricks, int(solver.NumConflicts()))

    def solve(
        self,
        level: Level,
        *,
        mode: SolveMode = SolveMode.MIN,
        time_limit: float | None = None,
        progress: ProgressCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> SolveResult:
        """Solve ``level`` with the learned rules; every solution is replayed by the reference simulator."""
        start = time.perf_counter()
        deadline = None if time_limit is None else start + time_limit
        mode = SolveMode(mode)
        trusted = self.rules.verified_exact
        extra: dict[str, Any] = {"rules_verified": trusted, "rules_games": self.rules.meta.get("games")}

        def result(status: SolveStatus, bricks: BrickSet | None = None, solutions: tuple[BrickSet, ...] = (),
                   complete: bool = False, message: str = "", **more: Any) -> SolveResult:
            extra.update(more)
            stats = SolveStats(seconds=time.perf_counter() - start, variables=n_vars, constraints=n_cons,
                               nodes=conflicts, best_bound=bound, extra=dict(extra))
            return SolveResult(status, self.name, mode, bricks, solutions, complete, stats, message)

        n_vars = n_cons = conflicts = 0
        bound: float | None = None

        def stopped() -> SolveResult | None:
            if cancel is not None and cancel.is_set():
                return result(SolveStatus.CANCELLED, message="cancelled")
            if deadline is not None and time.perf_counter() >= deadline:
                return result(SolveStatus.TIMEOUT, message="time limit reached")
            return None

        moves = derived_transitions(self.rules.model) if (self.encoding == "path" and trusted) else None  # type: ignore[arg-type]
        m: Any
        if moves is not None and mode != SolveMode.ANY and learned_run_wins(level, moves):
            # the learned rules say no brick is needed: the empty set is the one minimum
            if simulate(level, ()).won:
                status = SolveStatus.OPTIMAL
                return result(status, (), ((),), complete=mode == SolveMode.ALL,
                              message="the learned rules say the lemmings win without bricks")
        if moves is not None:
            m = _PathModel(level, moves)
            extra["encoding"] = "path"
            extra["encode_seconds"] = round(time.perf_counter() - start, 4)
            goal_impossible = m.goal_impossible
            n_cons = 0 if goal_impossible else m.n_constraints
        else:
            try:
                enc = encode(level, self.rules.model, cancel=cancel, simplify=self.simplify,  # type: ignore[arg-type]
                             prune=self.prune and trusted, derived=self.derived)
            except _Cancelled:
                return result(SolveStatus.CANCELLED, message="cancelled")
            extra["encoding"] = "time"
            extra["encode_seconds"] = round(time.perf_counter() - start, 4)
            n_cons = enc.n_clauses
            goal_impossible = enc.goal_impossible
        if goal_impossible:
            if trusted:
                return result(SolveStatus.INFEASIBLE, complete=True, message="the learned rules say no lemming path "
                              "can reach a target")
            return result(SolveStatus.UNKNOWN, message="the (unverified) learned rules say no solution exists")
        if stopped():
            return stopped()  # type: ignore[return-value]
        if moves is None:
            m = _Model(enc)
        n_vars = m.n_vars
        if progress:
            progress(Progress(self.name, time.perf_counter() - start, f"{n_vars} variables, {n_cons} constraints"))

        def wrong(bricks: BrickSet) -> SolveResult | None:
            if simulate(level, bricks).won:
                return None
            return result(SolveStatus.UNKNOWN, message=(
                f"the learned rules are wrong: they predict that bricks {list(bricks)} win, but the real game "
                "disagrees (learn from more games)"), wrong_solution=[list(b) for b in bricks])

        if mode != SolveMode.ANY:
            m.model.Minimize(m.count)
        run = self._run(m, deadline, cancel)
        conflicts += run.conflicts
        if run.bricks is None:
            if stopped():
                return stopped()  # type: ignore[return-value]
            if run.status == "infeasible":
                if trusted:
                    return result(SolveStatus.INFEASIBLE, complete=True,
                                  message="proved with the learned rules: no brick set within the budget wins")
                return result(SolveStatus.UNKNOWN, message="the (unverified) learned rules say no solution exists")
            if deadline is not None:
                return result(SolveStatus.TIMEOUT, message="time limit reached")
            return result(SolveStatus.UNKNOWN, message="CP-SAT gave up")
        bad = wrong(run.bricks)
        if bad:
            return bad
        first = run.bricks
        if mode == SolveMode.ANY or not trusted or run.status != "optimal":
            msg = "" if trusted else "rules not verified: optimality not claimed"
            if mode == SolveMode.ANY or run.status != "optimal":
                return result(SolveStatus.FEASIBLE, first, (first,), message=msg)
            return result(SolveStatus.FEASIBLE, first, (first,), message=msg)
        bound = float(len(first))
        if progress:
            progress(Progress(self.name, time.perf_counter() - start, "minimum found", len(first), bound, 1))
        if mode == SolveMode.MIN:
            return result(SolveStatus.OPTIMAL, first, (first,), complete=False)
        # mode ALL: enumerate every assignment with the minimum brick count.  Every lemming
        # state variable is a function of the bricks (each tree reaches exactly one leaf and
        # that leaf's clause fixes the state) and unread bricks are fixed to 0, so each
        # brick set is one assignment.
        m.model.ClearObjective()
        m.model.Add(m.count == len(first))
        found: list[BrickSet] = []
        run = self._run(m, deadline, cancel, collect=found)
        conflicts += run.conflicts
        for bricks in found:
            bad = wrong(bricks)
            if bad:
                return bad
        solutions = sorted(set(found) | {first})
        if run.status != "optimal":
            if cancel is not None and cancel.is_set():
                return result(SolveStatus.CANCELLED, message="cancelled")
            return result(SolveStatus.OPTIMAL, first, tuple(solutions), False, "time limit: maybe more solutions")
        ordered = tuple(sorted(solutions))
        return result(SolveStatus.OPTIMAL, first, ordered, complete=True)
