"""Every single-vacancy problem of a board, decided: a checked solution or a proof that none exists.

A *single-vacancy problem* starts with a peg on every hole but one, the *vacancy*, and asks for one peg
anywhere (goal ``"any"``) or one peg on the vacancy (goal ``"vacancy"``).  :func:`decide` answers one:

* the **position class** (:meth:`game.core.puzzles.pegs.Board.position_class`): the proof names the start's
  class and the goal's (for ``"any"``: the classes a single peg can be in), with the peg counts on the three
  diagonals ``(r + c) % 3`` and anti-diagonals ``(r - c) % 3`` they come from;
* a **beam search** (:mod:`ai.puzzles.pegs.beam`): the moves, replayed by the board's checker;
* a **pagoda function** (:func:`ai.puzzles.pegs.pagoda.certificate`): the whole-number weights and the two
  values, one function for each goal cell the class leaves;
* the **exhaustive search** of :func:`ai.puzzles.pegs.solve` (how many positions it searched).

On the English board all 66 problems are solved; on the French board the 16 ``"any"`` problems the class
allows are solved and the other 58 are ruled out by the class.

>>> from game.core.puzzles.pegs_boards import french
>>> board, _ = french()
>>> answer = decide(board, (3, 3), "any", SolveContext.create())
>>> answer.status.value, answer.kind
('impossible', 'position class')
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Iterator

from ai.kernel.context import SolveContext, SolveStopped
from ai.puzzles.pegs import PegsStatus, Proof, check_replay, solve
from ai.puzzles.pegs.beam import widening_search
from ai.puzzles.pegs.pagoda import Pagoda, certificate
from game.core.puzzles.pegs import Board, Cell, Jump

#: The two goals of each vacancy, in the table's order.
GOALS = ("any", "vacancy")


@dataclass
class Answer:
    """One problem decided: ``status`` with ``moves`` (solved) or the proof's text (``proof``)."""

    vacancy: Cell
    goal: str  #: ``"any"`` or ``"vacancy"``
    status: PegsStatus
    kind: str  #: "solution", "position class", "pagoda" or "search"
    proof: str
    moves: list[Jump] = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict[str, object]:
        """The table's JSON object for this problem."""
        return {"vacancy": list(self.vacancy), "goal": self.goal, "status": self.status.value,
                "moves": [j.as_list() for j in self.moves], "proof": self.proof, "proof_kind": self.kind,
                "seconds": round(self.seconds, 3)}


def problems(board: Board) -> Iterator[tuple[Cell, str]]:
    """Every ``(vacancy, goal)`` of ``board``, in reading order of the vacancy."""
    for cell in sorted(board.cells):
        for goal in GOALS:
            yield cell, goal


def counts(board: Board, position: int) -> tuple[list[int], list[int]]:
    """The pegs on each diagonal ``(r + c) % 3`` and on each anti-diagonal ``(r - c) % 3``."""
    n = [bin(position & m).count("1") for m in board.class_masks]
    return n[:3], n[3:]


def class_text(board: Board, position: int) -> str:
    """``position``'s class with the counts it comes from, as in the proofs."""
    diagonal, anti = counts(board, position)
    return f"{board.position_class(position)} (diagonals {tuple(diagonal)}, anti-diagonals {tuple(anti)})"


def class_proof(board: Board, start: int, goal: int | None) -> str:
    """The position-class proof that ``goal`` (``None``: one peg anywhere) is out of reach."""
    head = ("position class: the class (a, b, c, d) of a position is the parity of d0 + d1, d1 + d2, a0 + a1, "
            "a1 + a2 for its peg counts d on the diagonals (r + c) % 3 and a on the anti-diagonals (r - c) % 3; "
            f"a jump changes every count by one, so never the class. The start is in class {class_text(board, start)}")
    if goal is not None:
        return f"{head}, the goal in class {class_text(board, goal)}"
    singles = sorted({board.position_class(board.bit(cell)) for cell in board.cells})
    return f"{head}; one peg is in one of the classes {', '.join(map(str, singles))}"


