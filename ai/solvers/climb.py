"""The bounded scopes of a climb through caps: which states a cap of ``k`` bricks needs.

For each cap ``k`` an exact solver (the MILP, CP-SAT) may build its model over the bounded states of
:mod:`ai.solvers.reach_bounded` instead of every live state.  The pass that finds them costs a few microseconds per
entry, so one climb spends at most :data:`BOUNDED_ENTRIES` entries per node of the full model (the full
model's solve costs tens of microseconds per node) and :data:`MAX_CLIMB_ENTRIES` in all, and a cap whose
bounded states are not at most :data:`BOUNDED_SHARE` of the full model's nodes is left to the full model.

The pass runs frame by frame (the per-frame models need it; the path model gets fewer states from it)
while the level's live (frame, state) pairs are not many more than that budget; the path model can also
take the pass whatever the frame, whose cost does not grow with N (it keeps more states).

In a search for one set of the fewest bricks (``relax``) each cap's scope first covers only the lemmings
that the brick-free run loses; the others mostly win anyway.  A set the smaller model allows wins the
lemmings covered; it is replayed, and the lemmings it loses join for a new solve of the same cap.  A cap
the model cannot meet is proved infeasible (the model is a relaxation).  On 30 maps of minimum 2 the MILP
at ``k = 2`` keeps 0.63 of its columns under climber (median; classic 0.90, drifter 0.79, restless 1.0),
with 1.0-1.13 solves per cap.

>>> from game.core.level import Level
>>> from ai.solvers.reach import analyse
>>> level = Level.from_rows([">      T", "X XX XXX", "        ", "XXXXXXXX"], frames=9, budget=2)
>>> scopes = BoundedScopes(level, analyse(level), per_frame=False)
>>> scopes.at(1).feasible, scopes.full   # no run meeting one brick wins; 8 live states
(False, 8)
>>> scopes.at(2) is None   # the two holes need both bricks: every live state, so the full model it is
True
"""

from __future__ import annotations

import math

from ai.kernel.context import SolveContext
from ai.solvers.reach import ReachInfo
from ai.kernel.base import BrickSet
from ai.solvers.reach_bounded import MAX_BOUNDED_CELLS, BoundedReach, bounded_reach
from game.core.level import Level
from game.core.simulation import simulate

#: Which caps get a bounded model: ``auto`` while it pays (below); ``frames`` and ``states`` every cap, with
#: the pass frame by frame, or whatever the frame where the formulation has no frames (tests, comparisons);
#: ``off`` none.
CLIMBS = ("auto", "frames", "states", "off")
#: A cap's bounded model is built only while it has at most this share of the full model's nodes ...
BOUNDED_SHARE = 0.5
#: ... and the passes of one climb keep at most this many entries per node of the full model (frame by
#: frame and whatever the frame: each has its own allowance).
BOUNDED_ENTRIES = 20
#: ... and at most this many in all (the entries and their moves take a few hundred bytes each).
MAX_CLIMB_ENTRIES = 500_000
#: The allowance of a climb that must use bounded models (any cap, whatever its size).
UNLIMITED = 1 << 62


