"""The generic undo/redo history shared by the play session and the editor."""

from __future__ import annotations

from game.core.history import History


def test_stroke_folds_pushes_into_one_state_until_it_ends() -> None:
    h = History(0)
    assert h.push(1)
    h.begin_stroke()
    assert h.push(2, merge=True) and h.push(3, merge=True)
    assert h.states == [0, 3]
    h.end_stroke()
    assert h.push(4, merge=True)
    assert h.states == [0, 3, 4]
    assert h.undo() and h.current == 3
    assert h.push(5, merge=True)  # an undo closes the stroke and the push drops the redo state
    assert h.states == [0, 3, 5]


def test_limit_drops_the_oldest_states() -> None:
    h = History("a", limit=3)
    for state in "bcde":
        h.push(state)
    assert h.states == ["c", "d", "e"] and h.index == 2
    assert h.undo() and h.undo() and not h.undo()
    assert h.current == "c"
