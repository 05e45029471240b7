"""Why a run was lost: every missed lemming explained, and each reason checked by running longer."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from game.core.level import Level
from game.core.outcome import FailureKind, explain, shared_cells
from game.core.physics_catalog import resolve
from game.core.simulation import simulate
from tests.strategies import level_and_bricks


def test_original_level_without_bricks() -> None:
    level = Level.load("levels/007_the_original.txt")
    run = simulate(level)
    failures = explain(run)
    assert [f.lemming for f in failures] == [0]
    assert failures[0].sentence() in {f.sentence() for f in failures}
    assert failures[0].cell == run.tracks[0].final[:2]


def test_pit_turning_and_time_out() -> None:
    pit = Level.from_rows([">   XT", "XX  XX", "XX  XX"], frames=12, budget=1)
    f = explain(simulate(pit))[0]
    assert f.kind == FailureKind.FELL_INTO_PIT and f.frame == 3 and f.sentence() == "fell into the pit at frame 3"
    boxed = Level.from_rows(["X>X  T", "XXXXXX"], frames=5, budget=0)
    assert explain(simulate(boxed))[0].kind == FailureKind.STUCK_TURNING
    shaft = Level.from_rows([">  X T", "XX XXX", "XX XXX"], frames=9, budget=0)
    f = explain(simulate(shaft))[0]
    assert f.kind == FailureKind.FELL_INTO_PIT and f.turning
    assert f.sentence() == "fell into a one-cell pit at frame 3"
    far = Level.from_rows([">      T", "XXXXXXXX"], frames=4, budget=0)
    assert explain(simulate(far))[0].sentence() == "still walking at the last frame"
    falling = Level.from_rows(["> T", "X X", "X X", "X X", "XXX"], frames=3, budget=0)
    assert explain(simulate(falling))[0].kind == FailureKind.STILL_FALLING
    pacing = Level.from_rows(["X>  X", "XXXXX", "T    "], frames=9, budget=0)
    f = explain(simulate(pacing))[0]
    assert f.kind == FailureKind.PACING and f.frame == 0


def test_a_fall_onto_a_ledge_that_turns_it_at_its_edges_is_no_pit() -> None:
    careful = resolve("careful")  # never walks off an edge: it turns at the brink
    ledge = Level.from_rows(["  >     T", "         ", " XXX     ", "         ", "XXXXXXXXX"], frames=14, budget=0,
                            physics=careful)
    f = explain(simulate(ledge))[0]
    assert f.kind == FailureKind.PACING and not f.walled
    assert f.sentence() == f"walking back and forth from frame {f.frame}"
    walled = Level.from_rows(["  >     T", "         ", "X   X    ", "XXXXX    ", "XXXXXXXXX"], frames=14, budget=0,
                             physics=careful)
    assert explain(simulate(walled))[0].kind == FailureKind.FELL_INTO_PIT  # turned by walls: a pit


def test_describe_names_the_lemming_when_several() -> None:
    level = Level.from_rows(["X>X  T", "XXXXXX", "X<X   "], frames=4, budget=0)
    texts = [f.describe(2) for f in explain(simulate(level))]
    assert texts == ["Lemming 1: stuck turning between two walls from frame 0",
                     "Lemming 2: stuck turning between two walls from frame 0"]
    assert explain(simulate(level))[0].describe(1) == "Stuck turning between two walls from frame 0"
    assert shared_cells(simulate(level), 3) == {}


@settings(max_examples=300, deadline=None)
@given(level_and_bricks(), st.integers(1, 40))
def test_explanations_agree_with_longer_runs(case: tuple[Level, tuple[tuple[int, int], ...]], more: int) -> None:
    level, bricks = case
    run = simulate(level, bricks)
    failures = explain(run)
    assert [f.lemming for f in failures] == [i for i, t in enumerate(run.tracks) if t.reached_at is None]
    longer = simulate(level.with_limits(frames=level.frames + more), bricks)
    for f in failures:
        track = longer.tracks[f.lemming]
        if f.kind in (FailureKind.STUCK_TURNING, FailureKind.FELL_INTO_PIT, FailureKind.PACING):
            assert track.reached_at is None  # a loop never reaches an exit, however long the run
            assert f.frame is not None and 0 <= f.frame < level.frames
        if f.kind == FailureKind.STUCK_TURNING:
            assert {p[:2] for p in track.path[f.frame:]} == {f.cell}
            assert all(p[0] == track.path[0][0] for p in track.path)  # it never fell
        if f.turning:
            assert len({p[:2] for p in track.path[-3:]}) == 1
        if f.kind == FailureKind.FELL_INTO_PIT:
            assert f.frame is not None and run.tracks[f.lemming].path[f.frame][0] > run.tracks[f.lemming].path[f.frame - 1][0]
