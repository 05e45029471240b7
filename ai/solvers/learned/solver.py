"""The learned-rule solver: CP-SAT on dynamics learned from games, never on the hand-written rule.

Rules come from :mod:`ai.learning` (decision trees over the 3x3 neighbourhood, or a
positions-only model with an invented hidden state, :mod:`ai.learning.hidden`).  Two encodings:

* ``path`` (default): the moves of one lemming read off the learned rules
  (:mod:`ai.learning.derive`), one visit literal and frame variable per live state
  (:class:`ai.solvers.learned.path_model.PathModel`); used with verified rules;
* ``time``: one clause per tree path, cell and frame (:mod:`ai.solvers.learned.encoding`); used
  for unverified tree rules and on request.

**Trust.**  The rules are re-verified when the solver is built (:func:`ai.learning.trust.verdict`,
cached by content hash): the ``verification`` field of a rules file is never believed.  Only
verified rules yield ``optimal``, ``infeasible`` or ``complete``; otherwise a winning set is
``feasible`` and "no solution" is ``unknown``.  Every solution is replayed by the reference
simulator; a disagreement is reported as ``unknown`` ("the learned rules are wrong").

History and design measurements: ``docs/history/learned-solver.md``.

>>> from game.core.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> r = LearnedRuleSolver().solve_in(level, SolveMode.ALL, SolveContext.create())
>>> r.status.value, r.solutions, r.complete
('optimal', (((1, 2),),), True)
"""

from __future__ import annotations

import enum
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ai.kernel.base import BrickSet, SolveMode, SolveStatus
from ai.kernel.context import SolveContext
from ai.kernel.cpsat_run import leave_ctrl_c_to_python
from ai.learning.derive import derived_transitions, learned_run_wins
from ai.learning.hidden import PositionsModel
from ai.learning.learn import learn_rules
from ai.learning.models import TreeModel
from ai.learning.rules import DEFAULT_RULES_PATH, LearnedRules
from ai.learning.verify import Verification
from ai.learning.trust import verdict
from ai.solvers.base import Outcome, Partial, SolverBase
from ai.solvers.learned.encoding import ClauseModel, encode
from ai.solvers.learned.path_model import Moves, PathModel
from game.core.level import Level
from game.core.simulation import simulate
from game.core.storage import user_data_dir

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
                cache = user_data_dir() / CACHE_NAME
                if cache.exists():
                    _default_rules = LearnedRules.load(cache)
                else:
                    _default_rules = learn_rules(model="tree").rules
                    _default_rules.save(cache)
        return _default_rules


class RunStatus(enum.Enum):
    """How one CP-SAT solve of the learned model ended."""

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    UNKNOWN = "unknown"


@dataclass
class _Run:
    status: RunStatus
    bricks: BrickSet | None
    conflicts: int




