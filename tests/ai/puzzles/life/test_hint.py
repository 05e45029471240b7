"""Reverse Life hints against brute force on tiny boards: every start of a 4x4 torus is tried."""

from __future__ import annotations

import itertools
import threading
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from ai.kernel.context import SolveContext, SolveStopped
from ai.puzzles.life.hint import HintKind, flip_errors, hint
from game.core.puzzles.life.puzzle import LifePuzzle
from game.core.puzzles.life.rules import LIFE, Board, Rule, parse_rule, step

LEVELS = Path(__file__).resolve().parents[4] / "levels" / "life"

SHAPE = (4, 4)
#: Every start of a 4x4 board, as a stack.
ALL = ((np.arange(1 << 16)[:, None] >> np.arange(16)) & 1).astype(bool).reshape(-1, *SHAPE)


def predecessors(target: Board, steps: int, rule: Rule = LIFE) -> Board:
    """Every start of the 4x4 torus that becomes ``target`` after ``steps`` generations (brute force)."""
    ends = step(ALL, rule, steps)
    found: Board = ALL[(ends == target).all(axis=(1, 2))]
    return found


def brute_flip_errors(start: Board, target: Board, steps: int) -> npt.NDArray[np.int64]:
    out = np.zeros(start.shape, dtype=np.int64)
    for r, c in itertools.product(range(start.shape[0]), range(start.shape[1])):
        b = start.copy()
        b[r, c] ^= True
        out[r, c] = np.count_nonzero(step(b, LIFE, steps) != target)
    return out


