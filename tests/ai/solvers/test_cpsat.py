"""CP-SAT solver: the original level, each constraint group, modes and cancellation."""

from __future__ import annotations

import pytest
from ortools.sat.python import cp_model

import ai.solvers.cpsat as cpsat
from ai.facade import solve
from ai.kernel.base import SolveMode, SolveStatus
from ai.solvers.cpsat import CpSatSolver, build_model, run_solver
from ai.solvers.cpsat_model import CpSatModel, add_clause
from ai.solvers.cpsat_path import PathModel
from ai.solvers.reach import analyse
from ai.kernel.context import SolveContext
from tests.ai.solvers.exact_helpers import ORIGINAL_SOLUTIONS, TINY, UNREACHABLE, original
from game.core.level import Level
from game.core.simulation import simulate


def test_original_all_six_solutions() -> None:
    result = solve(original(), solver="cpsat", mode="all")
    assert result.status == SolveStatus.OPTIMAL
    assert result.min_bricks == 3
    assert result.solutions == ORIGINAL_SOLUTIONS
    assert result.complete


def test_original_min_and_any() -> None:
    best = solve(original(), solver="cpsat", mode="min")
    assert best.min_bricks == 3 and best.bricks in ORIGINAL_SOLUTIONS and not best.complete
    anyone = solve(original(), solver="cpsat", mode="any")
    assert anyone.status == SolveStatus.FEASIBLE and simulate(original(), anyone.bricks).won


@pytest.mark.parametrize("fixed", [False, True])
@pytest.mark.parametrize("redundant", [False, True])
def test_options_keep_the_answer(fixed: bool, redundant: bool) -> None:
    result = solve(original(), solver=CpSatSolver(fixed_search=fixed, redundant=redundant), mode=SolveMode.ALL)
    assert result.solutions == ORIGINAL_SOLUTIONS and result.complete


def test_infeasible_by_budget_and_by_reachability() -> None:
    assert solve(TINY.with_limits(budget=0), solver="cpsat").status == SolveStatus.INFEASIBLE
    assert solve(UNREACHABLE, solver="cpsat").status == SolveStatus.INFEASIBLE
    assert solve(original().with_limits(budget=2), solver="cpsat", mode="all").status == SolveStatus.INFEASIBLE


# --------------------------------------------------------------- constraint groups
def _status(m: CpSatModel) -> int:
    status, _ = run_solver(m, SolveContext.create(time_limit=10))
    return status


def _fix_bricks(m: CpSatModel, bricks: tuple[tuple[int, int], ...]) -> None:
    for cell, var in m.bricks.items():
        m.model.add(var == int(cell in bricks))


def _model(level: Level, *groups: str) -> CpSatModel:
    m = CpSatModel(level, analyse(level))
    for k in range(len(m.occ)):
        for group in groups:
            getattr(m, f"add_{group}")(k)
    return m


def test_clause_helper_simplifies_constants() -> None:
    m = cp_model.CpModel()
    add_clause(m, [True, False])
    assert len(m.proto.constraints) == 0
    add_clause(m, [False])
    solver = cp_model.CpSolver()
    assert solver.solve(m) == cp_model.INFEASIBLE


@pytest.mark.parametrize("bricks,wins", [(ORIGINAL_SOLUTIONS[0], True), (((2, 1), (5, 4)), False)])
def test_transitions_follow_the_reference_run(bricks: tuple, wins: bool) -> None:
    level = original()
    m = _model(level, "exactly_one", "transitions")
    _fix_bricks(m, bricks)
    status, solver = run_solver(m, SolveContext.create(time_limit=10))
    assert (status == cp_model.OPTIMAL) == wins
    if wins:
        path = simulate(level, bricks).tracks[0].path
        for t, (r, c, d) in enumerate(path):
            lit = m.state(0, (t, r, c, d))
            assert lit is True or solver.boolean_value(lit)


def test_exactly_one_forbids_two_states() -> None:
    m = _model(TINY, "exactly_one")
    states = [lit for (t, *_), lit in m.occ[0].items() if t == 2 and lit is not True]
    assert len(states) >= 2 or all(lit is True for lit in m.occ[0].values())
    if len(states) >= 2:
        m.model.add(sum(states) >= 2)
        assert _status(m) == cp_model.INFEASIBLE


def test_support_needs_a_predecessor() -> None:
    level = original()
    m = _model(level, "support")
    # a state at frame 5 whose predecessors are all forced off is impossible
    key = next(k for k, lit in m.occ[0].items() if k[0] == 5 and lit is not True)
    m.model.add(m.occ[0][key] == 1)
    t, r, c, d = key
    for pred in [(4, r - 1, c, d), (4, r, c - d, d), (4, r, c, -d), (4, r, c, d)]:
        lit = m.state(0, pred)
        if lit is not False and lit is not True:
            m.model.add(lit == 0)
    assert _status(m) == cp_model.INFEASIBLE


def test_support_allows_the_true_run() -> None:
    level = original()
    m = _model(level, "exactly_one", "transitions", "support", "free_where_occupied")
    _fix_bricks(m, ORIGINAL_SOLUTIONS[3])
    assert _status(m) == cp_model.OPTIMAL


def test_free_where_occupied() -> None:
    m = _model(TINY, "free_where_occupied")
    key, lit = next((k, v) for k, v in m.occ[0].items() if (k[1], k[2]) in m.bricks)
    m.model.add(m.bricks[(key[1], key[2])] == 1)
    if lit is not True:
        m.model.add(lit == 1)
    assert _status(m) == cp_model.INFEASIBLE


