"""The *path* encoding of the learned solver: a lemming's run as a path through learned moves.

The moves come from :func:`ai.learning.derive.derived_transitions` (read off the learned trees)
or from a positions-only model (:mod:`ai.learning.hidden`); nothing here knows the real rule.
As compact as the hand-coded :class:`ai.solvers.cpsat_path.PathModel`.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
from ai.kernel.libraries import cp_model
from ai.kernel.base import BrickSet
from ai.kernel.context import SolveContext
from ai.learning.derive import Condition
from game.core.level import Brick, Level

#: Three-valued logic: a cell that may or may not get a brick.
UNKNOWN = 2

Moves = list[list[tuple[tuple[int, int, int], Condition]]]
"""``moves[s]``: for a lemming in hidden state / channel ``s``, each ``((dr, dc, next state), condition)``."""


State = tuple[int, int, int]
Edges = dict[State, list[tuple[State, list[tuple[Brick, int]]]]]


def _successors(level: Level, moves: Moves) -> Callable[[State], list[tuple[State, list[tuple[Brick, int]]]]]:
    """The learned moves out of a state, each with the brick literals its condition needs."""
    h, w = level.height, level.width
    walls, targets, brickable = level.wall_map, level.target_map, level.brickable_map

    def static(kind: int, r: int, c: int) -> int:
        """0, 1 or UNKNOWN (a brick)."""
        if not (0 <= r < h and 0 <= c < w):
            return 1 - kind
        if kind == 1:
            return int(targets[r, c])
        return 1 if walls[r, c] else (UNKNOWN if brickable[r, c] else 0)

    def succ(state: State) -> list[tuple[State, list[tuple[Brick, int]]]]:
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

    return succ


def _explore(level: Level, start: State, succ: Callable[[State], list[tuple[State, list[tuple[Brick, int]]]]],
             ctx: SolveContext | None) -> tuple[dict[State, int], Edges]:
    """Forward distances from ``start`` over possible moves, and the in-map moves of every state seen."""
    h, w, n = level.height, level.width, level.frames
    lo = {start: 0}
    edges: Edges = {}
    frontier = [start]
    while frontier:
        if ctx is not None:
            ctx.check()
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
    return lo, edges


def _target_distances(level: Level, lo: dict[State, int], edges: Edges) -> dict[State, int]:
    """Backward distances to a target state over the explored moves."""
    back_adj: dict[State, list[State]] = {}
    for st, es in edges.items():
        for d, _ in es:
            back_adj.setdefault(d, []).append(st)
    back = {st: 0 for st in lo if level.target_map[st[0], st[1]]}
    frontier = list(back)
    while frontier:
        nxt = []
        for st in frontier:
            for p in back_adj.get(st, ()):
                if p not in back:
                    back[p] = back[st] + 1
                    nxt.append(p)
        frontier = nxt
    return back


def _live_frames(level: Level, start: State, lo: dict[State, int], edges: Edges,
                 ctx: SolveContext | None) -> dict[State, list[int]]:
    """Exact live frames: reachable at frame t from the start and able to reach a target by N-1."""
    n, targets = level.frames, level.target_map
    back = _target_distances(level, lo, edges)
    cand = [st for st in lo if st in back and lo[st] + back[st] <= n - 1]
    index = {st: i for i, st in enumerate(cand)}
    src = np.array([index[st] for st in cand for d, _ in edges[st] if d in index], dtype=np.int64)
    dst = np.array([index[d] for st in cand for d, _ in edges[st] if d in index], dtype=np.int64)
    absorbing = np.array([bool(targets[st[0], st[1]]) for st in cand], dtype=bool)
    fwd = np.zeros((n, len(cand)), dtype=bool)
    if start in index:
        fwd[0, index[start]] = True
    for t in range(1, n):
        if ctx is not None and t % 512 == 0:
            ctx.check()
        fwd[t, dst[fwd[t - 1, src]]] = True
        fwd[t] |= fwd[t - 1] & absorbing
    bwd = np.zeros((n, len(cand)), dtype=bool)
    bwd[n - 1] = absorbing
    for t in range(n - 2, -1, -1):
        if ctx is not None and t % 512 == 0:
            ctx.check()
        bwd[t, src[bwd[t + 1, dst]]] = True
        bwd[t] |= absorbing
    alive = fwd & bwd
    return {st: np.flatnonzero(alive[:, i]).tolist() for i, st in enumerate(cand) if alive[:, i].any()}


class PathModel:
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

    ``start_state`` maps a start direction (0 left, 1 right) to the state the moves are indexed by
    (positions-only models name their hidden states themselves); ``ctx`` is checked while exploring.
    """

    def __init__(self, level: Level, moves: Moves, *, start_state: dict[int, int] | None = None,
                 ctx: SolveContext | None = None) -> None:
        self.cp = cp_model
        self.model = cp_model.CpModel()
        self.goal_impossible = False
        self.bricks: dict[Brick, Any] = {}
        succ = _successors(level, moves)
        for lem in level.lemmings:
            channel = 0 if lem.direction < 0 else 1
            start = (lem.row, lem.col, channel if start_state is None else start_state[channel])
            lo, edges = _explore(level, start, succ, ctx)
            frames_of = _live_frames(level, start, lo, edges, ctx)
            if start not in frames_of:
                self.goal_impossible = True
                return
            self._add_lemming(level, start, edges, frames_of, ctx)
        self.count = sum(self.bricks.values()) if self.bricks else 0
        self.model.add(self.count <= level.budget)
        self.n_vars = len(self.model.proto.variables)
        self.n_constraints = len(self.model.proto.constraints)

    def _add_lemming(self, level: Level, start: State, edges: Edges, frames_of: dict[State, list[int]],
                     ctx: SolveContext | None) -> None:
        """The visit and frame variables of one lemming's live states, their edges and its goal."""
        targets = level.target_map
        live = set(frames_of)
        lo = {st: ts[0] for st, ts in frames_of.items()}
        v: dict[State, Any] = {st: (True if st == start else self.model.new_bool_var("")) for st in live}
        f = {}
        for k, st in enumerate(live):
            if ctx is not None and k % 64 == 0:
                ctx.check()
            f[st] = self.model.new_int_var_from_domain(cp_model.Domain.from_values(frames_of[st]), "")
        incoming: dict[State, list[Any]] = {st: [] for st in live}
        for k, st in enumerate(live):
            if ctx is not None and k % 256 == 0:
                ctx.check()
            if not targets[st[0], st[1]]:
                self._add_moves(st, edges[st], live, v, f, incoming)
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
        if not any(g is True for g in goal):
            self.model.add_bool_or(goal)

    def _add_moves(self, st: State, out: list[tuple[State, list[tuple[Brick, int]]]], live: set[State],
                   v: dict[State, Any], f: dict[State, Any], incoming: dict[State, list[Any]]) -> None:
        """The edges out of non-target live state ``st``; a visited one must move on."""
        out_edges = []
        for d, lits in out:
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
            return
        clause = list(out_edges)
        if v[st] is not True:
            clause.append(v[st].Not())
        self.model.add_bool_or(clause)

    def _brick(self, cell: Brick) -> Any:
        if cell not in self.bricks:
            self.bricks[cell] = self.model.new_bool_var(f"b{cell[0]}_{cell[1]}")
        return self.bricks[cell]

    def bricks_of(self, solver: Any) -> BrickSet:
        """The brick set of a CP-SAT solution."""
        return tuple(sorted(cell for cell, v in self.bricks.items() if solver.Value(v)))
