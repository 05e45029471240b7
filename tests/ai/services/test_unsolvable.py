"""Why a level has no solution: every reason the analysis gives is true of the level."""

from __future__ import annotations

from ai import facade
from ai.services.analysis import analyse_level
from game.core.level import Level
from game.core.physics_catalog import SHIPPED

# A careful lemming turns at the brink of every drop, so the left one never gets down to its target;
# the reachability analysis alone lets it through (a cell free at one moment, bricked at another).
LEDGE = ["X> .XT <X", "XX.XXXXXX", "XT  XXXXX", "XXXXXXXXX"]


def test_a_lone_lemming_that_cannot_get_home_is_not_said_to() -> None:
    level = Level.from_rows(["X> .X", "XX.XX", "XT  X", "XXXXX"], frames=12,
                            budget=3).with_physics(SHIPPED["careful"])
    a = analyse_level(level)
    assert a.status == "unsolvable"
    assert a.reasons == ("the lemming cannot get home within 12 frames, whatever the bricks",)


def test_only_the_lemming_that_cannot_get_home_alone_is_named() -> None:
    level = Level.from_rows(LEDGE, frames=12, budget=3).with_physics(SHIPPED["careful"])
    a = analyse_level(level)
    assert a.status == "unsolvable"
    assert a.reasons == ("lemming 1 cannot get home within 12 frames, whatever the bricks",)
    alone = level.with_cells({(0, 1): " "})
    assert facade.solve(alone, solver="search").min_bricks == 0


def test_lemmings_that_each_get_home_alone_are_said_to_get_in_each_others_way() -> None:
    level = Level.load("levels/024_crossed_paths.txt").with_limits(frames=15)
    a = analyse_level(level)
    assert a.reasons == ("each lemming can get home on its own, but no one set of bricks brings them all home "
                         "within 15 frames",)
