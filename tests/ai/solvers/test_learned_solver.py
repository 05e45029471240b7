"""The learned-rule solver: the original level, agreement with exact answers, wrong rules, contract."""

from __future__ import annotations

import importlib.util
import threading
import time
from pathlib import Path

import pytest

from ai.facade import get_solver, solve
from ai.kernel.base import SolveMode, SolveStatus
from ai.kernel.context import ManualClock, SolveContext
from ai.learning.derive import derived_at_most_one, derived_transitions
from ai.solvers.learned import LearnedRuleSolver, encode
from tests.ai.solvers.learned_dense_encoder import encode_dense
from ai.learning.learn import learn_rules
from ai.learning.models import TreeModel
from ai.learning.rules import LearnedRules, load_default_rules
from ai.solvers.learned.encoding import _NONE, encode_sparse
from game.core.level import Level
from game.core.simulation import simulate
from tests.ai.solvers.learned_helpers import brute_force, interesting_small_levels
from tests.conftest import ORIGINAL_PACK, ORIGINAL_SOLUTIONS
from tests.stopping import STOP_GUARD, expired


def test_original_level_all_six_solutions_complete() -> None:
    level = Level.load(ORIGINAL_PACK)
    result = solve(level, solver="learned", mode="all")
    assert result.status == SolveStatus.OPTIMAL
    assert set(result.solutions) == ORIGINAL_SOLUTIONS
    assert result.complete
    assert result.min_bricks == 3


def test_original_level_min_and_any() -> None:
    level = Level.load(ORIGINAL_PACK)
    r = solve(level, solver="learned", mode="min")
    assert r.status == SolveStatus.OPTIMAL and r.bricks in ORIGINAL_SOLUTIONS
    r = solve(level, solver="learned", mode="any")
    assert r.status == SolveStatus.FEASIBLE and simulate(level, r.bricks or ()).won


def test_encoding_uses_only_learned_clauses() -> None:
    level = Level.load(ORIGINAL_PACK)
    rules = load_default_rules()
    enc = encode(level, rules.model)  # type: ignore[arg-type]
    assert enc.clauses and not enc.goal_impossible
    # a rule set that never moves anything makes the dynamics static: the start state persists
    frozen = TreeModel([[{"feature": 18 + 4, "low": 1, "high": 2}, {"value": 0}, {"value": 1}],
                        [{"feature": 27 + 4, "low": 1, "high": 2}, {"value": 0}, {"value": 1}]])
    enc = encode(level, frozen)
    assert not enc.clauses and enc.goal_impossible


def _reference_answer(level: Level) -> tuple[int | None, set[tuple[tuple[int, int], ...]]]:
    if importlib.util.find_spec("ai.solvers.cpsat") is not None:
        r = solve(level, solver="cpsat", mode="all", time_limit=20)
        if r.status == SolveStatus.INFEASIBLE:
            return None, set()
        if r.status == SolveStatus.OPTIMAL and r.complete:
            return r.min_bricks, set(r.solutions)
    return brute_force(level)


def test_agrees_with_exact_answers_on_random_small_levels() -> None:
    solver = LearnedRuleSolver()
    levels = interesting_small_levels(11, 10)
    assert len(levels) == 13
    for level in levels:
        best, sols = brute_force(level)
        ref_best, ref_sols = _reference_answer(level)
        assert (best, sols) == (ref_best, ref_sols)
        result = solve(level, solver=solver, mode="all")
        if best is None:
            assert result.status == SolveStatus.INFEASIBLE
        else:
            assert result.status == SolveStatus.OPTIMAL and result.complete
            assert result.min_bricks == best and set(result.solutions) == sols


def _target_magnet() -> LearnedRules:
    """Wrong rules: every target cell is always occupied (facing left)."""
    tree = TreeModel([[{"feature": 9 + 4, "low": 1, "high": 2}, {"value": 0}, {"value": 1}], [{"value": 0}]])
    return LearnedRules(tree, {"games": 0})


def test_wrong_rules_are_reported_not_returned() -> None:
    level = Level.load(ORIGINAL_PACK)
    result = solve(level, solver=LearnedRuleSolver(rules=_target_magnet()), mode="min")
    assert result.status == SolveStatus.UNKNOWN
    assert result.bricks is None and not result.solutions
    assert "learned rules are wrong" in result.message


