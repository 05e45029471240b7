"""The compact *path* encoding of the CP-SAT solver (:class:`PathModel`): one visit literal and one frame
variable per lemming state instead of one literal per state and frame (see :mod:`ai.solvers.cpsat`).
"""

from __future__ import annotations

import numpy as np
from ai.kernel.libraries import cp_model
from ai.kernel.context import SolveContext
from ai.solvers.reach import LemmingReach
from ai.solvers.reach_bounded import BoundedLemming
from ai.solvers.cpsat_model import CHECK_EVERY, CpSatModel, Literal, State, add_clause, conditions, negate
from game.core.physics_views import views


def live_frames(live: np.ndarray, ctx: SolveContext) -> dict[State, list[int]]:
    """Per state ``(r, c, d)`` live at some frame of ``live[t, r, c, ch]``: its live frames, ascending.

    States come in order of their first live frame, then of ``(r, c, ch)``.
    """
    n, _, w, _ = live.shape
    t_idx, s_idx = np.nonzero(live.reshape(n, -1))
    ctx.check()
    order = np.argsort(s_idx, kind="stable")
    s_sorted, t_sorted = s_idx[order], t_idx[order]
    ids, first = np.unique(s_sorted, return_index=True)
    ends = np.append(first[1:], len(s_sorted))
    out: dict[State, list[int]] = {}
    for j, i in enumerate(np.lexsort((ids, t_sorted[first]))):
        if j % CHECK_EVERY == 0:
            ctx.check()
        cell, ch = divmod(int(ids[i]), 2)
        r, c = divmod(cell, w)
        out[(r, c, 1 if ch else -1)] = t_sorted[first[i]:ends[i]].tolist()
    return out


