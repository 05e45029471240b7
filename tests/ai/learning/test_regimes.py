"""Learning from one game (many lemmings per map, mirror prior, active queries), from positions
alone, and the re-verification of learned rules.  Exactness is asserted against the verifier."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ai.learning.trust as trust
from ai.facade import solve
from ai.kernel.base import SolveStatus
from ai.learning.dataset import mirrored, random_games_dataset, regime_datasets
from ai.learning.features import reference_labels
from ai.learning.hidden import PositionsModel, STAY
from ai.learning.positions_verify import verify_positions
from ai.learning.learn import learn_positions, learn_rules
from ai.learning.models import fit_tree
from ai.learning.rules import LearnedRules, RulesFileError
from ai.learning.verify import verify_model
from ai.solvers.learned import LearnedRuleSolver
from game.core.level import Level
from tests.ai.solvers.learned_helpers import interesting_small_levels
from tests.conftest import ORIGINAL_PACK, ORIGINAL_SOLUTIONS


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Verdict caches go to a fresh data folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    trust._memory.clear()
    return tmp_path / "xdg"


# ------------------------------------------------------------------ one game
def test_many_lemming_game_covers_what_random_games_miss() -> None:
    many = regime_datasets(np.random.default_rng(1), 1, "many")[0]
    rand = random_games_dataset(np.random.default_rng(1), 1)
    assert np.all(many.labels == reference_labels(many.features))
    on_target = lambda d: int((d.features[:, 9 + 4].astype(bool) & d.features[:, [22, 31]].any(axis=1)).sum())  # noqa: E731
    assert on_target(many) > 10 * max(1, on_target(rand))


@pytest.mark.parametrize("seed", [1, 3])
def test_exact_from_one_many_lemming_game(seed: int) -> None:
    report = learn_rules(games=1, seed=seed, regime="many")
    ver = verify_model(report.rules.model)  # fresh, not the stored field
    assert ver.exact and ver.configurations == 255_879
    assert report.rules.meta["regime"] == "many" and report.rules.meta["games"] == 1


def test_mirror_prior_fixes_seed_0_and_is_explicit() -> None:
    plain = learn_rules(games=1, seed=0, regime="many").rules
    mirror = learn_rules(games=1, seed=0, regime="many", mirror=True).rules
    assert not verify_model(plain.model).exact
    assert verify_model(mirror.model).exact and mirror.meta["mirror"] is True and plain.meta["mirror"] is False


def test_mirroring_twice_adds_nothing() -> None:
    data = random_games_dataset(np.random.default_rng(2), 2)
    once = mirrored(data)
    assert len(mirrored(once)) == len(once) and set(once.keys.tolist()) >= set(data.keys.tolist())


def test_active_after_one_game_needs_at_most_two_query_levels() -> None:
    report = learn_rules(games=1, seed=0, regime="many", active=True, queries=3)
    assert verify_model(report.rules.model).exact
    assert 1 <= report.rules.meta["queries"] <= 2


# ------------------------------------------------------------------ positions only
def test_positions_only_exact_and_solves_the_original_level(tmp_path: Path) -> None:
    report = learn_positions(games=2, seed=0)
    model = report.rules.model
    assert isinstance(model, PositionsModel)
    ver = verify_positions(model)
    assert ver.exact and ver.configurations > 2 * 13_122
    path = tmp_path / "positions.json"
    report.rules.save(path)
    loaded = LearnedRules.load(path)
    assert isinstance(loaded.model, PositionsModel) and loaded.meta["observations"] == "positions"
    result = solve(Level.load(ORIGINAL_PACK), solver=LearnedRuleSolver(rules=loaded), mode="all")
    assert result.status == SolveStatus.OPTIMAL and result.complete
    assert set(result.solutions) == ORIGINAL_SOLUTIONS


def _renamed(model: PositionsModel) -> PositionsModel:
    """The same machine with its two hidden states swapped."""
    def swap(nodes: list[dict[str, int]], values: bool) -> list[dict[str, int]]:
        out = []
        for n in nodes:
            n = dict(n)
            if n.get("feature") == 18:
                n["low"], n["high"] = n["high"], n["low"]
            if values and "value" in n:
                n["value"] = 1 - n["value"]
            out.append(n)
        return out
    # swapping low/high breaks the "children after parent" order only if low != high; both are after the node
    return PositionsModel(swap(model.move, False), swap(model.next, True),
                          {0: 1 - model.start_state[0], 1: 1 - model.start_state[1]})


def test_positions_verifier_accepts_any_naming_and_catches_a_wrong_move() -> None:
    model = learn_positions(games=2, seed=0).rules.model
    assert isinstance(model, PositionsModel)
    assert verify_positions(_renamed(model)).exact
    broken = PositionsModel([dict(n) for n in model.move], model.next, model.start_state)
    leaf = next(i for i, n in enumerate(broken.move) if n.get("value") == STAY)
    broken.move[leaf] = {"value": STAY + 1}  # "stay" becomes "walk right"
    ver = verify_positions(broken)
    assert not ver.exact and ver.counterexamples
    assert not LearnedRuleSolver(rules=LearnedRules(broken, {})).trusted


# ------------------------------------------------------------------ re-verification
def test_edited_verification_field_is_not_trusted(tmp_path: Path) -> None:
    rules = learn_rules(games=3, seed=0).rules
    assert not verify_model(rules.model).exact
    data = rules.to_json()
    data["verification"] = {"exact": True, "errors": [0, 0], "configurations": 255879, "exhaustive": True}
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(data))
    forged = LearnedRules.load(path)
    assert forged.verified_exact  # what the file claims
    solver = LearnedRuleSolver(rules=forged)
    assert not solver.trusted
    for level in interesting_small_levels(11, 6, others=2):
        result = solve(level, solver=solver, mode="all")
        assert result.status not in (SolveStatus.OPTIMAL, SolveStatus.INFEASIBLE) and not result.complete


def test_verdict_is_cached_by_content_hash(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = learn_rules(games=1, seed=1, regime="many").rules
    calls: list[int] = []
    real = trust.verify_rules
    monkeypatch.setattr(trust, "verify_rules", lambda r, **kw: calls.append(1) or real(r, **kw))
    assert trust.verdict(rules).exact and trust.verdict(rules).exact and len(calls) == 1
    trust._memory.clear()  # a new process: the disk cache answers
    assert trust.verdict(rules).exact and len(calls) == 1
    changed = LearnedRules(fit_tree(np.zeros((1, 36)), np.zeros((1, 2))), dict(rules.meta), rules.verification)
    assert trust.rules_hash(changed) != trust.rules_hash(rules)
    assert not trust.verdict(changed).exact and len(calls) == 2


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=20))
def test_rules_loader_rejects_junk_with_a_rules_error(junk: object) -> None:
    for doc in (junk, {"format": "lemming-bricks-rules", "version": 1, "model": junk},
                {"format": "lemming-bricks-rules", "version": 1,
                 "features": LearnedRules(PositionsModel([{"value": 4}], [{"value": 0}]), {}).to_json()["features"],
                 "model": {"kind": "positions", "move": junk, "next": junk}}):
        try:
            LearnedRules.from_json(doc)  # type: ignore[arg-type]
        except RulesFileError:
            pass
