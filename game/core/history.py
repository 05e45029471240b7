"""An undo/redo history: a stack of immutable states with a cursor (pygame-free).

>>> h = History("a")
>>> h.push("b"), h.push("b"), h.current
(True, False, 'b')
>>> h.undo(), h.current, h.redo(), h.current
(True, 'a', True, 'b')
>>> h.push("c", merge=True), h.push("d", merge=True), h.states   # one stroke, one state
(True, True, ['a', 'b', 'd'])
"""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class History(Generic[T]):
    """States ``states[0..]`` with the current one at ``index``; ``push`` drops redo states.

    ``merge=True`` folds a push into the current state when a stroke is open: one opened by
    :meth:`begin_stroke` or by an earlier merged push, until :meth:`end_stroke`, an undo or
    a redo (a drag stroke is one undo step).  ``limit`` caps how many states
    are kept (oldest dropped first).
    """

    def __init__(self, initial: T, *, limit: int | None = None) -> None:
        self.states: list[T] = [initial]
        self.index = 0
        self.limit = limit
        self._merge_open = False

    @property
    def current(self) -> T:
        """The state at the cursor."""
        return self.states[self.index]

    @property
    def can_undo(self) -> bool:
        """True when there is an earlier state."""
        return self.index > 0

    @property
    def can_redo(self) -> bool:
        """True when an undone state can be restored."""
        return self.index < len(self.states) - 1

    def push(self, state: T, *, merge: bool = False) -> bool:
        """Make ``state`` current; False when it equals the current state."""
        if state == self.current:
            return False
        if merge and self._merge_open and self.index > 0 and not self.can_redo:
            self.states[self.index] = state
            return True
        del self.states[self.index + 1:]
        self.states.append(state)
        self.index += 1
        if self.limit is not None and len(self.states) > self.limit:
            drop = len(self.states) - self.limit
            del self.states[:drop]
            self.index -= drop
        self._merge_open = merge
        return True

    def begin_stroke(self) -> None:
        """Let the next merged pushes fold into the current state (the start of a drag)."""
        self._merge_open = True

    def end_stroke(self) -> None:
        """Close the current merged stroke (the next merged push starts a new state)."""
        self._merge_open = False

    def undo(self) -> bool:
        """Step back one state; False when there is none."""
        self._merge_open = False
        if not self.can_undo:
            return False
        self.index -= 1
        return True

    def redo(self) -> bool:
        """Step forward one state; False when there is none."""
        self._merge_open = False
        if not self.can_redo:
            return False
        self.index += 1
        return True
