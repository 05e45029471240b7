"""Every view derived from a physics, in one place, computed once per physics value.

A :class:`~game.core.physics.Physics` says how a lemming moves (its ordered rules); everything the
simulators, encodings, solvers and learners read off it is a pure function of that value and lives here:

* :attr:`PhysicsViews.table`: the rule as a lookup over the 256 neighbourhood configurations;
* :attr:`PhysicsViews.branches`: the rule as the leaves of a decision tree, exclusive and exhaustive
  conjunctions of cell conditions (every exact encoding: one guarded transition a leaf);
* :attr:`PhysicsViews.tree`: those leaves as a binary tree (the search walks it);
* the read plans (:attr:`~PhysicsViews.reads`, :attr:`~PhysicsViews.config_branch`, ...), the effect
  groups of the encodings and the occupancy flows of the relaxed simulator.

The caching policy is one: :func:`views` keeps one :class:`PhysicsViews` per physics value (equal physics
share it), and each view is computed on first use.  The behaviour of a physics is its table:
:func:`step`, :func:`same_behaviour`, :func:`moves_alike` and :attr:`PhysicsViews.behaviour_key` read it.

>>> from game.core.physics import CLASSIC
>>> step(CLASSIC, lambda r, c: r >= 1, lambda r, c: False, (0, 0, 1))   # floor below: walk
(0, 1, 1)
>>> step(CLASSIC, lambda r, c: r >= 1 or c >= 1, lambda r, c: False, (0, 0, 1))  # wall ahead: turn
(0, 0, -1)
>>> [(b.needs, b.move, b.turn) for b in views(CLASSIC).branches]
[((((1, 0), False),), (1, 0), False), ((((1, 0), True), ((0, 1), False)), (0, 1), False), ((((1, 0), True), ((0, 1), True)), (0, 0), True)]
>>> views(CLASSIC).tree
(0, (TreeNode(offset=(1, 0), solid=1, free=-1), TreeNode(offset=(0, 1), solid=-3, free=-2)))
>>> views(CLASSIC).is_classic, views(CLASSIC) is views(CLASSIC.renamed("classic"))
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Callable

import numpy as np
import numpy.typing as npt

from game.core.physics import CLASSIC, CONFIGS, MIRRORED, NEIGHBOURS, Offset, Physics, Rule, State, config_solid

Needs = tuple[tuple[Offset, bool], ...]
"""Cell conditions: ``(offset, solid)`` pairs."""


@dataclass(frozen=True)
class Branch:
    """A leaf of the physics' decision tree: conditions that pin down which rule applies, and its effect.

    The leaves of :attr:`PhysicsViews.branches` are exclusive and exhaustive: in any neighbourhood exactly
    one leaf's ``needs`` all hold.  ``rule`` is the index of the rule that applies (``None``: no rule
    holds, the lemming stays).
    """

    needs: Needs
    move: Offset
    turn: bool
    rule: int | None

    def cells(self, state: State) -> tuple[tuple[tuple[int, int], bool], ...]:
        """``needs`` as absolute cells for a lemming in ``state``: ``((row, col), solid)`` pairs.

        >>> views(CLASSIC).branches[1].cells((4, 2, -1))
        (((5, 2), True), ((4, 1), False))
        """
        r, c, d = state
        return tuple(((r + dr, c + da * d), s) for (dr, da), s in self.needs)

    def apply(self, state: State) -> State:
        """The state after this branch's move from ``state``.

        >>> views(CLASSIC).branches[1].apply((3, 4, -1))
        (3, 3, -1)
        """
        r, c, d = state
        return (r + self.move[0], c + self.move[1] * d, -d if self.turn else d)

    @property
    def stays(self) -> bool:
        """True when the lemming keeps its cell (it may still turn)."""
        return self.move == (0, 0)


@dataclass(frozen=True)
class TreeNode:
    """An inner node of :attr:`PhysicsViews.tree`: the cell it reads and its two children (``>= 0``: a node,
    ``< 0``: ``~i`` for leaf ``branches[i]``)."""

    offset: Offset
    solid: int
    free: int


@dataclass(frozen=True)
class EffectGroup:
    """Branches of a physics with the same effect (move and turn), and when one of them applies as clauses
    (a conjunction of disjunctions of ``(offset, solid)`` needs, none implied by another)."""

    branches: tuple[int, ...]
    clauses: tuple[Needs, ...]


@dataclass(frozen=True)
class Flow:
    """One leaf of the physics for one channel (0: facing left, 1: right), in map coordinates: mass in
    channel ``source`` moves by ``move`` (rows, columns) into channel ``dest``, weighted by the cells
    ``needs`` (``((dr, dc), solid)`` pairs relative to the lemming)."""

    source: int
    dest: int
    move: tuple[int, int]
    needs: tuple[tuple[tuple[int, int], bool], ...]


@dataclass(frozen=True, eq=False)
class PhysicsViews:
    """The derived views of one physics, each computed on first use (get one with :func:`views`)."""

    physics: Physics

    @cached_property
    def table(self) -> npt.NDArray[np.int8]:
        """``(256, 3)`` int8: for each configuration (bit ``i``: ``NEIGHBOURS[i]`` solid) the move
        ``(dr, da, turn)`` (``turn`` 1 or 0), as :meth:`~game.core.physics.Physics.decide` says."""
        out = np.zeros((CONFIGS, 3), dtype=np.int8)
        for config in range(CONFIGS):
            rule = self.physics.decide(lambda off: config_solid(config, off))
            if rule is not None:
                out[config] = (rule.move[0], rule.move[1], int(rule.turn))
        out.setflags(write=False)
        return out

    @cached_property
    def moves(self) -> tuple[tuple[int, int, bool], ...]:
        """:attr:`table` as Python tuples ``(dr, da, turn)`` (for scalar loops)."""
        return tuple((int(a), int(b), bool(t)) for a, b, t in self.table.tolist())

    @cached_property
    def branches(self) -> tuple[Branch, ...]:
        """The rule as a decision tree's leaves: exclusive, exhaustive conjunctions of cell conditions."""
        leaves: list[Branch] = []
        _expand(self.physics.rules, 0, {}, [], leaves)
        return tuple(leaves)

    @cached_property
    def read_offsets(self) -> tuple[Offset, ...]:
        """Every offset some branch reads (the cells that can change what a lemming does)."""
        return tuple(sorted({off for b in self.branches for off, _ in b.needs} - {(0, 0)}))

    @cached_property
    def reads(self) -> tuple[tuple[int, int, int], ...]:
        """:attr:`read_offsets` with their configuration bits: ``(dr, da, bit)``."""
        return tuple((dr, da, 1 << NEIGHBOURS.index((dr, da))) for dr, da in self.read_offsets)

    @cached_property
    def reads_above(self) -> bool:
        """True when a lemming may read or move into the row above it."""
        return any(dr < 0 for dr, _ in self.read_offsets)

    @cached_property
    def config_branch(self) -> npt.NDArray[np.intp]:
        """``(256,)``: the index in :attr:`branches` of the leaf that holds in each configuration."""
        out = np.zeros(CONFIGS, dtype=np.intp)
        for config in range(CONFIGS):
            for i, branch in enumerate(self.branches):
                if all(config_solid(config, off) == want for off, want in branch.needs):
                    out[config] = i
                    break
        out.setflags(write=False)
        return out

    @cached_property
    def branch_of(self) -> tuple[int, ...]:
        """:attr:`config_branch` as a tuple (for scalar loops)."""
        return tuple(int(i) for i in self.config_branch.tolist())

    @cached_property
    def branch_reads(self) -> tuple[tuple[Offset, ...], ...]:
        """Per branch, the offsets it reads."""
        return tuple(tuple(off for off, _ in b.needs) for b in self.branches)

    @cached_property
    def branch_free_reads(self) -> tuple[tuple[Offset, ...], ...]:
        """Per branch, the offsets it needs free (a brick there changes the step)."""
        return tuple(tuple(off for off, want in b.needs if not want) for b in self.branches)

    @cached_property
    def tree(self) -> tuple[int, tuple[TreeNode, ...]]:
        """The branches as a binary tree: the root (a node, or ``~i`` when the physics reads nothing) and
        the nodes."""
        branches = self.branches
        nodes: list[TreeNode] = []

        def grow(depth: int, members: list[int]) -> int:
            if len(members) == 1 and len(branches[members[0]].needs) == depth:
                return ~members[0]
            offset = branches[members[0]].needs[depth][0]
            index = len(nodes)
            nodes.append(TreeNode(offset, 0, 0))
            solid = grow(depth + 1, [i for i in members if branches[i].needs[depth][1]])
            free = grow(depth + 1, [i for i in members if not branches[i].needs[depth][1]])
            nodes[index] = TreeNode(offset, solid, free)
            return index

        root = grow(0, list(range(len(branches))))
        return root, tuple(nodes)

    @cached_property
    def effect_groups(self) -> tuple[EffectGroup, ...]:
        """The branches grouped by effect, in order of first branch (one group per branch when no two
        share an effect).  Drifter's two plain falls are one group: below free, and ahead or the
        diagonal solid.

        >>> from game.core.physics_catalog import SHIPPED
        >>> [g.clauses for g in views(SHIPPED["drifter"]).effect_groups if len(g.branches) > 1]
        [((((0, 1), True), ((1, 1), True)), (((1, 0), False),))]
        """
        by_effect: dict[tuple[Offset, bool], list[int]] = {}
        for k, branch in enumerate(self.branches):
            by_effect.setdefault((branch.move, branch.turn), []).append(k)
        out = []
        for members in by_effect.values():
            clauses: list[frozenset[tuple[Offset, bool]]] = [frozenset()]
            for k in members:  # (A1 & A2 ...) | (B1 & ...) as clauses: one literal of each conjunction,
                # tautologies and clauses implied by a smaller one dropped as they come (the list stays short)
                grown = {c | {need} for c in clauses for need in self.branches[k].needs
                         if (need[0], not need[1]) not in c}
                clauses = [c for c in grown if not any(other < c for other in grown)]
            out.append(EffectGroup(tuple(members), tuple(sorted(tuple(sorted(c)) for c in clauses))))
        return tuple(out)

    @cached_property
    def flows(self) -> tuple[Flow, ...]:
        """Every branch for each channel, branch by branch (the order the occupancy simulator adds mass
        in, which keeps sums bit-identical across runs).

        >>> [(f.source, f.dest, f.move) for f in views(CLASSIC).flows][:2]   # the first leaf, both channels
        [(0, 0, (1, 0)), (1, 1, (1, 0))]
        """
        out = []
        for branch in self.branches:
            for d in (-1, 1):
                r, c, d_after = branch.apply((0, 0, d))
                out.append(Flow(int(d > 0), int(d_after > 0), (r, c), branch.cells((0, 0, d))))
        return tuple(out)

    @cached_property
    def behaviour_key(self) -> str:
        """A short text that is equal exactly for physics that behave alike (cache keys, level hashes)."""
        return ("S" if self.physics.targets_stop else "W") + self.table.tobytes().hex()

    @cached_property
    def is_classic(self) -> bool:
        """True when this physics behaves like the classic game."""
        return same_behaviour(self.physics, CLASSIC)


