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
are dropped (already satisfied), known-true literals are removed, and a brick variable
is created only for brickable cells that some remaining clause reads (a brick nobody
reads cannot change the learned run, so it never belongs to a minimal solution).

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
from typing import Any, Iterator

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
from ai.learning.features import CHANNELS, LABELS, WINDOW
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
LitRef = tuple[str, Any]
"""A reference to a model variable: ``("b", (r, c))`` or ``("x", (k, t, r, c, ch))``."""


@dataclass
class Encoding:
    """The three-valued propagation and the clauses of one level.

    ``values[k]`` is ``(N, H, W, 2)`` int8 in {0, 1, UNKNOWN}; ``clauses`` are lists of
    ``(LitRef, polarity)``; ``goal[k]`` lists the unknown target states of lemming ``k``
    (``None`` when the goal is already known true for that lemming).
    """

    level: Level
    values: list[npt.NDArray[np.int8]]
    clauses: list[list[tuple[LitRef, bool]]] = field(default_factory=list)
    goal: list[list[LitRef] | None] = field(default_factory=list)
    goal_impossible: bool = False
    brick_cells: set[Brick] = field(default_factory=set)


def _feature_values(level: Level, occ_prev: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """Three-valued features ``(36, H, W)`` of every cell from the previous frame ``(H, W, 2)``."""
    h, w = level.height, level.width
    obst = np.where(level.wall_map, 1, np.where(level.brickable_map, UNKNOWN, 0)).astype(np.int8)
    planes = [
        np.pad(obst, 1, constant_values=1),
        np.pad(level.target_map.astype(np.int8), 1, constant_values=0),
        np.pad(occ_prev[..., 0], 1, constant_values=0),
        np.pad(occ_prev[..., 1], 1, constant_values=0),
    ]
    out = np.empty((len(CHANNELS) * len(WINDOW), h, w), dtype=np.int8)
    for c, plane in enumerate(planes):
        for k, (dr, dc) in enumerate(WINDOW):
            out[c * len(WINDOW) + k] = plane[1 + dr : 1 + dr + h, 1 + dc : 1 + dc + w]
    return out


def _feature_ref(feature: int, k: int, t: int, r: int, c: int, level: Level) -> LitRef | None:
    """The variable a feature of cell ``(r, c)`` at frame ``t`` reads (``None`` if constant)."""
    channel = CHANNELS[feature // len(WINDOW)]
    dr, dc = WINDOW[feature % len(WINDOW)]
    rr, cc = r + dr, c + dc
    if channel == "obstacle":
        return ("b", (rr, cc)) if level.in_bounds(rr, cc) and level.brickable_map[rr, cc] else None
    if channel in ("left", "right"):
        return ("x", (k, t - 1, rr, cc, 0 if channel == "left" else 1))
    return None


def encode(level: Level, model: TreeModel, *, cancel: threading.Event | None = None) -> Encoding:
    """Propagate the learned rules in three-valued logic and emit the clauses (see the module docstring)."""
    h, w, n = level.height, level.width, level.frames
    paths = [model.paths(ch) for ch in range(len(LABELS))]
    enc = Encoding(level, [])
    for k, lem in enumerate(level.lemmings):
        vals = np.zeros((n, h, w, 2), dtype=np.int8)
        vals[0, lem.row, lem.col, 0 if lem.direction < 0 else 1] = 1
        for t in range(1, n):
            if cancel is not None and cancel.is_set():
                raise _Cancelled
            feats = _feature_values(level, vals[t - 1])
            for ch in range(len(LABELS)):
                can_one = np.zeros((h, w), dtype=bool)
                can_zero = np.zeros((h, w), dtype=bool)
                possible_leaves = []
                for lits, value in paths[ch]:
                    possible = np.ones((h, w), dtype=bool)
                    for f, v in lits:
                        possible &= feats[f] != (1 - v)
                    possible_leaves.append(possible)
                    if value:
                        can_one |= possible
                    else:
                        can_zero |= possible
                out = np.where(can_one & can_zero, UNKNOWN, np.where(can_one, 1, 0)).astype(np.int8)
                vals[t, :, :, ch] = out
                for r, c in zip(*np.nonzero(out == UNKNOWN)):
                    y: LitRef = ("x", (k, t, int(r), int(c), ch))
                    for (lits, value), possible in zip(paths[ch], possible_leaves):
                        if not possible[r, c]:
                            continue
                        clause: list[tuple[LitRef, bool]] = []
                        for f, v in lits:
                            if feats[f, r, c] == UNKNOWN:
                                ref = _feature_ref(f, k, t, int(r), int(c), level)
                                assert ref is not None
                                clause.append((ref, not bool(v)))
                                if ref[0] == "b":
                                    enc.brick_cells.add(ref[1])
                        clause.append((y, bool(value)))
                        enc.clauses.append(clause)
        enc.values.append(vals)
        last = vals[n - 1]
        on_target = last[level.target_map]  # (n_targets, 2)
        if (on_target == 1).any():
            enc.goal.append(None)
        else:
            refs: list[LitRef] = []
            for (r, c) in level.targets:
                for ch in range(2):
                    if last[r, c, ch] == UNKNOWN:
                        refs.append(("x", (k, n - 1, r, c, ch)))
            if not refs:
                enc.goal_impossible = True
            enc.goal.append(refs)
    return enc


class _Cancelled(Exception):
    pass


# ------------------------------------------------------------------------ solving
class _Model:
    """The CP-SAT model built from an :class:`Encoding`."""

    def __init__(self, enc: Encoding) -> None:
        from ortools.sat.python import cp_model

        self.cp = cp_model
        self.model = cp_model.CpModel()
        self.vars: dict[LitRef, Any] = {}
        self.bricks: dict[Brick, Any] = {}
        for cell in sorted(enc.brick_cells):
            self.bricks[cell] = self.var(("b", cell))
        for clause in enc.clauses:
            self.model.AddBoolOr([self.lit(ref, pol) for ref, pol in clause])
        for refs in enc.goal:
            if refs is not None:
                self.model.AddBoolOr([self.var(ref) for ref in refs])
        self.count = sum(self.bricks.values()) if self.bricks else 0
        self.model.Add(self.count <= enc.level.budget)

    def var(self, ref: LitRef) -> Any:
        v = self.vars.get(ref)
        if v is None:
            v = self.model.NewBoolVar(f"{ref[0]}{ref[1]}")
            self.vars[ref] = v
            if ref[0] == "b":
                self.bricks[ref[1]] = v
        return v

    def lit(self, ref: LitRef, polarity: bool) -> Any:
        v = self.var(ref)
        return v if polarity else v.Not()

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
    shipped rules), ``workers`` (CP-SAT search workers, default 1).
    """

    name = "learned"
    exact = True

    def __init__(self, *, rules: LearnedRules | str | Path | None = None, workers: int = 1) -> None:
        if rules is None:
            rules = default_rules()
        elif not isinstance(rules, LearnedRules):
            rules = LearnedRules.load(rules)
        if not isinstance(rules.model, TreeModel):
            raise ValueError(f"the learned solver needs decision-tree rules, not {rules.model.kind}")
        self.rules = rules
        self.workers = workers

    # -- one CP-SAT call, stoppable
    def _run(self, m: _Model, deadline: float | None, cancel: threading.Event | None) -> _Run:
        cp = m.cp
        solver = cp.CpSolver()
        solver.parameters.num_search_workers = self.workers
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
            code = solver.Solve(m.model)
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

        try:
            enc = encode(level, self.rules.model, cancel=cancel)  # type: ignore[arg-type]
        except _Cancelled:
            return result(SolveStatus.CANCELLED, message="cancelled")
        extra["encode_seconds"] = round(time.perf_counter() - start, 4)
        n_cons = len(enc.clauses)
        if enc.goal_impossible:
            if trusted:
                return result(SolveStatus.INFEASIBLE, complete=True, message="the learned rules say no lemming path "
                              "can reach a target")
            return result(SolveStatus.UNKNOWN, message="the (unverified) learned rules say no solution exists")
        if stopped():
            return stopped()  # type: ignore[return-value]
        m = _Model(enc)
        n_vars = len(m.vars)
        if progress:
            progress(Progress(self.name, time.perf_counter() - start, f"{n_vars} variables, {n_cons} clauses"))

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
        # mode ALL: enumerate every set of the minimum size, forbidding each one found
        solutions = [first]
        m.model.ClearObjective()
        m.model.Add(m.count == len(first))
        while True:
            last = solutions[-1]
            if not last:
                break
            m.model.AddBoolOr([m.bricks[c].Not() for c in last])
            if (s := stopped()) is not None:
                return s if s.status == SolveStatus.CANCELLED else result(
                    SolveStatus.OPTIMAL, first, tuple(sorted(solutions)), False, "time limit: maybe more solutions")
            run = self._run(m, deadline, cancel)
            conflicts += run.conflicts
            if run.bricks is None:
                if run.status == "infeasible":
                    break
                if cancel is not None and cancel.is_set():
                    return result(SolveStatus.CANCELLED, message="cancelled")
                return result(SolveStatus.OPTIMAL, first, tuple(sorted(solutions)), False,
                              "time limit: maybe more solutions")
            bad = wrong(run.bricks)
            if bad:
                return bad
            solutions.append(run.bricks)
            if progress:
                progress(Progress(self.name, time.perf_counter() - start, "enumerating", len(first), bound,
                                  len(solutions)))
        ordered = tuple(sorted(solutions))
        return result(SolveStatus.OPTIMAL, first, ordered, complete=True)


def iter_clauses_text(enc: Encoding, limit: int = 20) -> Iterator[str]:
    """Readable form of the first ``limit`` clauses of an encoding (for debugging and docs)."""
    for clause in enc.clauses[:limit]:
        yield " or ".join(("" if pol else "not ") + f"{ref[0]}{ref[1]}" for ref, pol in clause)
