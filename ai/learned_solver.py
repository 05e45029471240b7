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

    @property
    def n_clauses(self) -> int:
        """Number of clauses."""
        return sum(len(c) for c in self.clauses)


def _shifted(plane: npt.NDArray[Any], fill: Any) -> list[npt.NDArray[Any]]:
    """The 9 window shifts of an ``(H, W)`` plane (value at ``(i+dr, j+dc)``), ``fill`` outside."""
    h, w = plane.shape
    padded = np.pad(plane, 1, constant_values=fill)
    return [padded[1 + dr : 1 + dr + h, 1 + dc : 1 + dc + w] for dr, dc in WINDOW]


def encode(level: Level, model: TreeModel, *, cancel: threading.Event | None = None) -> Encoding:
    """Propagate the learned rules in three-valued logic and emit the clauses (see the module docstring)."""
    h, w, n = level.height, level.width, level.frames
    paths = [model.paths(ch) for ch in range(len(LABELS))]
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
    for k, lem in enumerate(level.lemmings):
        vals = np.zeros((n, h, w, 2), dtype=np.int8)
        ids = np.full((n, h, w, 2), -1, dtype=np.int64)
        vals[0, lem.row, lem.col, 0 if lem.direction < 0 else 1] = 1
        for t in range(1, n):
            if cancel is not None and cancel.is_set():
                raise _Cancelled
            feat_vals = obst_vals + tgt_vals + _shifted(vals[t - 1, :, :, 0], 0) + _shifted(vals[t - 1, :, :, 1], 0)
            no_ids = [np.full((h, w), -1, dtype=np.int64)] * len(WINDOW)
            feat_ids = obst_ids + no_ids + _shifted(ids[t - 1, :, :, 0], -1) + _shifted(ids[t - 1, :, :, 1], -1)
            for ch in range(len(LABELS)):
                can_one = np.zeros((h, w), dtype=bool)
                can_zero = np.zeros((h, w), dtype=bool)
                possible_leaves = []
                for lits, value in paths[ch]:
                    possible = np.ones((h, w), dtype=bool)
                    for f, v in lits:
                        possible &= feat_vals[f] != (1 - v)
                    possible_leaves.append(possible)
                    if value:
                        can_one |= possible
                    else:
                        can_zero |= possible
                unknown = can_one & can_zero
                vals[t, :, :, ch] = np.where(unknown, UNKNOWN, np.where(can_one, 1, 0))
                count = int(unknown.sum())
                if not count:
                    continue
                ids[t, :, :, ch][unknown] = np.arange(next_id, next_id + count)
                next_id += count
                for (lits, value), possible in zip(paths[ch], possible_leaves):
                    cells = unknown & possible
                    if not cells.any():
                        continue
                    rr, cc = np.nonzero(cells)
                    cols = []
                    for f, v in lits:
                        open_ = feat_vals[f][rr, cc] == UNKNOWN
                        fid = feat_ids[f][rr, cc]
                        if f < len(WINDOW):  # obstacle feature: a brick variable
                            used[np.where(open_, fid, len(brick_cells))] = True
                        cols.append(np.where(open_, _neg(fid) if v else _pos(fid), _NONE))
                    y = ids[t, rr, cc, ch]
                    cols.append(_pos(y) if value else _neg(y))
                    enc.clauses.append(np.stack(cols, axis=1))
        enc.values.append(vals)
        last_vals, last_ids = vals[n - 1], ids[n - 1]
        if (last_vals[level.target_map] == 1).any():
            enc.goal.append(None)
        else:
            lits = [int(last_ids[r, c, ch]) for (r, c) in level.targets for ch in range(2)
                    if last_vals[r, c, ch] == UNKNOWN]
            if not lits:
                enc.goal_impossible = True
            enc.goal.append(lits)
    enc.n_vars = next_id
    enc.used_bricks = set(np.flatnonzero(used[: len(brick_cells)]).tolist())
    return enc


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
        for lits in enc.goal:
            if lits is not None:
                constraints.add().bool_or.literals.extend(lits)
        self.bricks: dict[Brick, Any] = {}
        for i, cell in enumerate(enc.brick_cells):
            if i in enc.used_bricks:
                self.bricks[cell] = self.model.GetBoolVarFromProtoIndex(i)
            else:  # no clause reads this brick: it cannot change the learned run
                constraints.add().bool_or.literals.extend([-i - 1])
        self.count = sum(self.bricks.values()) if self.bricks else 0
        self.model.Add(self.count <= enc.level.budget)
        self.n_vars = enc.n_vars

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
    def _run(self, m: _Model, deadline: float | None, cancel: threading.Event | None,
             collect: list[BrickSet] | None = None) -> _Run:
        """One CP-SAT solve; with ``collect``, enumerate every solution into it."""
        cp = m.cp
        solver = cp.CpSolver()
        solver.parameters.num_search_workers = self.workers
        callback = None
        if collect is not None:
            solver.parameters.enumerate_all_solutions = True
            outer = self

            class _Collect(cp.CpSolverSolutionCallback):  # type: ignore[misc,name-defined]
                def on_solution_callback(self) -> None:
                    collect.append(tuple(sorted(c for c, v in m.bricks.items() if self.Value(v))))
                    if outer is None:
                        return

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

        try:
            enc = encode(level, self.rules.model, cancel=cancel)  # type: ignore[arg-type]
        except _Cancelled:
            return result(SolveStatus.CANCELLED, message="cancelled")
        extra["encode_seconds"] = round(time.perf_counter() - start, 4)
        n_cons = enc.n_clauses
        if enc.goal_impossible:
            if trusted:
                return result(SolveStatus.INFEASIBLE, complete=True, message="the learned rules say no lemming path "
                              "can reach a target")
            return result(SolveStatus.UNKNOWN, message="the (unverified) learned rules say no solution exists")
        if stopped():
            return stopped()  # type: ignore[return-value]
        m = _Model(enc)
        n_vars = m.n_vars
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
