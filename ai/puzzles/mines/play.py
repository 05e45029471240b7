"""Whole games played by the assistant, and the bench that counts wins.

Two rules for the first click (:data:`RULES`): ``"safe"``, the first click is never a mine (the traditional
rule), and ``"opening"``, the first click and its neighbours are mine-free, so it opens an area (the modern
rule).  A game starts with :func:`~ai.puzzles.mines.policy.first_click` for its rule, then repeats one *deduction
step* (an :func:`~ai.puzzles.mines.analysis.analyze` call, checked against the board) and opens every proved-safe
cell, or the best guess (:mod:`ai.puzzles.mines.lookahead`) when none is proved.  Game ``i`` of a bench with seed
``S`` uses the board seed :func:`game_seed` ``(S, i)``, so any game can be replayed alone.

>>> record = play_game(9, 9, 10, seed=1)
>>> record.won in (True, False), record.steps == len(record.step_seconds)
(True, True)
>>> bench(9, 9, 10, games=3, seed=5)["games"]
3
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from ai.kernel.context import SolveContext, SolveStopped, StopReason
from ai.kernel.process import ChildJob, fork_available
from ai.puzzles.mines.analysis import analyze
from ai.puzzles.mines.policy import MoveKind, check_against_board, first_click, next_moves
from game.core.puzzles.mines import FirstClick, MinesBoard, MinesStatus

#: Most worker processes the bench uses (the machine has 2 cores).
MAX_WORKERS = 2
#: How often the bench checks its context while worker processes play, in seconds.
POLL = 0.05
#: Seconds of games one job of a worker process plays before it hands them back (a beginner game takes a few
#: milliseconds, an expert one up to a second; a fork costs a few milliseconds).
JOB_SECONDS = 1.0
#: Finished games at most waiting for an earlier one (of another worker) before they are handed on in order.
MAX_WAITING = 4096
#: The first-click rules by name: "safe" (only the clicked cell is kept free of mines) and "opening"
#: (the clicked cell and its neighbours are).
RULES: dict[str, FirstClick] = {"safe": FirstClick.CELL, "opening": FirstClick.AREA}

Job = tuple[int, int, int, int, FirstClick]


@dataclass(frozen=True)
class Games:
    """The games of a bench: ``count`` games of ``mines`` mines on ``width`` x ``height`` boards under ``rule``,
    game ``i`` on the board seed :func:`game_seed` ``(seed, i)``."""

    width: int
    height: int
    mines: int
    seed: int
    rule: FirstClick
    count: int

    def job(self, index: int) -> Job:
        """What game ``index`` is played with: the board's size, mines, seed and rule."""
        return self.width, self.height, self.mines, game_seed(self.seed, index), self.rule


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


def _play_strided(games: Games, first: int, stride: int,
                  report: Callable[[Any], None]) -> tuple[dict[int, GameRecord], int]:
    """A worker process's job: games ``first``, ``first + stride``, ... for about :data:`JOB_SECONDS` (one at
    least); their records by game and the index of this stride's next game."""
    records: dict[int, GameRecord] = {}
    end = time.perf_counter() + JOB_SECONDS
    index = first
    while index < games.count and (not records or time.perf_counter() < end):
        width, height, mines, seed, rule = games.job(index)
        records[index] = play_game(width, height, mines, seed=seed, rule=rule)
        index += stride
    return records, index


def play_games(width: int, height: int, mines: int, *, games: int, seed: int, workers: int = 1,
               rule: FirstClick = FirstClick.CELL, ctx: SolveContext | None = None) -> list[GameRecord]:
    """Play ``games`` games (in up to :data:`MAX_WORKERS` processes); records in game order.

    Once ``ctx`` stops (its deadline, a cancel), the games finished so far (see :func:`iter_games`)."""
    return list(iter_games(width, height, mines, games=games, seed=seed, workers=workers, rule=rule, ctx=ctx))


def iter_games(width: int, height: int, mines: int, *, games: int, seed: int, workers: int = 1,
               rule: FirstClick = FirstClick.CELL, ctx: SolveContext | None = None) -> Iterator[GameRecord]:
    """The records of ``games`` games in game order, as they finish, until ``ctx`` stops (the games being
    played then are dropped; the worker processes are killed and reaped at once)."""
    ctx = ctx or SolveContext.create()
    spec = Games(width, height, mines, seed, rule, games)
    workers = max(1, min(workers, MAX_WORKERS, games))
    if workers == 1 or not fork_available():
        return _play_here((spec.job(i) for i in range(games)), ctx)
    return _play_pooled(spec, workers, ctx)


