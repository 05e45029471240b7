"""``python main.py learn``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ai import facade
from ai.kernel.context import ManualClock, SolveContext
from ai.learning.learn import DEFAULT_ACTIVE_GAMES, DEFAULT_GAMES
from ai.learning.rules import LearnedRules
from game.cli.learn_outputs import PHYSICS_GAMES
from game.cli.main import main
from game.core.physics_catalog import resolve
from tests.conftest import ORIGINAL_NUMBER
from tests.stopping import expired


def test_learn_tiny_json_reports_not_exact(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["learn", "--model", "tree", "--games", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1
    assert data["exact"] is False and data["errors"] > 0


def test_learn_saves_and_prints_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rules.json"
    code = main(["learn", "--model", "tree", "--games", "60", "--seed", "1", "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 0
    assert "exact: 0 wrong predictions" in text
    assert "if " in text and " as CNF" in text
    rules = LearnedRules.load(out)
    assert rules.verified_exact and rules.meta["games"] == 60


def test_learn_help_does_not_import_sklearn() -> None:
    code = ("import sys; from game.cli import main; p = main.build_parser(); "
            "print('sklearn' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[3])
    assert proc.stdout.strip() == "False", proc.stderr


def test_learn_help_states_the_games_each_learner_plays_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["learn", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert (f"games to learn from (default {PHYSICS_GAMES}; the decision-tree learner: {DEFAULT_GAMES} random, "
            f"1 many-lemming, 3 positions-only, and with --active --regime random the most query levels, "
            f"default {DEFAULT_ACTIVE_GAMES})") in text
    assert main(["learn"]) == 0  # the physics learner, without --games
    assert capsys.readouterr().out.startswith(f"learned from {PHYSICS_GAMES} game(s) of the classic physics")


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg"


def test_learn_one_many_lemming_game_is_exact(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["learn", "--regime", "many", "--games", "1", "--seed", "3", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["exact"] and data["meta"]["regime"] == "many" and data["meta"]["games"] == 1


def test_positions_only_rules_drive_solve_and_hint(tmp_path: Path, data_home: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "positions.json"
    assert main(["learn", "--positions-only", "--games", "1", "--seed", "0", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "checked against the engine: EXACT" in text
    assert main(["solve", ORIGINAL_NUMBER, "--solver", "learned", "--rules", str(out), "--all", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "optimal" and result["complete"] and len(result["solutions"]) == 6
    assert main(["hint", ORIGINAL_NUMBER, "--rules", str(out), "--bricks", "3,3", "--json"]) == 0
    hint = json.loads(capsys.readouterr().out)
    assert hint["action"] == "remove" and hint["cell"] == [3, 3] and hint["min_bricks"] == 3


def test_bad_rules_and_options_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{]")
    assert main(["solve", ORIGINAL_NUMBER, "--solver", "learned", "--rules", str(bad)]) == 2
    assert main(["hint", ORIGINAL_NUMBER, "--rules", str(tmp_path / "missing.json")]) == 2
    assert main(["solve", "1", "--solver", "cpsat", "--rules", str(bad)]) == 2
    assert main(["learn", "--positions-only", "--mirror"]) == 2
    err = capsys.readouterr().err
    assert "not valid JSON" in err and "missing.json: no such file" in err and "--solver learned only" in err


@pytest.mark.parametrize("argv, words", [
    (["--seeds", "3", "--games", "1"], "--seeds goes with --curve"),
    (["--queries", "5", "--games", "1"], "--queries goes with --active"),
    (["--curve", "curve.png", "--out", "rules.json"], "no --out"),
    (["--curve", "curve.png", "--json", "--model", "mlp"], "no --json, --model"),
    (["--curve", "curve.png", "--seed", "3"], "over seeds 0..N-1 (--seeds): no --seed"),
])
def test_an_option_the_learner_would_ignore_is_refused(argv: list[str], words: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["learn", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_learning_curve_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "curve.png"
    assert main(["learn", "--curve", str(out), "--seeds", "1", "--games", "1"]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = capsys.readouterr().out
    for name in ("random", "many", "mirrored", "active", "logreg", "mlp"):
        assert f"{name}:" in text


def test_learn_time_limit_stops_the_physics_learner(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """The command's one limit reaches the learner: a learner that meets its deadline says so, exit 1."""
    seen: list[SolveContext] = []
    real = facade.learn_physics

    def spy(games: object, **kw: object) -> object:
        ctx = kw["ctx"]
        assert isinstance(ctx, SolveContext)
        seen.append(ctx)
        return real(games, ctx=expired())  # type: ignore[arg-type]  # as if the limit came during the learning

    monkeypatch.setattr(facade, "learn_physics", spy)
    assert main(["learn", "--games", "1", "--time-limit", "30"]) == 1
    remaining = seen[0].remaining()
    assert remaining is not None and 0 < remaining <= 30
    assert "learning stopped (timeout): nothing learned" in capsys.readouterr().err
    assert main(["learn", "--model", "tree", "--physics", "classic"]) == 2
    assert "--physics go with the physics learner" in capsys.readouterr().err


