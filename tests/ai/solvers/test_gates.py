"""The gate map and the array form of the physics' branches agree with the physics, and every encoding reads one map."""

from __future__ import annotations

import numpy as np
import pytest

from ai.services.generation.random_levels import small_level
from ai.solvers.reach import analyse
from ai.solvers.cpsat_model import CpSatModel, conditions, predecessor
from ai.solvers.gates import FREE, SOLID, destination, gate_codes, possible
from ai.solvers.milp.model import ModelBuilder
from ai.solvers.search import Board
from game.core.physics import CLASSIC, random_physics
from game.core.physics_catalog import SHIPPED
from game.core.physics_views import step, views
from game.core.rules import Cell, cell_codes, channel


PHYSICS = (*SHIPPED.values(), *(random_physics(np.random.default_rng(s)) for s in range(8)))


@pytest.mark.parametrize("seed", range(0, 60, 6))
def test_fixed_cells_allow_exactly_the_physics(seed: int) -> None:
    for physics in PHYSICS:
        level = small_level(seed).with_physics(physics)
        codes = gate_codes(level, [])
        solid = np.isin(cell_codes(level, padded=True), [c for c in Cell if c.solid])
        assert np.array_equal(codes == SOLID, solid) and np.array_equal(codes == FREE, ~solid)
        rows, cols = np.nonzero(~solid[1:-1, 1:-1])
        for ch in (0, 1):
            pr, pc, chans = rows + 1, cols + 1, np.full(len(rows), ch)
            d = 1 if ch else -1
            allowed = np.array([possible(b, codes, pr, pc, chans) for b in views(physics).branches])
            assert (allowed.sum(axis=0) == 1).all()  # with no brick variable, one branch applies
            for i, (r, c) in enumerate(zip(rows.tolist(), cols.tolist())):
                after = step(physics, lambda y, x: bool(solid[y + 1, x + 1]), lambda y, x: False, (r, c, d))
                k = int(np.flatnonzero(allowed[:, i])[0])
                branch = views(physics).branches[k]
                assert branch.apply((r, c, d)) == after
                dr, dc, dch = destination(branch, pr[i:i + 1], pc[i:i + 1], chans[i:i + 1])
                assert (int(dr[0]) - 1, int(dc[0]) - 1, int(dch[0])) == (after[0], after[1], channel(after[2]))
                assert predecessor(branch, after) == (r, c, d)


def test_the_decision_tree_holds_every_branch_once() -> None:
    for physics in PHYSICS:
        root, nodes = views(physics).tree
        leaves: list[int] = []

        def walk(node: int, path: tuple[tuple[tuple[int, int], bool], ...]) -> None:
            if node < 0:
                assert views(physics).branches[~node].needs == path
                leaves.append(~node)
                return
            walk(nodes[node].solid, path + ((nodes[node].offset, True),))
            walk(nodes[node].free, path + ((nodes[node].offset, False),))

        walk(root, ())
        assert sorted(leaves) == list(range(len(views(physics).branches)))


def test_a_brick_variable_allows_both_ways() -> None:
    level = small_level(3)
    info = analyse(level)
    codes = gate_codes(level, info.read_cells)
    r, c = info.read_cells[0]
    # a state whose cell below is the brick variable: falling and standing are both possible
    at = (np.array([r]), np.array([c + 1]), np.array([1]))
    assert [bool(possible(b, codes, *at)[0]) for b in views(CLASSIC).branches][:2] == [True, True]
    fall = views(CLASSIC).branches[0]
    assert conditions(fall, lambda y, x: True, (0, 0, 1)) == [False]  # a solid cell below forbids the fall
    assert int(codes[r + 1, c + 1]) == 0


@pytest.mark.parametrize("seed", [1, 7, 19])
def test_search_milp_and_cpsat_read_one_gate_map(seed: int) -> None:
    level = small_level(seed)
    info = analyse(level)
    codes = gate_codes(level, info.read_cells)
    assert Board.of(level, info).code == codes.ravel().tolist()
    assert np.array_equal(ModelBuilder(level, info).code, codes)
    assert np.array_equal(CpSatModel(level, info).gates, codes)


def test_a_gate_on_a_target_is_refused() -> None:
    level = small_level(2)
    with pytest.raises(ValueError):
        gate_codes(level, [level.targets[0]])


def test_effect_groups_hold_exactly_where_one_of_their_branches_does() -> None:
    many = (*PHYSICS, *(random_physics(np.random.default_rng(s)) for s in range(100, 140)))
    merged = 0
    for physics in many:
        groups = views(physics).effect_groups
        assert sorted(k for g in groups for k in g.branches) == list(range(len(views(physics).branches)))
        merged += any(len(g.branches) > 1 for g in groups)
        offsets = sorted({off for b in views(physics).branches for off, _ in b.needs})
        for bits in range(2 ** len(offsets)):
            solid = {off: bool(bits >> i & 1) for i, off in enumerate(offsets)}
            for group in groups:
                some_branch = any(all(solid[off] == s for off, s in views(physics).branches[k].needs)
                                  for k in group.branches)
                clauses = all(any(solid[off] == s for off, s in clause) for clause in group.clauses)
                assert some_branch == clauses, (physics.name, group, solid)
    assert merged >= 10
