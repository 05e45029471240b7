"""Exact Minesweeper analysis: proved-safe and proved-mined cells and every unknown cell's probability.

Every arrangement of mines consistent with the revealed numbers *and* the total number of mines is
counted as equally likely (the board places its mines uniformly).  The steps:

1. the trivial rules (a number already satisfied: the rest is safe; a number needing every hidden
   neighbour: all mined) run to a fixed point, which only shrinks the work;
2. the remaining constraints split into independent components (cells linked by shared numbers);
   cells touching exactly the same numbers form a group, so a group of ``s`` cells with ``k`` mines
   stands for ``C(s, k)`` arrangements;
3. each component's consistent assignments are enumerated by backtracking, counted by their number
   of mines (big integers, no floating point);
4. the components and the unconstrained cells (the "sea", ``S`` cells) are combined with the global
   count: a choice of ``t`` frontier mines weighs ``C(S, M - t)``.  Probabilities are exact
   :class:`~fractions.Fraction` s.

A :class:`~ai.kernel.context.SolveContext` is checked during the enumeration.

>>> from game.core.puzzles.mines import parse_view
>>> a = analyze(parse_view("mines 1\\n1.\\n.."))
>>> a.status.value, sorted(a.probability.values())
('ok', [Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)])
>>> a = analyze(parse_view("mines 2\\n.1.\\n111\\n..."))
>>> sorted(a.mined), sorted(a.safe)
([], [])
>>> a = analyze(parse_view("mines 1\\n.1\\n.1\\n11"))
>>> sorted(a.mined), sorted(a.safe)
([(1, 0)], [(0, 0)])
"""

from __future__ import annotations

import enum
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb

from ai.kernel.context import SolveContext
from game.core.puzzles.mines import MinesView, Pos, neighbours

#: How many backtracking nodes run between two checks of the solve context.
CHECK_EVERY = 2048


class AnalysisStatus(str, enum.Enum):
    """Whether the view admits any arrangement of mines."""

    OK = "ok"  #: at least one arrangement fits; the figures are exact
    CONTRADICTION = "contradiction"  #: no arrangement fits the numbers and the mine count


@dataclass(frozen=True)
class MinesAnalysis:
    """The analysis of one view: proved cells and exact probabilities of every unknown cell."""

    status: AnalysisStatus
    safe: frozenset[Pos] = frozenset()
    mined: frozenset[Pos] = frozenset()
    probability: dict[Pos, Fraction] = field(default_factory=dict)
    components: int = 0  #: independent parts of the frontier
    frontier: int = 0  #: unknown cells next to a number (after the trivial rules)
    nodes: int = 0  #: backtracking nodes visited
    weight: int = 0  #: how many arrangements of the mines fit (each equally likely)


class Contradiction(Exception):
    """No arrangement fits (internal)."""


Constraint = tuple[frozenset[Pos], int]


def _constraints(view: MinesView) -> tuple[list[Constraint], set[Pos]]:
    unknown = set(view.unknown())
    cells = view.cells
    cons: list[Constraint] = []
    for r, row in enumerate(cells):
        for c, v in enumerate(row):
            if v < 0:
                continue
            around = frozenset(p for p in neighbours(view.width, view.height, r, c) if cells[p[0]][p[1]] < 0)
            if v > len(around):
                raise Contradiction
            if around:
                cons.append((around, v))
    return cons, unknown


def _propagate(cons: list[Constraint], known: dict[Pos, bool]) -> list[Constraint]:
    """Apply the trivial rules until nothing changes; the constraints left over free cells."""
    while True:
        changed = False
        left: dict[frozenset[Pos], int] = {}
        for cells, n in cons:
            free = frozenset(p for p in cells if p not in known)
            need = n - sum(1 for p in cells if known.get(p) is True)
            if need < 0 or need > len(free):
                raise Contradiction
            if free and (need == 0 or need == len(free)):
                for p in free:
                    known[p] = need > 0
                changed = True
            elif free:
                if left.get(free, need) != need:
                    raise Contradiction
                left[free] = need
        cons = list(left.items())
        if not changed:
            return cons


def _components(cons: list[Constraint]) -> list[list[Constraint]]:
    parent: dict[Pos, Pos] = {}

    def find(p: Pos) -> Pos:
        while parent.setdefault(p, p) != p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p

    for cells, _ in cons:
        first, *rest = sorted(cells)
        for p in rest:
            a, b = find(first), find(p)
            if a != b:
                parent[a] = b
    groups: dict[Pos, list[Constraint]] = {}
    for con in cons:
        groups.setdefault(find(min(con[0])), []).append(con)
    return [groups[k] for k in sorted(groups)]


@dataclass
class _Component:
    groups: list[tuple[Pos, ...]]  #: cells of each group
    counts: dict[int, int]  #: mines -> weighted number of assignments
    group_mines: dict[int, list[int]]  #: mines -> per group: weighted sum of the group's mines


