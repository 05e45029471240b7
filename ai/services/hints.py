"""Hints for the player, optimal-first: following them always ends on a proved minimum solution.

From the player's bricks ``P``:

1. **Deductions** (:func:`deduce`): the cheap exact solver (``auto``, through :func:`registry.solve`, so every
   set is replayed by the reference simulator) lists every minimum solution with a completeness proof.
   Cells in all of them are *forced*, brickable cells in none are *never useful* (like a Minesweeper
   logic solver).
2. **Target** (:func:`closest_solution`): the minimum solution closest to ``P``, the one that keeps most
   of the player's bricks (so the fewest changes).
3. **Plan** (:func:`plan`): first remove the bricks of ``P`` the target does without (bricks in no
   minimum solution first), then place its missing bricks in the order the lemmings read them
   (:func:`read_order`, from :func:`game.core.reads.step_reads`).  The hint is the plan's first step.

Each step of the plan brings ``P`` one brick closer to the target, so applying hint after hint ends on
a minimum solution.  ``solved`` is said only of a winning set of the minimum size; a winning set with
spare bricks gets a ``remove`` hint and a note ("your 5 bricks win, but 4 are enough").

When the enumeration is cut short (time limit, or a capped list), never-useful cells still include every
cell no live state reads (reachability, :func:`ai.solvers.reach.reach_for`), and the target is found by keeping
the player's bricks (then ever smaller subsets of them) as walls and solving for the rest
(:func:`extend_players_bricks`).

>>> from game.core.level import Level
>>> level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=2)
>>> hint = compute_hint(level, [])
>>> hint.action, hint.cell, hint.forced
(<HintAction.PLACE: 'place'>, (1, 2), ((1, 2),))
>>> compute_hint(level, [(0, 1)]).action      # (0, 1) is in no minimum solution: remove it first
<HintAction.REMOVE: 'remove'>
>>> compute_hint(level, [(1, 2)]).action
<HintAction.SOLVED: 'solved'>
"""

from __future__ import annotations

import enum
import itertools
import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ai.solvers import registry
import ai.solvers.portfolio  # noqa: F401  - the default solver: the game's worker preloads this module,
#                                            so its forked children start with it (and OR-Tools) imported
from ai.kernel.base import BrickSet, SolveMode, SolveResult, SolveStatus, WrongSolutionError
from ai.kernel.context import SolveContext, SolveStopped
from ai.solvers.reach import reach_for
from ai.services.extension import extension_target, with_walls
from game.core.level import Brick, Level, cell_words
from game.core.reads import run_reads
from game.core.rules import check_bricks, format_bricks
from game.core.simulation import simulate

#: Solver of the deductions: the cheap exact portfolio (search first, CP-SAT only when the search is slow).
DEFAULT_SOLVER = "auto"
#: Share of the time limit the enumeration of minimum solutions may use; the rest is for finding the
#: target when the enumeration is cut short.
ENUMERATION_SHARE = 0.7


class HintAction(str, enum.Enum):
    """What a hint tells the player to do."""

    PLACE = "place"  #: place a brick at the hint's cell
    REMOVE = "remove"  #: remove the brick at the hint's cell
    SOLVED = "solved"  #: the player's bricks are a minimum solution
    IMPOSSIBLE = "impossible"  #: proved: no brick set within the budget wins
    UNKNOWN = "unknown"  #: nothing found in the time allowed (or cancelled)

    def __str__(self) -> str:
        return self.value


PLACE, REMOVE, SOLVED, IMPOSSIBLE, UNKNOWN = (HintAction.PLACE, HintAction.REMOVE, HintAction.SOLVED,
                                              HintAction.IMPOSSIBLE, HintAction.UNKNOWN)

Step = tuple[HintAction, Brick]
"""One step of a plan: ``(PLACE or REMOVE, cell)``."""