def expire_every_context(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every context the command creates has a limit already spent (a manual clock moved past it)."""
    real_create = SolveContext.create

    def create_expired(**kw: object) -> SolveContext:
        clock = ManualClock(100.0)
        ctx = real_create(time_limit=1.0, clock=clock, solver="learn")
        clock.advance(2.0)
        return ctx

    monkeypatch.setattr(SolveContext, "create", staticmethod(create_expired))


@pytest.mark.parametrize("argv", [["--games", "1"], ["--model", "tree", "--games", "3"]])
def test_json_of_a_learning_the_limit_stopped_is_one_object(argv: list[str], monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    expire_every_context(monkeypatch)
    assert main(["learn", *argv, "--json", "--time-limit", "5"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"status": "stopped", "stop_reason": "timeout"}
    assert "nothing learned" in captured.err


@pytest.mark.parametrize("argv", [["--model", "tree", "--games", "3"], ["--positions-only", "--games", "1"],
                                  ["--curve", "curve.png", "--seeds", "1", "--games", "2"]])
def test_the_tree_learner_and_the_curves_keep_a_time_limit_already_spent(
        argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    expire_every_context(monkeypatch)
    assert main(["learn", *argv, "--time-limit", "5"]) == 1
    assert "stopped (timeout)" in capsys.readouterr().err
    assert not (tmp_path / "curve.png").exists()


def test_the_check_against_the_engine_runs_within_the_limit(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Learning ends inside the limit, then the limit passes: the check stops, the rules are reported
    unchecked, exit 1."""
    real_learn = facade.learn_physics

    def learn_then_expire(games: object, **kw: object) -> object:
        result = real_learn(games, **kw)  # type: ignore[arg-type]
        ctx = kw["ctx"]
        assert isinstance(ctx, SolveContext)
        ctx.cancel_events[0].set()  # as Ctrl-C or the limit would, just after the learning
        return result

    monkeypatch.setattr(facade, "learn_physics", learn_then_expire)
    assert main(["learn", "--games", "1", "--time-limit", "30", "--json"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["verification"] == {"engine": "classic", "stopped": "cancelled"}
    assert "the rules are learned but not checked" in captured.err


def test_start_markers_name_left_and_right_of_a_physics_that_walks_back(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Positions alone name a physics so that a lemming on open flat floor walks ahead; with the start
    markers the learner names the directions as the engine does, even for one that walks back."""
    back = tmp_path / "back.json"
    back.write_text(json.dumps({"name": "back", "rules": [
        {"when": {"1,0": "free"}, "move": [1, 0]}, {"when": {"0,-1": "free"}, "move": [0, -1]},
        {"when": {}, "move": [0, 0], "turn": True}]}))
    assert main(["learn", "--physics", str(back), "--positions-only", "--starts", "--json"]) == 0
    verification = json.loads(capsys.readouterr().out)["verification"]
    assert verification["exact"] and verification["same_names"]
    assert main(["learn", "--physics", str(back), "--positions-only"]) == 0
    assert "with left and right named the other way round" in capsys.readouterr().out
    assert main(["learn", "--starts"]) == 2
    assert "--starts goes with --positions-only" in capsys.readouterr().err


def test_physics_reads_a_physics_file_whatever_its_name_as_generate_does(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """``--physics`` of ``learn`` reads what ``generate --physics`` reads: a file of the physics' JSON form
    named ``.txt`` plays the games of that physics, and ``--out`` never replaces it."""
    rules = tmp_path / "careful.txt"
    rules.write_text(resolve("careful").to_text())
    by_name = main(["learn", "--physics", "careful", "--json"])
    expected = json.loads(capsys.readouterr().out)
    assert main(["learn", "--physics", str(rules), "--json"]) == by_name
    assert json.loads(capsys.readouterr().out) == expected
    assert main(["learn", "--physics", str(rules), "--out", str(rules), "--force"]) == 2
    assert "input" in capsys.readouterr().err


def test_a_lemming_with_too_few_positions_is_named_as_such(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A lemming short of positions (its directions one per frame) is told so, not as a count of directions."""
    games = tmp_path / "games.jsonl"
    games.write_text('{"map": ["   T", "XXXX"], "frames": 3, "lemmings": [{"positions": [[0, 0], [0, 1]], '
                     '"directions": [1, 1, 1]}]}\n')
    assert main(["learn", "--observations", str(games)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"error: {games}:1: lemming 1: 2 positions, expected one per frame (3)"
