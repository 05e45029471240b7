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
  :data:`MAX_SETS` sets at one state they are replaced by fewer (the bricks met only, else the bricks all
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
:data:`CHECK_EVERY` states.

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

import operator
from dataclasses import dataclass, field
from functools import cached_property, reduce
from typing import Callable, Iterable

import numpy as np
import numpy.typing as npt

from ai.kernel.context import SolveContext
from ai.solvers.reach import ReachInfo
from ai.solvers.gates import FREE, SOLID, gate_codes
from game.core.level import Brick, Level
from game.core.physics_views import flat_tree

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]
Step = tuple[int, int, int, int]
"""A step of the pass: from state id ``sid`` with the bricks ``have`` met to state id ``nsid``, meeting ``added``."""

#: Most cells of the dense ``(N, H, W, 2)`` maps of all lemmings the pass builds; beyond, it gives up.
MAX_BOUNDED_CELLS = 50_000_000
#: Most sets of met bricks kept per state (and frame); beyond, they are replaced by the bricks all of them
#: met (a subset of each: its runs include theirs), so a step costs at most this many comparisons.
MAX_SETS = 16
#: The pass checks the solve context every this many states (a state costs microseconds).
CHECK_EVERY = 256


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
    walker = _Walker(level, cells, bricks, not level.physics.targets_stop if free_reads is None else free_reads)
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


def minimal(sets: set[int]) -> list[int]:
    """The sets (bit masks) of which no other is a subset, fewest bits first."""
    kept: list[int] = []
    for new in sorted(sets, key=int.bit_count):
        if not any(old & new == old for old in kept):
            kept.append(new)
    return kept


@dataclass
class Forward:
    """The forward pass of one lemming: its steps (per frame, or one list whatever the frame), the entries
    that end a run (at the last frame, or on a target), the entries kept, the frames; whatever the frame,
    every entry held."""

    steps: list[list[Step]]
    last: dict[int, list[int]]
    total: int
    frames: int
    held: dict[int, list[int]] = field(default_factory=dict)