@dataclass(frozen=True)
class Hint:
    """A hint: what to do next, towards which minimum solution, and the proved deductions."""

    action: HintAction
    cell: Brick | None  #: the brick to place or remove
    solution: BrickSet | None  #: the winning set the hint leads to (a minimum one when min_bricks is known)
    min_bricks: int | None  #: the proved minimum brick count
    forced: tuple[Brick, ...] = ()  #: bricks in every minimum solution (proved)
    never_useful: tuple[Brick, ...] = ()  #: brickable cells in no minimum solution (proved)
    proved: bool = False  #: whether forced/never_useful come from a complete enumeration
    steps: tuple[Step, ...] = ()  #: the whole way from the player's bricks to ``solution``
    note: str = ""  #: guidance beyond the action, e.g. "your 5 bricks win, but 4 are enough"

    def to_json(self) -> dict[str, Any]:
        """The object printed by ``main.py hint --json`` (schema in the README, "JSON output")."""
        return {
            "action": self.action.value,
            "cell": list(self.cell) if self.cell else None,
            "solution": [list(b) for b in self.solution] if self.solution is not None else None,
            "min_bricks": self.min_bricks,
            "forced": [list(b) for b in self.forced],
            "never_useful": [list(b) for b in self.never_useful],
            "proved": self.proved,
            "steps": [[action.value, list(cell)] for action, cell in self.steps],
            "note": self.note,
        }

    def describe(self) -> str:
        """A few lines for the terminal."""
        cell = f"({self.cell[0]},{self.cell[1]})" if self.cell else ""
        lines = {
            PLACE: f"place a brick at {cell}",
            REMOVE: f"remove the brick at {cell}",
            SOLVED: "your bricks already win with the fewest bricks",
            IMPOSSIBLE: "no brick set within the budget wins this level",
            UNKNOWN: "no hint found in the time allowed",
        }
        out = [lines[self.action]]
        if self.note:
            out.append(self.note)
        if self.solution is not None and self.action in (PLACE, REMOVE):
            out.append(f"towards the solution {format_bricks(self.solution)} ({len(self.steps)} "
                       f"step{'s' if len(self.steps) != 1 else ''}: "
                       + ", ".join(f"{a.value} {r},{c}" for a, (r, c) in self.steps) + ")")
        if self.min_bricks is not None:
            out.append(f"the minimum is {self.min_bricks} brick{'s' if self.min_bricks != 1 else ''}")
        if self.proved:
            out.append(f"forced bricks (in every minimum solution): {format_bricks(self.forced) or 'none'}")
        if self.proved or self.never_useful:
            out.append(f"never useful: {len(self.never_useful)} cells")
        return "\n".join(out)


@dataclass(frozen=True)
class Deductions:
    """What the enumeration of minimum solutions proved.

    ``solutions`` are minimum solutions when ``status`` is optimal (every one of them when ``complete``),
    else the best winning sets found.
    """

    status: SolveStatus
    solutions: tuple[BrickSet, ...]
    complete: bool
    forced: tuple[Brick, ...]
    never_useful: tuple[Brick, ...]
    message: str = ""

    @property
    def min_bricks(self) -> int | None:
        """The proved minimum brick count."""
        if self.status == SolveStatus.OPTIMAL and self.solutions:
            return len(self.solutions[0])
        return None


def read_order(level: Level, solution: Iterable[Brick], cells: Iterable[Brick]) -> list[Brick]:
    """``cells`` sorted by the first step of a lemming that reads them, with ``solution`` placed.

    "Reads" is :func:`game.core.reads.step_reads`: the cells of the branch of the level's physics the step
    takes; a lemming a target stops reads nothing.  Ties go to the earlier lemming, then the cell; cells
    no step reads come last.

    >>> level = Level.from_rows(["> . .T", "XX.X.X"], frames=9, budget=2)
    >>> read_order(level, [(1, 2), (1, 4)], [(1, 4), (1, 2)])
    [(1, 2), (1, 4)]
    """
    wanted = set(cells)
    first: dict[Brick, tuple[float, float]] = {}
    for k, t, read in run_reads(level, solution):
        for cell in read:
            if cell in wanted and cell not in first:
                first[cell] = (t, k)
    return sorted(wanted, key=lambda b: (first.get(b, (math.inf, math.inf)), b))


