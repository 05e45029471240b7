"""The CP-SAT solver: the lemmings' dynamics as Boolean constraints, solved by OR-Tools.

Brick variables ``b[r, c]`` exist only on brickable cells that some live lemming state
reads (see :mod:`ai.reach`).  Two encodings of the runs are offered:

**time** (:class:`CpSatModel`), the state-space formulation of the design notes:
``x[k][t, r, c, d]`` = lemming ``k`` is at ``(r, c)`` facing ``d`` at frame ``t``, one
variable per *live* state and frame (a frame with a single live state uses the
constant 1).  Constraint groups, each in its own method:

* exactly one state per lemming and frame;
* transitions: per branch of the level's physics, ``x ∧ (its needed cells) → its move``,
  and ``x`` on a target → stay when targets stop lemmings (a successor that is not live
  is the constant 0, so the clause forbids the move);
* support (redundant): a state is occupied only if one of its predecessors is;
* free where occupied (redundant): a lemming never stands in a brick.

**path** (:class:`PathModel`, the default, N times smaller): one visit literal and one
frame variable per lemming state, edges that depend on the bricks (see its docstring).

Both share the budget ``Σ b ≤ B`` (CP-SAT's native linear cardinality) and the brick
objective.  Modes: ``min`` minimises ``Σ b``; ``any`` stops at the first solution;
``all`` solves ``min`` and then enumerates every assignment with ``Σ b = min``.  In both
encodings a brick assignment extends to exactly one full assignment, so the
enumeration yields each brick set once.

The transition clauses and path edges are built from the branches of the level's physics,
:attr:`game.physics.Physics.branches` (:func:`conditions`, :func:`predecessor`), and which cells are brick variables comes from the
gate map of :mod:`ai.solvers.gates`.  The solve context reaches the model building (checked
every :data:`CHECK_EVERY` states) and CP-SAT itself (its time limit, and ``stop_search`` from the
context's stop-watcher, :func:`run_solver`).

>>> from game.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> r = CpSatSolver().solve(level, mode=SolveMode.ALL)
>>> r.status.value, r.solutions, r.complete
('optimal', (((1, 2),),), True)
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Iterable, Union

import numpy as np
from ortools.sat.python import cp_model

from ai.base import BrickSet, SolveMode, SolveStatus
from ai.cpsat_run import solve_under
from ai.context import SolveContext, SolveStopped, StopReason
from ai.reach import ReachInfo, analyse, losing_reads, reach_for
from ai.solvers.base import Outcome, Partial, SolverBase
from ai.solvers.gates import SOLID, gate_codes
from game.level import Brick, Level
from game.physics import Branch

Literal = Union[bool, Any]
"""A model literal (a CP-SAT Boolean variable or its negation), or a Python constant
for a value fixed by the analysis."""

#: Model building checks the solve context every this many states.
CHECK_EVERY = 128

#: Models with more variables than this skip presolve probing (when presolve is on).
LARGE_MODEL = 5000

StateKey = tuple[int, int, int, int]
"""``(frame, row, col, direction)``."""

State = tuple[int, int, int]
"""``(row, col, direction)``."""


def negate(lit: Literal) -> Literal:
    """The negation of a literal or constant."""
    return (not lit) if isinstance(lit, bool) else lit.Not()


def add_clause(model: cp_model.CpModel, lits: Iterable[Literal]) -> None:
    """Add the disjunction of ``lits``, simplifying constants (an empty clause is infeasible)."""
    kept: list[cp_model.IntVar] = []
    for lit in lits:
        if lit is True:
            return
        if lit is not False:
            kept.append(lit)
    model.add_bool_or(kept)


def conditions(branch: Branch, blocked: Callable[[int, int], Literal], state: State) -> list[Literal]:
    """The literals that must hold for ``branch`` to apply in ``state`` (``blocked(r, c)``: a cell's literal)."""
    return [blocked(*cell) if solid else negate(blocked(*cell)) for cell, solid in branch.cells(state)]


def predecessor(branch: Branch, state: State) -> State:
    """The state from which ``branch`` leads to ``state`` (the move undone)."""
    row, col, direction = state
    before = -direction if branch.turn else direction
    return (row - branch.move[0], col - branch.move[1] * before, before)


class CpSatModel:
    """Owns the CP-SAT model and its variables for one level.

    ``extra_cells`` adds brick variables on cells no live state reads (used by hints,
    whose player bricks may sit anywhere).
    """

    def __init__(self, level: Level, info: ReachInfo, *, extra_cells: Iterable[Brick] = (),
                 ctx: SolveContext | None = None) -> None:
        self.level = level
        self.info = info
        self.ctx = ctx or SolveContext.create()
        self.model = cp_model.CpModel()
        cells = sorted(set(info.read_cells) | set(extra_cells))
        self.bricks: dict[Brick, cp_model.IntVar] = {
            cell: self.model.new_bool_var(f"b{cell[0]}_{cell[1]}") for cell in cells
        }
        self.gates = gate_codes(level, cells)
        self._brick_of = list(self.bricks.values())
        self._moves: dict[State, list[tuple[list[Literal], State]]] = {}  # see moves_from
        self._make_variables()

    def _make_variables(self) -> None:
        """The lemming variables (here: one occupancy literal per live state and frame)."""
        self.occ: list[dict[StateKey, Literal]] = [self._make_states(k) for k in range(len(self.info.lemmings))]

    def checkpoint(self) -> None:
        """Raise :class:`ai.context.SolveStopped` when the solve must stop (called while building)."""
        self.ctx.check()

    # ------------------------------------------------------------ variables
    def _make_states(self, k: int) -> dict[StateKey, Literal]:
        """Occupancy literals of lemming ``k``: a variable per live state, constant 1 if alone."""
        states: dict[StateKey, Literal] = {}
        reach = self.info.lemmings[k]
        for t in range(self.level.frames):
            self.checkpoint()
            live = reach.states(t)
            for r, c, d in live:
                states[(t, r, c, d)] = True if len(live) == 1 else self.model.new_bool_var(f"x{k}_{t}_{r}_{c}_{d}")
        return states

    def blocked(self, r: int, c: int) -> Literal:
        """Whether cell ``(r, c)`` is an obstacle: constant for walls/outside/free cells."""
        code = int(self.gates[r + 1, c + 1])
        if code < 0:
            return code == SOLID
        return self._brick_of[code]

    def state(self, k: int, key: StateKey) -> Literal:
        """The literal of lemming ``k`` in state ``key`` (constant 0 when not live)."""
        return self.occ[k].get(key, False)

    @property
    def brick_vars(self) -> list[cp_model.IntVar]:
        """The brick variables in cell order."""
        return list(self.bricks.values())

    # ----------------------------------------------------- constraint groups
    def add_dynamics(self, *, redundant: bool = True) -> None:
        """Every constraint group that defines the lemmings' runs."""
        for k in range(len(self.occ)):
            self.checkpoint()
            self.add_exactly_one(k)
            self.checkpoint()
            self.add_transitions(k)
            if redundant:
                self.checkpoint()
                self.add_support(k)
                self.checkpoint()
                self.add_free_where_occupied(k)

    def add_exactly_one(self, k: int) -> None:
        """Lemming ``k`` is in exactly one state at each frame."""
        by_frame: dict[int, list[Literal]] = {}
        for (t, _, _, _), lit in self.occ[k].items():
            by_frame.setdefault(t, []).append(lit)
        for t in range(self.level.frames):
            if t % CHECK_EVERY == 0:
                self.checkpoint()
            lits = by_frame.get(t, [])
            if len(lits) != 1 or lits[0] is not True:
                self.model.add_exactly_one(lits)

    def moves_from(self, state: State) -> list[tuple[list[Literal], State]]:
        """Per branch of the physics that can apply in ``state``: the negations of its needed cells'
        literals (constants dropped) and the state it leads to; the same at every frame, so computed once."""
        cache = self._moves
        if state not in cache:
            out = []
            for branch in self.level.physics.branches:
                negated = [negate(lit) for lit in conditions(branch, self.blocked, state)]
                if not any(lit is True for lit in negated):  # else a needed cell never is as needed
                    out.append(([lit for lit in negated if lit is not False], branch.apply(state)))
            cache[state] = out
        return cache[state]

    def add_transitions(self, k: int) -> None:
        """The movement rule, one clause per live state and branch of the physics."""
        targets = self.level.target_map if self.level.physics.targets_stop else np.zeros_like(self.level.target_map)
        for i, ((t, r, c, d), x) in enumerate(self.occ[k].items()):
            if i % CHECK_EVERY == 0:
                self.checkpoint()
            if t == self.level.frames - 1:
                continue
            nx = negate(x)
            if targets[r, c]:
                add_clause(self.model, [nx, self.state(k, (t + 1, r, c, d))])
                continue
            for negated, dest in self.moves_from((r, c, d)):
                add_clause(self.model, [nx, *negated, self.state(k, (t + 1, *dest))])

    def add_support(self, k: int) -> None:
        """Redundant: a state at frame t+1 needs an occupied predecessor at frame t."""
        targets = self.level.target_map if self.level.physics.targets_stop else np.zeros_like(self.level.target_map)
        branches = self.level.physics.branches
        before: dict[State, list[State]] = {}  # per state, the states it can come from (the same every frame)
        for i, ((t, r, c, d), y) in enumerate(self.occ[k].items()):
            if i % CHECK_EVERY == 0:
                self.checkpoint()
            if t == 0 or y is True:
                continue
            if (r, c, d) not in before:
                preds = [predecessor(branch, (r, c, d)) for branch in branches]
                if targets[r, c]:
                    preds.append((r, c, d))
                before[(r, c, d)] = [p for p in preds if not (targets[p[0], p[1]] if self.level.in_bounds(p[0], p[1])
                                                              else False) or p == (r, c, d)]
            lits = [self.state(k, (t - 1, *p)) for p in before[(r, c, d)]]
            add_clause(self.model, [negate(y), *lits])

    def add_free_where_occupied(self, k: int) -> None:
        """Redundant: a lemming never stands in a brick cell."""
        for i, ((t, r, c, d), x) in enumerate(self.occ[k].items()):
            if i % CHECK_EVERY == 0:
                self.checkpoint()
            brick = self.bricks.get((r, c))
            if brick is not None:
                add_clause(self.model, [negate(x), brick.Not()])

    def add_run_cuts(self, depth: int = 2) -> int:
        """Redundant clauses from losing runs (the first levels of the search solver's tree).

        If lemming ``k`` loses with the brick set ``P``, every brick set that agrees with
        ``P`` on the cells ``k``'s run reads loses too: ``OR(b_c ≠ P_c, c read)``.  The
        runs tried are the brick-free one and, for ``depth`` 2, one brick on each cell it
        reads.  Returns the number of clauses added.
        """
        added = 0
        frontier: list[tuple[Brick, ...]] = [()]
        for _ in range(depth):
            nxt: list[tuple[Brick, ...]] = []
            for bricks in frontier:
                self.checkpoint()
                for reads in losing_reads(self.level, bricks):
                    cells = [c for c in reads if c in self.bricks]
                    add_clause(self.model, [negate(self.bricks[c]) if c in bricks else self.bricks[c] for c in cells])
                    added += 1
                    nxt += [tuple(sorted((*bricks, c))) for c in cells if c not in bricks]
            frontier = sorted(set(nxt))
        return added

    def brick_count(self) -> cp_model.LinearExpr:
        """``Σ b`` over every brick variable."""
        return sum(self.brick_vars)  # type: ignore[return-value]

    def add_budget(self, budget: int) -> None:
        """At most ``cap ≤ budget`` bricks (native linear cardinality); see :meth:`set_cap`."""
        self.cap = self.model.new_int_var(0, budget, "cap")
        self.model.add(self.brick_count() <= self.cap)

    def set_cap(self, limit: int) -> None:
        """Tighten (or reset) the brick cap to ``limit`` in place (edits the variable's domain)."""
        domain = self.model.proto.variables[self.cap.index].domain
        domain.clear()
        domain.extend([0, limit])

    def add_exact_count(self, count: int) -> None:
        """Exactly ``count`` bricks."""
        self.model.add(self.brick_count() == count)

    def minimise_bricks(self) -> None:
        """Objective: the fewest bricks."""
        self.model.minimize(self.brick_count())

    def add_search_order(self) -> None:
        """Branch on bricks first, trying 'no brick' first."""
        self.model.add_decision_strategy(
            self.brick_vars, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE
        )

    # ------------------------------------------------------------- solutions
    def bricks_of(self, values: cp_model.CpSolver | cp_model.CpSolverSolutionCallback) -> BrickSet:
        """The brick set of the current solution (solver or callback)."""
        return tuple(cell for cell, var in self.bricks.items() if values.boolean_value(var))

    def hint(self, bricks: Iterable[Brick]) -> None:
        """Suggest a brick set to the solver."""
        chosen = set(bricks)
        self.model.clear_hints()  # type: ignore[no-untyped-call]  # (untyped in OR-Tools' stubs)
        for cell, var in self.bricks.items():
            self.model.add_hint(var, cell in chosen)


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
    * edges ``e = v ∧ (the cells a branch of the physics needs)``, one per branch; an edge to a
      state that is not live is forbidden;
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
        for k, reach in enumerate(self.info.lemmings):
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
        for lit in rest:
            self.model.add_implication(e, lit)
        add_clause(self.model, [*(negate(lit) for lit in rest), e])
        return e

    def add_edges(self, k: int) -> dict[State, list[tuple[Literal, State]]]:
        """One edge per branch of the physics from each visited, non-target state; returns the incoming
        edges of every state."""
        visit, frame = self.visit[k], self.frame[k]
        incoming: dict[State, list[tuple[Literal, State]]] = {s: [] for s in visit}
        targets = self.level.target_map
        for i, ((r, c, d), v) in enumerate(visit.items()):
            if i % CHECK_EVERY == 0:
                self.checkpoint()
            if targets[r, c]:
                continue
            for branch in self.level.physics.branches:
                cond, dest = [v, *conditions(branch, self.blocked, (r, c, d))], branch.apply((r, c, d))
                if dest not in visit:
                    add_clause(self.model, [negate(lit) for lit in cond])
                    continue
                e = self._edge(cond)
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


#: The encodings :class:`CpSatSolver` offers.
ENCODINGS = {"time": CpSatModel, "path": PathModel}


def build_model(level: Level, info: ReachInfo | None = None, *, redundant: bool = True,
                ctx: SolveContext | None = None, encoding: str = "path") -> CpSatModel:
    """The full model of ``level`` with its budget (no objective); ``ctx`` may stop the building
    (:class:`ai.context.SolveStopped`).  Where targets do not stop lemmings a winning run may pass a
    state twice, which the *path* encoding cannot express: such levels use the *time* encoding."""
    if not level.physics.targets_stop:
        encoding = "time"
    m = ENCODINGS[encoding](level, info or analyse(level, ctx), ctx=ctx)
    m.add_dynamics(redundant=redundant)
    m.add_budget(level.budget)
    return m


class _Collector(cp_model.CpSolverSolutionCallback):
    """Collects the brick set of every solution and reports progress."""

    def __init__(self, m: CpSatModel, on_solution: Callable[[list[BrickSet]], None] | None = None) -> None:
        super().__init__()
        self.m = m
        self.found: list[BrickSet] = []
        self.on_solution = on_solution

    def on_solution_callback(self) -> None:
        self.found.append(self.m.bricks_of(self))
        if self.on_solution is not None:
            self.on_solution(self.found)


def run_solver(
    m: CpSatModel,
    ctx: SolveContext,
    cancel: threading.Event | None = None,
    *,
    workers: int = 1,
    enumerate_all: bool = False,
    collector: _Collector | None = None,
    presolve: bool = True,
) -> tuple[Any, cp_model.CpSolver]:
    """Solve ``m.model`` within ``ctx`` (its deadline and cancel events, plus ``cancel`` if given).

    Returns (status, solver); a stop ends CP-SAT within a few milliseconds (status ``UNKNOWN``
    or ``FEASIBLE``) through the context's stop-watcher.
    """
    if cancel is not None:
        ctx = ctx.child(cancel=cancel)
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers = 1 if enumerate_all else workers
    params.cp_model_presolve = presolve
    if presolve and len(m.model.proto.variables) > LARGE_MODEL:
        # On large models CP-SAT's presolve probing and symmetry detection take seconds.
        params.cp_model_probing_level = 0
        params.symmetry_level = 0
    if enumerate_all:
        params.enumerate_all_solutions = True
    return solve_under(solver, m.model, ctx, collector), solver


def stopped(ctx: SolveContext, status: Any) -> SolveStopped:
    """The stop behind an undecided CP-SAT ``status``: a cancel, or the time limit CP-SAT was given."""
    if status == cp_model.MODEL_INVALID:
        raise RuntimeError("CP-SAT rejected the model as invalid")
    return SolveStopped(ctx.stop_reason() or StopReason.TIMEOUT)


class CpSatSolver(SolverBase):
    """Exact solver on OR-Tools CP-SAT (see the module docstring for the model).

    Options: ``encoding`` (``path``, the compact default, or ``time``, one literal per
    state and frame), ``presolve`` (CP-SAT's presolve: off by default, it costs more than
    it saves here), ``primal_seconds`` (time given to the exact search for a first
    solution, used as a hint and upper bound; 0 = CP-SAT alone),
    ``workers`` (CP-SAT search workers; 1 is fastest on these models),
    ``redundant`` (add the redundant support / free-cell clauses),
    ``fixed_search`` (branch on bricks, no-brick first; always on for large models).
    """

    name = "cpsat"
    exact = True

    def __init__(self, *, workers: int = 1, redundant: bool = True, fixed_search: bool = False,
                 encoding: str = "path", presolve: bool = False, primal_seconds: float = 0.2) -> None:
        if encoding not in ENCODINGS:
            raise ValueError(f"unknown encoding {encoding!r}; choose from {', '.join(ENCODINGS)}")
        self.workers = workers
        self.redundant = redundant
        self.fixed_search = fixed_search
        self.encoding = encoding
        self.presolve = presolve
        self.primal_seconds = primal_seconds

    def core(self, level: Level, mode: SolveMode, ctx: SolveContext, partial: Partial) -> Outcome:
        """Build the model (for ``min``/``all`` only when needed), then solve in ``mode`` (``all``: the
        minimum, :func:`ai.solvers.cpsat_min.minimise`, then the enumeration)."""
        from ai.solvers.cpsat_min import minimise

        def build() -> CpSatModel:
            m = build_model(level, reach_for(level, ctx), redundant=self.redundant, ctx=ctx, encoding=self.encoding)
            if self.fixed_search:
                m.add_search_order()
            ctx.report(f"model built: {len(m.bricks)} brick variables")
            return m

        if mode == SolveMode.ANY:
            return self._solve_any(build(), ctx, partial)
        outcome, m, solver = minimise(level, build, self._run, ctx, partial, self.primal_seconds)
        if m is not None and solver is not None:
            outcome = self._outcome(outcome.status, m, solver, solutions=outcome.solutions,
                                    complete=outcome.complete, best_bound=outcome.best_bound)
        if mode == SolveMode.ALL and outcome.status == SolveStatus.OPTIMAL:
            return self._enumerate(m or build(), outcome, ctx, partial)
        return outcome

    # ------------------------------------------------------------------ modes
    def _run(self, m: CpSatModel, ctx: SolveContext, **options: Any) -> tuple[Any, cp_model.CpSolver]:
        return run_solver(m, ctx, workers=self.workers, presolve=self.presolve, **options)

    @staticmethod
    def _outcome(status: SolveStatus, m: CpSatModel, solver: cp_model.CpSolver, **fields: Any) -> Outcome:
        """An :class:`Outcome` with the model's size and the search's counters."""
        proto = m.model.proto
        try:
            branches, conflicts = int(solver.num_branches), int(solver.num_conflicts)
        except RuntimeError:  # stopped before the solve started
            branches = conflicts = 0
        return Outcome(status, variables=len(proto.variables), constraints=len(proto.constraints),
                       nodes=branches, extra={"conflicts": conflicts}, **fields)

    def _solve_any(self, m: CpSatModel, ctx: SolveContext, partial: Partial) -> Outcome:
        status, solver = self._run(m, ctx)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return self._outcome(SolveStatus.FEASIBLE, m, solver, solutions=[m.bricks_of(solver)])
        if status == cp_model.INFEASIBLE:
            return self._outcome(SolveStatus.INFEASIBLE, m, solver, complete=True)
        raise stopped(ctx, status)

    def _enumerate(self, m: CpSatModel, first: Outcome, ctx: SolveContext, partial: Partial) -> Outcome:
        """Every solution with the proved minimum count (``complete`` once CP-SAT has proved it)."""
        best = next(iter(first.solutions))
        count = len(tuple(best))
        m.model.clear_objective()  # type: ignore[no-untyped-call]  # (untyped in OR-Tools' stubs)
        m.add_exact_count(count)

        def on_solution(found: list[BrickSet]) -> None:
            partial.found(found[-1])
            ctx.report("solution found", best_bricks=count, best_bound=count, solutions_found=len(found))

        collector = _Collector(m, on_solution)
        status, solver = run_solver(m, ctx, enumerate_all=True, collector=collector, presolve=self.presolve)
        complete = status == cp_model.OPTIMAL and not ctx.cancelled()
        return self._outcome(SolveStatus.OPTIMAL, m, solver, solutions=[*collector.found, best],
                             complete=complete, best_bound=float(count))
