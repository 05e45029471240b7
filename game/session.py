"""The play model without pygame: the level, the bricks with undo/redo, and the precomputed run.

Undo/redo is a stack of brick-set states (like python-chess's move stack): every edit
pushes the new brick set; undo moves back one state, redo forward; a new edit after an
undo drops the redo states.

>>> from game.level import Level
>>> s = PlaySession(Level.from_rows(["> .T", "XX.X"], frames=5, budget=1))
>>> s.toggle((0, 2)).ok, s.bricks
(True, ((0, 2),))
>>> s.toggle((1, 2)).reason
'no bricks left (budget 1)'
>>> s.toggle((0, 2)).ok, s.bricks, s.toggle((1, 2)).ok, s.run.won
(True, (), True, True)
>>> s.undo(), s.bricks
(True, ())
>>> s.redo(), s.bricks
(True, ((1, 2),))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from game.level import Brick, Level
from game.rules import brick_problem, check_bricks
from game.simulation import Run, simulate
from game.history import History

BrickSet = tuple[Brick, ...]


class BrickHistory(History[BrickSet]):
    """The undo/redo history of brick sets (each kept sorted)."""

    def __init__(self, initial: Iterable[Brick] = ()) -> None:
        super().__init__(tuple(sorted(initial)))

    def push(self, bricks: Iterable[Brick], *, merge: bool = False) -> bool:
        """Make ``bricks`` the current set (drops redo states); False if nothing changed."""
        return super().push(tuple(sorted(bricks)), merge=merge)


@dataclass(frozen=True)
class EditResult:
    """Outcome of clicking a cell: ``placed``, ``removed`` or ``denied`` (with a reason)."""

    kind: str
    cell: Brick
    reason: str = ""

    @property
    def ok(self) -> bool:
        """True when the bricks changed."""
        return self.kind != "denied"


class PlaySession:
    """A level being played: current bricks (with history) and the run they produce."""

    def __init__(self, level: Level, bricks: Iterable[Brick] = ()) -> None:
        self.level = level
        self.history = BrickHistory(check_bricks(level, bricks))
        self._run_cache: dict[BrickSet, Run] = {}

    @property
    def bricks(self) -> BrickSet:
        """The bricks placed now (sorted)."""
        return self.history.current

    @property
    def bricks_left(self) -> int:
        """How many more bricks the budget allows."""
        return self.level.budget - len(self.bricks)

    @property
    def run(self) -> Run:
        """The full run (frames 0..N-1) with the current bricks, computed once per brick set."""
        key = self.bricks
        run = self._run_cache.get(key)
        if run is None:
            if len(self._run_cache) > 64:
                self._run_cache.clear()
            run = self._run_cache[key] = simulate(self.level, key)
        return run

    def cell_problem(self, cell: Brick) -> str | None:
        """Why clicking ``cell`` would change nothing (None when it would place or remove a brick)."""
        if cell in self.bricks:
            return None
        problem = brick_problem(self.level, cell)
        if problem:
            ch = self.level.char_at(*cell)
            return {"X": "walls can't be changed", "T": "targets can't be covered",
                    "<": "a lemming starts here", ">": "a lemming starts here"}.get(ch, problem)
        if self.bricks_left <= 0:
            return f"no bricks left (budget {self.level.budget})"
        return None

    def toggle(self, cell: Brick) -> EditResult:
        """Place a brick on an empty legal cell, or remove the brick there."""
        cell = (int(cell[0]), int(cell[1]))
        if cell in self.bricks:
            self.history.push(b for b in self.bricks if b != cell)
            return EditResult("removed", cell)
        problem = self.cell_problem(cell)
        if problem:
            return EditResult("denied", cell, problem)
        self.history.push(self.bricks + (cell,))
        return EditResult("placed", cell)

    def set_bricks(self, bricks: Iterable[Brick]) -> bool:
        """Replace the whole brick set (checked; goes on the undo chain). False if unchanged."""
        return self.history.push(check_bricks(self.level, bricks))

    def clear(self) -> bool:
        """Remove every brick (undoable); False when there were none."""
        return self.history.push(())

    def undo(self) -> bool:
        """Undo the last brick edit."""
        return self.history.undo()

    def redo(self) -> bool:
        """Redo the last undone brick edit."""
        return self.history.redo()
