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
