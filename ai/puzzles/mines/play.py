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

import multiprocessing
import time
from dataclasses import dataclass, field
from typing import Any

from ai.kernel.context import SolveContext
from ai.puzzles.mines.analysis import analyze
from ai.puzzles.mines.policy import MoveKind, check_against_board, next_moves
from game.core.puzzles.mines import MinesBoard, MinesStatus

#: Most worker processes the bench uses (the machine has 2 cores).
MAX_WORKERS = 2


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


def _play_one(args: tuple[int, int, int, int]) -> GameRecord:
    width, height, mines, seed = args
    return play_game(width, height, mines, seed=seed)


def play_games(width: int, height: int, mines: int, *, games: int, seed: int, workers: int = 1,
               ctx: SolveContext | None = None) -> list[GameRecord]:
    """Play ``games`` games (in up to :data:`MAX_WORKERS` processes); records in game order."""
    ctx = ctx or SolveContext.create()
    jobs = [(width, height, mines, game_seed(seed, i)) for i in range(games)]
    workers = max(1, min(workers, MAX_WORKERS, games))
    if workers == 1 or "fork" not in multiprocessing.get_all_start_methods():
        out = []
        for job in jobs:
            ctx.check()
            out.append(_play_one(job))
        return out
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return list(pool.imap(_play_one, jobs, chunksize=4))


def bench(width: int, height: int, mines: int, *, games: int, seed: int, workers: int = 1) -> dict[str, Any]:
    """``{"games": G, "wins": W}`` over ``games`` games (see :func:`play_games`)."""
    records = play_games(width, height, mines, games=games, seed=seed, workers=workers)
    return {"games": len(records), "wins": sum(1 for r in records if r.won)}


__all__ = ["GameRecord", "MAX_WORKERS", "bench", "game_seed", "play_game", "play_games"]
