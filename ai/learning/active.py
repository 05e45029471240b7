"""Active learning: the learner builds small query levels whose outcome separates its hypotheses.

Each round the learner fits a *committee* of decision trees to the data so far (both
split criteria, each on the full data and on several random halves).  The committee
members are the learner's remaining hypotheses.  Candidate neighbourhoods are the
configurations that can occur (:func:`ai.learning.features.all_configurations`; this
is the feature domain, not knowledge of the rule).  The learner picks:

1. configurations on which the committee disagrees (most disagreement first, spread over
   the leaves of the main tree), and when there are none,
2. *leaf probes* (:func:`_leaf_probes`): for each leaf of the main tree, the features that
   have the same value in every example reaching the leaf are generalisations the data
   never tested ("this feature does not matter here" and "it does" fit equally well); an
   example of the leaf with such a feature flipped separates the two.  Leaves predicting a
   lemming come first, then leaves whose examples hold a lemming; and when there are none,
3. unseen configurations one feature away from a positive example seen so far
   (a lemming arrived at the centre), then from an informative one (a lemming in the
   window), spread over the leaves of the main tree.

(Without the leaf probes, seed 0 stopped with wrong rules: its examples of a lemming
turning at a wall all had the floor below, so no tree could test "falling comes first".)

The picked configurations are tiled into one small query level (3x3 tiles side by side,
at most ``tiles`` of them), which is run for two frames by the core's occupancy
simulator; every cell of every lemming's map gives an example (the tile centres answer
the queries).  Learning stops when ``patience`` rounds of leaf probes in a row are
predicted without a single mistake.

>>> walls, targets, init = query_level(all_configurations()[[5, 6]])
>>> walls.shape, init.shape[0]
((3, 6), 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ai.kernel.context import SolveContext
from ai.learning.dataset import Dataset, transitions_dataset
from ai.learning.features import N_FEATURES, UInt8Array, all_configurations, pack_rows
from ai.learning.models import TreeModel, fit_tree
from game.core.occupancy import simulate_occupancy

#: Default number of query configurations per query level (6 x 6 tiles: an 18 x 18 map, two frames).
DEFAULT_TILES = 36


@dataclass
class ActiveResult:
    """Outcome of active learning: the final tree, the data, and per-game history."""

    model: TreeModel
    data: Dataset
    games: int
    history: list[dict[str, int]] = field(default_factory=list)
    converged: bool = False


def query_level(configs: npt.ArrayLike, *, columns: int = 6) -> tuple[UInt8Array, UInt8Array, npt.NDArray[np.float64]]:
    """Tile feature rows ``(k, 36)`` into one map: walls ``(H, W)``, targets ``(H, W)`` and the
    per-lemming initial occupancy ``(L, H, W, 2)`` (one lemming per tile that has one)."""
    rows = np.asarray(configs, dtype=np.uint8).reshape(-1, N_FEATURES)
    cols = min(columns, max(1, len(rows)))
    n_rows = -(-len(rows) // cols)
    height, width = 3 * n_rows, 3 * cols
    walls = np.zeros((height, width), dtype=np.uint8)
    targets = np.zeros((height, width), dtype=np.uint8)
    lemmings: list[tuple[int, int, int]] = []
    for k, row in enumerate(rows):
        r0, c0 = 3 * (k // cols), 3 * (k % cols)
        walls[r0 : r0 + 3, c0 : c0 + 3] = row[0:9].reshape(3, 3)
        targets[r0 : r0 + 3, c0 : c0 + 3] = row[9:18].reshape(3, 3)
        for ch in range(2):
            for p in np.flatnonzero(row[18 + 9 * ch : 27 + 9 * ch]):
                lemmings.append((r0 + int(p) // 3, c0 + int(p) % 3, ch))
    # unused tiles of the last row are walls
    for k in range(len(rows), n_rows * cols):
        r0, c0 = 3 * (k // cols), 3 * (k % cols)
        walls[r0 : r0 + 3, c0 : c0 + 3] = 1
    init = np.zeros((max(1, len(lemmings)), height, width, 2))
    for i, (r, c, ch) in enumerate(lemmings):
        init[i, r, c, ch] = 1.0
    return walls, targets, init


def run_query(configs: npt.ArrayLike) -> Dataset:
    """Build and play one query level (two frames); return its examples (counts as one game)."""
    walls, targets, init = query_level(configs)
    occ = simulate_occupancy(walls.astype(float), targets.astype(float), init, 2)
    return transitions_dataset(walls[None], targets[None], occ[None], 1)


def _committee(data: Dataset, rng: np.random.Generator, members: int) -> list[TreeModel]:
    x, y = data.features, data.labels
    trees = [fit_tree(x, y, criterion="entropy"), fit_tree(x, y, criterion="gini")]
    for k in range(members):
        seed = int(rng.integers(0, 2**31 - 1))
        trees.append(fit_tree(x, y, criterion="entropy" if k % 2 else "gini", splitter="random", random_state=seed))
    return trees


def _leaf_ids(model: TreeModel, rows: UInt8Array) -> npt.NDArray[np.int64]:
    """Leaf index (into the concatenated path lists of both channels) per row, per channel."""
    out = np.zeros((len(rows), len(model.trees)), dtype=np.int64)
    x = rows.astype(bool)
    for c in range(len(model.trees)):
        for i, (lits, _) in enumerate(model.paths(c)):
            mask = np.ones(len(rows), dtype=bool)
            for f, v in lits:
                mask &= x[:, f] == bool(v)
            out[mask, c] = i
    return out


def _flip_candidates(data: Dataset, positive: bool) -> npt.NDArray[np.int64]:
    """Keys of the configurations one feature away from a seen example that is positive (a
    lemming arrives at the centre) or, with ``positive=False``, informative (a lemming in the
    window): each tests the hypothesis "this feature does not matter here"."""
    x = data.features
    informative: npt.NDArray[np.bool_] = np.asarray(data.labels.any(axis=1) if positive else x[:, 18:36].any(axis=1))
    base = x[informative]
    if len(base) == 0:
        return np.zeros(0, dtype=np.int64)
    flipped = np.repeat(base[:, None, :], N_FEATURES, axis=1)
    idx = np.arange(N_FEATURES)
    flipped[:, idx, idx] ^= 1
    return np.unique(pack_rows(flipped.reshape(-1, N_FEATURES)))


def _leaf_probes(model: TreeModel, data: Dataset, space: UInt8Array, seen: npt.NDArray[np.bool_],
                 rng: np.random.Generator) -> UInt8Array:
    """Probes of the tree's *untested generalisations*, most informative first.

    A leaf of the learner's tree claims that the features its path does not test do not
    matter.  When a feature has the same value in every training example that reaches the
    leaf, the data never tested that claim: the hypotheses "the feature matters here" and
    "it does not" fit the data equally well.  For each such (leaf, constant feature) pair the
    learner takes an example of the leaf, flips the feature (keeping a configuration that
    can occur and was never seen) and asks about it.  Leaves that predict a lemming come
    first, then leaves whose examples hold a lemming; within them, pairs are round-robin over
    leaves so every leaf is probed.  Only the learner's own tree and data are consulted.
    """
    x = data.features
    if len(x) == 0:
        return np.zeros((0, N_FEATURES), dtype=np.uint8)
    space_keys = pack_rows(space)
    order_keys = np.argsort(space_keys)
    sorted_keys = space_keys[order_keys]
    seen_sorted = seen[order_keys]
    leaves = _leaf_ids(model, x)
    informative: npt.NDArray[np.bool_] = np.asarray(x[:, 18:36].any(axis=1))
    groups: list[tuple[int, list[npt.NDArray[np.uint8]]]] = []
    for ch in range(len(model.trees)):
        for j, (lits, value) in enumerate(model.paths(ch)):
            rows = np.flatnonzero(leaves[:, ch] == j)
            if len(rows) == 0:
                continue
            xr = x[rows]
            rank = 0 if value else (1 if informative[rows].any() else 2)
            if rank == 2:
                continue
            if rank == 1:
                xr = xr[informative[rows]]
            const = np.flatnonzero((xr == xr[:1]).all(axis=0))
            cands = _flipped_unseen(xr, const, {f for f, _ in lits}, sorted_keys, seen_sorted, rng)
            if cands:
                groups.append((rank, cands))
    picked = _round_robin(groups)
    if not picked:
        return np.zeros((0, N_FEATURES), dtype=np.uint8)
    out = np.unique(np.stack(picked), axis=0, return_index=True)[1]
    return np.stack(picked)[np.sort(out)]


def _flipped_unseen(xr: UInt8Array, const: npt.NDArray[np.intp], tested: set[int], sorted_keys: npt.NDArray[np.int64],
                    seen_sorted: npt.NDArray[np.bool_], rng: np.random.Generator) -> list[UInt8Array]:
    """Per feature of ``const`` the leaf does not test (in random order): one of the leaf's examples ``xr`` with
    that feature flipped, when some flip gives a configuration of the space (``sorted_keys``) never seen."""
    cands: list[UInt8Array] = []
    for f in rng.permutation(const):
        if int(f) in tested:
            continue
        flipped = xr.copy()
        flipped[:, f] ^= 1
        keys = pack_rows(flipped)
        pos = np.clip(np.searchsorted(sorted_keys, keys), 0, len(sorted_keys) - 1)
        ok = (sorted_keys[pos] == keys) & ~seen_sorted[pos]
        if ok.any():
            choice = rng.choice(np.flatnonzero(ok))
            cands.append(flipped[choice])
    return cands


def _round_robin(groups: list[tuple[int, list[UInt8Array]]]) -> list[UInt8Array]:
    """The probes of rank 0 then rank 1, taken round-robin over their leaves' lists."""
    picked: list[UInt8Array] = []
    for rank in (0, 1):
        queues = [c for r, c in groups if r == rank]
        depth = 0
        while any(depth < len(q) for q in queues):
            for q in queues:
                if depth < len(q):
                    picked.append(q[depth])
            depth += 1
    return picked


