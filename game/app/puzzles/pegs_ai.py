"""What the peg-solitaire screen asks the AI (:class:`PegsAsk`), how long it may think, and how its proofs read
to a player; the search for how far back a lost game can still finish runs as a job of the app's runner
(:func:`back_job`, :func:`ai.facade.pegs_undo_to_finish`), never on the screen's thread.

>>> PROOF_WORDS["peg count"]
'too few pegs are left'
"""

from __future__ import annotations

import enum

from typing import Any

from ai.facade import PegsFinishBack, SolveContext, pegs_hint, pegs_solve, pegs_undo_to_finish
from game.core.puzzles.pegs import Board
from game.app.jobs import Job

#: Seconds the AI may think about a hint / a solution.
HINT_LIMIT = 20.0
SOLVE_LIMIT = 60.0
#: The AI's proofs that a position is lost, in a player's words.
PROOF_WORDS = {"peg count": "too few pegs are left", "integer program": "no count of jumps can balance the pegs",
               "table": "the table of winnable positions says so", "search": "every sequence of jumps was tried",
               "pagoda function": "a weighting of the holes that no jump can raise puts the goal out of reach"}
#: Said after a lost game's message while the AI looks for the jumps to undo.
SEEKING = " Finding how many jumps to undo..."


class PegsAsk(enum.Enum):
    """What the AI is asked."""

    HINT = "hint"
    SOLVE = "solve"
    BACK = "undo to finish"  #: how many jumps a lost game must undo (asked after a lost answer)


def solve_job(board: Board, position: int, goal: int | None, what: PegsAsk) -> Job:
    """A job of the runner: a hint or a solution of ``position`` towards ``goal`` (runs in the child process)."""

    def job(ctx: SolveContext) -> Any:
        if what == PegsAsk.HINT:
            return pegs_hint(board, position, goal, ctx=ctx)
        return pegs_solve(board, position, goal, ctx=ctx)

    return job


def back_job(board: Board, positions: list[int], goal: int | None) -> Job:
    """A job of the runner: the latest of ``positions`` (a game's, oldest first) that can still finish."""

    def job(ctx: SolveContext) -> PegsFinishBack:
        return pegs_undo_to_finish(board, positions, goal, ctx=ctx)

    return job


__all__ = ["HINT_LIMIT", "PROOF_WORDS", "PegsAsk", "SEEKING", "SOLVE_LIMIT", "back_job", "solve_job"]
