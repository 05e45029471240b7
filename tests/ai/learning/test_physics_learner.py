"""Learning a physics from observed games: fully observed, positions only, from a file, by asking."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ai.learning.observations import ordinary_games, random_game
from ai.learning.observations_file import ObservationError, read_observations
from ai.learning.physics_agreement import agreement
from ai.learning.physics_asking import engine_for, learn_by_asking
from ai.learning.physics_learner import learn_physics
from game.core.physics import Physics, random_physics
from game.core.physics_catalog import SHIPPED
from game.cli.main import main
from game.core.physics_views import same_behaviour


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_every_shipped_physics_is_learned_exactly_from_one_fully_observed_game(name: str) -> None:
    truth = SHIPPED[name]
    result = learn_physics([random_game(np.random.default_rng(7), truth)])
    assert same_behaviour(result.physics, truth)
    assert agreement(result.physics, truth, maps=1, lemmings=200).exact


def test_classic_from_one_ordinary_game_for_most_seeds() -> None:
    exact = [same_behaviour(learn_physics(ordinary_games(np.random.default_rng(s), SHIPPED["classic"], 1)).physics,
                            SHIPPED["classic"]) for s in range(8)]
    assert sum(exact) >= 6


def test_random_physics_from_three_games_fully_observed() -> None:
    exact = 0
    for k in range(6):
        truth = random_physics(np.random.default_rng(500 + k))
        rng = np.random.default_rng(k)
        learned = learn_physics([random_game(rng, truth) for _ in range(3)]).physics
        exact += agreement(learned, truth, maps=1, lemmings=200).exact
    assert exact == 6


@pytest.mark.parametrize("name", ["classic", "climber", "restless"])
def test_positions_only_moves_lemmings_alike_on_unseen_maps(name: str) -> None:
    truth = SHIPPED[name]
    rng = np.random.default_rng(0)
    games = [random_game(rng, truth).without_directions()]
    result = learn_physics(games)
    assert result.positions_only
    agree = agreement(result.physics, truth, maps=1, lemmings=300)
    assert agree.exact and not agree.flipped


def test_the_learner_says_what_it_never_saw_and_asking_makes_it_sure() -> None:
    truth = SHIPPED["drifter"]
    first = learn_physics(ordinary_games(np.random.default_rng(1), truth, 1))
    assert first.unseen_count > 0 and not first.sure
    assert any("never seen" in note for note in first.notes)
    asked = learn_by_asking(engine_for(truth), ordinary_games(np.random.default_rng(1), truth, 1))
    assert asked.sure and asked.queries >= first.unseen_count
    assert same_behaviour(asked.physics, truth)


def test_observations_round_trip_through_the_documented_format(tmp_path: Path) -> None:
    truth = SHIPPED["careful"]
    rng = np.random.default_rng(3)
    games = [random_game(rng, truth) for _ in range(2)]
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(json.dumps(g.to_json()) for g in games) + "\n", encoding="utf-8")
    out = tmp_path / "rules.json"
    assert main(["learn", "--observations", str(path), "--out", str(out), "--json"]) == 0
    learned = json.loads(out.read_text(encoding="utf-8"))
    assert same_behaviour(Physics.from_json(learned), truth)


@pytest.mark.parametrize("line, words", [
    ("[1, 2]", "expected a JSON object"),
    ('{"map": ["X T"], "frames": 2, "lemmings": [{"positions": [[0, 1]]}]}', "expected one per frame"),
    ('{"map": ["X T"], "frames": 1, "lemmings": [{"positions": [[0, 0]]}]}', "on a solid cell"),
    ('{"map": ["  T"], "frames": 2, "lemmings": [{"positions": [[0, 0], [0, 2]]}]}', "more than one cell"),
    ('{"map": ["  T"], "frames": 1, "lemmings": [{"positions": [[0, 0]], "directions": [2]}]}', "-1 or 1"),
    ('{"map": ["  T"], "frames": 3, "lemmings": [{"positions": [[0, 0], [0, 1]], "directions": [1, 1, 1]}]}',
     "lemming 1: 2 positions, expected one per frame (3)"),
    ('{"map": ["  T"], "frames": 2, "lemmings": [{"positions": [[0, 0], [0, 1]], "directions": [1]}]}',
     "lemming 1: 1 direction, expected one per frame (2)"),
    ('{"lemmings": [{"positions": [[0, 0], [0, 1]], "directions": [1, 1, 1]}], "map": ["  T"], "frames": 3}',
     "lemming 1: 2 positions, expected one per frame (3)"),
    ('{"map": ["  T"], "frames": 1e999, "lemmings": []}', "not valid JSON"),
    ("[" * 50000, "not valid JSON"),
])
def test_bad_observations_name_the_line_and_the_problem(line: str, words: str) -> None:
    with pytest.raises(ObservationError) as info:
        read_observations("\n" + line + "\n", "g.jsonl")
    assert str(info.value).startswith("g.jsonl:2:") and words in str(info.value)


def test_learn_cli_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{nope\n", encoding="utf-8")
    assert main(["learn", "--observations", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.jsonl:1: not valid JSON" in err and "Traceback" not in err
    assert main(["learn", "--physics", "wobbly"]) == 2


def test_simulate_with_learned_rules_and_solve_with_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = tmp_path / "climber.json"
    rules.write_text(SHIPPED["climber"].to_text(), encoding="utf-8")
    level = tmp_path / "steps.txt"
    level.write_text("12\n2\n     T\n   XXX\n>   XX\nXXXXXX\n", encoding="utf-8")
    assert main(["simulate", str(level), "--bricks", "2,2", "--rules", str(rules), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["won"] is True
    assert main(["simulate", str(level), "--bricks", "2,2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["won"] is False  # classic lemmings do not climb
