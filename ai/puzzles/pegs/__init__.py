"""The peg-solitaire AI: solve or prove impossible, hint, learn the move rule.

:func:`solve` tries, in order: the position-class invariant (the rule of three, instant), the English central
game's table, a beam search (:mod:`ai.puzzles.pegs.beam`: most games are found in a fraction of a second),
an exhaustive search by levels for positions with at most :data:`SWEEP_PEGS` pegs
(:mod:`ai.puzzles.pegs.sweep`), then a depth-first search with a transposition table of dead positions under
symmetry, then — when that search has not finished within :data:`SEARCH_BUDGET` nodes — the Kiyomi–Matsui
integer program (:mod:`ai.puzzles.pegs.bounds`: no game exists, or a bound on each jump's use) and the search
again with those bounds and with pagoda cuts learned from its dead positions (:mod:`ai.puzzles.pegs.pagoda`).
Every solution is replayed by :class:`game.core.puzzles.pegs.Board` before it is returned.
Memory is bounded with or without a time limit: a search whose table of dead positions reaches its cap
(:data:`ai.puzzles.pegs.search.MAX_DEAD`) stops, and the answer says so (``stopped``, with ``message``).

>>> from game.core.puzzles.pegs_boards import english, french
>>> board, start = french()
>>> result = solve(board, start)
>>> result.status.value, result.proof.value
('impossible', 'position class')
>>> board, start = english()
>>> position = board.replay(start, solve(board, start).moves[:29])
>>> hint(board, position).jump is not None
True
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field

from ai.kernel.context import SolveContext, SolveStopped, StopReason
from ai.puzzles.pegs.beam import WIDTHS, widening_search
from ai.puzzles.pegs.bounds import jump_bounds
from ai.puzzles.pegs.pagoda import PagodaCuts, refutes
from ai.puzzles.pegs.search import NodeLimit, Search, TableFull
from ai.puzzles.pegs.sweep import sweep
from ai.puzzles.pegs.table import WinTable, complement
from game.core.puzzles.pegs import Board, Jump

#: Positions with at most this many pegs that the beam search did not finish go to the exhaustive search by
#: levels (:mod:`ai.puzzles.pegs.sweep`) before the depth-first search.
SWEEP_PEGS = 26
#: Search nodes tried before the integer program is brought in (``ip="auto"``); the English
#: central game needs about 28,000.
SEARCH_BUDGET = 50_000


class PegsStatus(str, enum.Enum):
    """What a solve found."""

    SOLVED = "solved"  #: ``moves`` lead to the goal (replayed)
    IMPOSSIBLE = "impossible"  #: proved: no sequence of jumps reaches the goal
    STOPPED = "stopped"  #: the deadline passed, the caller cancelled or the search reached its memory cap first


class Proof(str, enum.Enum):
    """What settled the question."""

    NONE = "none"  #: not settled (stopped)
    GOAL = "goal"  #: the start is the goal
    POSITION_CLASS = "position class"  #: the rule-of-three invariant differs
    PEG_COUNT = "peg count"  #: fewer pegs than the goal
    INTEGER_PROGRAM = "integer program"  #: A x = start - goal has no non-negative integer solution
    TABLE = "table"  #: the English central game's table of winnable positions (:mod:`ai.puzzles.pegs.table`)
    BEAM = "beam search"  #: the beam search found moves (:mod:`ai.puzzles.pegs.beam`)
    PAGODA = "pagoda function"  #: checked pagoda functions rule out the goal (:func:`ai.puzzles.pegs.pagoda.refutes`)
    SEARCH = "search"  #: the search found moves, or tried every jump sequence


class IpUse(str, enum.Enum):
    """When :func:`solve` uses the integer program."""

    AUTO = "auto"  #: after :data:`SEARCH_BUDGET` nodes without an answer
    ALWAYS = "always"  #: before the search
    NEVER = "never"


@dataclass
class PegsResult:
    """The answer of :func:`solve`."""

    status: PegsStatus
    proof: Proof
    moves: list[Jump] = field(default_factory=list)
    nodes: int = 0
    elapsed: float = 0.0
    stop_reason: StopReason | None = None
    bounds: list[int] | None = None  #: the jump bounds, when the integer program ran
    table_full: int = 0  #: the positions of the table of dead positions when its memory cap stopped the search

    @property
    def message(self) -> str:
        """Why the search stopped when its memory cap stopped it (else empty)."""
        return str(TableFull(self.table_full)) if self.table_full else ""

    def to_json(self) -> dict[str, object]:
        """The CLI's JSON object."""
        out: dict[str, object] = {"status": self.status.value, "moves": [j.as_list() for j in self.moves],
                                  "proof": self.proof.value, "nodes": self.nodes}
        if self.stop_reason is not None:
            out["stop_reason"] = self.stop_reason.value
        if self.table_full:
            out["stop_reason"], out["message"] = "memory cap", self.message
        return out


