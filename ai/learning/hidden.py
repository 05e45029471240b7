"""Learning the rules from positions alone: the learner invents the hidden state.

The observations are each lemming's *position* per frame (and which of the two start markers,
``<`` or ``>``, the level gave it, without their meaning); its direction is never observed, so
the direction of a falling lemming must be inferred from long before.  The learner models one
lemming as a hidden-state machine over its 3x3 neighbourhood:

    (obstacle/target of the 9 cells around the lemming, hidden state h) -> (move to one of the
    9 cells, next hidden state h')

1. :func:`infer_hidden_states` - a CP-SAT search for a hidden-state assignment of every
   observed frame (h at frame 0 named after the start marker) such that one rule table
   explains every observed trajectory: the move and the next state are *functions* of
   (neighbourhood, h).  Among consistent assignments it takes one with the fewest table
   entries that change the hidden state (an inertia prior: the state changes only when the
   data demands it).
2. A decision tree for the move and one for the next state are fitted to the completed data
   (:class:`PositionsModel`): the tree generalises to neighbourhoods never observed.
3. :func:`ai.learning.positions_verify.verify_positions` checks exhaustively that the model predicts the same positions as
   the real rule from every configuration, whatever the hidden state is called.

The model plugs into the learned solver's path encoding (:meth:`PositionsModel.moves`).

>>> model = learn_positions_model(games=1, seed=1).model
>>> isinstance(model, PositionsModel), sorted(model.start_state)
(True, [0, 1])
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
from ai.kernel.libraries import cp_model, sklearn_tree
from ai.kernel.context import SolveContext
from ai.kernel.cpsat_run import leave_ctrl_c_to_python
from ai.learning.dataset import regime_games
from ai.learning.derive import Condition
from ai.learning.features import WINDOW
from ai.learning.trees import Node, checked_tree, tree_lines, tree_nodes, tree_paths

#: Seconds the hidden-state search may take when no solve context bounds it.
INFER_SECONDS = 60.0
#: Static features: obstacle on the 9 window cells, then target on them; then the hidden state.
N_STATIC = 2 * len(WINDOW)
STATE_FEATURE = N_STATIC
N_POS_FEATURES = N_STATIC + 1
#: Window index of "stay where you are".
STAY = WINDOW.index((0, 0))

IntArray = npt.NDArray[np.int64]


def positions_feature_name(index: int) -> str:
    """``obstacle[i+1,j]``, ``target[i,j-1]`` or ``state``."""
    if index == STATE_FEATURE:
        return "state"
    kind = ("obstacle", "target")[index // len(WINDOW)]
    dr, dc = WINDOW[index % len(WINDOW)]

    def off(axis: str, d: int) -> str:
        return axis if d == 0 else f"{axis}{d:+d}"

    return f"{kind}[{off('i', dr)},{off('j', dc)}]"


# ---------------------------------------------------------------------------- the model
def _eval_tree(nodes: list[Node], x: npt.NDArray[np.bool_]) -> IntArray:
    """Leaf values of one tree on boolean rows."""
    idx = np.zeros(len(x), dtype=np.int64)
    rows = np.arange(len(x))
    feat = np.array([n.get("feature", 0) for n in nodes], dtype=np.int64)
    low = np.array([n.get("low", i) for i, n in enumerate(nodes)], dtype=np.int64)
    high = np.array([n.get("high", i) for i, n in enumerate(nodes)], dtype=np.int64)
    leaf = np.array(["value" in n for n in nodes])
    value = np.array([n.get("value", 0) for n in nodes], dtype=np.int64)
    for _ in range(len(nodes)):
        active = ~leaf[idx]
        if not active.any():
            break
        idx = np.where(active, np.where(x[rows, feat[idx]], high[idx], low[idx]), idx)
    out: IntArray = value[idx]
    return out


@dataclass
class PositionsModel:
    """A lemming as a hidden-state machine: ``move`` tree (leaf = window index of the next cell),
    ``next`` tree (leaf = next hidden state), over :data:`N_POS_FEATURES` features;
    ``start_state[d]``: the hidden state of a lemming starting with marker ``d`` (0 ``<``, 1 ``>``)."""

    move: list[Node]
    next: list[Node]
    start_state: dict[int, int] = field(default_factory=lambda: {0: 0, 1: 1})
    kind: str = "positions"

    def predict(self, features: npt.ArrayLike) -> IntArray:
        """``(n, 19)`` rows -> ``(n, 2)``: window index of the move, next hidden state."""
        x = np.asarray(features).reshape(-1, N_POS_FEATURES).astype(bool)
        return np.stack([_eval_tree(self.move, x), _eval_tree(self.next, x)], axis=1)

    def moves(self) -> list[list[tuple[tuple[int, int, int], Condition]]] | None:
        """The learned moves per hidden state for the path encoding, or ``None`` when a lemming on a
        target would not stay put (the path encoding treats targets as absorbing).

        Each pair of leaves (move tree, next tree) compatible with the state gives one move
        ``((dr, dc, h'), condition)``; the leaves of a tree partition the configurations, so
        exactly one move applies to any neighbourhood."""
        out: list[list[tuple[tuple[int, int, int], Condition]]] = []
        for h in range(2):
            conds: list[tuple[tuple[int, int, int], Condition]] = []
            for mlits, mval in tree_paths(self.move):
                for nlits, nval in tree_paths(self.next):
                    cond: Condition = {}
                    ok = True
                    for f, v in mlits + nlits:
                        if f == STATE_FEATURE:
                            ok = ok and v == h
                            continue
                        kind, w = divmod(f, len(WINDOW))
                        cell = (kind, WINDOW[w][0], WINDOW[w][1])
                        if cond.get(cell, v) != v:
                            ok = False
                        cond[cell] = v
                    if not ok or cond.get((0, 0, 0), 0) == 1:
                        continue
                    if any(cond.get((0, r, c)) == 1 and cond.get((1, r, c)) == 1 for _, r, c in cond):
                        continue
                    if mval < 0 or mval >= len(WINDOW):
                        return None
                    dr, dc = WINDOW[mval]
                    if cond.get((1, 0, 0), 1) == 1 and (dr, dc) != (0, 0):
                        return None  # on some target the lemming would move on
                    conds.append(((dr, dc, nval), cond))
            out.append(conds)
        return out

    def render(self) -> str:
        """Both trees as nested tests."""
        lines: list[str] = []
        for name, nodes, show in (("move", self.move, lambda v: "stay" if v == STAY else
                                   f"move ({WINDOW[v][0]:+d},{WINDOW[v][1]:+d})"),
                                  ("next state", self.next, lambda v: f"state {v}")):
            lines.append(f"# {name}: a tree of {len(nodes)} nodes")
            lines += tree_lines(nodes, positions_feature_name, show)
            lines.append("")
        lines.append(f"# start: marker '<' -> state {self.start_state[0]}, marker '>' -> state {self.start_state[1]}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {"kind": self.kind, "move": [dict(n) for n in self.move], "next": [dict(n) for n in self.next],
                "start_state": [self.start_state[0], self.start_state[1]]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PositionsModel:
        """Inverse of :meth:`to_json` (validates the trees)."""

        start = [int(v) for v in data.get("start_state", [0, 1])]
        if len(start) != 2 or any(v not in (0, 1) for v in start):
            raise ValueError("start_state must be two hidden states")
        return cls(checked_tree(data["move"], N_POS_FEATURES, len(WINDOW)), checked_tree(data["next"], N_POS_FEATURES, 2),
                   {0: start[0], 1: start[1]})


# ------------------------------------------------------------------------- observations
@dataclass(frozen=True)
class Observation:
    """One map and its lemmings' runs: positions ``(L, N, 2)`` and start markers ``(L,)``."""

    walls: npt.NDArray[np.bool_]
    targets: npt.NDArray[np.bool_]
    positions: IntArray
    markers: IntArray

    def env_rows(self) -> npt.NDArray[np.bool_]:
        """The 18 static features around every lemming at every frame: ``(L, N, 18)``."""
        obst = np.pad(self.walls, 1, constant_values=True)
        tgt = np.pad(self.targets, 1, constant_values=False)
        r = self.positions[..., 0] + 1
        c = self.positions[..., 1] + 1
        planes = [obst[r + dr, c + dc] for dr, dc in WINDOW] + [tgt[r + dr, c + dc] for dr, dc in WINDOW]
        return np.stack(planes, axis=-1)


def observe_games(rng: np.random.Generator, games: int, regime: str = "many") -> list[Observation]:
    """Play ``games`` games of ``regime`` and keep only what positions-only learning may see."""
    walls, targets, occ = regime_games(rng, games, regime)
    out = []
    for g in range(games):
        o = occ[g] > 0.5  # (L, N, H, W, 2)
        present = o[:, 0].any(axis=(1, 2, 3))
        o = o[present]
        cells = o.any(axis=-1).reshape(o.shape[0], o.shape[1], -1).argmax(axis=-1)
        width = walls.shape[-1]
        pos = np.stack([cells // width, cells % width], axis=-1).astype(np.int64)
        markers = o[:, 0].any(axis=(1, 2))[:, 1].astype(np.int64)  # 0 '<', 1 '>'
        out.append(Observation(walls[g], targets[g], pos, markers))
    return out


def _pack(rows: npt.NDArray[np.bool_]) -> IntArray:
    weights = np.left_shift(np.int64(1), np.arange(rows.shape[-1], dtype=np.int64))
    packed: IntArray = rows.astype(np.int64) @ weights
    return packed


def _observed_moves(observations: list[Observation]) -> tuple[list[IntArray], list[IntArray], dict[int, set[int]]]:
    """Per observation the packed neighbourhood keys ``(L, N)`` and the window index of each move ``(L, N-1)``,
    and per key the window indices seen from it (``ValueError`` when a lemming moved more than one cell)."""
    env_keys = []
    deltas = []
    for obs in observations:
        env_keys.append(_pack(obs.env_rows()))
        d = obs.positions[:, 1:] - obs.positions[:, :-1]
        if np.abs(d).max(initial=0) > 1:
            raise ValueError("a lemming moved more than one cell in a frame: not a 3x3 neighbourhood rule")
        deltas.append((d[..., 0] + 1) * 3 + (d[..., 1] + 1))  # window index
    seen: dict[int, set[int]] = {}
    for keys, dl in zip(env_keys, deltas):
        for k, dd in zip(keys[:, :-1].reshape(-1).tolist(), dl.reshape(-1).tolist()):
            seen.setdefault(k, set()).add(dd)
    return env_keys, deltas, seen


def _solve(model: cp_model.CpModel, ctx: SolveContext | None) -> cp_model.CpSolver:
    """The solved hidden-state model, within :data:`INFER_SECONDS` s and ``ctx`` (``ValueError``: no solution)."""
    ctx = (ctx if ctx is not None else SolveContext.create(solver="hidden")).child(time_limit=INFER_SECONDS)
    ctx.check()
    solver = cp_model.CpSolver()
    remaining = ctx.remaining()
    if remaining is not None:
        solver.parameters.max_time_in_seconds = max(0.001, remaining)
    solver.parameters.num_search_workers = 1
    leave_ctrl_c_to_python(solver)
    with ctx.watch(solver.stop_search):
        code = solver.solve(model)
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        ctx.check()
        raise ValueError("no hidden-state rule table explains the observed positions")
    return solver


def infer_hidden_states(observations: list[Observation], ctx: SolveContext | None = None) -> list[IntArray]:
    """A hidden state per lemming and frame (``(L, N)`` per observation) such that the move and the
    next state are functions of (neighbourhood, state), with the fewest state-changing table
    entries; ``h`` at frame 0 is the start marker (naming the states after the markers).

    Raises ``ValueError`` when no assignment exists (the observations are not a hidden-state
    machine over this neighbourhood) or CP-SAT finds none in time; :class:`ai.kernel.context.SolveStopped`
    once ``ctx`` (None: no limit of its own) stops; the CP-SAT search gets at most :data:`INFER_SECONDS` s."""
    model = cp_model.CpModel()
    env_keys, deltas, seen = _observed_moves(observations)
    nxt: dict[tuple[int, int], Any] = {}
    sel: dict[tuple[int, int, int], Any] = {}

    def next_var(k: int, a: int) -> Any:
        if (k, a) not in nxt:
            nxt[(k, a)] = model.new_bool_var("")
        return nxt[(k, a)]

    def sel_var(k: int, a: int, dd: int) -> Any:
        if (k, a, dd) not in sel:
            group = [model.new_bool_var("") for _ in sorted(seen[k])]
            model.add_exactly_one(group)
            for v, d2 in zip(group, sorted(seen[k])):
                sel[(k, a, d2)] = v
        return sel[(k, a, dd)]

    hvars: list[list[list[Any]]] = []
    for obs, keys, dl in zip(observations, env_keys, deltas):
        n_lem, n = keys.shape
        per: list[list[Any]] = []
        for lem in range(n_lem):
            hs: list[Any] = [model.new_constant(int(obs.markers[lem]))]
            hs += [model.new_bool_var("") for _ in range(n - 1)]
            per.append(hs)
            for t in range(n - 1):
                k, dd = int(keys[lem, t]), int(dl[lem, t])
                h, h2 = hs[t], hs[t + 1]
                for a, when in ((1, h), (0, h.Not())):
                    if len(seen[k]) > 1:
                        model.add_implication(when, sel_var(k, a, dd))
                    model.add(h2 == next_var(k, a)).only_enforce_if(when)
        hvars.append(per)
    model.minimize(sum(v if a == 0 else 1 - v for (k, a), v in nxt.items()))
    solver = _solve(model, ctx)
    return [np.array([[solver.value(v) for v in hs] for hs in per], dtype=np.int64).reshape(len(per), -1)
            for per in hvars]


def training_rows(observations: list[Observation], states: list[IntArray]) -> tuple[npt.NDArray[np.bool_], IntArray]:
    """Distinct ``(n, 19)`` rows (neighbourhood + state) with labels ``(n, 2)`` (move, next state)."""
    xs, ys = [], []
    for obs, h in zip(observations, states):
        env = obs.env_rows()[:, :-1]
        d = obs.positions[:, 1:] - obs.positions[:, :-1]
        move = (d[..., 0] + 1) * 3 + (d[..., 1] + 1)
        x = np.concatenate([env, h[:, :-1, None].astype(bool)], axis=-1).reshape(-1, N_POS_FEATURES)
        y = np.stack([move, h[:, 1:]], axis=-1).reshape(-1, 2)
        xs.append(x)
        ys.append(y)
    x_all = np.concatenate(xs) if xs else np.zeros((0, N_POS_FEATURES), dtype=bool)
    y_all = np.concatenate(ys) if ys else np.zeros((0, 2), dtype=np.int64)
    _, first = np.unique(_pack(x_all), return_index=True)
    return x_all[first], y_all[first]


def _fit(x: npt.NDArray[np.bool_], y: IntArray, random_state: int) -> list[Node]:
    if len(set(y.tolist())) <= 1:
        return [{"value": int(y[0]) if len(y) else 0}]
    clf = sklearn_tree.DecisionTreeClassifier(criterion="entropy", random_state=random_state)
    clf.fit(x.astype(np.float64), y)
    return tree_nodes(clf, int)


@dataclass
class PositionsResult:
    """The learned model and how it was learned."""

    model: PositionsModel
    games: int
    lemmings: int
    examples: int
    state_changes: int
    seconds: dict[str, float] = field(default_factory=dict)


def learn_positions_model(*, games: int = 3, seed: int = 0, regime: str = "many",
                          context: SolveContext | None = None) -> PositionsResult:
    """Observe ``games`` games (positions only), invent the hidden state, fit the trees."""
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    obs = observe_games(rng, games, regime)
    if context is not None:
        context.check()
    t1 = time.perf_counter()
    states = infer_hidden_states(obs, context)
    t2 = time.perf_counter()
    if context is not None:
        context.check()
    x, y = training_rows(obs, states)
    model = PositionsModel(_fit(x, y[:, 0], seed), _fit(x, y[:, 1], seed), {0: 0, 1: 1})
    t3 = time.perf_counter()
    changes = int(sum((s[:, 1:] != s[:, :-1]).sum() for s in states))
    return PositionsResult(model, games, int(sum(len(o.markers) for o in obs)), len(x), changes,
                           {"observe": t1 - t0, "infer": t2 - t1, "fit": t3 - t2})