def test_budget_and_exact_count() -> None:
    m = build_model(original())
    m.add_exact_count(3)
    assert _status(m) == cp_model.OPTIMAL
    m = build_model(original().with_limits(budget=2))
    assert _status(m) == cp_model.INFEASIBLE
    m = build_model(original())
    m.add_exact_count(2)
    assert _status(m) == cp_model.INFEASIBLE


def test_objective_and_search_order() -> None:
    m = build_model(original())
    m.minimise_bricks()
    m.add_search_order()
    status, solver = run_solver(m, SolveContext.create(time_limit=10))
    assert status == cp_model.OPTIMAL and m.bricks_of(solver) in ORIGINAL_SOLUTIONS


def test_hint_is_accepted() -> None:
    m = build_model(original())
    m.hint(ORIGINAL_SOLUTIONS[2])
    m.minimise_bricks()
    status, solver = run_solver(m, SolveContext.create(time_limit=10))
    assert status == cp_model.OPTIMAL and len(m.bricks_of(solver)) == 3


def test_progress_reports() -> None:
    seen = []
    solve(original(), solver="cpsat", mode="all", ctx=SolveContext.create(progress=seen.append))
    assert seen and all(p.solver == "cpsat" for p in seen)
    assert max(p.solutions_found for p in seen) == 6


# ------------------------------------------------------------------- path encoding
@pytest.mark.parametrize("encoding", ["time", "path"])
@pytest.mark.parametrize("presolve", [False, True])
def test_encodings_agree_on_the_original(encoding: str, presolve: bool) -> None:
    result = solve(original(), solver=CpSatSolver(encoding=encoding, presolve=presolve), mode=SolveMode.ALL)
    assert result.solutions == ORIGINAL_SOLUTIONS and result.complete


def _path_model(level: Level, bricks: tuple, *, redundant: bool = False) -> PathModel:
    m = PathModel(level, analyse(level))
    m.add_dynamics(redundant=redundant)
    _fix_bricks(m, bricks)
    return m


def test_path_visits_exactly_the_reference_run() -> None:
    level = original()
    m = _path_model(level, ORIGINAL_SOLUTIONS[1])
    status, solver = run_solver(m, SolveContext.create(time_limit=10))
    assert status == cp_model.OPTIMAL
    path = simulate(level, ORIGINAL_SOLUTIONS[1]).tracks[0].path
    first: dict = {}
    for t, state in enumerate(path):
        first.setdefault(state, t)
    for state, lit in m.visit[0].items():
        visited = lit is True or solver.boolean_value(lit)
        assert visited == (state in first)
        if visited:
            assert solver.value(m.frame[0][state]) == first[state]


def test_path_losing_bricks_are_infeasible() -> None:
    assert _status(_path_model(original(), ((2, 1), (5, 4)))) == cp_model.INFEASIBLE


def test_path_edges_forbid_leaving_the_live_states() -> None:
    # without the brick the lemming falls into the pit: no live successor, no solution
    assert _status(_path_model(TINY, ())) == cp_model.INFEASIBLE
    assert _status(_path_model(TINY, ((1, 2),))) == cp_model.OPTIMAL


def test_path_frames_bound_the_run() -> None:
    # one frame short: the target is reached at frame 3, so N = 3 frames are too few
    short = TINY.with_limits(frames=3)
    info = analyse(short)
    assert not info.feasible or _status(_path_model(short, ((1, 2),))) == cp_model.INFEASIBLE


def test_path_free_where_visited() -> None:
    level = original()
    m = PathModel(level, analyse(level))
    m.add_free_where_visited(0)
    state, lit = next((s, v) for s, v in m.visit[0].items() if (s[0], s[1]) in m.bricks and v is not True)
    m.model.add(lit == 1)
    m.model.add(m.bricks[(state[0], state[1])] == 1)
    assert _status(m) == cp_model.INFEASIBLE


def test_cap_can_be_tightened_and_reset() -> None:
    m = build_model(original())
    m.set_cap(2)
    assert _status(m) == cp_model.INFEASIBLE
    m.set_cap(3)
    assert _status(m) == cp_model.OPTIMAL


def test_cpsat_alone_without_the_search_hint() -> None:
    result = solve(original(), solver=CpSatSolver(primal_seconds=0), mode=SolveMode.ALL)
    assert result.solutions == ORIGINAL_SOLUTIONS and result.complete


def test_unknown_encoding() -> None:
    with pytest.raises(ValueError):
        CpSatSolver(encoding="nope")


def test_small_models_skip_the_root_probing_and_large_ones_keep_it(monkeypatch: pytest.MonkeyPatch) -> None:
    level = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)
    m = build_model(level, analyse(level))
    status, solver = run_solver(m, SolveContext.create(), presolve=False)
    assert solver.status_name(status) == "OPTIMAL"
    assert solver.parameters.cp_model_probing_level == 0 and solver.parameters.symmetry_level == 0
    assert not solver.parameters.use_sat_inprocessing  # (costs more than it finds on these models)
    monkeypatch.setattr(cpsat, "SMALL_MODEL", len(m.model.proto.variables))  # as if it were not small
    status, solver = run_solver(m, SolveContext.create(), presolve=False)
    assert solver.status_name(status) == "OPTIMAL"
    assert solver.parameters.cp_model_probing_level == 2 and solver.parameters.symmetry_level == 2