class ReplayError(RuntimeError):
    """A solver's moves did not replay to the goal (a bug, never shown as a solution)."""


def solve(board: Board, start: int, goal: int | None | str = "default", *, ctx: SolveContext | None = None,
          ip: IpUse | str = IpUse.AUTO, budget: int = SEARCH_BUDGET, table: bool = True,
          beam: bool = True, sweep_pegs: int = SWEEP_PEGS) -> PegsResult:
    """Solve ``start`` towards ``goal`` (``"default"``: the board's own goal; ``None``: one peg anywhere);
    ``table``: ask the English central game's table first when it applies (:mod:`ai.puzzles.pegs.table`);
    ``beam``: then try the beam search (:mod:`ai.puzzles.pegs.beam`), which finds most games fast; then, with
    at most ``sweep_pegs`` pegs, the exhaustive search by levels (:mod:`ai.puzzles.pegs.sweep`)."""
    ctx = ctx if ctx is not None else SolveContext.create()
    ip = IpUse(ip)
    target: int | None = board.goal_position() if goal == "default" else goal  # type: ignore[assignment]
    t0 = time.perf_counter()

    def done(status: PegsStatus, proof: Proof, moves: list[Jump] | None = None, nodes: int = 0,
             bounds: list[int] | None = None) -> PegsResult:
        return PegsResult(status, proof, moves or [], nodes, time.perf_counter() - t0, None, bounds)

    at_once = _settled_at_once(board, start, target)
    if at_once is not None:
        return done(*at_once)
    bounds: list[int] | None = None
    search = Search(board, target)
    try:
        known = _table_answer(board, start, target, ctx) if table and target is not None else None
        if known is not None:
            return done(*known)
        if ip == IpUse.ALWAYS and target is not None:
            bounds = _bounds(board, start, target, ctx)
            if bounds is None:
                return done(PegsStatus.IMPOSSIBLE, Proof.INTEGER_PROGRAM)
            search = Search(board, target, bounds, _cuts(board, target))
        quick = _beam_or_sweep(board, start, target, ctx, beam, sweep_pegs)
        if quick is not None:
            return done(quick[0], quick[1], quick[2], quick[3], bounds)
        if ip == IpUse.AUTO and target is not None:
            moves, finished = _budgeted(search, start, ctx, budget)
            if not finished:
                bounds = _bounds(board, start, target, ctx)
                if bounds is None:
                    return done(PegsStatus.IMPOSSIBLE, Proof.INTEGER_PROGRAM, nodes=search.nodes)
                first = search
                search = Search(board, target, bounds, _cuts(board, target))
                search.dead = first.dead  # dead positions stay dead: the bounds only cut what no game uses
                search.nodes = first.nodes
                moves = search.solve(start, ctx)
        else:
            moves = search.solve(start, ctx)
    except (SolveStopped, TableFull) as stop:
        result = done(PegsStatus.STOPPED, Proof.NONE, nodes=search.nodes, bounds=bounds)
        result.stop_reason = stop.reason if isinstance(stop, SolveStopped) else None
        result.table_full = stop.positions if isinstance(stop, TableFull) else 0
        return result
    nodes = search.nodes
    if moves is None:
        return done(PegsStatus.IMPOSSIBLE, Proof.SEARCH, nodes=nodes, bounds=bounds)
    check_replay(board, start, target, moves)
    return done(PegsStatus.SOLVED, Proof.SEARCH, moves, nodes, bounds)


