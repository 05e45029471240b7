"""The Minesweeper records: wins, losses and best times per board size, saved atomically and merged."""

from __future__ import annotations

import json
from pathlib import Path

from game.core.puzzles.mines_records import (
    BoardRecord, MinesRecords, board_key, default_records_path, format_time,
)


def test_a_fresh_store_is_empty_and_lives_in_the_data_folder(data_home: Path) -> None:
    store = MinesRecords.load()
    assert store.path == default_records_path() and store.path.parent == data_home / "lemming-bricks"
    assert store.get(9, 9, 10) == BoardRecord() and store.messages == []


def test_wins_losses_and_best_time_are_kept_per_board_size(tmp_path: Path) -> None:
    path = tmp_path / "minesweeper.json"
    store = MinesRecords.load(path)
    store.record(9, 9, 10, won=True, seconds=40.0)
    store.record(9, 9, 10, won=True, seconds=55.0)  # slower: the best stays
    store.record(9, 9, 10, won=False, seconds=2.0)  # a loss is never a best time
    store.record(30, 16, 99, won=True, seconds=None)  # a win that does not count for the best time
    again = MinesRecords.load(path)
    assert again.get(9, 9, 10) == BoardRecord(wins=2, losses=1, best_seconds=40.0)
    assert again.get(30, 16, 99) == BoardRecord(wins=1, losses=0, best_seconds=None)
    data = json.loads(path.read_text())
    assert data["version"] == 1 and set(data["boards"]) == {board_key(9, 9, 10), board_key(30, 16, 99)}


def test_two_running_games_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "minesweeper.json"
    one, two = MinesRecords.load(path), MinesRecords.load(path)
    one.record(9, 9, 10, won=True, seconds=30.0)
    two.record(9, 9, 10, won=True, seconds=35.0)  # this store never saw the first win
    two.record(9, 9, 10, won=False, seconds=1.0)
    assert MinesRecords.load(path).get(9, 9, 10) == BoardRecord(wins=2, losses=1, best_seconds=30.0)
    assert two.get(9, 9, 10) == BoardRecord(wins=2, losses=1, best_seconds=30.0)


def test_an_unusable_file_is_set_aside_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "minesweeper.json"
    path.write_bytes(b"\xff not json")
    store = MinesRecords.load(path)
    assert store.boards == {} and len(store.messages) == 1 and "unusable" in store.messages[0]
    assert any(p.name.startswith("minesweeper.json.corrupt-") for p in tmp_path.iterdir())
    store.record(9, 9, 10, won=False, seconds=None)
    assert MinesRecords.load(path).get(9, 9, 10).losses == 1


def test_damaged_entries_are_dropped_and_the_others_kept(tmp_path: Path) -> None:
    path = tmp_path / "minesweeper.json"
    path.write_text(json.dumps({"version": 1, "boards": {
        "9x9/10": {"wins": 3, "losses": 1, "best_seconds": 20.5},
        "16x16/40": {"wins": -1},
        "30x16/99": {"wins": 1, "losses": 0, "best_seconds": "fast"},
        "not a size": {"wins": 1},
    }}))
    store = MinesRecords.load(path)
    assert store.boards == {"9x9/10": BoardRecord(3, 1, 20.5)}
    assert len(store.messages) == 1 and "dropped" in store.messages[0]


def test_format_time() -> None:
    assert [format_time(s) for s in (0.0, 9.99, 59.95, 60.0, 125.3)] == ["0.0 s", "9.9 s", "59.9 s", "1:00.0",
                                                                      "2:05.3"]