def test_rules_from_too_few_games_never_give_a_bad_answer() -> None:
    rules = learn_rules(games=1, seed=0).rules
    assert not rules.verified_exact
    solver = LearnedRuleSolver(rules=rules)
    level = Level.load(ORIGINAL_PACK)
    result = solve(level, solver=solver, mode="all")  # ai.solve replays every solution
    assert result.status in (SolveStatus.UNKNOWN, SolveStatus.FEASIBLE)
    assert not result.complete
    if result.status == SolveStatus.UNKNOWN:
        assert "learned rules" in result.message


def test_rules_file_option(tmp_path: Path) -> None:
    path = tmp_path / "rules.json"
    load_default_rules().save(path)
    level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
    result = solve(level, solver="learned", rules=str(path))
    assert result.status == SolveStatus.OPTIMAL and result.bricks == ((1, 2),)


def test_infeasible_level() -> None:
    level = Level.from_rows(["> X T", "XXXXX"], frames=6, budget=1)
    assert solve(level, solver="learned").status == SolveStatus.INFEASIBLE


def test_cancel_and_time_limit() -> None:
    level = Level.load(ORIGINAL_PACK).with_limits(frames=60, budget=6)
    cancel = threading.Event()
    cancel.set()
    start = time.perf_counter()
    assert get_solver("learned").solve_in(level, SolveMode.ALL,
                                          SolveContext.create(cancel=cancel)).status == SolveStatus.CANCELLED
    assert time.perf_counter() - start < STOP_GUARD
    ctx = SolveContext.create(time_limit=0.2, clock=ManualClock(step=0.01), solver="learned")
    r = get_solver("learned").solve_in(level, SolveMode.ALL, ctx)
    assert r.status in (SolveStatus.TIMEOUT, SolveStatus.OPTIMAL, SolveStatus.FEASIBLE)
    assert r.status == SolveStatus.OPTIMAL or ctx.should_stop()
    assert get_solver("learned").solve_in(level, SolveMode.ALL, expired()).status == SolveStatus.TIMEOUT


def test_sparse_and_dense_encoders_agree() -> None:
    model = load_default_rules().model
    assert isinstance(model, TreeModel)
    for level in [Level.load(ORIGINAL_PACK), *interesting_small_levels(5, 3, others=1)]:
        for prune in (False, True):
            a = encode_dense(level, model, prune=prune)
            b = encode_sparse(level, model, prune=prune)
            assert (a.n_vars, a.goal, a.used_bricks, a.goal_impossible) == (b.n_vars, b.goal, b.used_bricks,
                                                                             b.goal_impossible)

            def clauses(e: object) -> list[tuple[int, ...]]:
                return sorted(tuple(sorted(v for v in row if v != _NONE))
                              for block in e.clauses for row in block.tolist())  # type: ignore[attr-defined]

            assert clauses(a) == clauses(b)


def test_derived_moves_from_the_learned_trees() -> None:
    model = load_default_rules().model
    assert isinstance(model, TreeModel)
    assert derived_at_most_one(model)
    moves = derived_transitions(model)
    assert moves is not None
    # a right-facing lemming: the learned outputs are fall, walk, turn and stay (on a target)
    assert sorted({out for out, _ in moves[1]}) == [(0, 0, 0), (0, 0, 1), (0, 1, 1), (1, 0, 1)]
    # rules that put a lemming on every target (no lemming needed) allow no path encoding
    assert derived_transitions(_target_magnet().model) is None  # type: ignore[arg-type]


@pytest.mark.parametrize("kw", [{"encoding": "time"}, {"encoding": "time", "derived": True}])
def test_time_encoding_agrees_with_path_encoding(kw: dict[str, object]) -> None:
    path = LearnedRuleSolver()
    time_enc = LearnedRuleSolver(**kw)  # type: ignore[arg-type]
    for level in [Level.load(ORIGINAL_PACK), *interesting_small_levels(3, 5, others=1)]:
        a = solve(level, solver=path, mode="all")
        b = solve(level, solver=time_enc, mode="all")
        assert a.stats.extra.get("encoding", "path") == "path" and b.stats.extra.get("encoding", "time") == "time"
        assert (a.status, set(a.solutions), a.complete) == (b.status, set(b.solutions), b.complete)
