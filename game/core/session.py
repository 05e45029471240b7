"""The play model without pygame: the level, the bricks with undo/redo, and the precomputed run.

Undo/redo is a stack of brick-set states (like python-chess's move stack): every edit
pushes the new brick set; undo moves back one state, redo forward; a new edit after an
undo drops the redo states.

>>> from game.core.level import Level
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

import enum
import threading
from dataclasses import dataclass
from typing import Any, Iterable

from game.core.level import Brick, Level
from game.core.rules import brick_problem, check_bricks
from game.core.simulation import Run, SimulationCancelled, simulate
from game.core.history import History

BrickSet = tuple[Brick, ...]

#: Runs with more lemming-frames than this are computed in a background thread (the game
#: draws its first frames at once on the largest levels); smaller ones are computed on use.
BACKGROUND_WORK = 2_000_000


class BackgroundRun(Run):
    """A :class:`Run` computed in a background thread: ``level``, ``bricks`` and ``frames`` are
    known at once; the first use of :attr:`tracks` (or ``won``, ``arrived_by``...) waits for it.

    :meth:`cancel` abandons it (a newer brick set is shown); using it afterwards computes it
    in the caller's thread.
    """

    def __init__(self, level: Level, bricks: BrickSet) -> None:  # noqa: D107 - Run's fields set by hand
        object.__setattr__(self, "level", level)
        object.__setattr__(self, "bricks", bricks)
        object.__setattr__(self, "_stop", threading.Event())
        object.__setattr__(self, "_outcome", [])
        thread = threading.Thread(target=self._work, name="play-run", daemon=True)
        object.__setattr__(self, "_thread", thread)
        thread.start()

    def _work(self) -> None:
        try:
            self._outcome.append(simulate(self.level, self.bricks, should_stop=self._stop.is_set))
        except SimulationCancelled:
            pass
        except BaseException as exc:  # handed to the thread that uses the run
            self._outcome.append(exc)

    @property
    def ready(self) -> bool:
        """True once the run is computed (using it will not wait)."""
        return "tracks" in self.__dict__ or not self._thread.is_alive()

    def cancel(self) -> None:
        """Ask the background thread to stop (at its next check)."""
        self._stop.set()

    def __getattr__(self, name: str) -> Any:
        if name != "tracks":
            raise AttributeError(name)
        self._thread.join()
        outcome = self._outcome[0] if self._outcome else simulate(self.level, self.bricks)
        if isinstance(outcome, BaseException):
            raise outcome
        object.__setattr__(self, "tracks", outcome.tracks)
        return outcome.tracks


class BrickHistory(History[BrickSet]):
    """The undo/redo history of brick sets (each kept sorted)."""

    def __init__(self, initial: Iterable[Brick] = ()) -> None:
        super().__init__(tuple(sorted(initial)))

    def push(self, bricks: Iterable[Brick], *, merge: bool = False) -> bool:
        """Make ``bricks`` the current set (drops redo states); False if nothing changed."""
        return super().push(tuple(sorted(bricks)), merge=merge)


class EditKind(str, enum.Enum):
    """What a click on a cell did."""

    PLACED = "placed"
    REMOVED = "removed"
    DENIED = "denied"


@dataclass(frozen=True)
class EditResult:
    """Outcome of clicking a cell: placed, removed or denied (with a reason)."""

    kind: EditKind
    cell: Brick
    reason: str = ""

    @property
    def ok(self) -> bool:
        """True when the bricks changed."""
        return self.kind != EditKind.DENIED


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
        """The full run (frames 0..N-1) with the current bricks, computed once per brick set.

        On large levels it is a :class:`BackgroundRun`: getting it is instant and the first
        use of its tracks waits for the background thread; runs of brick sets no longer
        current are cancelled, so at most one large run is computed at a time.
        """
        key = self.bricks
        run = self._run_cache.get(key)
        if run is None:
            if len(self._run_cache) > 64:
                self._run_cache.clear()
            if len(self.level.lemmings) * self.level.frames > BACKGROUND_WORK:
                for k, other in list(self._run_cache.items()):
                    if isinstance(other, BackgroundRun) and not other.ready:
                        other.cancel()
                        del self._run_cache[k]
                    elif isinstance(other, BackgroundRun):
                        del self._run_cache[k]  # one large run kept in memory at a time
                run = self._run_cache[key] = BackgroundRun(self.level, key)
            else:
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
            return EditResult(EditKind.REMOVED, cell)
        problem = self.cell_problem(cell)
        if problem:
            return EditResult(EditKind.DENIED, cell, problem)
        self.history.push(self.bricks + (cell,))
        return EditResult(EditKind.PLACED, cell)

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