def _targets(board: Board, start: int, goal: int | None) -> list[int]:
    """The one-peg goals the class leaves (``goal`` itself when it is one)."""
    if goal is not None:
        return [goal]
    return [board.bit(cell) for cell in sorted(board.cells)
            if board.position_class(board.bit(cell)) == board.position_class(start)]


def pagoda_proof(board: Board, start: int, goal: int | None) -> str | None:
    """Pagoda functions ruling out every goal cell the class leaves, as text, or ``None``."""
    found: list[tuple[int, Pagoda]] = []
    for target in _targets(board, start, goal):
        pagoda = certificate(board, start, target)
        if pagoda is None:
            return None
        found.append((target, pagoda))
    parts = [f"one peg on {board.pegs(target)[0]}: weights {p.grid(board)}; value of the start {p.start_value} "
             f"< value of the goal {p.goal_value}" for target, p in found]
    return ("pagoda function (w(from) + w(over) >= w(to) for every jump, so the sum of the weights under the "
            "pegs never grows): " + "; ".join(parts))


def decide(board: Board, vacancy: Cell, goal_kind: str, ctx: SolveContext) -> Answer:
    """Decide the problem with ``vacancy`` empty and goal ``goal_kind`` (``"any"`` or ``"vacancy"``).
    The answer is ``stopped`` (``kind`` "none") when ``ctx`` stopped the search first."""
    t0 = time.perf_counter()
    start = board.full ^ board.bit(vacancy)
    goal = None if goal_kind == "any" else board.bit(vacancy)

    def answer(status: PegsStatus, kind: str, proof: str, moves: list[Jump] | None = None) -> Answer:
        return Answer(vacancy, goal_kind, status, kind, proof, moves or [], time.perf_counter() - t0)

    if not board.class_allows(start, goal):
        return answer(PegsStatus.IMPOSSIBLE, "position class", class_proof(board, start, goal))
    try:
        moves, width = widening_search(board, start, goal, ctx)
        if moves is not None:
            check_replay(board, start, goal, moves)
            return answer(PegsStatus.SOLVED, "solution",
                          f"beam search (width {width:,}); the moves replay to the goal on the board's checker", moves)
        pagoda = pagoda_proof(board, start, goal)
        if pagoda is not None:
            return answer(PegsStatus.IMPOSSIBLE, "pagoda", pagoda)
    except SolveStopped:
        return answer(PegsStatus.STOPPED, "none", "no answer in time")
    result = solve(board, start, goal, ctx=ctx, table=False)
    if result.status == PegsStatus.SOLVED:
        return answer(PegsStatus.SOLVED, "solution",
                      "depth-first search; the moves replay to the goal on the board's checker", result.moves)
    if result.status == PegsStatus.IMPOSSIBLE:
        what = ("the integer program A x = start - goal has no solution in non-negative whole numbers"
                if result.proof == Proof.INTEGER_PROGRAM else
                f"exhaustive search: every jump sequence tried, {result.nodes:,} positions searched")
        return answer(PegsStatus.IMPOSSIBLE, "search", what)
    return answer(PegsStatus.STOPPED, "none", result.message or "no answer in time")


def table(board: Board, ctx: SolveContext, per_problem: float | None = None) -> list[Answer]:
    """Every single-vacancy problem of ``board`` decided, each within ``per_problem`` seconds (``None``: no
    limit) and all within ``ctx``'s deadline: once ``ctx`` has stopped, the problems left are ``stopped``
    without being tried, so the table takes no longer than ``ctx`` allows whatever the board's size."""
    out = []
    for vacancy, goal in problems(board):
        if ctx.stop_reason() is not None:
            out.append(Answer(vacancy, goal, PegsStatus.STOPPED, "none", "not tried: the time limit had passed"))
            continue
        out.append(decide(board, vacancy, goal, ctx.child(time_limit=per_problem)))
    return out


__all__ = ["Answer", "GOALS", "class_proof", "class_text", "counts", "decide", "pagoda_proof", "problems", "table"]