def choose_queries(
    data: Dataset, rng: np.random.Generator, *, tiles: int = DEFAULT_TILES, members: int = 10
) -> tuple[UInt8Array, bool]:
    """Pick up to ``tiles`` configurations to ask about; returns them and whether they are
    committee disagreements (``True``) or leaf probes (``False``)."""
    space = all_configurations()
    seen = np.isin(pack_rows(space), data.keys)
    unseen = space[~seen]
    if len(unseen) == 0:
        return unseen, False
    committee = _committee(data, rng, members)
    votes = np.stack([m.predict(unseen) for m in committee])  # (M, n, 2)
    ones = votes.sum(axis=0)
    disagreement = np.minimum(ones, len(committee) - ones).sum(axis=1)
    leaves = _leaf_ids(committee[0], unseen)
    key = leaves[:, 0] * 1000 + leaves[:, 1]
    if disagreement.max() > 0:
        candidates = np.flatnonzero(disagreement > 0)
        order = candidates[np.lexsort((rng.random(len(candidates)), -disagreement[candidates]))]
        is_disagreement = True
    else:
        probes = _leaf_probes(committee[0], data, space, seen, rng)
        if len(probes):
            return probes[:tiles], False
        keys = pack_rows(unseen)
        pos_flip = np.isin(keys, _flip_candidates(data, True))
        inf_flip = np.isin(keys, _flip_candidates(data, False)) & ~pos_flip
        rest = ~pos_flip & ~inf_flip
        # flips of positive examples first, then of informative ones, then anything unseen
        order = np.concatenate([rng.permutation(np.flatnonzero(m)) for m in (pos_flip, inf_flip, rest)])
        is_disagreement = False
    # round-robin over (leaf of each channel, lemming slot) groups, best first within a group
    slot = np.where(unseen[:, 18:36].any(axis=1), unseen[:, 18:36].argmax(axis=1), 18)
    group = key * 19 + slot
    buckets: dict[int, list[int]] = {}
    for i in order:
        buckets.setdefault(int(group[i]), []).append(int(i))
    queues = list(buckets.values())
    picked: list[int] = []
    depth = 0
    while len(picked) < tiles and any(depth < len(q) for q in queues):
        for q in queues:
            if depth < len(q):
                picked.append(q[depth])
                if len(picked) == tiles:
                    break
        depth += 1
    return unseen[picked], is_disagreement