@lru_cache(maxsize=256)
def views(physics: Physics) -> PhysicsViews:
    """The views of ``physics``: one object per physics value, each view computed on first use."""
    return PhysicsViews(physics)


def step(physics: Physics, blocked: Callable[[int, int], bool], on_target: Callable[[int, int], bool],
         state: State) -> State:
    """One step of one lemming (``blocked(r, c)``: solid, outside the map included): the table looked up
    from the cells the physics reads (equal to :meth:`~game.core.physics.Physics.decide`, which defines it)."""
    return stepper(physics, blocked, on_target)(state)


def stepper(physics: Physics, blocked: Callable[[int, int], bool],
            on_target: Callable[[int, int], bool]) -> Callable[[State], State]:
    """:func:`step` on one map with the physics' reads and table bound once (for loops over many steps)."""
    v = views(physics)
    reads, moves, stops = v.reads, v.moves, physics.targets_stop

    def step_on_map(state: State) -> State:
        r, c, d = state
        if stops and on_target(r, c):
            return state
        config = 0
        for dr, da, bit in reads:
            if blocked(r + dr, c + da * d):
                config |= bit
        mdr, mda, turn = moves[config]
        return (r + mdr, c + mda * d, -d if turn else d)

    return step_on_map


def same_behaviour(one: Physics, other: Physics) -> bool:
    """True when both physics move every lemming alike in every neighbourhood (``==`` compares the text)."""
    return one.targets_stop == other.targets_stop and bool(np.array_equal(views(one).table, views(other).table))


