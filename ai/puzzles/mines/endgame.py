"""Exact play near the end of a game: the guess with the best chance to *win*, by searching every arrangement.

When few arrangements of the mines fit the view (at most :data:`MAX_ARRANGEMENTS`), each one is listed
(:func:`arrangements`) as a bit mask over the *unresolved* cells (mine chance strictly between 0 and 1).
Every arrangement is equally likely.  The chance to win from a set ``S`` of arrangements
(:class:`Endgame`): cells safe in every arrangement of ``S`` are opened for free and the numbers they show
split ``S``; once they split it no more, the game is won if no cell is unresolved, otherwise the best guess
``c`` gives the sum, over each number ``v`` that ``c`` can show, of the share of ``S`` where ``c`` is safe
and shows ``v`` times the chance to win from that part.  The flood fill of a revealed zero is not modelled:
it only shows more, so the chance found is a lower bound of the chance under best play.

The search visits at most :data:`MAX_NODES` sets; past that it gives up and the look-ahead guess is played.

>>> from game.core.puzzles.mines import parse_view
>>> from ai.puzzles.mines.analysis import analyze
>>> view = parse_view("mines 1\\n1.\\n..")
>>> guess = endgame_guess(view, analyze(view))
>>> guess.cell, guess.win  # a corner cell's number never tells the other two apart: any cell wins 1 time in 3
((0, 1), Fraction(1, 3))
>>> view = parse_view("mines 2\\n1...\\n....")
>>> endgame_guess(view, analyze(view)).win > 0
True
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable
from dataclasses import dataclass
from functools import partial
from fractions import Fraction

from ai.kernel.context import SolveContext
from ai.puzzles.mines.analysis import AnalysisStatus, MinesAnalysis
from game.core.puzzles.mines import FLAG, MinesView, Pos, neighbours

#: Most arrangements for which the exact search runs.
MAX_ARRANGEMENTS = 400
#: Most sets of arrangements the search evaluates before it gives up.
MAX_NODES = 20_000
#: How many visits of a set (evaluated or found in the memo), or steps of the listing of arrangements, run
#: between two checks of the solve context.
CHECK_EVERY = 256


@dataclass(frozen=True)
class EndgameGuess:
    """The guess that wins most often, and that chance (exact, for the modelled game)."""

    cell: Pos
    win: Fraction


class SearchTooLarge(Exception):
    """The search passed :data:`MAX_NODES` (internal)."""


class _Checks:
    """The solve context, checked at the first :meth:`tick` and then every :data:`CHECK_EVERY` ticks."""

    def __init__(self, ctx: SolveContext) -> None:
        self.ctx, self.ticks = ctx, 0

    def tick(self) -> None:
        """One step of work: check the context when its turn has come."""
        self.ticks += 1
        if self.ticks % CHECK_EVERY == 1:
            self.ctx.check()


def arrangements(view: MinesView, analysis: MinesAnalysis, cells: list[Pos],
                 ctx: SolveContext | None = None) -> list[int]:
    """Every arrangement of the mines that fits ``view``, as a bit mask over ``cells`` (the unresolved ones), in
    the order of their cells' values (cell 0 free before mined, then cell 1, ...).  The listing checks ``ctx``
    as it goes."""
    index = {p: i for i, p in enumerate(cells)}
    mined = analysis.mined
    needs: list[int] = []
    members: list[list[int]] = [[] for _ in cells]
    for r in range(view.height):
        for c in range(view.width):
            value = view.at(r, c)
            if value < 0:
                continue
            around = list(neighbours(view.width, view.height, r, c))
            inside = [index[q] for q in around if q in index]
            if inside:
                for i in inside:
                    members[i].append(len(needs))
                needs.append(value - sum(1 for q in around if q in mined))
    # cells next to a number first (their numbers prune as soon as they are complete), the free ones last:
    # with free cells early the listing wanders through their combinations before any number can object
    order = sorted(range(len(cells)), key=lambda i: not members[i])
    members = [members[i] for i in order]
    left = [0] * len(needs)
    for cons in members:
        for k in cons:
            left[k] += 1
    found: list[int] = []
    _fill(0, view.mines - len(mined), 0, needs, left, members, found, _Checks(ctx or SolveContext.create()))
    masks = [sum(1 << order[j] for j in range(len(order)) if m >> j & 1) for m in found]
    return sorted(masks, key=lambda m: [m >> i & 1 for i in range(len(cells))])


def _fill(i: int, mines: int, mask: int, needs: list[int], left: list[int], members: list[list[int]],
          found: list[int], checks: _Checks) -> None:
    """Depth-first: cell ``i`` on, ``mines`` still to place; every full arrangement goes to ``found``; each
    call is a tick of ``checks``."""
    checks.tick()
    n = len(members)
    if mines < 0 or mines > n - i:
        return
    if i == n:
        if not any(needs):
            found.append(mask)
        return
    cons = members[i]
    for k in cons:
        left[k] -= 1
    for mine in (0, 1):
        if mine:
            for k in cons:
                needs[k] -= 1
        if all(0 <= needs[k] <= left[k] for k in cons):
            _fill(i + 1, mines - mine, mask | (mine << i), needs, left, members, found, checks)
        if mine:
            for k in cons:
                needs[k] += 1
    for k in cons:
        left[k] += 1


class Endgame:
    """The search over sets of arrangements (bit masks over ``n`` cells; ``around[i]``: the mask of cell
    ``i``'s unresolved neighbours)."""

    def __init__(self, n: int, around: list[int], ctx: SolveContext) -> None:
        self.n, self.around = n, around
        self.memo: dict[frozenset[int], Fraction] = {}
        self.checks = _Checks(ctx)  #: ticks at every call of :meth:`win`, memo hits included (most of the work)

    def win(self, arrs: tuple[int, ...]) -> Fraction:
        """The chance to win from ``arrs`` under best play."""
        self.checks.tick()
        key = frozenset(arrs)
        if key in self.memo:
            return self.memo[key]
        if len(self.memo) >= MAX_NODES:
            raise SearchTooLarge
        value = self._split_free(arrs)
        if value is None:
            value = self.best(arrs)[1] if len(arrs) > 1 else Fraction(1)
        self.memo[key] = value
        return value

    def _split_free(self, arrs: tuple[int, ...]) -> Fraction | None:
        """The chance to win when the numbers of the cells safe in all of ``arrs`` split it, else None."""
        union = 0
        for m in arrs:
            union |= m
        free = [i for i in range(self.n) if not union >> i & 1]
        parts = _group(arrs, lambda m: tuple(_mines_in(self.around[i], m) for i in free))
        if len(parts) == 1:
            return None
        return sum((Fraction(len(p), len(arrs)) * self.win(p) for p in parts), Fraction(0))

    def best(self, arrs: tuple[int, ...], choices: Collection[int] | None = None) -> tuple[int, Fraction]:
        """The unresolved cell to open and its chance to win (the lowest index among equals); only among
        ``choices`` when given (at least one of them unresolved)."""
        union, inter = 0, -1
        for m in arrs:
            union |= m
            inter &= m
        unresolved = [i for i in range(self.n) if (union & ~inter) >> i & 1 and (choices is None or i in choices)]
        safe_counts = {i: sum(1 for m in arrs if not m >> i & 1) for i in unresolved}
        best_cell, best_win = unresolved[0], Fraction(-1)
        for i in sorted(unresolved, key=lambda j: (-safe_counts[j], j)):
            if Fraction(safe_counts[i], len(arrs)) <= best_win:
                break  # the chance to win is at most the chance to survive the guess
            safe = tuple(m for m in arrs if not m >> i & 1)
            parts = _group(safe, partial(_mines_in, self.around[i]))
            value = sum((Fraction(len(p), len(arrs)) * self.win(p) for p in parts), Fraction(0))
            if value > best_win:
                best_cell, best_win = i, value
        return best_cell, best_win


def _mines_in(mask: int, arrangement: int) -> int:
    """How many mines of ``arrangement`` lie in ``mask`` (the number a cell with those neighbours shows)."""
    return (arrangement & mask).bit_count()


def _group(arrs: tuple[int, ...], key: Callable[[int], Hashable]) -> list[tuple[int, ...]]:
    """``arrs`` split by ``key`` (a function of an arrangement), in first-seen order."""
    parts: dict[Hashable, list[int]] = {}
    for m in arrs:
        parts.setdefault(key(m), []).append(m)
    return [tuple(p) for p in parts.values()]


def endgame_guess(view: MinesView, analysis: MinesAnalysis, ctx: SolveContext | None = None) -> EndgameGuess | None:
    """The guess with the best chance to win, or None when there are too many arrangements (or none to
    guess), or the search grows past :data:`MAX_NODES`.  The guess is never a flagged cell (the player's
    claim of a mine); later guesses in the search may be (the player can take a flag back).

    >>> from game.core.puzzles.mines import parse_view
    >>> from ai.puzzles.mines.analysis import analyze
    >>> view = parse_view("mines 1\\n1F\\n..")
    >>> endgame_guess(view, analyze(view)).cell
    (1, 0)
    >>> view = parse_view("mines 1\\n1F\\nFF")
    >>> endgame_guess(view, analyze(view)) is None
    True
    """
    if analysis.status != AnalysisStatus.OK or not 0 < analysis.weight <= MAX_ARRANGEMENTS:
        return None
    cells = sorted(p for p, v in analysis.probability.items() if 0 < v < 1 and view.at(*p) < 0)
    choices = {i for i, p in enumerate(cells) if view.at(*p) != FLAG}
    if not choices:
        return None
    ctx = ctx or SolveContext.create()
    arrs = arrangements(view, analysis, cells, ctx)
    index = {p: i for i, p in enumerate(cells)}
    around = [sum(1 << index[q] for q in neighbours(view.width, view.height, *p) if q in index) for p in cells]
    search = Endgame(len(cells), around, ctx)
    try:
        cell, win = search.best(tuple(arrs), choices)
    except SearchTooLarge:
        return None
    return EndgameGuess(cells[cell], win)


__all__ = ["MAX_ARRANGEMENTS", "MAX_NODES", "EndgameGuess", "arrangements", "endgame_guess"]