class LearnedRuleSolver(SolverBase):
    """CP-SAT on learned rules (see the module docstring).

    Options: ``rules`` (a :class:`LearnedRules` or a path to a rules JSON file; default the
    shipped rules), ``workers`` (CP-SAT search workers, default 1), ``presolve`` (CP-SAT
    presolve, off: it costs more than it saves on these models), ``simplify`` (time encoding:
    drop unnecessary tests, :func:`ai.learning.derive.simplified_paths`), ``prune`` (time
    encoding, verified rules: fix dead states to 0; on), ``encoding`` (``path`` or ``time``),
    ``derived`` (time encoding: add derived support and at-most-one constraints; off).
    """

    name = "learned"
    exact = True
    shortcuts = False  # the base's shortcuts use the real rules; this solver knows only the learned ones

    def __init__(self, *, rules: LearnedRules | str | Path | None = None, workers: int = 1,
                 presolve: bool = False, simplify: bool = False, prune: bool = True, derived: bool = False,
                 encoding: str = "path") -> None:
        if encoding not in ("path", "time"):
            raise ValueError(f"unknown encoding {encoding!r}; choose path or time")
        if rules is None:
            rules = default_rules()
        elif not isinstance(rules, LearnedRules):
            rules = LearnedRules.load(rules)
        if not isinstance(rules.model, (TreeModel, PositionsModel)):
            raise ValueError(f"the learned solver needs decision-tree rules, not {rules.model.kind}")
        self.rules = rules
        self._verification: Verification | None = None  # re-verified on first use, under the solve's context
        self.workers = workers
        self.presolve = presolve
        self.simplify = simplify
        self.prune = prune
        self.derived = derived
        self.encoding = encoding

    def verified(self, ctx: SolveContext | None = None) -> Verification:
        """The rules' exhaustive re-verification (cached; ``ctx`` may stop it)."""
        if self._verification is None:
            self._verification = verdict(self.rules, ctx=ctx)
        return self._verification

    @property
    def verification(self) -> Verification:
        """The rules' re-verification (computed now when no solve has needed it yet)."""
        return self.verified()

    @property
    def trusted(self) -> bool:
        """Whether the rules re-verify as exact on every configuration."""
        ver = self.verified()
        return ver.exhaustive and ver.exact

    def _moves(self) -> tuple[Moves | None, dict[int, int] | None]:
        """The learned moves for the path encoding and the start state of each direction."""
        model = self.rules.model
        if isinstance(model, PositionsModel):
            return model.moves(), dict(model.start_state)
        if self.encoding == "path" and self.trusted:
            return derived_transitions(model), None  # type: ignore[arg-type]
        return None, None

    def _run(self, m: Any, ctx: SolveContext, collect: list[BrickSet] | None = None) -> _Run:
        """One CP-SAT solve, stopped by ``ctx``; with ``collect``, enumerate every solution into it."""
        cp = m.cp
        solver = cp.CpSolver()
        solver.parameters.num_search_workers = self.workers
        solver.parameters.cp_model_presolve = self.presolve
        leave_ctrl_c_to_python(solver)
        callback = None
        if collect is not None:
            solver.parameters.enumerate_all_solutions = True
            sink = collect

            class _Collect(cp.CpSolverSolutionCallback):  # type: ignore[misc,name-defined]
                def on_solution_callback(self) -> None:
                    sink.append(tuple(sorted(c for c, v in m.bricks.items() if self.Value(v))))

            callback = _Collect()
        remaining = ctx.remaining()
        if remaining is not None:
            solver.parameters.max_time_in_seconds = max(0.001, remaining)
        with ctx.watch(solver.StopSearch):
            code = solver.Solve(m.model, callback) if callback is not None else solver.Solve(m.model)
        status = {cp.OPTIMAL: RunStatus.OPTIMAL, cp.FEASIBLE: RunStatus.FEASIBLE,
                  cp.INFEASIBLE: RunStatus.INFEASIBLE}.get(code, RunStatus.UNKNOWN)
        bricks = m.bricks_of(solver) if status in (RunStatus.OPTIMAL, RunStatus.FEASIBLE) else None
        return _Run(status, bricks, int(solver.NumConflicts()))

    def core(self, level: Level, mode: SolveMode, ctx: SolveContext, partial: Partial) -> Outcome:
        """Solve ``level`` with the learned rules only (the base's shortcuts, which use the real rules, are
        off); every solution the learned rules predict to win is replayed by the reference simulator."""
        self.verified(ctx)
        trusted = self.trusted
        extra: dict[str, Any] = {"rules_verified": trusted, "rules_games": self.rules.meta.get("games"),
                                 "rules_regime": self.rules.meta.get("regime")}
        partial.extra = extra  # a stopped solve still says which rules it used
        counts = {"vars": 0, "cons": 0, "conflicts": 0}
        bound: list[float | None] = [None]

        def result(status: SolveStatus, bricks: BrickSet | None = None, solutions: tuple[BrickSet, ...] = (),
                   complete: bool = False, message: str = "", **more: Any) -> Outcome:
            extra.update(more)
            found = solutions or ((bricks,) if bricks is not None else ())
            return Outcome(status, solutions=found, complete=complete, best_bound=bound[0],
                           nodes=counts["conflicts"], variables=counts["vars"], constraints=counts["cons"],
                           message=message, extra=dict(extra))

        return self._solve(level, mode, ctx, trusted, extra, counts, bound, result)

    def _solve(self, level: Level, mode: SolveMode, ctx: SolveContext, trusted: bool, extra: dict[str, Any],
               counts: dict[str, int], bound: list[float | None],
               result: Callable[..., Outcome]) -> Outcome:
        ctx.check()
        moves, start_state = self._moves()
        m: Any
        if moves is not None and mode != SolveMode.ANY and trusted and learned_run_wins(level, moves, start_state, ctx=ctx):
            # the learned rules say no brick is needed: the empty set is the one minimum
            if simulate(level, ()).won:
                return result(SolveStatus.OPTIMAL, (), ((),), complete=mode == SolveMode.ALL,
                              message="the learned rules say the lemmings win without bricks")
        if moves is None and not isinstance(self.rules.model, TreeModel):
            return result(SolveStatus.UNKNOWN, message="these positions-only rules give no usable moves "
                          "(a lemming on a target does not stay put)")
        built, goal_impossible = self._encode(level, moves, start_state, ctx, trusted, extra, counts)
        extra["encode_seconds"] = round(ctx.elapsed(), 4)
        if goal_impossible:
            if trusted:
                return result(SolveStatus.INFEASIBLE, complete=True,
                              message="the learned rules say no lemming path can reach a target")
            return result(SolveStatus.UNKNOWN, message="the (unverified) learned rules say no solution exists")
        ctx.check()
        m = built if moves is not None else ClauseModel(built)
        counts["vars"] = m.n_vars
        ctx.report(f"{m.n_vars} variables, {counts['cons']} constraints")
        if mode != SolveMode.ANY:
            m.model.Minimize(m.count)
        run = self._run(m, ctx)
        counts["conflicts"] += run.conflicts
        if run.bricks is None:
            ctx.check()
            if run.status == RunStatus.INFEASIBLE:
                if trusted:
                    return result(SolveStatus.INFEASIBLE, complete=True,
                                  message="proved with the learned rules: no brick set within the budget wins")
                return result(SolveStatus.UNKNOWN, message="the (unverified) learned rules say no solution exists")
            return result(SolveStatus.UNKNOWN, message="CP-SAT gave up")
        bad = _wrong(level, run.bricks, result)
        if bad:
            return bad
        first = run.bricks
        if mode == SolveMode.ANY or not trusted or run.status != RunStatus.OPTIMAL:
            msg = "" if trusted else "rules not verified: optimality not claimed"
            return result(SolveStatus.FEASIBLE, first, (first,), message=msg)
        bound[0] = float(len(first))
        ctx.report("minimum found", best_bricks=len(first), best_bound=float(len(first)), solutions_found=1)
        if mode == SolveMode.MIN:
            return result(SolveStatus.OPTIMAL, first, (first,), complete=False)
        return self._enumerate(level, m, first, ctx, counts, result)

    def _encode(self, level: Level, moves: Moves | None, start_state: dict[int, int] | None, ctx: SolveContext,
                trusted: bool, extra: dict[str, Any], counts: dict[str, int]) -> tuple[Any, bool]:
        """The path model (with ``moves``) or the time encoding, and whether no lemming path reaches a target."""
        if moves is not None:
            m = PathModel(level, moves, start_state=start_state, ctx=ctx)
            extra["encoding"] = "path"
            counts["cons"] = 0 if m.goal_impossible else m.n_constraints
            return m, m.goal_impossible
        enc = encode(level, self.rules.model, ctx=ctx, simplify=self.simplify,  # type: ignore[arg-type]
                     prune=self.prune and trusted, derived=self.derived)
        extra["encoding"] = "time"
        counts["cons"] = enc.n_clauses
        return enc, enc.goal_impossible

    def _enumerate(self, level: Level, m: Any, first: BrickSet, ctx: SolveContext, counts: dict[str, int],
                   result: Callable[..., Outcome]) -> Outcome:
        """Mode ALL: every brick set of the minimum's size (each is one assignment: every lemming state is a
        function of the bricks and unread bricks are fixed to 0)."""
        m.model.ClearObjective()
        m.model.Add(m.count == len(first))
        found: list[BrickSet] = []
        run = self._run(m, ctx, collect=found)
        counts["conflicts"] += run.conflicts
        for bricks in found:
            bad = _wrong(level, bricks, result)
            if bad:
                return bad
        solutions = tuple(sorted(set(found) | {first}))
        if run.status != RunStatus.OPTIMAL:
            if ctx.cancelled():
                return result(SolveStatus.CANCELLED, message="cancelled")
            return result(SolveStatus.OPTIMAL, first, solutions, False, "time limit: maybe more solutions")
        return result(SolveStatus.OPTIMAL, first, solutions, complete=True)


def _wrong(level: Level, bricks: BrickSet, result: Callable[..., Outcome]) -> Outcome | None:
    """``None`` when ``bricks`` win in the real game, else the outcome saying the learned rules are wrong."""
    if simulate(level, bricks).won:
        return None
    return result(SolveStatus.UNKNOWN, message=(
        f"the learned rules are wrong: they predict that bricks {list(bricks)} win, but the real game "
        "disagrees (learn from more games)"), wrong_solution=[list(b) for b in bricks])
