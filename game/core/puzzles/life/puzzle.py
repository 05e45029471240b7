"""Reverse Life puzzles (``levels/life/*.txt``) and the model the puzzle screen edits, with undo.

A puzzle is a target picture, a number of steps ``k`` (1-5) and a rule: the player paints a start
pattern whose ``k``-th generation on the torus is the target.

>>> p = LifePuzzle.from_text("title: Blinker\\nsteps: 1\\n.....\\n.....\\n.###.\\n.....\\n.....\\n")
>>> m = LifeModel(p)
>>> for r in (1, 2, 3): m.toggle(r, 2)
>>> m.solved, m.wrong_cells
(True, 0)
>>> m.undo(), m.solved, m.wrong_cells
(True, False, 3)
>>> m.redo(), m.solved
(True, True)
"""

from __future__ import annotations

import hashlib
from functools import cached_property
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from game.core.errors import GameError, LevelFormatError
from game.core.puzzles.life.board import BoardFile, format_board, parse_board_text, read_board_file
from game.core.puzzles.life.rules import LIFE, Board, Rule, RuleError, parse_rule, step

#: Steps a puzzle may ask for.
MIN_STEPS, MAX_STEPS = 1, 5


def steps_value(raw: str) -> int | None:
    """A ``steps:`` header's value: a whole number from :data:`MIN_STEPS` to :data:`MAX_STEPS` in ASCII digits,
    else ``None`` (never an error, whatever the text: 5,000 digits included).

    >>> steps_value("3"), steps_value("9"), steps_value("9" * 5000), steps_value("\u00b2")
    (3, None, None, None)
    """
    text = raw.strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 2):
        return None
    return int(text) if MIN_STEPS <= int(text) <= MAX_STEPS else None


#: Undo depth.
UNDO_LIMIT = 500


@dataclass(frozen=True)
class LifePuzzle:
    """One puzzle: ``target`` after ``steps`` generations of ``rule``."""

    title: str
    steps: int
    target: Board
    rule: Rule = LIFE
    path: str = ""

    @classmethod
    def from_file(cls, doc: BoardFile, path: str = "<text>") -> LifePuzzle:
        """The puzzle a parsed board file describes (header ``title``, ``steps``, ``rule``)."""
        raw = doc.header.get("steps", "1")
        steps = steps_value(raw)
        if steps is None:
            raise LevelFormatError(path, 1, 1, f"steps must be {MIN_STEPS} to {MAX_STEPS}, got {raw[:20]!r}")
        try:
            rule = parse_rule(doc.header.get("rule", "B3/S23"))
        except RuleError as exc:
            raise LevelFormatError(path, 1, 1, str(exc)) from None
        if len(doc.boards) != 1:
            raise LevelFormatError(path, 1, 1, f"a puzzle has one board, this file has {len(doc.boards)}")
        title = doc.header.get("title") or Path(path).stem
        return cls(title, steps, doc.boards[0], rule, path)

    @classmethod
    def from_text(cls, text: str, path: str = "<text>") -> LifePuzzle:
        """Parse a puzzle from text."""
        return cls.from_file(parse_board_text(text, path), path)

    @classmethod
    def load(cls, path: Path | str) -> LifePuzzle:
        """Read a puzzle file (bounded loader)."""
        return cls.from_file(read_board_file(path), str(path))

    @property
    def puzzle_hash(self) -> str:
        """A short hash of the target, the steps and the rule (progress is kept per version of a puzzle)."""
        text = f"{self.rule.name}\n{self.steps}\n{format_board(self.target)}"
        return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]

    @property
    def progress_key(self) -> str:
        """The key of this puzzle in the progress file: ``life/<file name>`` (``life/<title>`` without a file)."""
        return f"life/{Path(self.path).name if self.path and self.path != '<text>' else self.title}"

    @cached_property
    def empty_wrong(self) -> int:
        """Cells wrong with no live cell at the start (a start that does no better is no attempt yet; worked out
        once: the screen reads it every frame).

        >>> LifePuzzle.from_text("steps: 1\\n....\\n.##.\\n.##.\\n....\\n").empty_wrong
        4
        """
        empty = np.zeros(self.target.shape, dtype=bool)
        return int(np.count_nonzero(step(empty, self.rule, self.steps) != self.target))

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns)."""
        return (int(self.target.shape[0]), int(self.target.shape[1]))


def pack_dir() -> Path:
    """The shipped puzzle folder (``levels/life``)."""
    return Path(__file__).resolve().parents[4] / "levels" / "life"


def load_pack(folder: Path | None = None) -> list[LifePuzzle]:
    """Every puzzle of the pack, in file-name order (rising difficulty)."""
    folder = folder or pack_dir()
    if not folder.is_dir():
        raise GameError(f"{folder}: the Reverse Life puzzle folder is missing")
    return [LifePuzzle.load(p) for p in sorted(folder.glob("*.txt")) if p.is_file()]


@dataclass
class LifeModel:
    """The player's start pattern for a puzzle, with undo/redo (the scene draws it, never mutates in draw)."""

    puzzle: LifePuzzle
    start: Board = field(init=False)
    _undo: list[Board] = field(default_factory=list, init=False, repr=False)
    _redo: list[Board] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:
        self.start = np.zeros(self.puzzle.shape, dtype=bool)

    def _push(self) -> None:
        self._undo.append(self.start.copy())
        del self._undo[:-UNDO_LIMIT]
        self._redo.clear()

    def toggle(self, r: int, c: int) -> None:
        """Flip the cell at row ``r``, column ``c`` (undoable)."""
        self._push()
        self.start[r, c] = not self.start[r, c]

    def set_cell(self, r: int, c: int, alive: bool) -> None:
        """Set one cell (undoable; nothing recorded when it already has that state)."""
        if bool(self.start[r, c]) != alive:
            self._push()
            self.start[r, c] = alive

    def set_start(self, board: Board) -> None:
        """Replace the whole start (an AI answer, a clear); undoable."""
        board = np.asarray(board, dtype=bool)
        if board.shape != self.start.shape:
            raise ValueError(f"start of shape {board.shape} for a board of shape {self.start.shape}")
        if not np.array_equal(board, self.start):
            self._push()
            self.start = board.copy()

    def clear(self) -> None:
        """All cells dead (undoable)."""
        self.set_start(np.zeros_like(self.start))

    def undo(self) -> bool:
        """Undo the last change; False when there is none."""
        if not self._undo:
            return False
        self._redo.append(self.start)
        self.start = self._undo.pop()
        return True

    def redo(self) -> bool:
        """Redo the last undone change; False when there is none."""
        if not self._redo:
            return False
        self._undo.append(self.start)
        self.start = self._redo.pop()
        return True

    def generation(self, t: int) -> Board:
        """The start after ``t`` steps."""
        return step(self.start, self.puzzle.rule, t)

    @property
    def result(self) -> Board:
        """The start after the puzzle's steps."""
        return self.generation(self.puzzle.steps)

    @property
    def wrong_cells(self) -> int:
        """Cells where the result differs from the target."""
        return int(np.count_nonzero(self.result != self.puzzle.target))

    @property
    def solved(self) -> bool:
        """True when the result is the target."""
        return self.wrong_cells == 0


__all__ = ["LifeModel", "LifePuzzle", "MAX_STEPS", "MIN_STEPS", "load_pack", "pack_dir"]
