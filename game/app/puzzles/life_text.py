"""What the Reverse Life screen (:class:`game.app.puzzles.life.LifeScene`) says, and the player's winning
start kept in the progress store.

The board's status under the result says whether the start solves the puzzle ("Solved!"); the message
under the boards never repeats it.  A start that solves a puzzle is kept with the puzzle's progress
(:meth:`game.core.progress.ProgressStore.record_puzzle`, as its live cells), and the puzzle opens with it on
the board again, once replayed forward against the target (:func:`kept_start`).

>>> board = np.zeros((3, 4), dtype=bool); board[1, 2] = board[2, 0] = True
>>> live_cells(board)
((1, 2), (2, 0))
>>> bool((board_of(live_cells(board), (3, 4)) == board).all()), board_of(((5, 0),), (3, 4))
(True, None)
"""

from __future__ import annotations

import numpy as np

from ai.facade import LifeHint, LifeHintKind, LifeReverseStatus
from game.app.input import display_key
from game.core.progress import ProgressStore
from game.core.puzzles.life.puzzle import LifePuzzle
from game.core.puzzles.life.rules import Board, step

#: The message when the start has just become a solution (the status under the result says "Solved!").
SOLVED_MESSAGE = "Your start becomes the target. ] for the next puzzle."
#: The message when the start changes while the AI looks for a hint (the hint would be about the start before).
HINT_DROPPED = "Your start changed, so the AI stopped looking for a hint on the one before: {hint} asks again."
#: The message when a solved puzzle opens with the player's winning start.
KEPT_MESSAGE = "Your winning start, as you left it (Backspace clears the board to play it again)."


def live_cells(board: Board) -> tuple[tuple[int, int], ...]:
    """The live cells of ``board`` as ``(row, column)`` pairs, row by row."""
    return tuple((int(r), int(c)) for r, c in np.argwhere(board))


def board_of(cells: tuple[tuple[int, int], ...], shape: tuple[int, int]) -> Board | None:
    """The board of ``shape`` whose live cells are ``cells`` (``None``: a cell outside it)."""
    rows, cols = shape
    if any(not (0 <= r < rows and 0 <= c < cols) for r, c in cells):
        return None
    board = np.zeros(shape, dtype=bool)
    for r, c in cells:
        board[r, c] = True
    return board


def kept_start(progress: ProgressStore, puzzle: LifePuzzle) -> Board | None:
    """The player's winning start kept for ``puzzle`` (its current version), when it still becomes the target
    (``None``: no start kept, or one that does not solve it)."""
    record = progress.puzzle(puzzle.progress_key, puzzle.puzzle_hash)
    if record is None or not record.solved or record.start is None:
        return None
    board = board_of(record.start, puzzle.shape)
    if board is None or not np.array_equal(step(board, puzzle.rule, puzzle.steps), puzzle.target):
        return None
    return board


def solved_in(progress: ProgressStore, puzzle: LifePuzzle) -> bool:
    """True when the player has solved ``puzzle`` (its current version)."""
    record = progress.puzzle(puzzle.progress_key, puzzle.puzzle_hash)
    return record is not None and record.solved


def progress_words(progress: ProgressStore, puzzle: LifePuzzle) -> str:
    """``solved``, ``best: N wrong`` or nothing, for ``puzzle`` (its current version): a best only when a start of
    the player's did better than the empty board (:attr:`LifePuzzle.empty_wrong`)."""
    record = progress.puzzle(puzzle.progress_key, puzzle.puzzle_hash)
    if record is None:
        return ""
    if record.solved:
        return "solved"
    return "" if record.best is None or record.best >= puzzle.empty_wrong else f"best: {record.best} wrong"


def solution_message(status: LifeReverseStatus, wrong_cells: int) -> str:
    """What the player is told about the AI's start (``status``), now on the board with ``wrong_cells``."""
    if status == LifeReverseStatus.EXACT:
        return f"The AI found an exact start ({display_key('Z')} to undo)."
    if status == LifeReverseStatus.NONE:
        return f"No start exists; the AI's best has {wrong_cells} wrong cells."
    return f"No exact start found in time; best has {wrong_cells} wrong cells."


def hint_message(h: LifeHint) -> str:
    """What the player is told about a hint (plain words; the cell is marked on the board)."""
    if h.kind == LifeHintKind.SOLVED:
        return "No hint needed: your start already becomes the target."
    do = "Make the marked cell alive" if h.alive else "Clear the marked cell"
    counts = f"wrong cells: {h.wrong_now} now, {h.wrong_after} after"
    if h.kind == LifeHintKind.ADD:
        why = ("every start that keeps your live cells has it" if h.forced
               else "a start that keeps all your live cells has it")
        return f"Hint: {do.lower()}: {why} ({counts})."
    if h.kind == LifeHintKind.REMOVE:
        return f"Hint: {do.lower()}. No start keeps all your live cells; this change helps most ({counts})."
    lead = "No start can make this target exactly." if h.kind == LifeHintKind.NO_START else (
        "The AI found no start in time.")
    if h.wrong_after < h.wrong_now:
        return f"{lead} {do}: no other single change leaves fewer wrong cells ({counts})."
    return f"{lead} {do}: no single change lowers the wrong cells; this one keeps them lowest ({counts})."


__all__ = ["HINT_DROPPED", "KEPT_MESSAGE", "SOLVED_MESSAGE", "board_of", "hint_message", "kept_start", "live_cells",
           "progress_words", "solution_message", "solved_in"]
