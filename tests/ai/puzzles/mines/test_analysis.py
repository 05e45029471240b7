"""The analysis is exact: probabilities equal brute-force enumeration; the policy and games."""

from __future__ import annotations

import itertools
import threading
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai.kernel.context import SolveContext, SolveStopped
from ai.puzzles.mines.analysis import AnalysisStatus, analyze
from ai.puzzles.mines.play import bench, play_game
from ai.puzzles.mines.policy import MoveKind, WrongAnswerError, check_against_board, check_against_view, next_moves
from game.core.puzzles.mines import MinesBoard, MinesView, neighbours, parse_view


def brute_force(view: MinesView) -> dict[tuple[int, int], Fraction] | None:
    """Every arrangement of the mines over the unknown cells, kept when it fits every number."""
    unknown = view.unknown()
    hits = dict.fromkeys(unknown, 0)
    total = 0
    for mines in itertools.combinations(unknown, view.mines):
        chosen = set(mines)
        if all(view.at(r, c) < 0 or view.at(r, c) == sum(1 for p in neighbours(view.width, view.height, r, c)
                                                          if p in chosen)
               for r in range(view.height) for c in range(view.width)):
            total += 1
            for p in mines:
                hits[p] += 1
    if total == 0:
        return None
    return {p: Fraction(n, total) for p, n in hits.items()}


@st.composite
def small_views(draw: st.DrawFn) -> tuple[MinesBoard, MinesView]:
    width, height = draw(st.integers(2, 5)), draw(st.integers(2, 4))
    cells = [(r, c) for r in range(height) for c in range(width)]
    mines = draw(st.integers(1, min(7, width * height - 1)))
    board = MinesBoard(width, height, mines, seed=draw(st.integers(0, 10_000)))
    board.reveal(*draw(st.sampled_from(cells)))
    for _ in range(draw(st.integers(0, 4))):
        safe = [p for p in cells if p not in board.mine_set and p not in board.revealed]
        if not safe:
            break
        board.reveal(*draw(st.sampled_from(safe)))
    return board, board.view()


@settings(max_examples=150, deadline=None)
@given(small_views())
def test_probabilities_are_exact(case: tuple[MinesBoard, MinesView]) -> None:
    board, view = case
    analysis = analyze(view)
    expected = brute_force(view)
    assert expected is not None and analysis.status == AnalysisStatus.OK
    assert analysis.probability == expected
    assert analysis.safe == {p for p, v in expected.items() if v == 0}
    assert analysis.mined == {p for p, v in expected.items() if v == 1}
    check_against_board(board, analysis)


def test_global_count_decides_what_pairs_cannot() -> None:
    # the 1 says one mine among the two right cells; with 2 mines in all, the far corner holds the other
    view = parse_view("mines 2\n1..\n1..\n...")
    analysis = analyze(view)
    assert analysis.probability == brute_force(view)
    single = parse_view("mines 1\n01.\n01.\n01.")
    assert analyze(single).mined == {(1, 2)}  # the middle 1 and one mine in all: the shared cell


def test_contradiction_is_reported() -> None:
    assert analyze(parse_view("mines 0\n1.")).status == AnalysisStatus.CONTRADICTION
    assert next_moves(parse_view("mines 0\n1."), analyze(parse_view("mines 0\n1."))).kind == MoveKind.NONE


def test_guess_prefers_low_probability_then_corners() -> None:
    view = parse_view("mines 10\n" + "." * 9 + "\n" + ("." * 9 + "\n") * 8)
    moves = next_moves(view, analyze(view))
    assert moves.kind == MoveKind.GUESS and moves.cells[0] in {(0, 0), (0, 8), (8, 0), (8, 8)}
    assert moves.risk == Fraction(10, 81)


def test_wrong_answer_is_caught() -> None:
    board = MinesBoard.with_mines(3, 1, {(0, 2)})
    board.reveal(0, 0)
    analysis = analyze(board.view())
    liar = type(analysis)(analysis.status, frozenset({(0, 2)}), frozenset(), analysis.probability)
    with pytest.raises(WrongAnswerError):
        check_against_board(board, liar)
    view = parse_view("mines 2\n1..\n...\n...")
    good = analyze(view)
    check_against_view(view, good)
    skewed = dict(good.probability)
    skewed[(0, 1)] -= Fraction(1, 10)  # still sums to 2 in all, but not around the 1
    skewed[(2, 2)] += Fraction(1, 10)
    with pytest.raises(WrongAnswerError, match="around"):
        check_against_view(view, type(good)(good.status, good.safe, good.mined, skewed))


def test_cancelled_context_stops_the_analysis() -> None:
    event = threading.Event()
    event.set()
    board = MinesBoard(30, 16, 99, seed=4)
    board.reveal(0, 0)
    with pytest.raises(SolveStopped):
        play_game(30, 16, 99, seed=4, ctx=SolveContext.create(cancel=event))


def test_cancelled_context_stops_one_analysis() -> None:
    event = threading.Event()
    event.set()
    view = parse_view("mines 3\n1...\n....\n....")
    with pytest.raises(SolveStopped):
        analyze(view, SolveContext.create(cancel=event))
    assert analyze(view).status == AnalysisStatus.OK


def test_games_are_reproducible_and_checked() -> None:
    first = [play_game(9, 9, 10, seed=s).won for s in range(10)]
    assert first == [play_game(9, 9, 10, seed=s).won for s in range(10)]
    result = bench(9, 9, 10, games=10, seed=0)
    assert result["games"] == 10 and 0 <= result["wins"] <= 10
