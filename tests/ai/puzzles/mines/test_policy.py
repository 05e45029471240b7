"""The assistant's policy: its claims hold on the board, the look-ahead's chances are exact, both first-click
rules, and win counts on fixed seeds (counts of games, never times)."""

from __future__ import annotations

import functools
from fractions import Fraction

import pytest
from hypothesis import given, settings

from ai.puzzles.mines.analysis import analyze
from ai.puzzles.mines.lookahead import best_guess, candidates, outlook
from ai.puzzles.mines.play import bench, play_games, wilson
from ai.puzzles.mines.policy import MoveKind, advise, first_click, guess_key
from game.core.puzzles.mines import FirstClick, MinesBoard, MinesStatus, MinesView, Pos, neighbours
from tests.ai.puzzles.mines.brute import brute_arrangements, small_views


def play_and_collect(board: MinesBoard, rule: FirstClick) -> tuple[set[Pos], set[Pos], list[tuple[Pos, Fraction]]]:
    """Play one game with the policy; every cell it called safe or mined, and every guess with its chance."""
    said_safe: set[Pos] = set()
    said_mined: set[Pos] = set()
    guesses: list[tuple[Pos, Fraction]] = []
    board.reveal(*first_click(board.width, board.height, rule))
    while board.status == MinesStatus.PLAYING:
        advice = advise(board.view())
        said_safe |= advice.analysis.safe
        said_mined |= advice.analysis.mined
        if advice.moves.kind == MoveKind.GUESS:
            cell = advice.moves.cells[0]
            assert advice.moves.risk == advice.analysis.probability[cell]
            guesses.append((cell, advice.moves.risk))
        for cell in advice.moves.cells:
            board.reveal(*cell)
    return said_safe, said_mined, guesses


@pytest.mark.parametrize(("size", "games", "rule"), [
    ((9, 9, 10), 200, FirstClick.CELL), ((9, 9, 10), 100, FirstClick.AREA), ((16, 16, 40), 30, FirstClick.CELL),
])
def test_every_claim_holds_on_the_board_after_each_game(size: tuple[int, int, int], games: int,
                                                        rule: FirstClick) -> None:
    width, height, mines = size
    lost_on_a_guess = 0
    for seed in range(games):
        board = MinesBoard(width, height, mines, seed=seed, first_click=rule)
        said_safe, said_mined, guesses = play_and_collect(board, rule)
        assert board.status in (MinesStatus.WON, MinesStatus.LOST)
        assert not said_safe & board.mine_set, f"seed {seed}: called safe but mined"
        assert said_mined <= board.mine_set, f"seed {seed}: called mined but safe"
        assert all(0 < risk < 1 for _, risk in guesses)
        if board.status == MinesStatus.LOST:
            assert guesses and board.exploded == guesses[-1][0]  # only a guess ever loses
            lost_on_a_guess += 1
    assert lost_on_a_guess < games


@settings(max_examples=60, deadline=None)
@given(small_views())
def test_the_look_ahead_chances_match_brute_force(view: MinesView) -> None:
    analysis = analyze(view)
    fits = brute_arrangements(view)
    for cell in view.unknown():
        look = outlook(view, analysis, cell)
        survive = Fraction(0)
        by_value: dict[int, list[frozenset[Pos]]] = {}
        for mines in fits:
            if cell not in mines:
                value = sum(1 for p in neighbours(view.width, view.height, *cell) if p in mines)
                by_value.setdefault(value, []).append(mines)
        for group in by_value.values():  # the next move: a cell safe in every arrangement left, else the safest
            rest = [p for p in view.unknown() if p != cell]
            if all(set(rest) <= m for m in group):  # every cell left is a mine: this reveal wins
                best = len(group)
            else:
                best = max(sum(1 for m in group if p not in m) for p in rest)
            survive += Fraction(best, len(fits))
        assert look.survive == pytest.approx(float(survive), abs=1e-9)


def test_both_rules_play_and_the_opening_rule_opens_the_first_click_area() -> None:
    safe = bench(9, 9, 10, games=20, seed=3, rules="safe")
    opening = bench(9, 9, 10, games=20, seed=3, rules="opening")
    assert (safe["rules"], opening["rules"]) == ("safe", "opening")
    assert safe["games"] == opening["games"] == 20
    first = first_click(30, 16, FirstClick.AREA)
    board = MinesBoard(30, 16, 99, seed=1, first_click=FirstClick.AREA)
    board.reveal(*first)
    assert {first, *neighbours(30, 16, *first)} <= board.revealed
    assert first_click(30, 16, FirstClick.CELL) == (0, 0)
    assert first == first_click(16, 16, FirstClick.AREA) == (3, 3) and first_click(9, 9, FirstClick.AREA) == (2, 2)


def test_win_counts_on_fixed_seeds() -> None:
    safe = sum(r.won for r in play_games(9, 9, 10, games=200, seed=7, rule=FirstClick.CELL))
    opening = sum(r.won for r in play_games(9, 9, 10, games=200, seed=7, rule=FirstClick.AREA))
    assert safe >= 178 and opening >= 186 and opening > safe  # 183 and 196 when written


def test_wilson_interval() -> None:
    low, high = wilson(4300, 10_000)
    assert low < 0.43 < high and high - low == pytest.approx(0.0194, abs=1e-3)
    assert wilson(10, 10)[1] == 1.0 and wilson(0, 10)[0] == 0.0


@pytest.mark.parametrize(("size", "dense"), [((9, 9, 10), False), ((6, 5, 8), True)])
def test_the_look_ahead_chooses_on_dense_boards_only(size: tuple[int, int, int], dense: bool) -> None:
    width, height, mines = size
    compared = 0
    for seed in range(80):
        board = MinesBoard(width, height, mines, seed=seed)
        board.reveal(0, 0)
        while board.status == MinesStatus.PLAYING and (advice := advise(board.view())).moves.kind == MoveKind.SAFE:
            for cell in advice.moves.cells:
                board.reveal(*cell)
        if board.status != MinesStatus.PLAYING:
            continue
        view = board.view()  # the first position that needs a guess
        analysis = analyze(view)
        open_cells = [p for p, v in analysis.probability.items() if view.at(*p) < 0 and v < 1]
        key = functools.partial(guess_key, view, analysis)
        cells = candidates(view, analysis, open_cells, key)
        looks = [outlook(view, analysis, p) for p in cells]
        by_survival = min(looks, key=lambda o: (-round(o.survive, 9), -round(o.progress, 9), key(o.cell))).cell
        assert best_guess(view, analysis, open_cells, key) == (by_survival if dense else cells[0])
        compared += by_survival != cells[0]
    assert compared > 0, "some position where the two choices differ"
