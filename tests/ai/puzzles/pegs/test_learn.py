"""Learning the jump rule from example games."""

from __future__ import annotations

import pytest

from ai.puzzles.pegs.learn import learn, parse_games, pattern_of, random_games, verify
from game.core.errors import GameError
from game.core.puzzles.pegs_boards import english, french, parse_board


def test_random_games_teach_the_four_jumps() -> None:
    board, start = english()
    games = random_games(board, start, games=30, seed=3)
    rule = learn(board, games)
    assert len(rule.patterns) == 4
    assert rule.pairs == sum(len(g) - 1 for g in games)
    for game in games:
        for before, after in zip(game, game[1:]):
            assert after in rule.successors(board, before)
    report = verify(board, rule)
    assert report.agrees and report.missing == 0 and report.windows_checked == 2 * 19 * 8  # two window shapes, 19 places each, 8 fillings


def test_the_rule_learned_on_one_board_holds_on_another() -> None:
    eb, es = english()
    rule = learn(eb, random_games(eb, es, games=30, seed=1))
    fb, fs = french()
    assert verify(fb, rule).agrees
    assert rule.successors(fb, fs) == {fb.apply(fs, j) for j in fb.legal_jumps(fs)}


def test_a_missing_direction_is_reported() -> None:
    board, start = english()
    rule = learn(board, random_games(board, start, games=30, seed=1))
    rule.patterns.pop(sorted(rule.patterns)[0])
    report = verify(board, rule)
    assert not report.agrees and report.missing == 19 and report.mismatches == []


def test_a_wrong_example_is_reported() -> None:
    board, games = parse_games("ooo.\n\n..o.\n---\n.oo.\n\no...\n")
    rule = learn(board, games)
    assert pattern_of(board, games[0][0], games[0][1]) == ((0, 0, 1, 0), (0, 1, 1, 0))
    report = verify(board, rule)
    assert not report.agrees and report.mismatches


@pytest.mark.parametrize("text", ["", "ooo\n", "ooo\n\noo\n", "ooo\n\nooo\n"])
def test_bad_game_files(text: str) -> None:
    with pytest.raises(GameError):
        board, games = parse_games(text, path="g.txt")
        learn(board, games)


@pytest.mark.parametrize("text", ["ooo", "o", "o.", "ooo\nooo"])
def test_random_games_from_a_start_without_a_jump_are_refused(text: str) -> None:
    board, start = parse_board(text, name="stuck")
    with pytest.raises(GameError, match="no jump is possible from the start"):
        random_games(board, start, games=3, seed=0)
