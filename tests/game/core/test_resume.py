"""The resume store reads a board's bricks with progress's reader: the same lists are kept, read the same way."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from game.core.progress_records import ProgressFormatError, Replay, parse_cells
from game.core.resume import _parse_board

#: Coordinates at the edges of what a saved brick list may hold (and past them).
COORD = st.sampled_from([0, 1, 7, 2.0, 2.5, -1, 65_536, 65_537, 99_999, True, None, "1"]) | st.integers(0, 300)
BRICKS = st.lists(st.lists(COORD, min_size=1, max_size=3) | COORD, max_size=4) | COORD


@settings(max_examples=300, deadline=None)
@given(raw=BRICKS)
@example(raw=[[2.0, 1]])
@example(raw=[[70_000, 1]])
def test_a_board_keeps_its_bricks_exactly_when_a_replay_would(raw: Any) -> None:
    board = _parse_board({"hash": "h", "bricks": raw})
    try:
        expected = parse_cells(raw, "a board's bricks")
    except ProgressFormatError:
        assert board is None  # tolerated: the board is dropped (after a copy aside), not reported
        return
    assert board is not None and board.bricks == expected
    assert Replay.from_json({"hash": "h", "bricks": raw}).bricks == expected  # progress reads them the same


def test_progress_says_what_is_wrong_with_a_brick_list() -> None:
    for raw, words in (([[1, 2, 3]], "[row, col] pairs"), ([[1, -1]], "a column in a replay's bricks"),
                       ("x", "must be a list")):
        try:
            Replay.from_json({"hash": "h", "bricks": raw})
        except ProgressFormatError as exc:
            assert words in str(exc)
        else:
            raise AssertionError(f"{raw!r} read as bricks")
