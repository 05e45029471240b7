"""Whole games played by the assistant, and the bench that counts wins.

Two rules for the first click (:data:`RULES`): ``"safe"``, the first click is never a mine (the traditional
rule), and ``"opening"``, the first click and its neighbours are mine-free, so it opens an area (the modern
rule).  A game starts with :func:`~ai.puzzles.mines.policy.first_click` for its rule, then
repeats one *deduction step* (an :func:`~ai.puzzles.mines.analysis.analyze` call, checked against the board)
and opens every proved-safe cell, or the best guess (:mod:`ai.puzzles.mines.lookahead`) when none is proved.  Game ``i`` of a bench
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
import math
import time
from dataclasses import dataclass, field
from multiprocessing.pool import AsyncResult
from typing import Any, Iterator

from ai.kernel.context import SolveContext, SolveStopped, StopReason
from ai.kernel.process import leave_signals_to_parent
from ai.puzzles.mines.analysis import analyze
from ai.puzzles.mines.policy import MoveKind, check_against_board, first_click, next_moves
from game.core.puzzles.mines import FirstClick, MinesBoard, MinesStatus

#: Most worker processes the bench uses (the machine has 2 cores).
MAX_WORKERS = 2
#: How often the bench checks its context while worker processes play, in seconds.
POLL = 0.05
#: Games a worker plays per task.
CHUNK = 4
#: The first-click rules by name: "safe" (only the clicked cell is kept free of mines) and "opening"
#: (the clicked cell and its neighbours are).
RULES: dict[str, FirstClick] = {"safe": FirstClick.CELL, "opening": FirstClick.AREA}

Job = tuple[int, int, int, int, FirstClick]


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95 % with the default ``z``).

    >>> wilson(50, 100)
    (0.4038, 0.5962)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)


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


def play_game(width: int, height: int, mines: int, *, seed: int, rule: FirstClick = FirstClick.CELL,
              ctx: SolveContext | None = None) -> GameRecord:
    """Play one game to its end with the assistant's moves, the first click as ``rule`` keeps it free."""
    ctx = ctx or SolveContext.create()
    board = MinesBoard(width, height, mines, seed=seed, first_click=rule)
    board.reveal(*first_click(width, height, rule))
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
        moves = next_moves(view, analysis, ctx)
        if moves.kind == MoveKind.NONE:
            break
        if moves.kind == MoveKind.GUESS:
            record.guesses += 1
        for r, c in moves.cells:
            board.reveal(r, c)
    record.won = board.status == MinesStatus.WON
    return record


def _play_chunk(jobs: list[Job]) -> list[GameRecord]:
    """A worker's share: a few games, played in order."""
    return [play_game(width, height, mines, seed=seed, rule=rule) for width, height, mines, seed, rule in jobs]


def play_games(width: int, height: int, mines: int, *, games: int, seed: int, workers: int = 1,
               rule: FirstClick = FirstClick.CELL, ctx: SolveContext | None = None) -> list[GameRecord]:
    """Play ``games`` games (in up to :data:`MAX_WORKERS` processes); records in game order.

    Once ``ctx`` stops (its deadline, a cancel), the games finished so far (see :func:`iter_games`)."""
    return list(iter_games(width, height, mines, games=games, seed=seed, workers=workers, rule=rule, ctx=ctx))


def iter_games(width: int, height: int, mines: int, *, games: int, seed: int, workers: int = 1,
               rule: FirstClick = FirstClick.CELL, ctx: SolveContext | None = None) -> Iterator[GameRecord]:
    """The records of ``games`` games in game order, as they finish, until ``ctx`` stops (the games being
    played then are dropped; the worker processes are terminated and joined at once)."""
    ctx = ctx or SolveContext.create()
    jobs = ((width, height, mines, game_seed(seed, i), rule) for i in range(games))
    workers = max(1, min(workers, MAX_WORKERS, games))
    if workers == 1 or "fork" not in multiprocessing.get_all_start_methods():
        return _play_here(jobs, ctx)
    return _play_pooled(jobs, workers, ctx)


def _play_here(jobs: Iterator[Job], ctx: SolveContext) -> Iterator[GameRecord]:
    """The games in this process, until ``ctx`` stops."""
    try:
        for width, height, mines, seed, rule in jobs:
            ctx.check()
            yield play_game(width, height, mines, seed=seed, rule=rule, ctx=ctx)
    except SolveStopped:
        return


def _play_pooled(jobs: Iterator[Job], workers: int, ctx: SolveContext) -> Iterator[GameRecord]:
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


def bench(width: int, height: int, mines: int, *, games: int, seed: int, workers: int = 1, rules: str = "safe",
          ctx: SolveContext | None = None) -> dict[str, Any]:
    """``{"games": G, "wins": W, "rules": ..., "rate": ..., "ci95": [low, high]}`` over ``games`` games under
    the first-click rule named ``rules`` (see :data:`RULES` and :func:`iter_games`: only the counts are kept;
    ``ci95`` is the :func:`wilson` interval); when ``ctx`` stopped it first, ``G`` counts the games finished
    and ``"stopped"`` says why (``"time limit"`` or ``"cancelled"``).

    >>> from ai.kernel.context import ManualClock
    >>> bench(9, 9, 10, games=50, seed=5, ctx=SolveContext.create(time_limit=0.0, clock=ManualClock()))
    {'games': 0, 'wins': 0, 'rules': 'safe', 'rate': 0.0, 'ci95': [0.0, 1.0], 'stopped': 'time limit'}
    """
    ctx = ctx or SolveContext.create()
    played = won = 0
    for record in iter_games(width, height, mines, games=games, seed=seed, workers=workers, rule=RULES[rules],
                             ctx=ctx):
        played += 1
        won += record.won
    out: dict[str, Any] = {"games": played, "wins": won, "rules": rules,
                           "rate": round(won / played, 4) if played else 0.0, "ci95": list(wilson(won, played))}
    reason = ctx.stop_reason()
    if played < games and reason is not None:
        out["stopped"] = "time limit" if reason == StopReason.TIMEOUT else reason.value
    return out


__all__ = ["GameRecord", "MAX_WORKERS", "RULES", "wilson", "bench", "game_seed", "iter_games", "play_game", "play_games"]
