"""Reverse Life AI on tiny tori, checked against brute force over every start (no time limits)."""

from __future__ import annotations

import threading
from functools import lru_cache

import numpy as np
import pytest

import ai.puzzles.life.reverse as reverse_module
from ai.kernel.context import SolveContext, SolveStopped
from ai.puzzles.life.backbone import backbone
from ai.puzzles.life.reverse import ReverseStatus, StepStatus, reverse, wrong_cells
from ai.puzzles.life.sat import ChainResult
from game.core.puzzles.life.rules import LIFE, OFFSETS, Rule, parse_rule, step

SHAPE = (4, 4)


def batch_step(boards: np.ndarray, rule: Rule) -> np.ndarray:
    """``step`` over a stack of boards (axis 0)."""
    idx = np.zeros(boards.shape, dtype=np.int32)
    for bit, (dr, dc) in enumerate(OFFSETS):
        idx |= np.roll(boards, (-dr, -dc), axis=(1, 2)).astype(np.int32) << bit
    return rule.array[idx]


@lru_cache(maxsize=4)
def all_starts_and_images(rule_name: str) -> tuple[np.ndarray, np.ndarray]:
    n = SHAPE[0] * SHAPE[1]
    codes = np.arange(1 << n, dtype=np.int64)
    starts = ((codes[:, None] >> np.arange(n)) & 1).astype(bool).reshape(-1, *SHAPE)
    return starts, batch_step(starts, parse_rule(rule_name))


def test_exact_predecessor_is_replayed() -> None:
    starts, images = all_starts_and_images("B3/S23")
    rng = np.random.default_rng(3)
    for i in rng.choice(len(starts), 6, replace=False):
        result = reverse(images[i], 1, SolveContext.create(), LIFE)
        assert result.status == ReverseStatus.EXACT and result.wrong_cells == 0
        assert np.array_equal(step(result.start, LIFE), images[i])


def test_garden_of_eden_is_proved_and_the_best_start_is_optimal() -> None:
    starts, images = all_starts_and_images("B3/S23")
    reachable = {im.tobytes() for im in images}
    rng = np.random.default_rng(5)
    eden = next(b for b in (rng.random(SHAPE) < 0.5 for _ in range(1000)) if b.tobytes() not in reachable)
    result = reverse(eden, 1, SolveContext.create(), LIFE)
    best = int((images != eden).reshape(len(images), -1).sum(axis=1).min())
    assert result.status == ReverseStatus.NONE and result.optimal
    assert result.wrong_cells == best == wrong_cells(result.start, eden, LIFE, 1)


def test_two_steps_and_a_non_totalistic_rule() -> None:
    rule = Rule(tuple(bool(v) for v in np.random.default_rng(7).random(512) < 0.45))
    starts, images = all_starts_and_images(rule.name)
    target = batch_step(images[1234:1235], rule)[0]
    reports: list[object] = []
    result = reverse(target, 2, SolveContext.create(progress=reports.append), rule)
    assert reports  # progress reaches the caller as ai.kernel.context.Progress
    assert result.status == ReverseStatus.EXACT
    assert np.array_equal(step(result.start, rule, 2), target)


def test_backbone_matches_brute_force() -> None:
    starts, images = all_starts_and_images("B3/S23")
    target = images[4242]
    preds = starts[(images == target).all(axis=(1, 2))]
    reports: list[object] = []
    bb = backbone(target, 1, SolveContext.create(progress=reports.append), LIFE)
    assert bb.exists and bb.proved and len(reports) == bb.starts_seen - 1
    assert np.array_equal(bb.alive, preds.all(axis=0))
    assert np.array_equal(bb.dead, (~preds).all(axis=0))


def test_backbone_of_a_garden_of_eden() -> None:
    starts, images = all_starts_and_images("B3/S23")
    reachable = {im.tobytes() for im in images}
    rng = np.random.default_rng(9)
    eden = next(b for b in (rng.random(SHAPE) < 0.5 for _ in range(1000)) if b.tobytes() not in reachable)
    bb = backbone(eden, 1, SolveContext.create(), LIFE)
    assert not bb.exists and bb.proved


def test_cancel_stops_with_solve_stopped() -> None:
    cancel = threading.Event()
    cancel.set()
    target = np.zeros((8, 8), dtype=bool)
    target[3, 2:5] = True
    target[5, 5] = True
    with pytest.raises(SolveStopped):
        reverse(target, 2, SolveContext.create(cancel=cancel), LIFE)


def test_no_time_left_gives_the_best_free_answer() -> None:
    target = np.zeros((8, 8), dtype=bool)
    target[1:3, 1:3] = True  # a block: a still life, its own predecessor
    assert reverse(target, 3, SolveContext.create(time_limit=0.0), LIFE).status == ReverseStatus.EXACT
    target[5, 5] = True
    result = reverse(target, 3, SolveContext.create(time_limit=0.0), LIFE)
    assert result.status == ReverseStatus.APPROXIMATE
    assert result.wrong_cells == min(wrong_cells(target, target, LIFE, 3), int(target.sum()))


def test_the_local_search_starts_again_while_time_is_left(monkeypatch: pytest.MonkeyPatch) -> None:
    target = np.zeros((8, 8), dtype=bool)
    target[3, 2:5] = True  # a blinker: its predecessor is its next generation
    seeds: list[int] = []

    def gives_up(start: np.ndarray, goal: np.ndarray, rule: Rule, steps: int, ctx: SolveContext, *,
                 seed: int = 0, rounds: int | None = None) -> tuple[np.ndarray, int]:
        seeds.append(seed)
        if len(seeds) == 3:
            return step(goal, rule), 0
        return start.copy(), 99

    monkeypatch.setattr(reverse_module, "chain", lambda *args, **kwargs: ChainResult(None, False, []))
    monkeypatch.setattr(reverse_module, "predecessor", lambda *args, **kwargs: (StepStatus.APPROXIMATE, None, False))
    monkeypatch.setattr(reverse_module, "polish", gives_up)
    result = reverse(target, 1, SolveContext.create(time_limit=600.0))
    assert seeds == [0, 1, 2] and result.status == ReverseStatus.EXACT and result.method == "local search"
    seeds.clear()
    result = reverse(target, 1, SolveContext.create())  # no deadline: one search
    assert seeds == [0] and result.status == ReverseStatus.APPROXIMATE
