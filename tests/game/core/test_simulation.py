"""The reference simulator on hand-checked cases, the original level, and determinism."""

from __future__ import annotations

from hypothesis import given, settings

from game.core.level import LEFT, RIGHT, Level
from game.core.simulation import simulate
from tests.strategies import level_and_bricks


def test_original_is_lost_without_bricks(original: Level) -> None:
    run = simulate(original)
    assert not run.won
    assert run.tracks[0].reached_at is None
    assert len(run.tracks[0].path) == 20


def test_original_is_won_with_the_known_solution(original: Level) -> None:
    run = simulate(original, [(2, 1), (5, 4), (6, 6)])
    assert run.won
    assert run.tracks[0].reached_at == 15
    assert run.tracks[0].final[:2] == (8, 8)
    assert run.bricks == ((2, 1), (5, 4), (6, 6))


def test_original_first_frames_by_hand(original: Level) -> None:
    # Faces left at (1,1): falls down the shaft to row 6, then the wall at (6,0) turns it.
    path = simulate(original).tracks[0].path
    assert path[:8] == (
        (1, 1, LEFT), (2, 1, LEFT), (3, 1, LEFT), (4, 1, LEFT),
        (5, 1, LEFT), (6, 1, LEFT), (6, 1, RIGHT), (6, 2, RIGHT),
    )


def test_fall_has_priority_over_walk() -> None:
    level = Level.from_rows(["> ", "  ", "XT"], frames=3, budget=0)
    assert simulate(level).tracks[0].path == ((0, 0, RIGHT), (1, 0, RIGHT), (1, 1, RIGHT))


def test_outside_the_map_is_wall() -> None:
    # No floor row: the lemming stands on the map's lower edge and turns at its sides.
    level = Level.from_rows(["<T"], frames=4, budget=0)
    path = simulate(level).tracks[0].path
    assert path == ((0, 0, LEFT), (0, 0, RIGHT), (0, 1, RIGHT), (0, 1, RIGHT))
    assert simulate(level).won


def test_lemming_stays_on_target_and_falls_through_nothing_else() -> None:
    level = Level.from_rows([">T ", "XXX"], frames=5, budget=0)
    track = simulate(level).tracks[0]
    assert track.reached_at == 1
    assert {s[:2] for s in track.path[1:]} == {(0, 1)}


def test_a_target_is_free_space_when_falling_onto_it() -> None:
    level = Level.from_rows([">", "T", "X"], frames=3, budget=0)
    assert simulate(level).tracks[0].reached_at == 1


def test_win_needs_every_lemming() -> None:
    level = Level.from_rows(["> T  <", "XXXXXX"], frames=3, budget=0)
    run = simulate(level)
    assert [t.reached_at for t in run.tracks] == [2, None]
    assert not run.won
    assert run.arrived_by(2) == 1


def test_lemmings_do_not_interact() -> None:
    level = Level.from_rows([">  <", " TT ", "XXXX"], frames=6, budget=0)
    run = simulate(level)
    assert run.won
    alone = Level.from_rows([">   ", " TT ", "XXXX"], frames=6, budget=0)
    assert simulate(alone).tracks[0] == run.tracks[0]


@settings(max_examples=100, deadline=None)
@given(level_and_bricks())
def test_same_level_and_bricks_give_the_same_run(case: tuple[Level, tuple[tuple[int, int], ...]]) -> None:
    level, bricks = case
    first = simulate(level, bricks)
    again = simulate(Level.from_text(level.to_text()), tuple(reversed(bricks)))
    assert first == again
    assert first.to_json() == again.to_json()


def test_json_shape(original: Level) -> None:
    data = simulate(original, [(2, 1), (5, 4), (6, 6)]).to_json()
    assert set(data) == {"won", "frames", "bricks", "lemmings"}
    assert data["won"] is True and data["frames"] == 20
    assert data["bricks"] == [[2, 1], [5, 4], [6, 6]]
    assert data["lemmings"][0]["reached_at"] == 15
    assert data["lemmings"][0]["path"][0] == [1, 1, -1]
    assert len(data["lemmings"][0]["path"]) == 20