def _ordered_groups(cons: list[Constraint]) -> tuple[list[tuple[Pos, ...]], list[tuple[int, ...]]]:
    """The component's cells grouped by the constraints they belong to (each group sorted), and each group's
    constraint indices, in an order that closes constraints early: walk the constraints breadth first from
    the first one, taking their new groups."""
    member: dict[Pos, list[int]] = {}
    for i, (cells, _) in enumerate(cons):
        for p in cells:
            member.setdefault(p, []).append(i)
    by_key: dict[tuple[int, ...], list[Pos]] = {}
    for p, idx in member.items():
        by_key.setdefault(tuple(idx), []).append(p)
    order: list[tuple[int, ...]] = []
    seen_keys: set[tuple[int, ...]] = set()
    key_of_con: dict[int, list[tuple[int, ...]]] = {}
    for key in by_key:
        for i in key:
            key_of_con.setdefault(i, []).append(key)
    visited = [False] * len(cons)
    queue = [0]
    visited[0] = True
    while queue:
        i = queue.pop(0)
        for key in sorted(key_of_con[i]):
            if key not in seen_keys:
                seen_keys.add(key)
                order.append(key)
                for j in key:
                    if not visited[j]:
                        visited[j] = True
                        queue.append(j)
    groups = [tuple(sorted(by_key[k])) for k in order]
    return groups, order


def _enumerate(cons: list[Constraint], limit: int, ctx: SolveContext, nodes: list[int]) -> _Component:
    """Count the component's consistent assignments by number of mines (at most ``limit``)."""
    groups, order = _ordered_groups(cons)
    sizes = [len(g) for g in groups]
    g_cons = [list(k) for k in order]
    need = [n for _, n in cons]
    cap = [len(cells) for cells, _ in cons]
    n_groups = len(groups)
    counts: dict[int, int] = {}
    group_mines: dict[int, list[int]] = {}
    assign = [0] * n_groups
    binoms = [[comb(s, k) for k in range(s + 1)] for s in sizes]

    def rec(g: int, total: int, weight: int) -> None:
        nodes[0] += 1
        if nodes[0] % CHECK_EVERY == 1:  # the first node, then every CHECK_EVERY
            ctx.check()
        if g == n_groups:
            counts[total] = counts.get(total, 0) + weight
            sums = group_mines.get(total)
            if sums is None:
                sums = group_mines[total] = [0] * n_groups
            for h in range(n_groups):
                if assign[h]:
                    sums[h] += weight * assign[h]
            return
        s = sizes[g]
        cs = g_cons[g]
        lo, hi = 0, min(s, limit - total)
        for i in cs:
            lo = max(lo, need[i] - (cap[i] - s))
            hi = min(hi, need[i])
        for k in range(lo, hi + 1):
            for i in cs:
                need[i] -= k
                cap[i] -= s
            assign[g] = k
            rec(g + 1, total + k, weight * binoms[g][k])
            for i in cs:
                need[i] += k
                cap[i] += s
        assign[g] = 0

    limit_before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit_before, n_groups + 1000))  # one frame per group (large custom boards)
    try:
        rec(0, 0, 1)
    finally:
        sys.setrecursionlimit(limit_before)
    return _Component(groups, counts, group_mines)


def _convolve(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _as_list(counts: dict[int, int]) -> list[int]:
    out = [0] * (max(counts) + 1 if counts else 1)
    for m, w in counts.items():
        out[m] = w
    return out


def analyze(view: MinesView, ctx: SolveContext | None = None) -> MinesAnalysis:
    """The exact analysis of ``view`` (flags are ignored: they are only the player's notes)."""
    ctx = ctx or SolveContext.create()
    known: dict[Pos, bool] = {}
    try:
        cons, unknown = _constraints(view)
        cons = _propagate(cons, known)
    except Contradiction:
        return MinesAnalysis(AnalysisStatus.CONTRADICTION)
    left = view.mines - sum(1 for v in known.values() if v)
    free = unknown - set(known)
    frontier = set().union(*(cells for cells, _ in cons)) if cons else set()
    sea = sorted(free - frontier)
    if not 0 <= left <= len(free):
        return MinesAnalysis(AnalysisStatus.CONTRADICTION)
    nodes = [0]
    comps = [_enumerate(part, left, ctx, nodes) for part in _components(cons)]
    if any(not comp.counts for comp in comps):
        return MinesAnalysis(AnalysisStatus.CONTRADICTION)
    dists = [_as_list(comp.counts) for comp in comps]
    prefix = [[1]]
    for d in dists:
        prefix.append(_convolve(prefix[-1], d))
    suffix = [[1]]
    for d in reversed(dists):
        suffix.append(_convolve(suffix[-1], d))
    suffix.reverse()
    n_sea = len(sea)

    def sea_ways(mines: int, cells: int = n_sea) -> int:
        return comb(cells, mines) if 0 <= mines <= cells else 0

    total = prefix[-1]
    weight = sum(w * sea_ways(left - t) for t, w in enumerate(total) if w)
    if weight == 0:
        return MinesAnalysis(AnalysisStatus.CONTRADICTION)
    probability: dict[Pos, Fraction] = {p: Fraction(int(v)) for p, v in known.items()}
    for i, comp in enumerate(comps):
        others = _convolve(prefix[i], suffix[i + 1])
        rest = {m: sum(w * sea_ways(left - m - t) for t, w in enumerate(others) if w) for m in comp.counts}
        for g, cells in enumerate(comp.groups):
            num = sum(sums[g] * rest[m] for m, sums in comp.group_mines.items())
            p = Fraction(num, weight * len(cells))
            for cell in cells:
                probability[cell] = p
    if n_sea:
        p = Fraction(sum(w * sea_ways(left - t - 1, n_sea - 1) for t, w in enumerate(total) if w), weight)
        for cell in sea:
            probability[cell] = p
    safe = frozenset(p for p, v in probability.items() if v == 0)
    mined = frozenset(p for p, v in probability.items() if v == 1)
    return MinesAnalysis(AnalysisStatus.OK, safe, mined, probability, len(comps), len(frontier), nodes[0], weight)


__all__ = ["AnalysisStatus", "MinesAnalysis", "analyze"]
