"""Whole games played by the assistant, and the bench that counts wins.

A game starts with a click in the top-left corner (never a mine: see :mod:`game.core.puzzles.mines`), then
repeats one *deduction step* (an :func:`~ai.puzzles.mines.analysis.analyze` call, checked against the board)
and opens every proved-safe cell, or the least risky one when none is proved.  Game ``i`` of a bench
with seed ``S`` uses the board seed :func:`game_seed` ``(S, i)``, so any game can be replayed alone.

>>> record = play_game(9, 9, 10, seed=1)
>>> record.won in (True, False), record.steps == len(record.step_seconds)
(True, True)
>>> bench(9, 9, 10, games=3, seed=5)["games"]
3
"""

from __future__ import annotations

import collections
import itertools
import multiprocessing
import time
from dataclasses import dataclass, field
from multiprocessing.pool import AsyncResult
from typing import Any, Iterator

from ai.kernel.context import SolveContext, SolveStopped, StopReason
from ai.kernel.process import leave_signals_to_parent
from ai.puzzles.mines.analysis import analyze
from ai.puzzles.mines.policy import MoveKind, check_against_board, next_moves
from game.core.puzzles.mines import MinesBoard, MinesStatus

#: Most worker processes the bench uses (the machine has 2 cores).
MAX_WORKERS = 2
#: How often the bench checks its context while worker processes play, in seconds.
POLL = 0.05
#: Games a worker plays per task.
CHUNK = 4


def game_seed(seed: int, index: int) -> int:
    """The board seed of game ``index`` of a bench run with ``seed``.

    >>> game_seed(0, 3), game_seed(1, 0)
    (3, 1000003)
    """
    return seed * 1_000_003 + index


@dataclass
class GameRecord:
    """One game's outcome and the time of each deduction step."""

    won: bool
    steps: int = 0
    guesses: int = 0
    step_seconds: list[float] = field(default_factory=list)  #: wall-clock time of each step
    step_cpu_seconds: list[float] = field(default_factory=list)  #: CPU time of each step (this process)


def play_game(width: int, height: int, mines: int, *, seed: int, ctx: SolveContext | None = None) -> GameRecord:
    """Play one game to its end with the assistant's moves (first click: the top-left corner)."""
    ctx = ctx or SolveContext.create()
    board = MinesBoard(width, height, mines, seed=seed)
    board.reveal(0, 0)
    record = GameRecord(won=False)
    while board.status == MinesStatus.PLAYING:
        ctx.check()
        view = board.view()
        start, cpu = time.perf_counter(), time.process_time()
        analysis = analyze(view, ctx)
        record.step_seconds.append(time.perf_counter() - start)
        record.step_cpu_seconds.append(time.process_time() - cpu)
        record.steps += 1
        check_against_board(board, analysis)
        moves = next_moves(view, analysis)
        if moves.kind == MoveKind.NONE:
            break
        if moves.kind == MoveKind.GUESS:
            record.guesses += 1
        for r, c in moves.cells:
            board.reveal(r, c)
    record.won = board.status == MinesStatus.WON
    return record


def _play_chunk(jobs: list[tuple[int, int, int, int]]) -> list[GameRecord]:
    """A worker's share: a few games, played in order."""
    return [play_game(width, height, mines, seed=seed) for width, height, mines, seed in jobs]


def play_games(width: int, height: int, mines: int, *, games: int, seed: int, workers: int = 1,
               ctx: SolveContext | None = None) -> list[GameRecord]:
    """Play ``games`` games (in up to :data:`MAX_WORKERS` processes); records in game order.

    Once ``ctx`` stops (its deadline, a cancel), the games finished so far (see :func:`iter_games`)."""
    return list(iter_games(width, height, mines, games=games, seed=seed, workers=workers, ctx=ctx))


def iter_games(width: int, height: int, mines: int, *, games: int, seed: int, workers: int = 1,
               ctx: SolveContext | None = None) -> Iterator[GameRecord]:
    """The records of ``games`` games in game order, as they finish, until ``ctx`` stops (the games being
    played then are dropped; the worker processes are terminated and joined at once)."""
    ctx = ctx or SolveContext.create()
    jobs = ((width, height, mines, game_seed(seed, i)) for i in range(games))
    workers = max(1, min(workers, MAX_WORKERS, games))
    if workers == 1 or "fork" not in multiprocessing.get_all_start_methods():
        return _play_here(jobs, ctx)
    return _play_pooled(jobs, workers, ctx)


def _play_here(jobs: Iterator[tuple[int, int, int, int]], ctx: SolveContext) -> Iterator[GameRecord]:
    """The games in this process, until ``ctx`` stops."""
    try:
        for width, height, mines, seed in jobs:
            ctx.check()
            yield play_game(width, height, mines, seed=seed, ctx=ctx)
    except SolveStopped:
        return


def _play_pooled(jobs: Iterator[tuple[int, int, int, int]], workers: int, ctx: SolveContext) -> Iterator[GameRecord]:
    """The games in a pool of ``workers`` processes, :data:`CHUNK` per task, at most two tasks per worker
    waiting; until ``ctx`` stops (checked every :data:`POLL` s)."""
    pool = multiprocessing.get_context("fork").Pool(workers, initializer=leave_signals_to_parent)
    pending: collections.deque[AsyncResult[list[GameRecord]]] = collections.deque()
    try:
        while not ctx.should_stop():
            while len(pending) < 2 * workers:
                chunk = list(itertools.islice(jobs, CHUNK))
                if not chunk:
                    break
                pending.append(pool.apply_async(_play_chunk, (chunk,)))
            if not pending:
                return
            pending[0].wait(POLL)
            if pending[0].ready() and not ctx.should_stop():
                yield from pending.popleft().get()
    finally:  # also on Ctrl-C or SIGTERM: no worker outlives the bench
        pool.terminate()
        pool.join()


def bench(width: int, height: int, mines: int, *, games: int, seed: int, workers: int = 1,
          ctx: SolveContext | None = None) -> dict[str, Any]:
    """``{"games": G, "wins": W}`` over ``games`` games (see :func:`iter_games`: only the counts are kept);
    when ``ctx`` stopped it first, ``G`` counts the games finished and ``"stopped"`` says why
    (``"time limit"`` or ``"cancelled"``).

    >>> from ai.kernel.context import ManualClock
    >>> bench(9, 9, 10, games=50, seed=5, ctx=SolveContext.create(time_limit=0.0, clock=ManualClock()))
    {'games': 0, 'wins': 0, 'stopped': 'time limit'}
    """
    ctx = ctx or SolveContext.create()
    played = won = 0
    for record in iter_games(width, height, mines, games=games, seed=seed, workers=workers, ctx=ctx):
        played += 1
        won += record.won
    out: dict[str, Any] = {"games": played, "wins": won}
    reason = ctx.stop_reason()
    if played < games and reason is not None:
        out["stopped"] = "time limit" if reason == StopReason.TIMEOUT else reason.value
    return out


__all__ = ["GameRecord", "MAX_WORKERS", "bench", "game_seed", "iter_games", "play_game", "play_games"]
