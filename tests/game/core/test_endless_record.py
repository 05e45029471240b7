"""The Endless record keeps the level made for its step and those made ahead: round trip, the older file forms,
damaged levels, the bounds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from game.core.endless_record import (MAX_AHEAD, MAX_KEPT_LEVEL_BYTES, MAX_RECORD_BYTES, EndlessRecord, KeptLevel,
                                     load_record, save_record)
from game.core.level import Level

LEVEL = Level.from_rows(["> ..T", "XX.XX"], frames=9, budget=1, title="Endless 3 \u00b7 Gap")
OLD_FORM = {"seed": 5, "step": 3, "solved": 2, "streak": 1, "best_streak": 2, "last_score": 4.5}


def test_the_kept_level_round_trips_through_the_file(tmp_path: Path) -> None:
    path = tmp_path / "endless.json"
    record = EndlessRecord(seed=5, step=3, solved=2, streak=1, best_streak=2).keeping(LEVEL, 6.25)
    saved = save_record(record, path)
    loaded, message = load_record(path)
    assert message == "" and loaded == saved == record
    kept = loaded.kept_level()
    assert kept == KeptLevel(5, 3, LEVEL, 6.25)
    assert json.loads(path.read_text())["level"]["text"] == LEVEL.to_text()  # the level file's text form


def test_a_file_of_the_older_form_loads_without_a_level(tmp_path: Path) -> None:
    path = tmp_path / "endless.json"
    path.write_text(json.dumps(OLD_FORM))
    record, message = load_record(path)
    assert message == "" and record == EndlessRecord(5, 3, 2, 1, 2, 4.5) and record.kept_level() is None
    assert not list(tmp_path.glob("*.corrupt-*"))
    save_record(record, path)
    assert json.loads(path.read_text()) == OLD_FORM  # no level key when none is kept


@pytest.mark.parametrize("level", [
    "not a level", None, [1, 2], {"seed": 5, "step": 3, "text": "5\n1\n??\n"},
    {"seed": 5, "step": 3, "text": 7}, {"seed": 5, "step": 0, "text": LEVEL.to_text()},
    {"seed": -5, "step": 3, "text": LEVEL.to_text()}, {"seed": 5, "step": True, "text": LEVEL.to_text()},
    {"seed": 5, "step": 3, "score": "high", "text": LEVEL.to_text()},
    {"seed": 5, "step": 3, "text": "# title: " + "x" * MAX_KEPT_LEVEL_BYTES + "\n9\n1\n> T\nXXX\n"},
    {"seed": 5, "step": 3, "text": "9\n1\nX X\nXXX\n"},  # no lemming, no target
])
def test_a_damaged_kept_level_is_dropped_and_the_record_kept(level: Any, tmp_path: Path) -> None:
    path = tmp_path / "endless.json"
    path.write_text(json.dumps({**OLD_FORM, "level": level}))
    record, message = load_record(path)
    assert message == "" and record == EndlessRecord(5, 3, 2, 1, 2, 4.5) and record.kept_level() is None
    assert path.exists() and not list(tmp_path.glob("*.corrupt-*"))  # nothing scary: the level is made again


def test_a_level_kept_for_another_seed_or_step_is_not_used(tmp_path: Path) -> None:
    for seed, step in ((5, 2), (6, 3)):
        path = tmp_path / f"{seed}-{step}.json"
        path.write_text(json.dumps({**OLD_FORM, "level": KeptLevel(seed, step, LEVEL).to_json()}))
        record, message = load_record(path)
        assert message == "" and record.level is not None and record.kept_level() is None


def test_winning_drops_the_kept_level_and_giving_up_keeps_it() -> None:
    record = EndlessRecord(seed=5, step=3).keeping(LEVEL, 2.0)
    assert record.gave_up().kept_level() == KeptLevel(5, 3, LEVEL, 2.0)
    assert record.won(2.0).level is None


def test_a_level_too_large_to_keep_is_not_kept() -> None:
    huge = LEVEL.with_meta("title", "x" * MAX_KEPT_LEVEL_BYTES)
    assert EndlessRecord(seed=5, step=3).keeping(huge).level is None


def _ahead(step: int) -> Level:
    return LEVEL.with_meta("title", f"Endless {step} \u00b7 Gap")


def test_the_levels_made_ahead_round_trip_and_winning_plays_the_next_one() -> None:
    record = EndlessRecord(seed=5, step=3).keeping(LEVEL, 2.0).keeping_ahead([(5, _ahead(5), 3.5), (4, _ahead(4), 3.0)])
    assert [(kept.step, kept.score) for kept in record.kept_ahead()] == [(4, 3.0), (5, 3.5)]
    assert EndlessRecord.from_json(json.loads(json.dumps(record.to_json()))) == record
    assert record.gave_up().kept_ahead() == record.kept_ahead()
    won = record.won(2.0)  # the level made ahead for step 4 is the one played now, still without making it
    assert won.kept_level() == KeptLevel(5, 4, _ahead(4), 3.0)
    assert [kept.step for kept in won.kept_ahead()] == [5]
    assert won.won().kept_level() == KeptLevel(5, 5, _ahead(5), 3.5) and won.won().won().level is None


def test_the_levels_kept_ahead_are_bounded_and_a_largest_record_still_loads(tmp_path: Path) -> None:
    made = [(step, _ahead(step), None) for step in range(1, 12)]  # steps played, and far ahead
    record = EndlessRecord(seed=5, step=3).keeping_ahead(made)
    assert [kept.step for kept in record.ahead] == list(range(4, 4 + MAX_AHEAD))
    assert EndlessRecord(seed=5, step=3).keeping_ahead([(4, LEVEL.with_meta("title", "x" * MAX_KEPT_LEVEL_BYTES),
                                                          None)]).ahead == ()  # too large to keep
    data = record.to_json()
    data["ahead"] = [KeptLevel(5, step, _ahead(step)).to_json() for step in range(4, 40)]  # written by hand
    assert len(EndlessRecord.from_json(data).ahead) == MAX_AHEAD
    largest = LEVEL.with_meta("description", "y" * (MAX_KEPT_LEVEL_BYTES - len(LEVEL.to_text()) - 40))
    assert KeptLevel(5, 3, largest).fits()
    full = EndlessRecord(seed=5, step=3).keeping(largest).keeping_ahead([(4, largest, 1.0), (5, largest, 2.0)])
    assert full.level is not None and len(full.ahead) == MAX_AHEAD
    path = tmp_path / "endless.json"
    save_record(full, path)
    assert path.stat().st_size <= MAX_RECORD_BYTES and load_record(path) == (full, "")


def test_a_file_without_levels_ahead_and_damaged_ones_load_without_a_word(tmp_path: Path) -> None:
    path = tmp_path / "endless.json"
    path.write_text(json.dumps({**OLD_FORM, "level": KeptLevel(5, 3, LEVEL).to_json()}))
    record, message = load_record(path)
    assert message == "" and record.ahead == () and record.kept_level() is not None
    for ahead in ("not a list", [None, {"seed": 5, "step": 4, "text": "> ?T"}, KeptLevel(5, 5, LEVEL).to_json()]):
        path.write_text(json.dumps({**OLD_FORM, "ahead": ahead}))
        record, message = load_record(path)
        assert message == "" and record.ahead == () and not list(tmp_path.glob("*.corrupt-*"))
    path.write_text(json.dumps({**OLD_FORM, "ahead": [KeptLevel(9, 4, LEVEL).to_json()]}))  # another ladder's
    assert load_record(path)[0].kept_ahead() == ()