def moves_alike(one: Physics, other: Physics, *, opposite: bool = False) -> bool:
    """True when every lemming's positions are the same under both physics, from any start on any map
    (a direction may be named the other way round; what counts is where lemmings go).  With
    ``opposite`` every lemming of ``other`` starts facing the other way (the same physics with left
    and right named the other way round, which positions alone cannot tell apart).

    Exact on static maps: the states are "this physics' lemming sees configuration c, the other's faces
    the same or the opposite way"; after a move the next configuration can be any, after staying put
    it is the same neighbourhood (seen mirrored by a lemming that turned).  From "any configuration,
    same way", both must move to the same cell in every state reached.

    >>> moves_alike(CLASSIC, CLASSIC.renamed("copy")), moves_alike(CLASSIC, CLASSIC, opposite=True)
    (True, False)
    """
    if one.targets_stop != other.targets_stop:
        return False
    ours, theirs = views(one).moves, views(other).moves
    anywhere = -1
    todo: list[tuple[int, bool]] = [(anywhere, opposite)]  # (config or anywhere, opposite)
    done: set[tuple[int, bool]] = set()
    while todo:
        state = todo.pop()
        if state in done:
            continue
        done.add(state)
        where, opposite = state
        for config in (range(CONFIGS) if where == anywhere else (where,)):
            dr, da, turn = ours[config]
            odr, oda, oturn = theirs[MIRRORED[config] if opposite else config]
            if dr != odr or da != (-oda if opposite else oda):
                return False
            relation = opposite != (turn != oturn)
            if (dr, da) == (0, 0):
                todo.append((MIRRORED[config] if turn else config, relation))
            else:
                todo.append((anywhere, relation))
    return True