@pytest.mark.parametrize("seed", range(3))
def test_flip_errors_are_the_replayed_counts_on_small_and_windowed_boards(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for shape, steps in (((4, 4), 1), ((6, 7), 2), ((40, 36), 2), ((33, 40), 1)):
        start, target = rng.random(shape) < 0.3, rng.random(shape) < 0.2
        assert np.array_equal(flip_errors(start, target, LIFE, steps), brute_flip_errors(start, target, steps))


def _cases() -> list[tuple[Board, Board, int]]:
    """(painted, target, steps): reachable targets with painted cells from a start, from elsewhere, and
    targets with no start at all."""
    rng = np.random.default_rng(7)
    cases = []
    for steps in (1, 2):
        for _ in range(12):
            origin = rng.random(SHAPE) < 0.4
            target = step(origin, LIFE, steps)
            painted = origin & (rng.random(SHAPE) < 0.5)
            cases.append((painted, target, steps))
            cases.append((rng.random(SHAPE) < 0.3, target, steps))
    for _ in range(6):
        cases.append((rng.random(SHAPE) < 0.3, rng.random(SHAPE) < 0.5, 1))
    return cases


@pytest.mark.parametrize("painted,target,steps", _cases())
def test_the_hint_agrees_with_brute_force(painted: Board, target: Board, steps: int) -> None:
    preds = predecessors(target, steps)
    keeping = preds[(preds | ~painted).all(axis=(1, 2))]  # starts that keep every painted cell alive
    errors = brute_flip_errors(painted, target, steps)
    wrong = int(np.count_nonzero(step(painted, LIFE, steps) != target))
    h = hint(painted, target, steps, SolveContext.create(), LIFE)
    assert h.wrong_now == wrong
    if wrong == 0:
        assert h.kind == HintKind.SOLVED and h.cell is None
        return
    assert h.cell is not None and h.alive == (not painted[h.cell]) and h.wrong_after == errors[h.cell]
    if len(keeping):
        assert h.kind == HintKind.ADD and h.alive and h.start is not None
        assert any(np.array_equal(h.start, s) for s in keeping) and h.start[h.cell]
        if h.forced:
            assert keeping[:, h.cell[0], h.cell[1]].all()
    elif len(preds):
        assert h.kind == HintKind.REMOVE and painted[h.cell] and not h.alive
        assert h.wrong_after == min(errors[rc] for rc in zip(*np.nonzero(painted)))
    else:
        assert h.kind == HintKind.NO_START and h.wrong_after == errors.min()


def test_a_forced_cell_is_preferred() -> None:
    """A 4x4 target whose every start shares a live cell: that cell is given, marked forced."""
    rng = np.random.default_rng(3)
    for _ in range(200):
        target = step(rng.random(SHAPE) < 0.4, LIFE, 1)
        preds = predecessors(target, 1)
        forced: Board = np.all(preds, axis=0)
        if forced.any() and not (target == 0).all():
            break
    h = hint(np.zeros(SHAPE, dtype=bool), target, 1, SolveContext.create(), LIFE)
    assert h.kind == HintKind.ADD and h.forced and forced[h.cell]


def test_following_the_hints_solves_a_wrap_around_puzzle() -> None:
    glider = np.zeros((8, 8), dtype=bool)
    glider[1, 2] = glider[2, 3] = True
    glider[3, 1:4] = True
    painted = np.zeros_like(glider)
    for _ in range(64):
        h = hint(painted, glider, 2, SolveContext.create(), LIFE)
        if h.kind == HintKind.SOLVED:
            break
        assert h.kind == HintKind.ADD and h.cell is not None
        painted[h.cell] = h.alive
    assert np.array_equal(step(painted, LIFE, 2), glider)


def test_out_of_time_the_hint_is_the_flip_that_helps_most() -> None:
    rng = np.random.default_rng(1)
    target, painted = step(rng.random((12, 12)) < 0.4, LIFE, 1), rng.random((12, 12)) < 0.2
    h = hint(painted, target, 3, SolveContext.create(time_limit=0.0), LIFE)
    assert h.kind == HintKind.CLOSER and h.cell is not None
    assert h.wrong_after == flip_errors(painted, target, LIFE, 3).min()


def test_a_cancelled_hint_stops() -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(SolveStopped):
        hint(np.zeros((8, 8), dtype=bool), np.eye(8, dtype=bool), 2, SolveContext.create(cancel=cancel), LIFE)


def test_other_rules() -> None:
    highlife = parse_rule("highlife")
    rng = np.random.default_rng(5)
    for _ in range(10):
        target = step(rng.random(SHAPE) < 0.4, highlife, 1)
        painted = rng.random(SHAPE) < 0.2
        preds = predecessors(target, 1, highlife)
        keeping = preds[(preds | ~painted).all(axis=(1, 2))]
        h = hint(painted, target, 1, SolveContext.create(), highlife)
        if h.kind == HintKind.SOLVED:
            continue
        assert (h.kind == HintKind.ADD) == bool(len(keeping)) and h.cell is not None
        assert (h.kind == HintKind.REMOVE) == bool(len(preds) and not len(keeping))


def test_a_four_step_puzzle_gets_a_cell_of_a_start_within_the_limit() -> None:
    """The game's "Four steps" puzzle, nothing painted: no single cell helps, so the hint must come from a start."""
    puzzle = LifePuzzle.from_text((LEVELS / "12_four_steps.txt").read_text())
    painted = np.zeros_like(puzzle.target)
    assert flip_errors(painted, puzzle.target, puzzle.rule, puzzle.steps).min() == puzzle.target.sum()
    h = hint(painted, puzzle.target, puzzle.steps, SolveContext.create(time_limit=120.0), puzzle.rule)
    assert h.kind == HintKind.ADD and h.cell is not None and h.start is not None and h.start[h.cell]
    assert np.array_equal(step(h.start, puzzle.rule, puzzle.steps), puzzle.target)
    painted[h.cell] = True  # the next hint keeps that cell
    h = hint(painted, puzzle.target, puzzle.steps, SolveContext.create(time_limit=120.0), puzzle.rule)
    assert h.kind == HintKind.ADD and h.start is not None and h.start[painted].all()
    assert np.array_equal(step(h.start, puzzle.rule, puzzle.steps), puzzle.target)