class _Walker:
    """The step of the bounded pass: a state and a set of met bricks to every outcome, kept per key."""

    def __init__(self, level: Level, cells: list[Brick], bricks: int, free_reads: bool) -> None:
        self.pw = level.width + 2
        self.code: list[int] = gate_codes(level, cells).ravel().tolist()
        self.target: list[bool] = np.pad(level.target_map, 1).ravel().tolist()
        self.stops = level.physics.targets_stop
        self.tree = flat_tree(level.physics, self.pw)
        self.bricks = bricks
        #: an entry's set holds the bricks met (bit ``i`` for ``cells[i]``) and, ``shift`` bits higher, the
        #: brickable cells read free (a run never meets a brick there later)
        self.shift = len(cells) if free_reads else 0
        self.low = (1 << len(cells)) - 1
        inner = np.full((level.height + 2, self.pw), -1, dtype=np.int64)
        inner[1:-1, 1:-1] = 2 * np.arange(level.height * level.width).reshape(level.height, level.width)
        #: per state id (padded position * 2 + channel): its column in a frame's ``H * W * 2`` row (no step
        #: ends on the padding ring: a move enters only a cell its branch needs free, and outside is solid)
        self.inner: list[int] = (inner.ravel()[:, None] + np.array([0, 1])).ravel().tolist()
        self.plane = level.height * level.width * 2  #: state columns per frame
        self.memo: dict[tuple[int, int, int], tuple[tuple[int, int], ...]] = {}
        self.near: dict[int, int] = {}  #: per state id: the bits of the brickable cells its step may read

    def timed(self, start: int, live: BoolArray, budget: int, ctx: SolveContext) -> Forward | None:
        """The frame-by-frame forward pass of one lemming (``live``: its ``(N, H * W * 2)`` live map; ``None``
        past ``budget`` entries); :meth:`useful` then keeps what leads to an accepted entry at the last frame."""
        frames = len(live)
        frontier: dict[int, list[int]] = {start: [0]} if live[0, self.inner[start]] else {}
        steps: list[list[Step]] = []  # per frame t: the steps of its entries to t + 1
        total = 0
        for t in range(frames - 1):
            ctx.check()
            if not frontier:
                break
            nxt: dict[int, list[int]] = {}
            steps.append(self.advance(frontier, live[t + 1].tobytes(), nxt, ctx))
            total += sum(len(sets) for sets in nxt.values())
            if total > budget:
                return None
            frontier = nxt
        return Forward(steps, frontier, total, frames)

    def untimed(self, start: int, live_any: BoolArray, budget: int, ctx: SolveContext) -> Forward | None:
        """The forward pass of one lemming over states whatever the frame (``live_any``: its states live at
        some frame; ``None`` past ``budget`` entries); :meth:`useful_untimed` then keeps the entries from which
        the steps made reach an accepted entry on a target.  Only where targets stop lemmings: a target ends
        every run."""
        live = live_any.tobytes()
        held: dict[int, list[int]] = {start: [0]} if live[self.inner[start]] else {}
        work = [(start, 0)] if held else []
        steps: list[Step] = []
        total = len(held)
        rounds = 0
        while work:
            rounds += 1
            if rounds % CHECK_EVERY == 0:
                ctx.check()
            sid, have = work.pop()
            if have not in held[sid]:
                continue  # a subset replaced it
            found: dict[int, list[int]] = {}
            steps += self.advance({sid: [have]}, live, found, None, held)
            for nsid, sets in found.items():
                work.extend((nsid, new) for new in sets)
                total += len(sets)
            if total > budget:
                return None
        last = {sid: sets for sid, sets in held.items() if self.stops and self.target[sid >> 1]}
        return Forward([steps], last, total, 0, held)

    def useful_untimed(self, forward: Forward, accept: Callable[[int], bool]) -> tuple[BoolArray, IntArray, int]:
        """The states of the entries from which the steps made reach an accepted entry on a target, their moves
        (frame 0) and the bits of the bricks met on them."""
        steps, held = forward.steps[0], forward.held
        # an entry is useful when a step leads from it to a useful entry held there (one whose set is a subset of
        # the step's: its runs include the step's), the accepted entries on targets first
        into: dict[tuple[int, int], list[Step]] = {}
        for step in steps:
            sid, have, nsid, added = step
            new = have | added
            for old in held.get(nsid, ()):
                if old & new == old:
                    into.setdefault((nsid, old), []).append(step)
        useful = {(sid, have) for sid, sets in forward.last.items() for have in sets if accept(have)}
        todo, met, kept = list(useful), 0, []
        while todo:
            entry = todo.pop()
            for sid, have, nsid, added in into.get(entry, ()):
                kept.append((0, self.inner[sid], self.inner[nsid]))
                met |= added
                if (sid, have) not in useful:
                    useful.add((sid, have))
                    todo.append((sid, have))
        out = np.zeros(self.plane, dtype=bool)
        out[[self.inner[sid] for sid, _ in useful]] = True
        return out, np.array(sorted(set(kept)), dtype=np.int64).reshape(-1, 3), met & self.low

    def advance(self, frontier: dict[int, list[int]], live: bytes, nxt: dict[int, list[int]],
                ctx: SolveContext | None, seen: dict[int, list[int]] | None = None) -> list[Step]:
        """Every step of the entries ``frontier`` into states that ``live`` holds: the new entries go into
        ``nxt`` (each state's minimal sets; not those ``seen`` holds already, or a subset of them, which
        ``seen`` then takes too); returns the steps made.  ``ctx`` is checked every :data:`CHECK_EVERY`
        states."""
        made: list[Step] = []
        inner, memo, near, bricks = self.inner, self.memo, self.near, self.bricks
        keep = nxt if seen is None else seen
        for done, (sid, sets) in enumerate(frontier.items()):
            if ctx is not None and done % CHECK_EVERY == CHECK_EVERY - 1:
                ctx.check()
            bits = near.get(sid)
            if bits is None:
                bits = near[sid] = self.nearby(sid)
            for have in sets:
                key = (sid, have & bits, bricks - (have & self.low).bit_count())
                outcomes = memo.get(key)
                if outcomes is None:
                    outcomes = memo[key] = self.outcomes(sid, key[1], key[2])
                for nsid, added in outcomes:
                    if not live[inner[nsid]]:
                        continue
                    made.append((sid, have, nsid, added))
                    new = have | added
                    held = keep.get(nsid)
                    if held is None:
                        keep[nsid] = [new]
                    elif not any(old & new == old for old in held):
                        held[:] = [old for old in held if old & new != new]
                        held.append(new)
                        if len(held) > MAX_SETS:  # more runs, but a short list
                            held[:] = self.merged(held)
                            if seen is not None:
                                nxt.setdefault(nsid, []).extend(held)
                            continue
                    else:
                        continue
                    if seen is not None:
                        nxt.setdefault(nsid, []).append(new)
        return made

    def merged(self, sets: list[int]) -> list[int]:
        """Fewer sets whose runs include those of ``sets``: the bricks met only (the cells read free
        forgotten), else the bricks all of them met."""
        plain = minimal({have & self.low for have in sets})
        return plain if len(plain) <= MAX_SETS else [reduce(operator.and_, plain)]

    def useful(self, forward: Forward, accept: Callable[[int], bool], ctx: SolveContext
               ) -> tuple[BoolArray, IntArray, int]:
        """``(N, H * W * 2)``: the states of the entries held at each frame from which the steps made reach an
        entry held at the last frame that ``accept`` keeps (a step reaches an entry whose set is a subset of its
        own: that entry's runs include the step's), the others leading only to runs that lose or that no
        winning set allows; the moves between them, as
        :attr:`BoundedLemming.moves`; and the bits of the bricks met on the way."""
        steps, frames = forward.steps, forward.frames
        out = np.zeros((frames, self.plane), dtype=bool)
        ahead: dict[int, list[int]] = {}
        if len(steps) == frames - 1:
            for sid, ending in forward.last.items():
                kept = [have for have in ending if accept(have)]
                if kept:
                    ahead[sid] = kept
        inner = self.inner
        met = 0
        rows: list[tuple[int, int, int]] = []
        if ahead:
            out[len(steps), [inner[sid] for sid in ahead]] = True
        for t in range(len(steps) - 1, -1, -1):
            ctx.check()
            now: dict[int, list[int]] = {}
            for sid, have, nsid, added in steps[t]:
                sets = ahead.get(nsid)
                if sets is None:
                    continue
                new = have | added
                if any(old & new == old for old in sets):
                    now.setdefault(sid, []).append(have)
                    met |= added
                    rows.append((t, inner[sid], inner[nsid]))
            ahead = now
            if ahead:
                out[t, [inner[sid] for sid in ahead]] = True
        moves = np.array(sorted(set(rows)), dtype=np.int64).reshape(-1, 3)
        return out, moves, met & self.low

    def finals(self, forward: Forward) -> list[int]:
        """The minimal sets of the entries that end a lemming's runs (any set ending a winning run includes one)."""
        return minimal({have for sets in forward.last.values() for have in sets})

    def accepts(self, others: list[list[int]]) -> Callable[[int], bool]:
        """Whether a set ending a run of one lemming can be part of a winning set of at most :attr:`bricks`
        bricks with each of the ``others`` (the other lemmings' :meth:`finals`): for each, some set whose
        bricks, joined to its own, are at most that many and none on a cell either run read free."""
        low, shift, bricks = self.low, self.shift, self.bricks
        seen: dict[int, bool] = {}

        def fits(have: int, other: int) -> bool:
            both = have | other
            placed = both & low
            return placed.bit_count() <= bricks and not (shift and placed & (both >> shift))

        def accept(have: int) -> bool:
            ok = seen.get(have)
            if ok is None:
                ok = seen[have] = all(any(fits(have, other) for other in sets) for sets in others)
            return ok

        return accept

    def nearby(self, sid: int) -> int:
        """The bits of the brickable cells that the step from state ``sid`` may read."""
        pos = sid >> 1
        _, nodes, _ = self.tree[1 if sid & 1 else -1]
        bits = 0
        for delta, _, _ in nodes:
            cell = self.code[pos + delta]
            if cell >= 0:
                bits |= 1 << cell | (1 << (cell + self.shift) if self.shift else 0)
        return bits

    def outcomes(self, sid: int, have: int, left: int) -> tuple[tuple[int, int], ...]:
        """Every ``(next state id, bricks met now)`` from state ``sid`` with the bricks ``have`` met and
        ``left`` more allowed."""
        pos, channel = sid >> 1, sid & 1
        if self.stops and self.target[pos]:
            return ((sid, 0),)
        root, nodes, leaves = self.tree[1 if channel else -1]
        code, shift = self.code, self.shift
        found: list[tuple[int, int]] = []

        def walk(node: int, added: int, left: int) -> None:
            while node >= 0:
                delta, solid_child, free_child = nodes[node]
                cell = code[pos + delta]
                if cell == SOLID or (cell >= 0 and (have | added) >> cell & 1):
                    node = solid_child
                elif cell == FREE or (shift and cell >= 0 and (have | added) >> (cell + shift) & 1):
                    node = free_child
                else:  # an undecided brickable cell: a brick met here, or none
                    if left > 0:
                        walk(solid_child, added | 1 << cell, left - 1)
                    if shift:
                        added |= 1 << (cell + shift)
                    node = free_child
            move, turns = leaves[~node]
            found.append((((pos + move) << 1) | (channel ^ turns), added))

        walk(root, 0, left)
        return tuple(found)