def active_learning(
    rng: np.random.Generator,
    *,
    max_games: int = 30,
    tiles: int = DEFAULT_TILES,
    initial: Dataset | None = None,
    patience: int = 2,
    ctx: SolveContext | None = None,
) -> ActiveResult:
    """Learn tree rules with query levels until ``patience`` probe rounds in a row make no
    mistake (or ``max_games`` query levels were played); ``ctx`` is checked every round."""
    data = initial if initial is not None else Dataset.empty()
    history: list[dict[str, int]] = []
    converged = False
    clean = 0
    while data.games < max_games:
        if ctx is not None:
            ctx.check()
        queries, disagreement = choose_queries(data, rng, tiles=tiles)
        if len(queries) == 0:
            converged = True
            break
        model = fit_tree(data.features, data.labels)
        answer = run_query(queries)
        truth_keys = pack_rows(queries)
        pos = np.searchsorted(answer.keys, truth_keys)
        mistakes = int((model.predict(queries) != answer.labels[pos]).any(axis=1).sum())
        data = data.merge(answer)
        history.append({"game": data.games, "queries": len(queries), "mistakes": mistakes,
                        "disagreement": int(disagreement), "examples": len(data)})
        clean = clean + 1 if (not disagreement and mistakes == 0) else 0
        if clean >= patience:
            converged = True
            break
    return ActiveResult(fit_tree(data.features, data.labels), data, data.games, history, converged)