def _settled_at_once(board: Board, start: int, goal: int | None) -> tuple[PegsStatus, Proof] | None:
    """The answer when the start is the goal, has too few pegs or the wrong position class (else ``None``)."""
    if board.is_goal(start, goal):
        return PegsStatus.SOLVED, Proof.GOAL
    if board.count(start) < (1 if goal is None else board.count(goal)):
        return PegsStatus.IMPOSSIBLE, Proof.PEG_COUNT
    if not board.class_allows(start, goal):
        return PegsStatus.IMPOSSIBLE, Proof.POSITION_CLASS
    return None


def _table_answer(board: Board, start: int, goal: int,
                  ctx: SolveContext) -> tuple[PegsStatus, Proof, list[Jump], int] | None:
    """The English central game's table's answer as ``(status, proof, moves, nodes)`` (moves replayed), or
    ``None`` when the table does not settle it (:func:`_from_table`)."""
    known = _from_table(board, start, goal, ctx)
    if known is None:
        return None
    status, prefix, rest = known
    if status == PegsStatus.IMPOSSIBLE:
        return PegsStatus.IMPOSSIBLE, Proof.TABLE, [], 0
    found = prefix + (rest.moves if rest is not None else [])
    check_replay(board, start, goal, found)
    return PegsStatus.SOLVED, Proof.TABLE, found, rest.nodes if rest is not None else 0


def _beam_or_sweep(board: Board, start: int, goal: int | None, ctx: SolveContext, beam: bool,
                   sweep_pegs: int) -> tuple[PegsStatus, Proof, list[Jump], int] | None:
    """The beam search's game, else a pagoda refutation, else (at most ``sweep_pegs`` pegs) the exhaustive
    sweep's answer: ``(status, proof, moves, positions)``, or ``None`` when none settled it."""
    few = board.count(start) <= sweep_pegs
    found = widening_search(board, start, goal, ctx, WIDTHS[:1] if few else WIDTHS)[0] if beam else None
    if found is not None:
        check_replay(board, start, goal, found)
        return PegsStatus.SOLVED, Proof.BEAM, found, 0
    ctx.check()
    if refutes(board, start, goal):
        return PegsStatus.IMPOSSIBLE, Proof.PAGODA, [], 0
    swept = sweep(board, start, goal, ctx) if few else None
    if swept is None:
        return None
    if not swept.winnable:
        return PegsStatus.IMPOSSIBLE, Proof.SEARCH, [], swept.closed
    check_replay(board, start, goal, swept.moves)
    return PegsStatus.SOLVED, Proof.SEARCH, swept.moves, swept.closed


def _from_table(board: Board, start: int, goal: int,
                ctx: SolveContext) -> tuple[PegsStatus, list[Jump], PegsResult | None] | None:
    """The table's answer for the English central game (:mod:`ai.puzzles.pegs.table`): ``(SOLVED, jumps down to
    the table's edge, the search's result from there)``, ``(IMPOSSIBLE, [], None)`` for a position of the
    game the table knows is lost, or ``None`` (not the English central game, too few pegs, or a position
    that cannot arise from the start)."""
    table = WinTable.load()
    if not table.applies(board, goal) or not table.covers(board, start):
        return None
    if table.winnable(board, start):
        prefix, edge = table.walk(board, start)
        rest = solve(board, edge, goal, ctx=ctx, ip=IpUse.NEVER, table=False)
        if rest.status == PegsStatus.STOPPED:
            raise _stopped(rest)
        if rest.status != PegsStatus.SOLVED:
            raise AssertionError("the table's winnable position did not finish: the table is broken")
        return PegsStatus.SOLVED, prefix, rest
    arises = solve(board, complement(board, start), goal, ctx=ctx, table=False)  # the duality: ~start finishes?
    if arises.status == PegsStatus.STOPPED:
        raise _stopped(arises)
    return (PegsStatus.IMPOSSIBLE, [], None) if arises.status == PegsStatus.SOLVED else None


