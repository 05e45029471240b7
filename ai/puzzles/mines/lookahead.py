"""Choosing a guess by looking one reveal ahead.

When no cell is proved safe, the cells whose mine chance is within :data:`MARGIN` of the least one are
*candidates*.  For each candidate and each number it could show, the view with that number is analysed
exactly (:func:`~ai.puzzles.mines.analysis.analyze`); the share of arrangements that fit it is the chance
of that number.  A candidate is scored by its *two-step survival*: the chance that it is safe and the
move after it is safe too (a proved-safe cell then counts as certain, otherwise the least mine chance
then).  Ties go to the chance of *progress* (some cell proved safe after the reveal), then to the lower
mine chance, then to :func:`~ai.puzzles.mines.policy.guess_key`.

The look-ahead runs on dense boards only (at least :data:`DENSE_FROM` of the cells are mines, as on
expert): on sparser boards, paired games showed the least-chance guess winning more often (the figures are
in bench/results.md, Minesweeper).

Cells far from the revealed area are alike, so at most :data:`SEA_PER_KIND` of them per number of
unknown neighbours are compared, and at most :data:`MAX_CANDIDATES` cells in all.

>>> from game.core.puzzles.mines import parse_view
>>> from ai.puzzles.mines.analysis import analyze
>>> view = parse_view("mines 1\\n1.\\n..")
>>> look = outlook(view, analyze(view), (0, 1))
>>> look.survive, look.progress  # safe 2 times in 3, then it shows 1: the last two cells are a coin toss
(0.3333333333333333, 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from ai.kernel.context import SolveContext
from ai.puzzles.mines.analysis import AnalysisStatus, MinesAnalysis, analyze
from game.core.puzzles.mines import MinesView, Pos, neighbours

#: Candidates: cells whose mine chance is at most the least one plus this.
MARGIN = Fraction(1, 10)
#: Most candidates compared by look-ahead.
MAX_CANDIDATES = 6
#: Most cells with no revealed neighbour compared per number of unknown neighbours.
SEA_PER_KIND = 1
#: Least share of mines on the board (mines / cells) for which guesses are compared by look-ahead; on sparser
#: boards the first candidate (the least mine chance, then the fewest unknown neighbours) is played.
DENSE_FROM = Fraction(9, 50)


@dataclass(frozen=True)
class Outlook:
    """What one reveal of ``cell`` leads to."""

    cell: Pos
    survive: float  #: chance that the cell and the next move are both safe
    progress: float  #: chance that the cell is safe and some cell is proved safe after it


def with_number(view: MinesView, cell: Pos, value: int) -> MinesView:
    """``view`` with ``cell`` revealed showing ``value``."""
    r, c = cell
    rows = list(view.cells)
    row = list(rows[r])
    row[c] = value
    rows[r] = tuple(row)
    return MinesView(view.width, view.height, view.mines, tuple(rows))


def outlook(view: MinesView, analysis: MinesAnalysis, cell: Pos, ctx: SolveContext | None = None) -> Outlook:
    """The two-step survival and progress chances of revealing ``cell`` (see the module docstring)."""
    around = [q for q in neighbours(view.width, view.height, *cell) if view.at(*q) < 0]
    low = sum(1 for q in around if analysis.probability[q] == 1)
    survive = progress = 0.0
    for value in range(low, len(around) + 1):
        after = analyze(with_number(view, cell, value), ctx)
        if after.status != AnalysisStatus.OK or not after.weight:
            continue
        share = after.weight / analysis.weight
        risks = [p for p in after.probability.values() if p < 1]
        if after.safe or not risks:
            survive += share
            progress += share if after.safe else 0.0
        else:
            survive += share * (1 - float(min(risks)))
    return Outlook(cell, survive, progress)


def candidates(view: MinesView, analysis: MinesAnalysis, open_cells: list[Pos],
               key: Callable[[Pos], tuple[Fraction, int, int, Pos]]) -> list[Pos]:
    """The cells worth a look-ahead, best first by ``key`` (see the module docstring)."""
    least = min(analysis.probability[p] for p in open_cells)
    near = sorted((p for p in open_cells if analysis.probability[p] <= least + MARGIN), key=key)
    chosen: list[Pos] = []
    sea_kinds: dict[int, int] = {}
    for p in near:
        _, unknown, far, _ = key(p)
        if far:
            if sea_kinds.get(unknown, 0) >= SEA_PER_KIND:
                continue
            sea_kinds[unknown] = sea_kinds.get(unknown, 0) + 1
        chosen.append(p)
        if len(chosen) == MAX_CANDIDATES:
            break
    return chosen


def best_guess(view: MinesView, analysis: MinesAnalysis, open_cells: list[Pos],
               key: Callable[[Pos], tuple[Fraction, int, int, Pos]], ctx: SolveContext | None = None) -> Pos:
    """The candidate with the best two-step survival, then progress, then ``key``; on boards with fewer mines
    than :data:`DENSE_FROM` of the cells, the first candidate."""
    cells = candidates(view, analysis, open_cells, key)
    if len(cells) == 1 or not analysis.weight or Fraction(view.mines, view.width * view.height) < DENSE_FROM:
        return cells[0]
    looks = [outlook(view, analysis, p, ctx) for p in cells]
    return min(looks, key=lambda o: (-round(o.survive, 9), -round(o.progress, 9), key(o.cell))).cell


__all__ = ["DENSE_FROM", "MARGIN", "MAX_CANDIDATES", "Outlook", "best_guess", "candidates", "outlook", "with_number"]