FlatTree = tuple[int, list[tuple[int, int, int]], list[tuple[int, bool]]]
"""A decision tree in flat padded positions: the root, the nodes ``(cell delta, solid child, free child)``
and the leaves ``(position delta, turns)``; children ``< 0`` are ``~leaf``."""


def flat_tree(physics: Physics, pw: int) -> dict[int, FlatTree]:
    """:attr:`PhysicsViews.tree` with offsets as deltas of flat padded positions (padded width ``pw``), per
    direction (``-1``, ``1``): what the Python step loops walk.

    >>> flat_tree(CLASSIC, 6)[1]   # below (+6), then ahead (+1); leaves: fall, walk, turn
    (0, [(6, 1, -1), (1, -3, -2)], [(6, False), (1, False), (0, True)])
    """
    v = views(physics)
    root, nodes = v.tree
    out = {}
    for d in (-1, 1):
        flat = [(n.offset[0] * pw + n.offset[1] * d, n.solid, n.free) for n in nodes]
        leaves = [(b.move[0] * pw + b.move[1] * d, b.turn) for b in v.branches]
        out[d] = (root, flat, leaves)
    return out


def _expand(rules: tuple[Rule, ...], start: int, known: dict[Offset, bool], path: list[tuple[Offset, bool]],
            leaves: list[Branch]) -> None:
    """Grow the decision tree from rule ``start`` under the conditions ``known`` (``path`` in order)."""
    for index in range(start, len(rules)):
        rule = rules[index]
        if any(off == (0, 0) and s for off, s in rule.when):
            continue
        if any(known.get(off, s) != s for off, s in rule.when if off != (0, 0)):
            continue  # contradicts what is known: this rule cannot apply here
        open_cells = [(off, s) for off, s in rule.when if off != (0, 0) and off not in known]
        if not open_cells:
            leaves.append(Branch(tuple(path), rule.move, rule.turn, index))
            return
        off, want = open_cells[0]
        for value in (want, not want):  # the branch where it holds first, then where it fails
            known[off] = value
            path.append((off, value))
            _expand(rules, index, known, path, leaves)
            path.pop()
            del known[off]
        return
    leaves.append(Branch(tuple(path), (0, 0), False, None))
