"""Bounded reachability: the states a lemming can occupy on runs that meet at most ``k`` bricks.

:mod:`ai.solvers.reach` finds the states that can matter with bricks anywhere.  A solver that asks "does a set
of at most ``k`` bricks win?" needs far fewer.  A brick enters a lemming's run only where a step reads
its cell (:mod:`game.core.reads`), so a run under a set of at most ``k`` bricks *meets* at most ``k`` of them.
The pass here follows, frame by frame, every run that meets at most ``k`` bricks: an *entry* is a state
and the set of bricks met so far, and a step walks the physics' decision tree
(:func:`game.core.physics_views.flat_tree`), branching where it reads an undecided brickable cell (no brick
there, or a brick met now, while fewer than ``k`` are met).

* An entry ``(state, S)`` is dropped when the same state is held at that frame with a subset of ``S``:
  every run from it is followed from the subset too, by meeting the missing bricks when they are read.
* An entry whose state is not live in :mod:`ai.solvers.reach` at that frame (no winning run passes there) is dropped.
* *Free reads*: where targets do not stop lemmings (runs go back and forth over the same cells until the
  last frame) an entry's set also holds the brickable cells its run read free, where it will never meet a
  brick.  Restless scopes at ``k = 2`` shrink by a third (median 786 -> 497 frame-states on 30 maps); where
  targets stop lemmings the extra entries cost more than the states they save (MILP under climber 9 %
  slower), so there the sets hold the bricks met only (``free_reads`` chooses).
* *Between lemmings*: a run's end is kept only when its set (bricks met, cells read free) fits, within ``k``
  bricks, with some set ending a run of each other lemming the scope covers: a run no winning set of at
  most ``k`` bricks allows for the others is dropped (restless scopes at ``k = 2`` halve again, 497 -> 242
  frame-states; classic 421 -> 321).  So a lemming's scope depends on the lemmings beside it: a scope over
  some of them keeps at least what the whole one keeps for each.
* It over-approximates: without free reads a run may meet a brick on a cell it read free earlier, and past
  :data:`ai.solvers.reach_bounded_walk.MAX_SETS` sets at one state they are replaced by fewer (the bricks met only, else the bricks all
  of them met).  What it keeps is a superset of what the winning sets of at most ``k`` bricks use.

So every winning set of at most ``k`` bricks keeps each lemming's run inside its bounded states, and
every brick of a minimal one (a brick no run reads can be removed) is among the cells some run meets,
:attr:`BoundedReach.read_cells`: an encoding restricted to these states and cells still has every
minimal winning set of at most ``k`` bricks, and nothing that does not win.  Under physics whose
targets do not stop lemmings the per-frame models shrink about 4x at ``k = 2`` on 16x24 maps.

Where targets stop lemmings the pass can also run *whatever the frame* (``timed=False``): entries are
states and sets with no frame, the live states of some frame bound them, and the useful ones reach a target
(a run stops there).  It keeps more states (no frame tells them apart) but its cost does not grow with N:
what the models without frames want on long levels.

A scope may cover only some lemmings (``lemmings``; :attr:`BoundedReach.relaxed`): a model over it is a
relaxation, which :class:`ai.solvers.climb.BoundedScopes` widens while its sets lose the others.

The pass gives up (``None``) past ``max_entries`` entries; it checks the solve context every
:data:`ai.solvers.reach_bounded_walk.CHECK_EVERY` states.  Its step, the forward passes and the backward ones
that keep what is useful are :class:`ai.solvers.reach_bounded_walk.BoundedWalker`.

>>> from game.core.level import Level
>>> from ai.solvers.reach import analyse
>>> level = Level.from_rows([">  . T", "XXX.XX", "XXX.XX"], frames=7, budget=2)
>>> one = bounded_reach(level, analyse(level), 1)
>>> one.read_cells, one.live_state_count, one.feasible
(((1, 3),), 7, True)
>>> none = bounded_reach(level, analyse(level), 0)   # no brick: it falls into the pit, nothing is kept
>>> none.live_state_count, none.feasible
(0, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Iterable

import numpy as np
import numpy.typing as npt

from ai.kernel.context import SolveContext
from ai.solvers.reach import ReachInfo
from ai.solvers.reach_bounded_walk import BoundedWalker, Forward
from game.core.level import Brick, Level

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]

#: Most cells of the dense ``(N, H, W, 2)`` maps of all lemmings the pass builds; beyond, it gives up.
MAX_BOUNDED_CELLS = 50_000_000


@dataclass(frozen=True, eq=False)
class BoundedLemming:
    """The bounded states of one lemming as a dense ``(N, H, W, 2)`` map (channel 1: facing right), and the
    moves between them that bounded runs make: rows ``(frame, from, to)`` of state columns ``(r * W + c) * 2 +
    channel``."""

    live: BoolArray
    moves: IntArray
    start: tuple[int, int, int]  #: ``(row, col, direction)`` at frame 0
    timed: bool = True  #: taken frame by frame (else ``live`` is the same at every frame and moves have frame 0)

    def dense(self, ctx: SolveContext | None = None) -> BoolArray:
        """The map (the same call as :meth:`ai.solvers.reach.LemmingReach.dense`)."""
        return self.live

    @cached_property
    def _made(self) -> tuple[frozenset[tuple[int, int, int]], frozenset[tuple[int, int]]]:
        rows = [tuple(row) for row in self.moves.tolist()]
        return frozenset((t, a, b) for t, a, b in rows), frozenset((a, b) for _, a, b in rows)

    def makes(self, source: tuple[int, int, int], dest: tuple[int, int, int], frame: int | None = None) -> bool:
        """Whether some bounded run moves from ``source`` to ``dest`` (states ``(row, col, direction)``) at
        ``frame`` (``None``: at some frame; a scope taken whatever the frame answers for any frame)."""
        width = self.live.shape[2]
        a = (source[0] * width + source[1]) * 2 + (source[2] > 0)
        b = (dest[0] * width + dest[1]) * 2 + (dest[2] > 0)
        per_frame, any_frame = self._made
        if frame is None or not self.timed:
            return (a, b) in any_frame
        return (frame, a, b) in per_frame

    def states(self, frame: int) -> list[tuple[int, int, int]]:
        """Bounded states at ``frame`` as ``(row, col, direction)``, in reading order (as
        :meth:`ai.solvers.reach.LemmingReach.states`)."""
        return [(int(r), int(c), 1 if ch else -1) for r, c, ch in np.argwhere(self.live[frame])]

    @property
    def live_count(self) -> int:
        """Bounded (frame, state) pairs."""
        return int(np.count_nonzero(self.live))


@dataclass(frozen=True, eq=False)
class BoundedReach:
    """Per lemming the states of runs meeting at most :attr:`bricks` bricks, and the cells they meet."""

    level: Level
    bricks: int
    lemmings: tuple[BoundedLemming, ...]
    read_cells: tuple[Brick, ...]  #: cells some bounded run meets as a brick, in reading order
    entries: int  #: (frame, state, set) entries the pass kept
    timed: bool = True  #: frame by frame; else states whatever the frame (``live`` is the same at every frame)
    #: the lemmings covered: indices into ``level.lemmings``, one per entry of :attr:`lemmings`
    watched: tuple[int, ...] = ()

    @property
    def relaxed(self) -> bool:
        """True when it covers only some of the lemmings: a model over it is a relaxation, whose infeasibility
        proves that no set of at most :attr:`bricks` bricks wins, but whose sets may lose the others."""
        return len(self.lemmings) < len(self.level.lemmings)

    @property
    def feasible(self) -> bool:
        """False when some lemming covered has no run that meets at most :attr:`bricks` bricks and wins."""
        return all(bool(lem.live[-1].any()) for lem in self.lemmings)

    def join(self, other: BoundedReach) -> BoundedReach:
        """This scope and ``other`` (the same level and cap, other lemmings) as one."""
        if (other.level, other.bricks, other.timed) != (self.level, self.bricks, self.timed):
            raise ValueError("only scopes of the same level, cap and kind join")
        watched = self.watched + other.watched
        if len(set(watched)) != len(watched):
            raise ValueError("the scopes cover the same lemming")
        read = tuple(sorted(set(self.read_cells) | set(other.read_cells)))
        return BoundedReach(self.level, self.bricks, self.lemmings + other.lemmings, read,
                            self.entries + other.entries, self.timed, watched)

    @property
    def live_state_count(self) -> int:
        """Bounded (lemming, frame, state) triples."""
        return sum(lem.live_count for lem in self.lemmings)

    @property
    def state_count(self) -> int:
        """Bounded (lemming, state) pairs, frames aside."""
        return sum(int(np.count_nonzero(lem.live.any(axis=0))) for lem in self.lemmings)


Scope = ReachInfo | BoundedReach
"""What an encoding is built over: the live states of every lemming (:mod:`ai.solvers.reach`, bricks anywhere), or
the bounded ones (and then only the cells they meet get a brick variable)."""


def bounded_reach(level: Level, info: ReachInfo, bricks: int, ctx: SolveContext | None = None, *,
                  max_entries: int = 1_000_000, timed: bool = True, lemmings: Iterable[int] | None = None,
                  free_reads: bool | None = None) -> BoundedReach | None:
    """The bounded states of every lemming of ``level`` for runs meeting at most ``bricks`` bricks, within
    the live states of ``info`` (``None`` past ``max_entries`` entries or on a too large map).

    ``timed``: frame by frame (what a per-frame encoding needs); otherwise one pass over states whatever
    the frame (an over-approximation for encodings without frames, whose cost does not grow with N; only
    where targets stop lemmings, else ``ValueError``).  ``lemmings``: only these (indices into
    ``level.lemmings``; :attr:`BoundedReach.relaxed` when not all).  ``free_reads``: an entry also remembers
    the brickable cells its run read free (default: where targets do not stop lemmings; see the module
    docstring).
    """
    if not timed and not level.physics.targets_stop:
        raise ValueError("the pass whatever the frame needs targets that stop lemmings")
    ctx = ctx or SolveContext.create()
    n, h, w = level.frames, level.height, level.width
    if n * h * w * 2 * len(level.lemmings) > MAX_BOUNDED_CELLS:
        return None
    chosen = tuple(range(len(level.lemmings))) if lemmings is None else tuple(sorted(set(lemmings)))
    if not info.feasible:
        return _empty(level, bricks, timed, chosen)
    cells = list(info.read_cells)
    walker = BoundedWalker(level, cells, bricks, not level.physics.targets_stop if free_reads is None else free_reads)
    forwards: list[Forward] = []
    total = 0
    for lem, reach in ((level.lemmings[k], info.lemmings[k]) for k in chosen):
        start = ((lem.row + 1) * walker.pw + lem.col + 1) * 2 + (1 if lem.direction > 0 else 0)
        if timed:
            found = walker.timed(start, reach.dense(ctx).reshape(n, -1), max_entries - total, ctx)
        else:
            found = walker.untimed(start, reach.live_any().reshape(-1), max_entries - total, ctx)
        if found is None:
            return None
        total += found.total
        forwards.append(found)
    finals = [walker.finals(forward) for forward in forwards]
    out: list[BoundedLemming] = []
    met = 0
    for i, (forward, k) in enumerate(zip(forwards, chosen)):
        accept = walker.accepts([sets for j, sets in enumerate(finals) if j != i])
        if timed:
            states, moves, lemming_met = walker.useful(forward, accept, ctx)
        else:
            states, moves, lemming_met = walker.useful_untimed(forward, accept)
        met |= lemming_met
        live = states.reshape(n, h, w, 2) if timed else np.broadcast_to(states.reshape(h, w, 2), (n, h, w, 2))
        out.append(BoundedLemming(live, moves, info.lemmings[k].start, timed))
    read = tuple(sorted(cell for i, cell in enumerate(cells) if met >> i & 1))
    return BoundedReach(level, bricks, tuple(out), read, total, timed, chosen)


def _empty(level: Level, bricks: int, timed: bool, chosen: tuple[int, ...]) -> BoundedReach:
    """No lemming can win: no bounded state at all (for the lemmings ``chosen``)."""
    shape = (level.frames, level.height, level.width, 2)
    none = np.zeros((0, 3), dtype=np.int64)
    lemmings = (level.lemmings[k] for k in chosen)
    return BoundedReach(level, bricks, tuple(BoundedLemming(np.zeros(shape, dtype=bool), none,
                                                            (lem.row, lem.col, lem.direction), timed)
                                             for lem in lemmings), (), 0, timed, chosen)