class BoundedScopes:
    """The bounded scopes of one climb (see the module docstring).

    ``relax``: each cap's scope first covers only the lemmings that the brick-free run loses
    (:attr:`ai.solvers.reach_bounded.BoundedReach.relaxed`); a set its model allows is replayed with :meth:`widen`,
    and the lemmings it loses join them (the cap is then solved again).  For a search of one set of the
    fewest bricks (not for an enumeration, which needs every lemming in the model).
    """

    def __init__(self, level: Level, info: ReachInfo, *, per_frame: bool, ctx: SolveContext | None = None,
                 choice: str = "auto", relax: bool = False) -> None:
        self.level, self.info, self.per_frame, self.choice = level, info, per_frame, choice
        self.ctx = ctx or SolveContext.create()
        self.full = 0  #: nodes of the full model: live (frame, state) pairs for a per-frame model, else live states
        self.share = 0.0
        self.timed_left = self.rough_left = -1  # (counted at the first cap)
        self._watched = None if relax else tuple(range(len(level.lemmings)))
        self._kept: dict[tuple[int, bool], BoundedReach] = {}  # per cap and kind, the scope of the watched so far

    @property
    def watched(self) -> tuple[int, ...]:
        """The lemmings the scopes cover (indices into ``level.lemmings``): all, or with ``relax`` those the
        brick-free run loses (run when first asked: a solve settled before its first cap needs none) and
        those :meth:`widen` added."""
        if self._watched is None:
            self._watched = lost_lemmings(self.level, ())
        return self._watched

    def _allow(self) -> None:
        """The allowances, from the full model's size (counted once, at the first cap; none on a level too
        large for the pass, :data:`ai.solvers.reach_bounded.MAX_BOUNDED_CELLS`)."""
        info, per_frame, level = self.info, self.per_frame, self.level
        self.timed_left = self.rough_left = 0
        if level.frames * level.height * level.width * 2 * len(level.lemmings) > MAX_BOUNDED_CELLS:
            return
        pairs = info.count_live_states(self.ctx)
        self.full = pairs if per_frame else sum(int(lem.live_any().sum()) for lem in info.lemmings)
        allowance = min(BOUNDED_ENTRIES * self.full, MAX_CLIMB_ENTRIES)
        self.share = BOUNDED_SHARE
        self.timed_left = allowance if per_frame or pairs <= allowance else 0
        self.rough_left = 0 if per_frame else allowance
        if self.choice != "auto":
            self.share = 0.0 if self.choice == "off" else math.inf
            self.timed_left = UNLIMITED if self.choice == "frames" or per_frame else 0
            self.rough_left = UNLIMITED if self.choice == "states" and not per_frame else 0

    def at(self, bricks: int) -> BoundedReach | None:
        """The bounded states for a cap of ``bricks``, or ``None`` once the full model is the better choice
        (this climb's allowance is spent, or the bounded states are too large a share)."""
        if self.timed_left < 0:
            self._allow()
        scope = None
        if self.timed_left > 0:
            scope, self.timed_left = self._pass(bricks, True, self.timed_left)
        if scope is None and self.rough_left > 0:
            scope, self.rough_left = self._pass(bricks, False, self.rough_left)
        if scope is None:
            return None
        size = scope.live_state_count if self.per_frame else scope.state_count
        return scope if size <= self.share * self.full else None

    def _pass(self, bricks: int, timed: bool, allowance: int) -> tuple[BoundedReach | None, int]:
        """The scope of the watched lemmings at a cap (the pass runs for those the last one did not cover,
        whose runs are then not checked against the earlier ones': looser, still sound) and the allowance
        left (none once a pass gives up)."""
        kept = self._kept.get((bricks, timed))
        new = [k for k in self.watched if kept is None or k not in kept.watched]
        if kept is not None and not new:
            return kept, allowance
        scope = bounded_reach(self.level, self.info, bricks, self.ctx, max_entries=allowance, timed=timed,
                              lemmings=new)
        if scope is None:
            return None, 0
        left = allowance - scope.entries
        if kept is not None:
            scope = kept.join(scope)
        self._kept[(bricks, timed)] = scope
        return scope, left

    def widen(self, bricks: BrickSet) -> bool:
        """Whether the lemmings watched grew: the run with ``bricks`` (a set that a model over the last scope
        allows, so it wins the lemmings watched) is replayed, and the lemmings it loses join them.  False:
        it wins every lemming."""
        lost = [k for k in lost_lemmings(self.level, bricks) if k not in self.watched]
        if lost:
            self._watched = tuple(sorted((*self.watched, *lost)))
        return bool(lost)


def lost_lemmings(level: Level, bricks: BrickSet) -> tuple[int, ...]:
    """The lemmings (indices into ``level.lemmings``) not on a target at the last frame of the run with
    ``bricks``."""
    run = simulate(level, bricks, enforce_budget=False)
    return tuple(k for k, track in enumerate(run.tracks) if track.reached_at is None)
