"""The solver base: the contract of :class:`ai.kernel.base.Solver`, implemented once.

A solver subclasses :class:`SolverBase` and writes only its core, :meth:`SolverBase.core`, which gets the
level, the mode and a :class:`ai.kernel.context.SolveContext` and returns an :class:`Outcome` (what it found).
The base owns everything else:

* mode handling (``"min"`` strings become :class:`SolveMode`); the deadline and the cancel request come
  in the context;
* shortcuts: a level won with no brick, and a level that reachability proves infeasible;
* a stopped run (:class:`ai.kernel.context.SolveStopped` anywhere below) ends with what the core had
  reported through :meth:`Partial.found` / :meth:`Partial.bound`, and an honest status;
* a crash of the core becomes status ``unknown`` with the error in the message;
* building the :class:`SolveResult` (sorted distinct solutions, best bound, seconds).

Composite solvers (the portfolio, decomposition) call :meth:`SolverBase.solve_in` with a child context.

>>> from game.core.level import Level
>>> ctx = SolveContext.create()
>>> class Nothing(SolverBase):
...     name, exact = "nothing", False
...     def core(self, level, mode, ctx, partial):
...         return Outcome(SolveStatus.UNKNOWN, message="gave up")
>>> Nothing().solve_in(Level.from_rows(["> T", "XXX"], 3, 1), SolveMode.MIN, ctx).status   # won with no brick: the base answers
<SolveStatus.OPTIMAL: 'optimal'>
>>> Nothing().solve_in(Level.from_rows([">X T", "XXXX"], 3, 1), SolveMode.MIN, ctx).describe()[:10]
'infeasible'
"""

from __future__ import annotations

import math

from dataclasses import dataclass, field
from typing import Any, Iterable

from ai.kernel.base import BrickSet, RelaxedSolution, SolveMode, SolveResult, SolveStats, SolveStatus
from ai.kernel.context import SolveContext, SolveStopped, StopReason
from ai.solvers.reach import reach_for, wins_without_bricks
from game.core.level import Brick, Level
from game.core.simulation import SimulationCancelled, simulate


def canonical(sets: Iterable[Iterable[Brick]]) -> tuple[BrickSet, ...]:
    """Distinct brick sets, each sorted, the list sorted.

    >>> canonical([[(2, 1), (0, 3)], [(0, 3), (2, 1)], [(1, 1)]])
    (((0, 3), (2, 1)), ((1, 1),))
    """
    return tuple(sorted({tuple(sorted((int(r), int(c)) for r, c in s)) for s in sets}))


#: Lemming-frames up to which the reference simulator answers "won with no brick?" faster than the analysis.
SHORT_RUN = 20_000


def won_without_bricks(level: Level, ctx: SolveContext) -> bool:
    """True when ``level`` is won with no brick: the reference simulator on short runs, the vectorised
    analysis (:func:`ai.solvers.reach.wins_without_bricks`, which checks ``ctx``) on long ones."""
    if level.frames * len(level.lemmings) <= SHORT_RUN:
        return simulate(level, ()).won
    return wins_without_bricks(level, ctx)


@dataclass
class Outcome:
    """What a solver core found.

    ``status`` is the core's verdict (``optimal``/``feasible``/``infeasible``/``unknown``; ``timeout`` and
    ``cancelled`` are set by the base). ``solutions`` are winning brick sets (every minimum one in mode
    ``all``); ``complete`` says that list is proved exhaustive.
    """

    status: SolveStatus
    solutions: Iterable[Iterable[Brick]] = ()
    complete: bool = False
    best_bound: float | None = None
    nodes: int = 0
    variables: int = 0
    constraints: int = 0
    message: str = ""
    relaxed: RelaxedSolution | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Partial:
    """What a core has so far: kept by the base when the core is stopped or crashes.

    ``relaxed`` keeps a fractional answer (an LP relaxation, the gradient's densities) for display.
    """

    solutions: list[BrickSet] = field(default_factory=list)
    best_bound: float | None = None
    nodes: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    relaxed: RelaxedSolution | None = None

    def found(self, bricks: Iterable[Brick]) -> None:
        """Record a winning brick set (the base keeps the smallest ones)."""
        self.solutions.append(tuple(sorted((int(r), int(c)) for r, c in bricks)))

    def bound(self, value: float) -> None:
        """Record a proved lower bound on the brick count."""
        self.best_bound = value if self.best_bound is None else max(self.best_bound, value)


