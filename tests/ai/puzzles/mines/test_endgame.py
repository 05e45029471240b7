"""The exact endgame: its arrangements are the brute-force ones, and its chance to win is the best play's,
found again by an independent search over opened cells."""

from __future__ import annotations

import threading
from fractions import Fraction
from functools import lru_cache

from hypothesis import assume, given, settings

from ai.kernel.context import SolveContext, SolveStopped
from ai.puzzles.mines.analysis import analyze
from ai.puzzles.mines.endgame import MAX_ARRANGEMENTS, arrangements, endgame_guess
from game.core.puzzles.mines import MinesView, Pos, neighbours, parse_view
from tests.ai.puzzles.mines.brute import brute_arrangements, small_views
from tests.stopping import CancelOnPoll


def best_play(view: MinesView, fits: list[frozenset[Pos]]) -> Fraction:
    """The chance to win under best play when a reveal shows only its number: any unknown cell may be opened;
    the game is won once every safe cell of the true arrangement is open."""
    unknown = view.unknown()

    def number(cell: Pos, mines: frozenset[Pos]) -> int:
        return sum(1 for p in neighbours(view.width, view.height, *cell) if p in mines)

    @lru_cache(maxsize=None)
    def win(left: frozenset[int], opened: frozenset[Pos]) -> Fraction:
        if all(set(unknown) - fits[i] <= opened for i in left):
            return Fraction(1)
        best = Fraction(0)
        for cell in unknown:
            if cell in opened:
                continue
            parts: dict[int, set[int]] = {}
            for i in left:
                if cell not in fits[i]:
                    parts.setdefault(number(cell, fits[i]), set()).add(i)
            value = sum((Fraction(len(p), len(left)) * win(frozenset(p), opened | {cell}) for p in parts.values()),
                        Fraction(0))
            best = max(best, value)
        return best

    return win(frozenset(range(len(fits))), frozenset())


@settings(max_examples=80, deadline=None)
@given(small_views(widest=4, tallest=3, most_mines=3))
def test_the_arrangements_are_the_brute_force_ones(view: MinesView) -> None:
    analysis = analyze(view)
    cells = sorted(p for p, v in analysis.probability.items() if 0 < v < 1)
    masks = arrangements(view, analysis, cells)
    as_sets = {frozenset(p for i, p in enumerate(cells) if m >> i & 1) | analysis.mined for m in masks}
    assert len(masks) == len(as_sets) == analysis.weight
    assert as_sets == set(brute_arrangements(view))


@settings(max_examples=60, deadline=None)
@given(small_views(widest=4, tallest=3, most_mines=3))
def test_the_chance_to_win_is_best_play(view: MinesView) -> None:
    analysis = analyze(view)
    assume(not analysis.safe and 0 < len(view.unknown()) - view.mines)
    fits = brute_arrangements(view)
    assume(len(fits) > 1)
    guess = endgame_guess(view, analysis)
    assert guess is not None
    assert guess.win == best_play(view, fits)
    assert 0 < analysis.probability[guess.cell] < 1


def test_a_coin_toss() -> None:
    view = parse_view("mines 1\n..\n11")
    guess = endgame_guess(view, analyze(view))
    assert guess is not None and guess.win == Fraction(1, 2)


def test_too_many_arrangements_leave_the_guess_to_the_look_ahead() -> None:
    view = parse_view("mines 10\n" + "\n".join(["." * 9] * 8 + ["0" + "." * 8]))
    analysis = analyze(view)
    assert analysis.weight > MAX_ARRANGEMENTS
    assert endgame_guess(view, analysis) is None


def test_a_cancelled_search_stops() -> None:
    view = parse_view("mines 3\n......\n......\n111111")
    cancel = threading.Event()
    cancel.set()
    ctx = SolveContext.create(cancel=cancel)
    try:
        endgame_guess(view, analyze(view), ctx)
    except SolveStopped:
        return
    raise AssertionError("the search did not stop")


#: A 16x16 endgame (40 mines) met in play: 57 arrangements over 44 unresolved cells, most of them free
#: cells far from any number, above the frontier.
FREE_CELLS_FIRST = """mines 40
..1..2..........
111112..........
0000023.........
000124......223.
0112...6.....1..
02.324..32222221
02.2013.20001.10
0111012210001110
001111.100011100
001.11110001.211
00111012221213.2
0000001..3.202.2
0000002345.41111
1110001.3...3110
1.1000114.6.4.10
111000002.32.210
"""


def test_free_cells_do_not_blow_up_the_listing() -> None:
    """The listing places the cells next to a number first: here it takes a few thousand steps (listing the
    free cells first took 18 million).  Counted in the context's checks (one every CHECK_EVERY steps), not timed."""
    view = parse_view(FREE_CELLS_FIRST)
    analysis = analyze(view)
    cells = sorted(p for p, v in analysis.probability.items() if 0 < v < 1 and view.at(*p) < 0)
    assert (analysis.weight, len(cells)) == (57, 44)
    ctx = SolveContext.create(cancel=CancelOnPoll(200))  # stops the listing after about 51,000 steps
    arrs = arrangements(view, analysis, cells, ctx)
    assert len(set(arrs)) == 57
    for arr in arrs:  # each one fits every number
        mined = analysis.mined | {p for i, p in enumerate(cells) if arr >> i & 1}
        assert len(mined) == view.mines
        assert all(view.at(r, c) < 0 or view.at(r, c) == sum(1 for q in neighbours(view.width, view.height, r, c)
                                                             if q in mined)
                   for r in range(view.height) for c in range(view.width))
    assert arrs == sorted(arrs, key=lambda m: [m >> i & 1 for i in range(len(cells))])  # the documented order