def plan(level: Level, player: Iterable[Brick], target: Iterable[Brick],
         never_useful: Iterable[Brick] = ()) -> tuple[Step, ...]:
    """The steps from ``player`` to ``target``: removals first (never-useful bricks first), then placements
    in :func:`read_order`.

    >>> level = Level.from_rows(["> . .T", "XX.X.X"], frames=9, budget=3)
    >>> plan(level, [(0, 1), (1, 4)], [(1, 2), (1, 4)], never_useful=[(0, 1)])
    ((<HintAction.REMOVE: 'remove'>, (0, 1)), (<HintAction.PLACE: 'place'>, (1, 2)))
    """
    mine, goal, never = set(player), set(target), set(never_useful)
    removals = sorted(mine - goal, key=lambda b: (b not in never, b))
    placements = read_order(level, goal, goal - mine)
    return tuple((REMOVE, b) for b in removals) + tuple((PLACE, b) for b in placements)


def _as_deductions(level: Level, result: SolveResult, ctx: SolveContext) -> Deductions:
    """The deductions of an ``all``-mode solve of ``level``."""
    sols = tuple(result.solutions) or ((result.bricks,) if result.bricks is not None else ())
    if result.status == SolveStatus.INFEASIBLE:
        return Deductions(result.status, (), True, (), level.brickable_cells, result.message)
    complete = result.status == SolveStatus.OPTIMAL and result.complete
    if complete:
        used = set().union(*map(set, sols))
        forced = tuple(sorted(set.intersection(*map(set, sols))))
        never = tuple(cell for cell in level.brickable_cells if cell not in used)
    elif ctx.should_stop():  # stopped: nothing more is proved, and the hint returns at once
        forced, never = (), ()
    else:  # only what reachability proves: a brick that no live state reads is in no minimum solution
        try:
            read = set(reach_for(level, ctx).read_cells)
            forced, never = (), tuple(cell for cell in level.brickable_cells if cell not in read)
        except SolveStopped:
            forced, never = (), ()
    return Deductions(result.status, sols, complete, forced, never, result.message)


def deduce(level: Level, context: SolveContext | None = None, *, solver: str = DEFAULT_SOLVER) -> Deductions:
    """Every minimum solution of ``level`` (through :func:`registry.solve`), and what they prove.

    ``context`` (default: no limit) is shared with the solver (one reachability analysis for the whole
    hint); the enumeration gets :data:`ENUMERATION_SHARE` of the time it has left.

    >>> d = deduce(Level.from_rows(["> .T", "XX.X"], frames=5, budget=2))
    >>> d.min_bricks, d.complete, d.forced, len(d.never_useful)
    (1, True, ((1, 2),), 2)
    """
    ctx = context if context is not None else SolveContext.create(solver="hint")
    remaining = ctx.remaining()
    result = registry.solve(level, solver=solver, mode=SolveMode.ALL,
                      ctx=ctx.child(time_limit=None if remaining is None else remaining * ENUMERATION_SHARE))
    return _as_deductions(level, result, ctx)


def extend_players_bricks(level: Level, player: Iterable[Brick], min_bricks: int, ctx: SolveContext,
                          solver: str = DEFAULT_SOLVER) -> BrickSet | None:
    """A minimum solution keeping as many of the player's bricks as possible, without the full list.

    Only bricks some live state reads can be in a minimum solution.  Tries those bricks, then ever smaller
    subsets of them: each try solves ``level`` with the subset as walls (a brick and a wall block alike)
    and the rest of the minimum as budget.  ``None`` when nothing is found; ``ctx`` bounds the tries
    (raises :class:`ai.kernel.context.SolveStopped`).
    """
    read = set(reach_for(level, ctx).read_cells)
    keep = sorted(set(player) & read)
    for size in range(min(len(keep), min_bricks), -1, -1):
        for subset in itertools.combinations(keep, size):
            ctx.check()
            found = _extend(level, subset, min_bricks, ctx, solver)
            if found is not None:
                return found
    return None