class SolverBase:
    """Implements :class:`ai.kernel.base.Solver` around :meth:`core`; subclasses set ``name`` and ``exact``."""

    name: str = "base"
    exact: bool = False
    #: Whether :meth:`solve_in` answers the shortcuts (no-brick win, reachability infeasible) itself.
    shortcuts: bool = True

    def solve_in(self, level: Level, mode: SolveMode, ctx: SolveContext) -> SolveResult:
        """Solve ``level`` in ``mode`` under ``ctx``; see :class:`ai.kernel.base.Solver`."""
        mode = SolveMode(mode)
        partial = Partial()
        try:
            ctx.check()
            if self.shortcuts:
                early = self._shortcut(level, mode, ctx)
                if early is not None:
                    return early
            outcome = self.core(level, mode, ctx, partial)
        except (SolveStopped, SimulationCancelled) as stop:
            reason = stop.reason if isinstance(stop, SolveStopped) else ctx.stop_reason() or StopReason.TIMEOUT
            status = SolveStatus.CANCELLED if reason is StopReason.CANCELLED else SolveStatus.TIMEOUT
            outcome = Outcome(status, solutions=partial.solutions, best_bound=partial.best_bound,
                              nodes=partial.nodes, extra=partial.extra, relaxed=partial.relaxed)
        except MemoryError as exc:  # (also the analysis refusing a dense map past its size limit)
            outcome = Outcome(SolveStatus.UNKNOWN, solutions=partial.solutions, best_bound=partial.best_bound,
                              nodes=partial.nodes, message=f"too large for {self.name}: {exc}" if str(exc)
                              else "ran out of memory")
        except Exception as exc:  # a crash of a core is a status, never a traceback for the user
            outcome = Outcome(SolveStatus.UNKNOWN, solutions=partial.solutions, best_bound=partial.best_bound,
                              nodes=partial.nodes, message=f"{self.name} failed: {type(exc).__name__}: {exc}")
        return self.result(mode, outcome, ctx)

    def core(self, level: Level, mode: SolveMode, ctx: SolveContext, partial: Partial) -> Outcome:
        """The solver's own method.  Call ``ctx.check()`` often; record finds in ``partial``."""
        raise NotImplementedError

    # ---- shared pieces --------------------------------------------------------------------------------
    def _shortcut(self, level: Level, mode: SolveMode, ctx: SolveContext) -> SolveResult | None:
        """The answer without the core: won with no brick, or infeasible by reachability."""
        if won_without_bricks(level, ctx):
            return self.result(mode, Outcome(SolveStatus.OPTIMAL, solutions=[()], complete=True, best_bound=0.0,
                                             message="won without a brick"), ctx)
        if not reach_for(level, ctx).feasible:
            return self.result(mode, Outcome(
                SolveStatus.INFEASIBLE, complete=True, best_bound=float("inf"),
                message="some lemming cannot reach a target in time, whatever the bricks"), ctx)
        return None

    def result(self, mode: SolveMode, outcome: Outcome, ctx: SolveContext) -> SolveResult:
        """The :class:`SolveResult` of ``outcome``: the smallest solutions first; statuses made honest."""
        sols = canonical(outcome.solutions)
        if sols:
            smallest = min(len(s) for s in sols)
            if mode != SolveMode.ALL or outcome.status != SolveStatus.OPTIMAL:
                sols = tuple(s for s in sols if len(s) == smallest)
            if mode != SolveMode.ALL:
                sols = sols[:1]
        status, message = outcome.status, outcome.message
        if status in (SolveStatus.TIMEOUT, SolveStatus.UNKNOWN) and sols:
            # a winning set in hand: feasible, and the message says why it is not proved
            status, message = SolveStatus.FEASIBLE, message or f"stopped early ({status.value})"
        elif status in (SolveStatus.TIMEOUT, SolveStatus.CANCELLED) and not message:
            message = stopped_before_any(status, outcome.best_bound)
        complete = outcome.complete and status in (SolveStatus.OPTIMAL, SolveStatus.INFEASIBLE)
        stats = SolveStats(seconds=ctx.elapsed(), variables=outcome.variables, constraints=outcome.constraints,
                           nodes=outcome.nodes, best_bound=outcome.best_bound, extra=dict(outcome.extra))
        return SolveResult(status=status, solver=self.name, mode=mode, bricks=sols[0] if sols else None,
                           solutions=sols, complete=complete, stats=stats, message=message,
                           relaxed=outcome.relaxed)


def stopped_before_any(status: SolveStatus, bound: float | None) -> str:
    """What a stopped search with no winning set in hand is missing, in a line.

    >>> stopped_before_any(SolveStatus.TIMEOUT, 2.0)
    'the time limit came before any winning set was found; at least 2 bricks are needed'
    >>> stopped_before_any(SolveStatus.CANCELLED, None)
    'cancelled before any winning set was found'
    """
    what = "the time limit came" if status == SolveStatus.TIMEOUT else "cancelled"
    needed = f"; at least {math.ceil(bound)} bricks are needed" if bound is not None and 1 < bound < math.inf else ""
    return f"{what} before any winning set was found{needed}"


__all__ = ["Outcome", "Partial", "SolverBase", "canonical", "stopped_before_any", "won_without_bricks"]