def _play_here(jobs: Iterator[Job], ctx: SolveContext) -> Iterator[GameRecord]:
    """The games in this process, until ``ctx`` stops."""
    try:
        for width, height, mines, seed, rule in jobs:
            ctx.check()
            yield play_game(width, height, mines, seed=seed, rule=rule, ctx=ctx)
    except SolveStopped:
        return


def _play_pooled(games: Games, workers: int, ctx: SolveContext) -> Iterator[GameRecord]:
    """The games in ``workers`` child processes (the kernel's :class:`~ai.kernel.process.ChildJob`), worker
    ``w`` playing games ``w``, ``w + workers``, ... a job of :data:`JOB_SECONDS` at a time; handed on in game
    order; until ``ctx`` stops (checked every :data:`POLL` s).

    Each worker has its own pipe and is killed outright on a stop (a limit, Ctrl-C, SIGTERM): no lock or
    queue is shared with it, so no stop can wait on a worker."""
    next_game = list(range(workers))  # each worker's next game
    running: dict[int, ChildJob] = {}  # worker -> its job
    waiting: dict[int, GameRecord] = {}  # game -> its record, until the games before it are handed on
    handed = 0
    try:
        while handed < games.count and not ctx.should_stop():
            for w in range(workers):
                if w not in running and next_game[w] < games.count and (len(waiting) < MAX_WAITING
                                                                       or next_game[w] == handed):
                    running[w] = ChildJob(functools.partial(_play_strided, games, next_game[w], workers), nice=0,
                                          name="mines-games")
            while handed in waiting and not ctx.should_stop():
                yield waiting.pop(handed)
                handed += 1
            for w, child in list(running.items()):
                done, played = child.result(POLL / len(running))
                if done:
                    child.stop(wait=True)
                    del running[w]
                    records, next_game[w] = played
                    waiting.update(records)
    finally:  # also on Ctrl-C or SIGTERM: no worker outlives the bench
        for child in running.values():
            child.stop(wait=True)


@dataclass
class BenchTally:
    """The games :func:`bench` finished so far and their wins, kept as each game ends: a command stopped
    mid-run (Ctrl-C, SIGTERM) still reports them (:meth:`summary`)."""

    counts: tuple[int, int] = (0, 0)  #: (games finished, wins), replaced in one step as a game ends

    def summary(self, rules: str, stopped: str | None = None) -> dict[str, Any]:
        """``{"games": G, "wins": W, "rules": ..., "rate": ..., "ci95": [low, high]}``, with ``"stopped"``
        when given (why the run ended before its games were all played).

        >>> BenchTally((4, 3)).summary("safe", "interrupted")
        {'games': 4, 'wins': 3, 'rules': 'safe', 'rate': 0.75, 'ci95': [0.3006, 0.9544], 'stopped': 'interrupted'}
        """
        played, won = self.counts
        out: dict[str, Any] = {"games": played, "wins": won, "rules": rules,
                               "rate": round(won / played, 4) if played else 0.0, "ci95": list(wilson(won, played))}
        if stopped is not None:
            out["stopped"] = stopped
        return out


def bench(width: int, height: int, mines: int, *, games: int, seed: int, workers: int = 1, rules: str = "safe",
          ctx: SolveContext | None = None, tally: BenchTally | None = None) -> dict[str, Any]:
    """``{"games": G, "wins": W, "rules": ..., "rate": ..., "ci95": [low, high]}`` over ``games`` games under
    the first-click rule named ``rules`` (see :data:`RULES` and :func:`iter_games`: only the counts are kept,
    in ``tally`` when given, as each game ends; ``ci95`` is the :func:`wilson` interval); when ``ctx`` stopped
    it first, ``G`` counts the games finished and ``"stopped"`` says why (``"time limit"`` or ``"cancelled"``).

    >>> from ai.kernel.context import ManualClock
    >>> bench(9, 9, 10, games=50, seed=5, ctx=SolveContext.create(time_limit=0.0, clock=ManualClock()))
    {'games': 0, 'wins': 0, 'rules': 'safe', 'rate': 0.0, 'ci95': [0.0, 1.0], 'stopped': 'time limit'}
    """
    ctx = ctx or SolveContext.create()
    tally = tally if tally is not None else BenchTally()
    for record in iter_games(width, height, mines, games=games, seed=seed, workers=workers, rule=RULES[rules],
                             ctx=ctx):
        tally.counts = (tally.counts[0] + 1, tally.counts[1] + int(record.won))
    reason = ctx.stop_reason()
    stopped = None
    if tally.counts[0] < games and reason is not None:
        stopped = "time limit" if reason == StopReason.TIMEOUT else reason.value
    return tally.summary(rules, stopped)


__all__ = ["BenchTally", "GameRecord", "MAX_WORKERS", "RULES", "wilson", "bench", "game_seed", "iter_games", "play_game",
           "play_games"]