def _extend(level: Level, keep: Sequence[Brick], min_bricks: int, ctx: SolveContext, solver: str
            ) -> BrickSet | None:
    """A minimum solution containing ``keep``, or ``None`` (no such solution, or no answer in time)."""
    fixed = with_walls(level, keep, min_bricks - len(keep))
    result = registry.solve(fixed, solver=solver, mode=SolveMode.MIN, ctx=ctx)
    if result.status != SolveStatus.OPTIMAL or result.bricks is None:
        return None
    found = tuple(sorted(set(keep) | set(result.bricks)))
    if len(found) != min_bricks or not simulate(level, found).won:
        return None
    return found


def closest_solution(player: Iterable[Brick], candidates: Sequence[BrickSet]) -> BrickSet:
    """Of ``candidates`` (minimum solutions), the one keeping most of ``player`` (ties: the first sorted).

    With every candidate of the same size this is also the one fewest steps away.

    >>> closest_solution([(0, 1), (5, 5)], [((0, 0), (0, 2)), ((0, 1), (0, 3))])
    ((0, 1), (0, 3))
    """
    mine = set(player)
    return min(candidates, key=lambda s: (-len(mine & set(s)), len(s), s))


def compute_hint(level: Level, bricks: Iterable[Brick], context: SolveContext | None = None, *,
                 solver: str = DEFAULT_SOLVER, known: SolveResult | None = None, extend: bool = False,
                 prefer: BrickSet | None = None) -> Hint:
    """The hint for a player who has placed ``bricks`` (legal cells; may exceed the budget).

    ``context`` (default: no limit) bounds the whole hint; a stopped hint says so (``unknown``).

    ``known``: an earlier ``all``-mode answer of ``registry.solve`` for this level (already replayed), e.g. the
    one the game's assistant enumerates in the background when a level opens; the hint then reuses its
    minimum solutions instead of enumerating them again.

    ``extend``: when no minimum solution keeps all the player's bricks, lead to the fewest-brick winning set
    within the budget that does (:func:`ai.services.extension.extension_target`), else to one that drops a
    single brick of theirs, before falling back on the closest minimum solution.  ``prefer``: a winning set
    led to before (e.g. the one an earlier hint revealed), kept while it holds all the player's bricks.
    """
    ctx = context if context is not None else SolveContext.create(solver="hint")
    player = check_bricks(level, bricks, enforce_budget=False)
    try:
        usable = known is not None and known.mode == SolveMode.ALL and known.status in (
            SolveStatus.OPTIMAL, SolveStatus.INFEASIBLE)
        facts = _as_deductions(level, known, ctx) if usable and known is not None else deduce(
            level, ctx, solver=solver)
    except SolveStopped as stop:
        return Hint(UNKNOWN, None, None, None, note=f"stopped: {stop.reason.value}")
    extra: dict[str, Any] = {"forced": facts.forced, "never_useful": facts.never_useful,
                             "proved": facts.complete, "min_bricks": facts.min_bricks}
    if facts.status == SolveStatus.INFEASIBLE:
        return Hint(IMPOSSIBLE, None, None, **extra)
    if not facts.solutions:
        return Hint(UNKNOWN, None, None, note=facts.message, **extra)
    candidates = list(facts.solutions)
    minimum = facts.min_bricks
    if minimum is not None and not facts.complete:
        try:
            extended = extend_players_bricks(level, player, minimum, ctx, solver)
        except SolveStopped:
            extended = None
        if extended is not None:
            candidates.append(extended)
    target, extended_note = _target(level, player, candidates, facts, ctx, solver, extend, prefer)
    if len(target) > level.budget or not simulate(level, target).won:  # replay before showing it
        raise WrongSolutionError(f"hint: brick set {format_bricks(target)} does not win within the budget")
    wins = len(player) <= level.budget and simulate(level, player).won
    if wins and len(player) <= len(target):
        note = "" if minimum is not None else "(the fewest bricks were not proved in the time allowed)"
        if minimum is not None and len(player) > minimum:
            note = f"your {_bricks(len(player))} win, but {minimum} {'is' if minimum == 1 else 'are'} enough"
        return Hint(SOLVED, None, player, note=note, **extra)
    steps = plan(level, player, target, facts.never_useful)
    action, cell = steps[0]
    note = _note(level, player, target, wins, steps[0], facts.never_useful, extended_note)
    return Hint(action, cell, target, steps=steps, note=note, **extra)


