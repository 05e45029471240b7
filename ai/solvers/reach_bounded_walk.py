"""The step of the bounded pass of :mod:`ai.solvers.reach_bounded`, its forward passes and the backward ones.

An *entry* is a state id (padded position * 2 + channel) and a set of met bricks (bit ``i`` for the ``i``-th
read cell; with free reads, also the cells read free, higher up).  :meth:`BoundedWalker.advance` steps entries
by walking the physics' decision tree (:func:`game.core.physics_views.flat_tree`), branching on undecided
brickable cells; :meth:`BoundedWalker.timed` and :meth:`BoundedWalker.untimed` run one lemming forward (frame
by frame, or whatever the frame), and :meth:`BoundedWalker.useful` and :meth:`BoundedWalker.useful_untimed`
keep the entries that lead to a run's end that :meth:`BoundedWalker.accepts` (one that fits, within the cap,
with some run's end of each other lemming).

>>> minimal({0b011, 0b001, 0b110, 0b100})
[1, 4]
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from functools import reduce
from typing import Callable

import numpy as np
import numpy.typing as npt

from ai.kernel.context import SolveContext
from ai.solvers.gates import FREE, SOLID, gate_codes
from game.core.level import Brick, Level
from game.core.physics_views import flat_tree

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]
Step = tuple[int, int, int, int]
"""A step of the pass: from state id ``sid`` with the bricks ``have`` met to state id ``nsid``, meeting ``added``."""

#: Most sets of met bricks kept per state (and frame); beyond, they are replaced by the bricks all of them
#: met (a subset of each: its runs include theirs), so a step costs at most this many comparisons.
MAX_SETS = 16
#: The pass checks the solve context every this many states (a state costs microseconds).
CHECK_EVERY = 256


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


class BoundedWalker:
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
