"""Hints for the player, each proved by CP-SAT rather than guessed.

* **Next move**: from the player's bricks ``P``, CP-SAT finds a winning brick set ``S``
  within the budget that keeps as many of ``P`` as possible (then uses the fewest
  bricks).  If ``S`` keeps all of ``P``, the hint is the brick of ``S \\ P`` the lemmings
  meet first; otherwise it is a brick of ``P \\ S`` to remove.
* **Deductions** (like a Minesweeper logic solver): every minimum solution is
  enumerated with a completeness proof; cells in all of them are *forced*, brickable
  cells in none are *never useful*.

>>> from game.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
>>> hint = compute_hint(level, [])
>>> hint.action, hint.cell, hint.forced
('place', (1, 2), ((1, 2),))
>>> compute_hint(level, [(0, 1)]).action
'remove'
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Iterable

from ortools.sat.python import cp_model

from ai.base import BrickSet, SolveMode, SolveStatus, WrongSolutionError
from ai.solvers.cpsat import CpSatSolver, PathModel, run_solver
from ai.reach import analyse
from ai.solver_util import Deadline
from game.level import Brick, Level
from game.rules import check_bricks, format_bricks
from game.simulation import simulate

#: Hint actions.
PLACE, REMOVE, SOLVED, IMPOSSIBLE, UNKNOWN = "place", "remove", "solved", "impossible", "unknown"


@dataclass(frozen=True)
class Hint:
    """A hint: what to do next, towards which solution, and the proved deductions."""

    action: str  #: place, remove, solved, impossible or unknown
    cell: Brick | None  #: the brick to place or remove
    solution: BrickSet | None  #: the winning set the hint leads to
    min_bricks: int | None  #: the proved minimum brick count
    forced: tuple[Brick, ...] = ()  #: bricks in every minimum solution (proved)
    never_useful: tuple[Brick, ...] = ()  #: brickable cells in no minimum solution (proved)
    proved: bool = False  #: whether forced/never_useful come from a complete enumeration

    def to_json(self) -> dict[str, Any]:
        """The object printed by ``main.py hint --json``."""
        return {
            "action": self.action,
            "cell": list(self.cell) if self.cell else None,
            "solution": [list(b) for b in self.solution] if self.solution is not None else None,
            "min_bricks": self.min_bricks,
            "forced": [list(b) for b in self.forced],
            "never_useful": [list(b) for b in self.never_useful],
            "proved": self.proved,
        }

    def describe(self) -> str:
        """A few lines for the terminal."""
        lines = {
            PLACE: f"place a brick at ({self.cell[0]},{self.cell[1]})" if self.cell else "",
            REMOVE: f"remove the brick at ({self.cell[0]},{self.cell[1]})" if self.cell else "",
            SOLVED: "your bricks already win",
            IMPOSSIBLE: "no brick set within the budget wins this level",
            UNKNOWN: "no hint found in the time allowed",
        }
        out = [lines[self.action]]
        if self.solution is not None:
            out.append(f"towards the solution {format_bricks(self.solution)}")
        if self.min_bricks is not None:
            out.append(f"the minimum is {self.min_bricks} brick{'s' if self.min_bricks != 1 else ''}")
        if self.proved:
            out.append(f"forced bricks (in every minimum solution): {format_bricks(self.forced) or 'none'}")
            out.append(f"never useful: {len(self.never_useful)} cells")
        return "\n".join(out)


def first_read(level: Level, solution: BrickSet, cells: Iterable[Brick]) -> Brick:
    """Of ``cells`` (bricks of ``solution``), the one the lemmings read first."""
    wanted = set(cells)
    run = simulate(level, solution)
    best: tuple[int, Brick] | None = None
    for track in run.tracks:
        for t, (r, c, d) in enumerate(track.path):
            for cell in ((r + 1, c), (r, c + d)):
                if cell in wanted and (best is None or t < best[0]):
                    best = (t, cell)
    return best[1] if best else min(wanted)


def closest_solution(level: Level, player: BrickSet, deadline: Deadline,
                     cancel: threading.Event | None = None) -> BrickSet | None:
    """A winning set within budget keeping most of ``player``, then fewest bricks (None: none)."""
    info = analyse(level)
    if not info.feasible:
        return None
    m = PathModel(level, info, extra_cells=player)
    m.add_dynamics()
    m.add_budget(level.budget)
    weight = len(m.bricks) + 1
    kept = sum(m.bricks[p] for p in player)
    m.model.minimize(m.brick_count() - weight * kept)
    status, solver = run_solver(m, deadline, cancel, presolve=False)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return m.bricks_of(solver)


def deductions(level: Level, deadline: Deadline, cancel: threading.Event | None = None
               ) -> tuple[SolveStatus, int | None, tuple[Brick, ...], tuple[Brick, ...], bool]:
    """(status, minimum, forced cells, never-useful cells, proved) from enumerating every minimum solution.

    Goes through :func:`ai.solve`, so every enumerated solution is replayed by the reference simulator.
    """
    import ai

    result = ai.solve(level, solver=CpSatSolver(), mode=SolveMode.ALL, time_limit=deadline.remaining(),
                      cancel=cancel)
    if result.status != SolveStatus.OPTIMAL or not result.complete:
        return result.status, result.min_bricks, (), (), False
    sols = [set(s) for s in result.solutions]
    forced = set.intersection(*sols)
    used = set.union(*sols)
    never = tuple(cell for cell in level.brickable_cells if cell not in used)
    return result.status, result.min_bricks, tuple(sorted(forced)), never, True


def compute_hint(level: Level, bricks: Iterable[Brick], *, time_limit: float | None = 10.0,
                 cancel: threading.Event | None = None) -> Hint:
    """The hint for a player who has placed ``bricks`` (legal cells; may exceed the budget)."""
    deadline = Deadline(time_limit)
    player = check_bricks(level, bricks, enforce_budget=False)
    status, min_bricks, forced, never, proved = deductions(level, deadline, cancel)
    extra: dict[str, Any] = {"forced": forced, "never_useful": never, "proved": proved, "min_bricks": min_bricks}
    if status == SolveStatus.INFEASIBLE:
        return Hint(IMPOSSIBLE, None, None, **extra)
    if len(player) <= level.budget and simulate(level, player).won:
        return Hint(SOLVED, None, player, **extra)
    solution = closest_solution(level, player, deadline, cancel)
    if solution is None:
        return Hint(UNKNOWN, None, None, **extra)
    if len(solution) > level.budget or not simulate(level, solution).won:  # replay before showing it
        raise WrongSolutionError(f"hint: brick set {format_bricks(solution)} does not win within the budget")
    missing = [cell for cell in solution if cell not in player]
    extra_bricks = [cell for cell in player if cell not in solution]
    if extra_bricks:
        return Hint(REMOVE, extra_bricks[0], solution, **extra)
    return Hint(PLACE, first_read(level, solution, missing), solution, **extra)