def _stopped(result: PegsResult) -> Exception:
    """The exception that stopped the inner solve that gave ``result``, to raise again."""
    return TableFull(result.table_full) if result.table_full else SolveStopped(result.stop_reason or StopReason.TIMEOUT)


def _budgeted(search: Search, start: int, ctx: SolveContext, budget: int) -> tuple[list[Jump] | None, bool]:
    """Run ``search`` for at most about ``budget`` nodes: ``(moves, finished)``."""
    try:
        return search.solve(start, ctx, node_limit=budget), True
    except NodeLimit:
        return None, False


def _cuts(board: Board, goal: int) -> PagodaCuts:
    return PagodaCuts(board, goal)


def _bounds(board: Board, start: int, goal: int, ctx: SolveContext) -> list[int] | None:
    return jump_bounds(board, start, goal, ctx)


def check_replay(board: Board, start: int, goal: int | None, moves: list[Jump]) -> None:
    """Raise :class:`ReplayError` unless ``moves`` replay from ``start`` to ``goal`` on ``board``."""
    try:
        end = board.replay(start, moves)
    except ValueError as exc:
        raise ReplayError(f"solver answer does not replay: {exc}") from None
    if not board.is_goal(end, goal):
        raise ReplayError("solver answer does not end at the goal")


@dataclass
class PegsHint:
    """A jump that keeps the position solvable, or why there is none."""

    jump: Jump | None
    status: PegsStatus
    message: str
    proof: str = ""  #: what proved the position lost (a :class:`Proof` value), when it is
    moves: list[Jump] = field(default_factory=list)  #: the whole solution from the position (replayed), ``jump`` first


def hint(board: Board, position: int, goal: int | None | str = "default", *,
         ctx: SolveContext | None = None, ip: IpUse | str = IpUse.AUTO) -> PegsHint:
    """The first jump of a solution from ``position`` (``jump`` None: solved, impossible or stopped).

    The beam search finds most games at once; pagoda functions refute some lost positions at once, and most
    others met in play have few enough pegs for the exhaustive sweep (:data:`SWEEP_PEGS`).
    """
    result = solve(board, position, goal, ctx=ctx, ip=ip)
    if result.status == PegsStatus.SOLVED:
        if not result.moves:
            return PegsHint(None, result.status, "already solved")
        j = result.moves[0]
        return PegsHint(j, result.status, f"jump ({j.start[0]},{j.start[1]}) to ({j.end[0]},{j.end[1]})",
                        moves=result.moves)
    if result.status == PegsStatus.IMPOSSIBLE:
        why = ("the table of winnable positions" if result.proof == Proof.TABLE else
               f"search: all {result.nodes:,} positions it can reach tried" if result.proof == Proof.SEARCH else
               result.proof.value)
        return PegsHint(None, result.status, f"no jump can still finish ({why})", result.proof.value)
    if result.table_full:
        return PegsHint(None, result.status, f"{result.message}: no answer (this position may be lost)")
    return PegsHint(None, result.status, "no answer in time (this position may be lost)")


__all__ = ["IpUse", "PegsHint", "PegsResult", "PegsStatus", "Proof", "ReplayError", "SEARCH_BUDGET", "SWEEP_PEGS",
           "check_replay", "hint", "solve"]
