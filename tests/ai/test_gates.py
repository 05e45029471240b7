"""The gate map and the array form of the move table agree with game.rules, and every encoding reads one map."""

from __future__ import annotations

import numpy as np
import pytest

from ai.generation.random_levels import small_level
from ai.reach import analyse
from ai.solvers.cpsat import CpSatModel, conditions, predecessor
from ai.solvers.gates import FREE, SOLID, destination, gate_codes, possible
from ai.solvers.milp.model import ModelBuilder
from ai.solvers.search import Board
from game.rules import MOVE_TABLE, Cell, cell_codes, channel, move_rule


@pytest.mark.parametrize("seed", range(0, 60, 6))
def test_fixed_cells_allow_exactly_the_rule_of_game_rules(seed: int) -> None:
    level = small_level(seed)
    codes = gate_codes(level, [])
    solid = np.isin(cell_codes(level, padded=True), [c for c in Cell if c.solid])
    assert np.array_equal(codes == SOLID, solid) and np.array_equal(codes == FREE, ~solid)
    rows, cols = np.nonzero(~solid[1:-1, 1:-1])
    for ch in (0, 1):
        pr, pc, chans = rows + 1, cols + 1, np.full(len(rows), ch)
        d = 1 if ch else -1
        below, ahead = codes[pr + 1, pc], codes[pr, pc + d]
        allowed = np.array([possible(rule, below, ahead) for rule in MOVE_TABLE])
        assert (allowed.sum(axis=0) == 1).all()  # with no brick variable, one move applies
        for i, (r, c) in enumerate(zip(rows.tolist(), cols.tolist())):
            rule = move_rule(bool(solid[r + 2, c + 1]), bool(solid[r + 1, c + 1 + d]))
            k = MOVE_TABLE.index(rule)
            assert allowed[k, i]
            dr, dc, dch = destination(rule, pr[i:i + 1], pc[i:i + 1], chans[i:i + 1])
            nr, nc, nd = rule.apply((r, c, d))
            assert (int(dr[0]) - 1, int(dc[0]) - 1, int(dch[0])) == (nr, nc, channel(nd))
            assert predecessor(rule, (nr, nc, nd)) == (r, c, d)


def test_a_brick_variable_allows_both_ways() -> None:
    level = small_level(3)
    info = analyse(level)
    codes = gate_codes(level, info.read_cells)
    var = np.array([0])
    assert [bool(possible(rule, var, var)[0]) for rule in MOVE_TABLE] == [True, True, True]
    assert conditions(MOVE_TABLE[0], True, False) == [False]  # a solid cell below forbids the fall
    assert int(codes[info.read_cells[0][0] + 1, info.read_cells[0][1] + 1]) == 0


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
