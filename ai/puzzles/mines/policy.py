"""What to play next: every proved-safe cell, otherwise the best guess; and the model check.

When few arrangements of the mines are left, the guess is the one with the best chance to win the game
(:mod:`ai.puzzles.mines.endgame`, an exact search).  Otherwise it comes from
:mod:`ai.puzzles.mines.lookahead`: among the cells whose exact mine probability is near the least, the one most likely to survive this reveal *and* the next move; ties go to the chance of
progress, then to the lower probability, then (:func:`guess_key`) to the cell with the fewest unknown
neighbours (corners, then edges: the likeliest to open a zero), then to the cell nearest the revealed
area, then row by row.  The first click (:func:`first_click`) depends on the rule of the first click.

Every answer is replayed against the board before use (:func:`check_against_board`): a cell called
safe must not hold a mine, a cell called mined must, and the probabilities (exact fractions) must
add up to the number of mines and, around each revealed number, to that number
(:func:`check_against_view`, which is all the command line can check without the mines).

>>> from game.core.puzzles.mines import MinesBoard
>>> from ai.puzzles.mines.analysis import analyze
>>> board = MinesBoard.with_mines(3, 3, {(0, 2), (1, 2)})
>>> _ = board.reveal(2, 0)
>>> a = analyze(board.view())
>>> check_against_board(board, a)
>>> next_moves(board.view(), a)
Moves(kind=<MoveKind.SAFE: 'safe'>, cells=((2, 2),), risk=Fraction(0, 1), win=None)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from ai.kernel.context import SolveContext
from ai.puzzles.mines.analysis import AnalysisStatus, MinesAnalysis, analyze
from ai.puzzles.mines.endgame import endgame_guess
from ai.puzzles.mines.lookahead import best_guess
from game.core.errors import GameError
from game.core.puzzles.mines import HIDDEN, FirstClick, MinesBoard, MinesView, Pos, neighbours


class MoveKind(str, enum.Enum):
    """What kind of move :func:`next_moves` proposes."""

    SAFE = "safe"  #: proved-safe cells: open them all
    GUESS = "guess"  #: no cell is proved safe: the least risky one
    NONE = "none"  #: nothing to open (game over, the view is contradictory, or every cell to guess is flagged)


@dataclass(frozen=True)
class Moves:
    """Cells to open next and the risk of the riskiest of them."""

    kind: MoveKind
    cells: tuple[Pos, ...]
    risk: Fraction
    #: The chance to win from here under best play, when the exact endgame search found it (else None).
    win: Fraction | None = None


@dataclass(frozen=True)
class Advice:
    """The analysis of a view and the moves chosen from it (one answer, so the odds shown and the move
    played always come from the same analysis)."""

    analysis: MinesAnalysis
    moves: Moves


def advise(view: MinesView, ctx: SolveContext | None = None) -> Advice:
    """The exact analysis of ``view`` and :func:`next_moves` from it."""
    analysis = analyze(view, ctx)
    return Advice(analysis, next_moves(view, analysis, ctx))


class WrongAnswerError(GameError):
    """An analysis disagreed with the board (a solver bug; the answer is never shown)."""


#: Boards up to this side open at row 3, column 3 under the opening rule (larger ones at row 4, column 4).
SMALL_BOARD = 9


def first_click(width: int, height: int, rule: FirstClick = FirstClick.CELL) -> Pos:
    """The first cell to open: a corner when only that cell is sure to be safe (it is the likeliest to
    be a zero); when the first click opens an area, the cell at row 3, column 3 on boards up to 9x9 and at
    row 4, column 4 on larger ones (a wide opening with the edge still close; the middle of a smaller
    board).  Measured in bench/results.md ("Minesweeper"): on 9x9 row 3, column 3 wins more (97.11 %
    against 96.75 %); on 16x16 and on expert the two are even (16x16: 89.59 % against 89.49 %).

    >>> first_click(30, 16), first_click(30, 16, FirstClick.AREA), first_click(9, 9, FirstClick.AREA)
    ((0, 0), (3, 3), (2, 2))
    >>> first_click(16, 16, FirstClick.AREA), first_click(3, 3, FirstClick.AREA)
    ((3, 3), (1, 1))
    """
    if rule == FirstClick.CELL:
        return 0, 0
    depth = 2 if max(width, height) <= SMALL_BOARD else 3
    return min(depth, (height - 1) // 2), min(depth, (width - 1) // 2)


def guess_key(view: MinesView, analysis: MinesAnalysis, p: Pos) -> tuple[Fraction, int, int, Pos]:
    """Sort key of a guess: probability, unknown neighbours, no revealed neighbour, position."""
    around = list(neighbours(view.width, view.height, *p))
    unknown = sum(1 for q in around if view.at(*q) < 0)
    touches = any(view.at(*q) >= 0 for q in around)
    return analysis.probability[p], unknown, 0 if touches else 1, p


def next_moves(view: MinesView, analysis: MinesAnalysis, ctx: SolveContext | None = None) -> Moves:
    """Every proved-safe unknown cell, else the best guess (see the module docstring).

    A flag is the player's claim that a cell holds a mine: the analysis ignores it, and a guess is never a
    flagged cell (its risk is the guessed cell's own mine chance).  A flagged cell proved safe is still
    listed with the safe cells (the flag is wrong for sure).  When every cell left to guess is flagged the
    answer is :attr:`MoveKind.NONE` (the player takes a flag back to guess it).

    >>> from game.core.puzzles.mines import parse_view
    >>> view = parse_view("mines 1\\n1F\\n..")
    >>> next_moves(view, analyze(view)).cells
    ((1, 0),)
    >>> view = parse_view("mines 1\\n1F\\nFF")
    >>> next_moves(view, analyze(view)).kind.value
    'none'
    """
    if analysis.status != AnalysisStatus.OK or not analysis.probability:
        return Moves(MoveKind.NONE, (), Fraction(0))
    safe = sorted(p for p in analysis.safe if view.at(*p) < 0)
    if safe:
        return Moves(MoveKind.SAFE, tuple(safe), Fraction(0))
    open_cells = [p for p, v in analysis.probability.items() if view.at(*p) == HIDDEN and v < 1]
    if not open_cells:  # every cell left to guess is flagged (or proved mined)
        return Moves(MoveKind.NONE, (), Fraction(0))
    end = endgame_guess(view, analysis, ctx)
    if end is not None:
        return Moves(MoveKind.GUESS, (end.cell,), analysis.probability[end.cell], end.win)
    best = best_guess(view, analysis, open_cells, lambda p: guess_key(view, analysis, p), ctx)
    return Moves(MoveKind.GUESS, (best,), analysis.probability[best])


def check_against_view(view: MinesView, analysis: MinesAnalysis) -> None:
    """Raise :class:`WrongAnswerError` unless ``analysis`` agrees with what ``view`` shows.

    By linearity of expectation the probabilities around every revealed number add up to that number
    exactly, and all of them add up to the mine count; proved cells are the probabilities 0 and 1.
    """
    if analysis.status != AnalysisStatus.OK:
        return
    if set(analysis.probability) != set(view.unknown()):
        raise WrongAnswerError("the probabilities do not cover exactly the unknown cells")
    scale = lcm(*(p.denominator for p in analysis.probability.values()))
    numerators = {p: v.numerator * (scale // v.denominator) for p, v in analysis.probability.items()}
    if sum(numerators.values()) != view.mines * scale:
        raise WrongAnswerError("the probabilities do not add up to the number of mines")
    if any(not 0 <= n <= scale for n in numerators.values()):
        raise WrongAnswerError("a probability lies outside [0, 1]")
    if analysis.safe != {p for p, n in numerators.items() if n == 0} or \
            analysis.mined != {p for p, n in numerators.items() if n == scale}:
        raise WrongAnswerError("the proved cells are not the probabilities 0 and 1")
    cells = view.cells
    around: dict[Pos, int] = {}  # revealed number -> its unknown neighbours' probabilities, times scale
    for (r, c), n in numerators.items():
        for q in neighbours(view.width, view.height, r, c):
            if cells[q[0]][q[1]] >= 0:
                around[q] = around.get(q, 0) + n
    for r, row in enumerate(cells):
        for c, v in enumerate(row):
            if v >= 0 and around.get((r, c), 0) != v * scale:
                total = Fraction(around.get((r, c), 0), scale)
                raise WrongAnswerError(f"the probabilities around ({r}, {c}) add up to {total}, not {v}")


def check_against_board(board: MinesBoard, analysis: MinesAnalysis) -> None:
    """Raise :class:`WrongAnswerError` when ``analysis`` contradicts ``board`` (its mines are placed)."""
    if analysis.status != AnalysisStatus.OK:
        raise WrongAnswerError("the analysis found no arrangement, but the board has one")
    check_against_view(board.view(), analysis)
    wrong_safe = [p for p in analysis.safe if p in board.mine_set]
    wrong_mined = [p for p in analysis.mined if p not in board.mine_set]
    if wrong_safe or wrong_mined:
        raise WrongAnswerError(f"proved safe but mined: {wrong_safe[:3]}; proved mined but safe: {wrong_mined[:3]}")


__all__ = ["Advice", "MoveKind", "Moves", "advise", "WrongAnswerError", "check_against_board", "check_against_view", "first_click", "guess_key", "next_moves"]
