"""Learning from the player's runs: the store (merged, never lost), what the AI observes, the pictures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ai.learning.trust as trust
from ai.kernel.context import Progress, SolveContext
from ai.learning.player import (
    ObservedRun,
    knowledge,
    load_runs,
    observe_run,
    offered_solvers,
    physics_key,
    record_run,
    rule_pictures,
    runs_path,
)
from game.core.level import Level
from game.core.physics import CLASSIC
from game.core.physics_catalog import SHIPPED, level_line
from game.core.simulation import simulate
from tests.conftest import ORIGINAL_PACK


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    trust._memory.clear()
    return tmp_path / "xdg"


def test_runs_are_merged_by_content(tmp_path: Path) -> None:
    level = Level.load(ORIGINAL_PACK)
    assert record_run(tmp_path, level, [(6, 6), (2, 1)]) == 1
    assert record_run(tmp_path, level, [(2, 1), (6, 6)]) == 1  # same bricks, other order
    other = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
    # another process wrote a run in between: both survive the next write
    doc = json.loads(runs_path(tmp_path).read_text())
    doc["runs"].append(ObservedRun(other.grid, 5, 1, ((1, 2),), 1.0).to_json())
    runs_path(tmp_path).write_text(json.dumps(doc))
    assert record_run(tmp_path, level, []) == 3
    runs = load_runs(tmp_path)
    assert {r.bricks for r in runs} == {((2, 1), (6, 6)), ((1, 2),), ()}


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=25))
def test_any_runs_file_loads_without_error(tmp_path: Path, junk: object) -> None:
    path = runs_path(tmp_path)
    for doc in (junk, {"format": "lemming-bricks-observed-runs", "runs": junk},
                {"format": "lemming-bricks-observed-runs", "runs": [junk, {"grid": ["> T", "XXX"], "frames": 3,
                                                                          "budget": 0, "bricks": junk}]}):
        path.write_text(json.dumps(doc))
        runs = load_runs(tmp_path)
        assert all(isinstance(r, ObservedRun) for r in runs)


def test_a_damaged_store_is_kept_aside(tmp_path: Path) -> None:
    path = runs_path(tmp_path)
    path.write_bytes(b"\xff\xfe not json")
    assert load_runs(tmp_path) == []
    problems: list[str] = []
    assert record_run(tmp_path, Level.load(ORIGINAL_PACK), [], problems) == 1
    (aside,) = tmp_path.glob(path.name + ".corrupt-*")
    assert aside.read_bytes() == b"\xff\xfe not json"
    assert problems == [f"observed_runs.json could not be used (UTF-16 text (save it as UTF-8)); kept as {aside.name}"]


GOOD_RUN = {"grid": ["> ..T", "XX.XX", "XXXXX"], "frames": 6, "budget": 2, "bricks": [[1, 2]], "when": 1.0,
            "physics": "classic"}
WHAT_A_NEWER_GAME_WROTE = {
    "a newer version": ({"version": 2}, "version 2, newer than this game's 1"),
    "a field of the store": ({"version": 1, "notes": "mine"}, "notes"),
    "a field of a run": ({"version": 1, "runs": [GOOD_RUN, {**GOOD_RUN, "when": 2.0, "speed": 3}]}, "runs/1"),
}


@pytest.mark.parametrize("kind", list(WHAT_A_NEWER_GAME_WROTE))
def test_what_this_version_cannot_read_is_kept_aside_before_a_store_drops_it(kind: str, tmp_path: Path) -> None:
    fields, name = WHAT_A_NEWER_GAME_WROTE[kind]
    path = runs_path(tmp_path)
    original = json.dumps({"format": "lemming-bricks-observed-runs", "runs": [GOOD_RUN], **fields}).encode()
    path.write_bytes(original)
    level, problems = Level.load(ORIGINAL_PACK), list[str]()
    record_run(tmp_path, level, [], problems)
    (aside,) = tmp_path.glob(path.name + ".corrupt-*")
    assert aside.read_bytes() == original
    assert len(problems) == 1 and f"({name})" in problems[0] and problems[0].endswith(f"kept as {aside.name}")
    assert json.loads(path.read_bytes())["version"] == 1 and len(load_runs(tmp_path)) >= 2
    record_run(tmp_path, level, [(1, 1)], problems)  # nothing new dropped: no second copy, no second message
    assert len(problems) == 1 and len(list(tmp_path.glob(path.name + ".corrupt-*"))) == 1


def test_observed_games_are_what_the_game_does() -> None:
    level = Level.load(ORIGINAL_PACK)
    run = ObservedRun(level.grid, 20, 3, ((2, 1), (5, 4), (6, 6)))
    game = observe_run(run)
    assert len(game.positions) > 40
    real = simulate(level, [(2, 1), (5, 4), (6, 6)])
    assert [tuple(map(tuple, p.tolist())) for p in game.positions[:len(real.tracks)]] == [
        tuple((r, c) for r, c, _ in t.path) for t in real.tracks]


def test_not_exact_from_the_pack_alone_and_no_solver_offered(tmp_path: Path) -> None:
    level = Level.load(ORIGINAL_PACK)
    record_run(tmp_path, level, [(2, 1), (5, 4), (6, 6)])
    k = knowledge(tmp_path)
    assert k.runs == 1 and k.physics is not None and not k.sure
    if not k.exact:
        assert offered_solvers(tmp_path) == []


def test_a_world_s_physics_is_learned_from_its_runs_and_offered_once_exact(tmp_path: Path) -> None:
    climber = SHIPPED["climber"]
    rows = ["        T", "     XXXX", ">    X  X", "XXXXXXXXX"]
    for bricks in ([], [(2, 4)], [(2, 3), (2, 4)]):
        record_run(tmp_path, Level.from_rows(rows, 20, 2, physics=climber), bricks)
    record_run(tmp_path, Level.from_rows(["> T", "XXX"], 3, 0), [])  # a classic run: another group
    k = knowledge(tmp_path, key=None)
    assert k.runs == 3 or k.runs == 1
    k = knowledge(tmp_path, physics_key(level_line(climber)))
    assert k.runs == 3 and k.physics is not None
    offers = offered_solvers(tmp_path, climber)
    assert (offers != []) == k.exact
    assert offered_solvers(tmp_path, CLASSIC) == [] or knowledge(tmp_path, "classic").exact


def test_pictures_show_each_rule_of_a_physics() -> None:
    pics = rule_pictures(CLASSIC)
    assert [(p.move, p.new_direction) for p in pics] == [((1, 0), 1), ((0, 1), 1), ((0, 0), -1)]
    assert pics[0].cells[2][1] == "."  # falls: nothing below
    assert pics[1].cells[1][2] == "." and pics[2].cells == [["?"] * 3, ["?", ".", "?"], ["?"] * 3]  # walks, else turns


def test_pictures_carry_their_rule_in_words() -> None:
    words = [pic.words for pic in rule_pictures(CLASSIC)]
    assert words == ["When nothing is below it, a lemming falls.",
                     "Otherwise, when the cell ahead is empty, it walks ahead.", "Otherwise it turns around."]


def test_learning_reports_each_step(tmp_path: Path) -> None:
    level = Level.load(ORIGINAL_PACK)
    record_run(tmp_path, level, [(2, 1), (5, 4), (6, 6)])
    record_run(tmp_path, level, [])
    reports: list[Progress] = []
    k = knowledge(tmp_path, ctx=SolveContext.create(progress=reports.append))
    assert k.runs == 2
    assert [p.message for p in reports] == ["Watching your run 1 of 2", "Watching your run 2 of 2",
                                            "Finding the fewest rules that explain all 2 runs",
                                            "Checking the rules against the game"]
