"""Whole games in worker processes: the same records, in game order, as in one process; a stop leaves no worker."""

from __future__ import annotations

import multiprocessing
import threading

import pytest

from ai.kernel import process
from ai.kernel.context import SolveContext
from ai.kernel.process import fork_available
from ai.puzzles.mines import play
from ai.puzzles.mines.play import iter_games, play_games
from game.core.puzzles.mines import FirstClick

pytestmark = pytest.mark.skipif(not fork_available(), reason="needs the fork start method")


def _summary(records: list[play.GameRecord]) -> list[tuple[bool, int]]:
    return [(r.won, r.steps) for r in records]


@pytest.mark.parametrize("job_seconds", [0.0, 1.0])
def test_two_workers_play_the_same_games_in_the_same_order(monkeypatch: pytest.MonkeyPatch,
                                                           job_seconds: float) -> None:
    monkeypatch.setattr(play, "JOB_SECONDS", job_seconds)  # 0: one game a job, so the workers interleave
    alone = play_games(9, 9, 10, games=41, seed=3, rule=FirstClick.AREA)
    pooled = play_games(9, 9, 10, games=41, seed=3, rule=FirstClick.AREA, workers=2)
    assert len(pooled) == 41 and _summary(pooled) == _summary(alone)


def test_finished_games_wait_for_earlier_ones_within_their_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play, "JOB_SECONDS", 0.0)
    monkeypatch.setattr(play, "MAX_WAITING", 1)
    assert _summary(play_games(9, 9, 10, games=12, seed=4, workers=2)) == _summary(play_games(9, 9, 10, games=12,
                                                                                                seed=4))


def test_a_cancel_stops_the_workers_and_leaves_none() -> None:
    cancel = threading.Event()
    seen = 0
    for _ in iter_games(16, 16, 40, games=1_000_000, seed=1, workers=2, ctx=SolveContext.create(cancel=cancel)):
        seen += 1
        if seen == 3:
            cancel.set()
    assert seen == 3
    assert multiprocessing.active_children() == [] and not process._live