class PathModel(CpSatModel):
    """The compact *path* encoding: one literal per lemming state, not per frame.

    A lemming's run is a path in the graph of states ``(r, c, d)`` whose edges depend
    on the bricks.  Per lemming ``k`` and live state ``s`` (live at some frame):

    * ``v[k, s]``: the run visits ``s``; ``f[k, s]``: the frame of that visit (its
      domain is the frames at which ``s`` is live; fixed to its minimum when unvisited);
    * edges ``e = v ∧ (the cells a branch of the physics needs)``, one per destination; an edge to a
      state that is not live is forbidden (see :meth:`add_edges` for destinations reached by several
      branches);
    * ``v[s'] ⇔ OR(incoming edges)`` (except the start, always visited) and
      ``e ⇒ f[s'] = f[s] + 1``.

    A visited state's edge forces its successor to be visited one frame later, and the
    frame domains stop at N-1, so a visited state that is not a target must lead to a
    target in time; ``f`` strictly increases along edges, so no cycle can support
    itself and the visited states are exactly the run: every brick assignment extends
    to exactly one assignment of ``v``, ``e`` and ``f`` (enumeration yields no duplicates).
    The model has about ``2·H·W`` states per lemming instead of ``N`` times as many.
    """

    def _make_variables(self) -> None:
        """Visit literals, frame variables and edge lists of every lemming."""
        self.visit: list[dict[tuple[int, int, int], Literal]] = []
        self.frame: list[dict[tuple[int, int, int], cp_model.IntVar]] = []
        self.frames_of: list[dict[tuple[int, int, int], list[int]]] = []
        lemmings: tuple[LemmingReach | BoundedLemming, ...] = self.info.lemmings
        for k, reach in enumerate(lemmings):
            frames = live_frames(reach.dense(self.ctx), self.ctx)
            self.frames_of.append(frames)
            visit: dict[State, Literal] = {}
            frame: dict[State, cp_model.IntVar] = {}
            for i, (s, ts) in enumerate(frames.items()):
                if i % CHECK_EVERY == 0:
                    self.checkpoint()
                visit[s] = True if s == reach.start else self.model.new_bool_var(f"v{k}_{s}")
                frame[s] = self.model.new_int_var_from_domain(cp_model.Domain.from_values(ts), f"f{k}_{s}")
            self.visit.append(visit)
            self.frame.append(frame)

    def add_dynamics(self, *, redundant: bool = True) -> None:
        """Edges, visit equivalences and frame ordering of every lemming."""
        for k in range(len(self.visit)):
            self.checkpoint()
            incoming = self.add_edges(k)
            self.checkpoint()
            self.add_visits(k, incoming)
            if redundant:
                self.add_free_where_visited(k)

    def _edge(self, lits: list[Literal]) -> Literal:
        """A literal equal to the conjunction ``lits`` (constants folded)."""
        if any(lit is False for lit in lits):
            return False
        rest = [lit for lit in lits if lit is not True]
        if not rest:
            return True
        if len(rest) == 1:
            return rest[0]
        e = self.model.new_bool_var("")
        self.model.add_bool_and(rest).only_enforce_if(e)
        add_clause(self.model, [*(negate(lit) for lit in rest), e])
        return e

    def add_edges(self, k: int) -> dict[State, list[tuple[Literal, State]]]:
        """One edge per destination of the physics' branches from each visited, non-target state; returns
        the incoming edges of every state.

        When the physics has a destination reached by several branches (drifter's plain fall: below free
        and ahead solid, or below and ahead free and diagonal solid), a visited state takes exactly one
        edge (``Σ edges = v``, one linear constraint: exactly one branch holds in any neighbourhood), and
        the destination with the most branches needs no definition of its own: it is the edge taken when
        none of the others is.  Physics with one branch per destination keep one conjunction per edge and
        no sum (the sum made classic's models slower to presolve on some levels).
        """
        visit, frame = self.visit[k], self.frame[k]
        incoming: dict[State, list[tuple[Literal, State]]] = {s: [] for s in visit}
        targets = self.level.target_map
        seen = views(self.level.physics)
        branches, merged = seen.branches, any(len(group.branches) > 1 for group in seen.effect_groups)
        for i, ((r, c, d), v) in enumerate(visit.items()):
            if i % CHECK_EVERY == 0:
                self.checkpoint()
            if targets[r, c]:
                continue
            groups: dict[State, list[list[Literal]]] = {}
            for branch in branches:
                cond, dest = conditions(branch, self.blocked, (r, c, d)), branch.apply((r, c, d))
                if any(lit is False for lit in cond):
                    continue
                if dest not in visit or not self.made(k, (r, c, d), dest):
                    add_clause(self.model, [negate(v), *(negate(lit) for lit in cond)])
                    continue
                groups.setdefault(dest, []).append([lit for lit in cond if lit is not True])
            if not groups:
                add_clause(self.model, [negate(v)])
                continue
            rest = max(groups, key=lambda dest: (len(groups[dest]), sum(map(len, groups[dest])))) if merged else None
            edges: dict[State, Literal] = {}
            for dest, conds in groups.items():
                if dest == rest:
                    continue
                if len(conds) == 1:
                    edges[dest] = self._edge([v, *conds[0]])
                else:  # one of several branches: the OR of their conjunctions
                    either = self.model.new_bool_var("")
                    leaves = [self._edge([v, *cond]) for cond in conds]
                    add_clause(self.model, [either.Not(), *leaves])
                    for leaf in leaves:
                        add_clause(self.model, [negate(leaf), either])
                    edges[dest] = either
            if rest is not None:
                edges[rest] = self.model.new_bool_var("")
                self.model.add(sum(edges.values()) == v)
            for dest, e in edges.items():
                if e is False:
                    continue
                incoming[dest].append((e, (r, c, d)))
                ct = self.model.add(frame[dest] == frame[(r, c, d)] + 1)
                if e is not True:
                    ct.only_enforce_if(e)
        return incoming

    def add_visits(self, k: int, incoming: dict[State, list[tuple[Literal, State]]]) -> None:
        """``v[s] ⇔ OR(incoming)`` (start: always visited); unvisited frames fixed to their minimum."""
        visit, frame = self.visit[k], self.frame[k]
        start = self.info.lemmings[k].start
        for i, (s, v) in enumerate(visit.items()):
            if i % CHECK_EVERY == 0:
                self.checkpoint()
            edges = [e for e, _ in incoming[s]]
            if s == start:
                self.model.add(frame[s] == 0)
                continue
            add_clause(self.model, [negate(v), *edges])
            for e in edges:
                add_clause(self.model, [negate(e), v])
            self.model.add(frame[s] == min(self.frames_of[k][s])).only_enforce_if(negate(v))

    def add_free_where_visited(self, k: int) -> None:
        """Redundant: a lemming never stands in a brick cell."""
        for i, ((r, c, _), v) in enumerate(self.visit[k].items()):
            if i % CHECK_EVERY == 0:
                self.checkpoint()
            brick = self.bricks.get((r, c))
            if brick is not None:
                add_clause(self.model, [negate(v), brick.Not()])
