"""Files of observed games read streaming within caps, under a context (:mod:`ai.learning.observations_file`)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from ai.kernel.context import SolveContext, SolveStopped
from ai.learning import observations_file
from ai.learning.observations import ordinary_games, random_game, steps_of
from ai.learning.observations_file import (
    MAX_LINE_BYTES,
    ObservationError,
    load_observations,
    read_observations,
)
from game.core.physics_catalog import SHIPPED
from tests.stopping import CancelOnPoll, expired
from tests.counted_read import CountedRead

#: A lemming walking to and fro on a floor 8 cells wide (its directions are not checked against its moves).
LEMMING = {"positions": [[0, c % 8 if c % 16 < 8 else 7 - c % 8] for c in range(200)], "directions": [1] * 200}


def write_game_line(path: Path, lemmings: int, *, lines_of_games: int = 1) -> Path:
    """A file of ``lines_of_games`` games of ``lemmings`` lemmings (200 frames each, on an 8-wide floor)."""
    text = json.dumps({"map": [" " * 8, "X" * 8], "frames": 200, "lemmings": [LEMMING] * lemmings})
    path.write_text((text + "\n") * lines_of_games, encoding="utf-8")
    return path


def test_a_file_written_by_the_game_reads_back(tmp_path: Path) -> None:
    games = [random_game(np.random.default_rng(s), SHIPPED["climber"]) for s in range(3)]
    path = tmp_path / "g.jsonl"
    path.write_text("\ufeff" + "\n".join(json.dumps(g.to_json()) for g in games) + "\n\n", encoding="utf-8")
    back = load_observations(str(path))
    assert [g.to_json() for g in back] == [g.to_json() for g in games]


def test_keys_in_any_order_and_spaces_anywhere(tmp_path: Path) -> None:
    line = ' { "lemmings" : [ {"directions": [1, 1], "positions": [[0, 0], [0, 1]]} ] , "frames": 2 ,' \
           ' "map": ["  T", "XXX"] } '
    (game,) = read_observations(line, "g.jsonl")
    assert game.positions[0].tolist() == [[0, 0], [0, 1]] and game.directions[0] is not None


def test_start_markers_read_as_the_first_direction_alone_and_write_back(tmp_path: Path) -> None:
    game = random_game(np.random.default_rng(3), SHIPPED["classic"], lemmings=5, frames=6).with_start_directions()
    line = json.dumps(game.to_json())
    assert '"start"' in line and '"directions"' not in line
    (back,) = read_observations(line, "g.jsonl")
    for ours, theirs in zip(game.directions, back.directions):
        assert ours is not None and theirs is not None and ours.tolist() == theirs.tolist()
        assert ours[0] in (-1, 1) and not ours[1:].any()
    steps = steps_of([back])
    assert (steps.direction != 0).sum() == 5 and not steps.next_direction.any()


@pytest.mark.parametrize("line, words", [
    ('{"map": ["  T"], "frames": 1, "lemmings": [{"positions": [[0, 0]]}] "x": 1}', "not valid JSON"),
    ('{"map": ["  T"], "frames": 1, "lemmings": [{"positions": [[0, 0]]}]} [', "extra data"),
    ('{"map": ["  T"], "frames": 1, "lemmings": [{"positions": [[0, 0]]}], "lemmings": []}', "given twice"),
    ('{"map": ["  T"], "frames": 1, "lemmings": [{"positions": [[0, 99999999999999999999999]]}]}', "outside"),
    ('{"map": ["  T"], "frames": 1, "lemmings": [{"positions": [[0, NaN]]}]}', "NaN is not a number"),
    ('{"map": ["  T"], "frames": 1, "lemmings": [[' + "[" * 3000 + "]" * 3000 + "]]}", "not valid JSON"),
    ('{"map": ["  T"], "frames": 1, "lemmings": []}', "1-20,000 lemmings"),
    ('{"map": ["  T"], "frames": 1, "lemmings": [{"positions": [[0, 0]], "start": 0}]}', "'start' must be -1"),
    ('{"map": ["  T"], "frames": 1, "lemmings": [{"positions": [[0, 0]], "start": 1, "directions": [-1]}]}',
     "'start' and the first of 'directions' differ"),
])
def test_bad_lines_name_the_line_and_the_problem(line: str, words: str) -> None:
    with pytest.raises(ObservationError) as info:
        read_observations("\n" + line + "\n", "g.jsonl")
    assert str(info.value).startswith("g.jsonl:2") and words in str(info.value)


def test_one_huge_lemming_is_refused_from_a_bounded_piece() -> None:
    positions = ", ".join(["[0, 1]"] * 200_000)  # 1.6 MB in one lemming
    line = '{"map": ["  T"], "frames": 2, "lemmings": [{"positions": [' + positions + "]}]}"
    with pytest.raises(ObservationError, match="lemming 1: the lemming is longer than 524,288 characters"):
        read_observations(line, "g.jsonl")


def test_the_lemming_frames_of_the_whole_file_are_capped_while_reading(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(observations_file, "MAX_STEPS", 1_000)
    path = write_game_line(tmp_path / "g.jsonl", 3, lines_of_games=2)  # 600 lemming-frames a game
    with pytest.raises(ObservationError) as info:
        load_observations(str(path))
    message = str(info.value)
    assert message.startswith(f"{path}:2: more than 1,000 lemming-frames in all")
    assert "fewer games, lemmings or frames" in message


def test_a_line_beyond_the_cap_is_refused_after_reading_at_most_the_cap(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "long.jsonl"
    lemming = json.dumps(LEMMING).encode()
    with path.open("wb") as f:
        f.write(b'{"map": ["        ", "XXXXXXXX"], "frames": 200, "lemmings": [')
        f.write(b", ".join([lemming] * (MAX_LINE_BYTES // len(lemming) + 2000)))  # a few MB over the cap
        f.write(b"]}\n")
    counted = CountedRead()
    monkeypatch.setattr(os, "read", counted)  # what the line reader reads with
    with pytest.raises(ObservationError) as info:
        load_observations(str(path))
    assert str(info.value).startswith(f"{path}:1: a game longer than 32 MB")
    assert counted.total <= MAX_LINE_BYTES + 1


def test_a_passed_deadline_stops_the_reading_before_the_first_byte(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_game_line(tmp_path / "g.jsonl", 10)
    counted = CountedRead()
    monkeypatch.setattr(os, "read", counted)  # what the line reader reads with
    with pytest.raises(SolveStopped):
        load_observations(str(path), expired())
    assert counted.total == 0


def test_a_cancel_stops_the_reading_between_chunks_and_the_decoding_between_lemmings(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    big = write_game_line(tmp_path / "big.jsonl", 2_000)  # about 7 MB: several chunks
    counted = CountedRead()
    monkeypatch.setattr(os, "read", counted)  # what the line reader reads with
    with pytest.raises(SolveStopped):
        load_observations(str(big), SolveContext.create(cancel=CancelOnPoll(3)))
    assert counted.total < big.stat().st_size // 2
    small = write_game_line(tmp_path / "small.jsonl", 100)  # one chunk
    event = CancelOnPoll(10)
    with pytest.raises(SolveStopped):
        load_observations(str(small), SolveContext.create(cancel=event))
    assert event.polls == 10  # stopped at the tenth check, among the hundred lemmings


def test_steps_and_generated_games_stop_under_a_passed_deadline() -> None:
    with pytest.raises(SolveStopped):
        ordinary_games(np.random.default_rng(0), SHIPPED["classic"], 10_000, expired())
    games = [random_game(np.random.default_rng(0), SHIPPED["classic"])]
    with pytest.raises(SolveStopped):
        steps_of(games, expired())
    assert steps_of(games).count == 30 * 39


def test_a_generated_file_reads_whole(tmp_path: Path) -> None:
    (game,) = load_observations(str(write_game_line(tmp_path / "g.jsonl", 50)))
    assert len(game.positions) == 50 and game.frames == 200
