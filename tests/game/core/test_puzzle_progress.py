"""Side-puzzle progress in the progress store: solved marks and bests, merged between processes."""

from __future__ import annotations

import json
from pathlib import Path

from game.core.progress import ProgressStore


def test_bests_only_go_down_and_a_solve_sticks(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    store = ProgressStore.load(path)
    assert store.record_puzzle("life/a.txt", "h1", 5)
    assert not store.record_puzzle("life/a.txt", "h1", 7)
    assert store.record_puzzle("life/a.txt", "h1", 0)
    rec = ProgressStore.load(path).puzzle("life/a.txt", "h1")
    assert rec is not None and rec.solved and rec.best == 0
    assert ProgressStore.load(path).puzzle("life/a.txt", "another version") is None


def test_two_processes_keep_each_others_puzzles_and_levels(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    one, two = ProgressStore.load(path), ProgressStore.load(path)
    one.record_puzzle("life/a.txt", "h", 0)
    two.record_puzzle("life/a.txt", "h", 3)
    two.record_puzzle("life/b.txt", "g", 2)
    two.record_attempt("user/mine.txt")
    again = ProgressStore.load(path)
    a, b = again.puzzle("life/a.txt", "h"), again.puzzle("life/b.txt", "g")
    assert a is not None and a.solved and a.best == 0 and b is not None and b.best == 2
    assert again.records["user/mine.txt"].attempts == 1


def test_a_malformed_puzzle_record_is_dropped_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    path.write_text(json.dumps({"version": 1, "levels": {}, "puzzles": {"life/a.txt": {"best": "x"},
                                                                       "life/b.txt": {"solved": True, "best": 0}}}))
    store = ProgressStore.load(path)
    assert store.puzzle("life/a.txt", "") is None and store.puzzle("life/b.txt", "") is not None
    path.write_text(json.dumps({"version": 1, "puzzles": [1, 2]}))
    assert ProgressStore.load(path).puzzles == {}


def test_the_winning_start_is_kept_merged_and_checked(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    one, two = ProgressStore.load(path), ProgressStore.load(path)
    assert one.record_puzzle("life/a.txt", "h", 4, start=((0, 0),)), "a new best, but no solve: no start kept"
    assert one.puzzles["life/a.txt"].start is None
    assert one.record_puzzle("life/a.txt", "h", 0, start=((2, 3), (1, 1)))
    assert not one.record_puzzle("life/a.txt", "h", 0, start=((5, 5),)), "solved again: not a new best"
    two.record_puzzle("life/a.txt", "h", 2)  # another process, no solve: the first one's start stays
    again = ProgressStore.load(path).puzzle("life/a.txt", "h")
    assert again is not None and again.solved and again.start == ((5, 5),)
    assert json.loads(path.read_text())["puzzles"]["life/a.txt"]["start"] == [[5, 5]]
    path.write_text(json.dumps({"version": 1, "puzzles": {"life/a.txt": {"solved": True, "best": 0, "hash": "h"},
                                                         "life/b.txt": {"solved": True, "best": 0, "start": [[1]]}}}))
    store = ProgressStore.load(path)
    kept = store.puzzle("life/a.txt", "h")
    assert kept is not None and kept.start is None, "a record saved without a start still reads"
    assert "life/b.txt" not in store.puzzles, "a malformed start drops its record, like any malformed field"