def _note(level: Level, player: Sequence[Brick], target: BrickSet, wins: bool, first: Step,
          never_useful: Sequence[Brick], extended: str) -> str:
    """The note of a hint whose first step is ``first``: spare bricks, bricks over the budget, the note of
    an extension of the player's bricks (``extended``), or why a brick goes ('' when none of these)."""
    action, cell = first
    if wins:
        return (f"your {_bricks(len(player))} win{'s' if len(player) == 1 else ''}, but {len(target)} "
                f"{'is' if len(target) == 1 else 'are'} enough ({_bricks(len(player) - len(target))} more "
                "than needed)")
    if len(player) > level.budget:
        return f"your {_bricks(len(player))} exceed the budget of {level.budget}"
    if extended:
        return extended
    if action == REMOVE and cell in set(never_useful):
        return f"the brick at {cell_words(cell)} is in no minimum solution"
    if action == REMOVE:
        return f"no minimum solution uses all your bricks: the closest one does without {cell_words(cell)}"
    return ""


def _target(level: Level, player: Sequence[Brick], candidates: Sequence[BrickSet], facts: Deductions,
            ctx: SolveContext, solver: str, extend: bool, prefer: BrickSet | None) -> tuple[BrickSet, str]:
    """The solution the hint leads to, and the note it earns: ``prefer`` when it keeps the player's bricks
    and wins as a minimum solution or (``extend``) within the budget; else the minimum solution closest to
    the player's bricks, or (``extend``) a winning set that keeps them (:func:`_extension`)."""
    target = closest_solution(player, candidates)
    if prefer is not None and set(player) <= set(prefer) and len(prefer) <= level.budget and (
            tuple(prefer) in set(candidates) or extend) and simulate(level, prefer).won:
        return tuple(sorted(prefer)), ""
    if extend and not set(player) <= set(target) and len(player) <= level.budget:
        found, note = _extension(level, player, facts.never_useful, facts.min_bricks, ctx, solver)
        if found is not None:
            return found, note
    return target, ""


def _extension(level: Level, player: Sequence[Brick], never_useful: Sequence[Brick], minimum: int | None,
               ctx: SolveContext, solver: str) -> tuple[BrickSet | None, str]:
    """:func:`ai.services.extension.extension_target` with the note it earns; ``(None, "")`` when stopped."""
    try:
        found, dropped = extension_target(level, player, never_useful, ctx, solver)
    except SolveStopped:
        return None, ""
    if found is None:
        return None, ""
    if dropped is not None:
        return found, (f"no winning set within the budget keeps all your bricks; without the one at "
                       f"{cell_words(dropped)}, {len(found)} bricks win")
    if minimum is not None and len(found) > minimum:
        return found, f"your bricks can win with {len(found)} in all (the fewest possible is {minimum})"
    return found, ""


def _bricks(count: int) -> str:
    """``"1 brick"``, ``"2 bricks"``."""
    return f"{count} brick{'s' if count != 1 else ''}"


__all__ = ["Deductions", "Hint", "HintAction", "Step", "closest_solution", "compute_hint", "deduce",
           "extend_players_bricks", "plan", "read_order"]
