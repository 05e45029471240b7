"""Hints that teach (game.core.teach): the reason and the idea are true for the level at hand."""

from __future__ import annotations

import itertools
from pathlib import Path

from hypothesis import given, settings

from game.core.level import Level, cell_words
from game.core.pack import pack_level_paths
from game.core.simulation import simulate
from game.core.reads import solid_of, step_reads
from game.core.teach import first_failure, the_idea, why_it_fails
from tests.conftest import ORIGINAL_SOLUTIONS
from tests.strategies import levels


def winning_set(level: Level, max_size: int = 2) -> tuple[tuple[int, int], ...] | None:
    cells = level.brickable_cells
    for k in range(min(max_size, level.budget) + 1):
        for combo in itertools.combinations(cells, k):
            if simulate(level, combo).won:
                return combo
    return None


def check_reason(level: Level, bricks: tuple[tuple[int, int], ...]) -> None:
    run = simulate(level, bricks, enforce_budget=False)
    lesson = why_it_fails(level, bricks)
    if run.won:
        assert lesson is None
        return
    assert lesson is not None
    failure = first_failure(run)
    assert failure is not None
    frame = lesson.frame
    path = run.tracks[failure.lemming].path
    state = path[min(frame, len(path) - 1)]
    # the cell it names is one the level's physics reads there, with its true content
    if ", so it " in lesson.text and "whatever is around it" not in lesson.text:
        assert f"frame {frame}" in lesson.text
        assert lesson.cell in step_reads(level.physics, solid_of(level, bricks), state)
        assert f"({cell_words(lesson.cell)}) is " in lesson.text
        inside = 0 <= lesson.cell[0] < level.height and 0 <= lesson.cell[1] < level.width
        solid = not inside or bool(level.obstacle_map(bricks)[lesson.cell])
        words = "is open" if not solid else ("is a brick" if lesson.cell in bricks else "is a wall")
        assert f"({cell_words(lesson.cell)}) {words}" in lesson.text
        assert "does:" not in lesson.text and ", so it " in lesson.text
    elif "whatever is around it" in lesson.text:
        assert lesson.cell == state[:2] and f"frame {frame}" in lesson.text
    else:
        assert "needs a shorter way" in lesson.text and lesson.cell == path[-1][:2]
    if len(level.lemmings) > 1:
        assert f"emming {failure.lemming + 1}" in lesson.text
    else:
        assert lesson.text.startswith("The lemming")


def test_reasons_for_every_pack_level_with_no_bricks_are_true() -> None:
    for path in pack_level_paths():
        check_reason(Level.load(path), ())


@settings(max_examples=150, deadline=None)
@given(levels(max_height=6, max_width=7, max_frames=20, max_budget=2))
def test_reasons_and_ideas_are_true_for_any_level(level: Level) -> None:
    check_reason(level, ())
    solution = winning_set(level)
    if solution is None or simulate(level).won:
        return
    check_idea(level, (), solution)


def check_idea(level: Level, bricks: tuple[tuple[int, int], ...], solution: tuple[tuple[int, int], ...]) -> None:
    """The idea says what must happen, where the failing lemming's path first changes, and names no brick."""
    idea = the_idea(level, bricks, solution)
    assert idea is not None and idea.text.startswith("The idea:")
    for cell in set(solution) | set(bricks):
        assert cell_words(cell) not in idea.text  # an idea, not the next brick
    failure = first_failure(simulate(level, bricks, enforce_budget=False))
    assert failure is not None
    now = simulate(level, bricks, enforce_budget=False).tracks[failure.lemming].path
    then = simulate(level, solution).tracks[failure.lemming].path
    if "must" in idea.text:  # the frame it names is where the path first changes, at the cell it highlights
        t = idea.frame
        assert now[:t] == then[:t] and now[t] != then[t]
        assert idea.cell == now[t - 1][:2]
        assert f"(frame {t})" in idea.text or f"before frame {failure.frame}" in idea.text


def test_the_original_teaches_in_words() -> None:
    level = Level.load(Path(__file__).resolve().parents[3] / "levels" / "007_the_original.txt")
    reason = why_it_fails(level, ())
    assert reason is not None and reason.text.startswith("The lemming drops into the pit at frame")
    for solution in ORIGINAL_SOLUTIONS:
        idea = the_idea(level, (), solution)
        assert idea is not None
        stop = solution[0][0] - 1  # a brick lower down column 1 ends a fall already under way
        expected = "must not drop at column 1 (frame 1)" if stop == 1 else f"must stop falling at row {stop}"
        assert idea.text.startswith(f"The idea: the lemming {expected}")
        check_idea(level, (), solution)


def test_the_idea_for_a_lemming_already_falling_says_where_its_fall_must_end() -> None:
    """In Detour, with the first brick placed, the lemming falls down column 6 from frame 3: the idea says
    the fall must end at row 5, as the brick's hint says it, not that it must not drop at column 6."""
    level = Level.load(Path(__file__).resolve().parents[3] / "levels" / "011_detour.txt")
    idea = the_idea(level, ((1, 8),), ((1, 8), (6, 6)))
    assert idea is not None
    assert idea.text.startswith("The idea: the lemming must stop falling at row 5 (frame 7)")
    assert "drop" not in idea.text and idea.cell == (5, 6)
    check_idea(level, ((1, 8),), ((1, 8), (6, 6)))
