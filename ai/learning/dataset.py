"""Training data for rule learning: random games run with the core's occupancy simulator.

A *game* is one random map (walls, targets, a few lemmings) released for ``frames``
frames.  Every cell at every frame ``t >= 1`` gives one example (its 3x3 neighbourhood at
``t - 1`` and its two direction channels at ``t``, see :mod:`ai.learning.features`).
Examples are de-duplicated: a :class:`Dataset` holds each distinct feature row once,
with how often it was seen.

>>> ds = random_games_dataset(np.random.default_rng(0), 2)
>>> ds.games, ds.features.shape[1]
(2, 36)
>>> bool(np.all(ds.labels == reference_labels(ds.features)))
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ai.kernel.context import SolveContext
from ai.learning.features import (
    CHANNELS,
    FEATURE_INDEX,
    N_FEATURES,
    WINDOW,
    BoolArray,
    IntArray,
    UInt8Array,
    neighbourhood_features,
    pack_rows,
    reference_labels,  # noqa: F401  (used by the doctest)
    unpack_keys,
)
from game.core.occupancy import simulate_occupancy

#: Most lemmings in one random game.
MAX_LEMMINGS = 4
#: Default size of a random game.
GAME_HEIGHT, GAME_WIDTH, GAME_FRAMES = 10, 10, 20
#: Games simulated at once per regime (the dense occupancy of a many-lemming game is a few MB).
BATCH = {"random": 32, "many": 1}


@dataclass(frozen=True)
class Dataset:
    """Distinct examples: ``keys`` (packed feature rows), ``labels`` ``(n, 2)``, ``counts``; and
    the number of games they came from."""

    keys: IntArray
    labels: BoolArray
    counts: IntArray
    games: int = 0

    @property
    def features(self) -> UInt8Array:
        """``(n, 36)`` feature rows."""
        return unpack_keys(self.keys)

    def __len__(self) -> int:
        return len(self.keys)

    @classmethod
    def empty(cls) -> Dataset:
        """No examples."""
        return cls(np.zeros(0, np.int64), np.zeros((0, 2), bool), np.zeros(0, np.int64), 0)

    @classmethod
    def from_rows(cls, features: npt.ArrayLike, labels: npt.ArrayLike, games: int = 0) -> Dataset:
        """De-duplicate ``(n, 36)`` features with their ``(n, 2)`` labels."""
        keys = pack_rows(np.asarray(features).reshape(-1, N_FEATURES))
        lab = np.asarray(labels, dtype=bool).reshape(-1, 2)
        uniq, first, counts = np.unique(keys, return_index=True, return_counts=True)
        return cls(uniq, lab[first], counts.astype(np.int64), games)

    def merge(self, other: Dataset) -> Dataset:
        """Union of two data sets (counts add, games add)."""
        keys = np.concatenate([self.keys, other.keys])
        labels = np.concatenate([self.labels, other.labels])
        counts = np.concatenate([self.counts, other.counts])
        uniq, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        total = np.bincount(inverse, weights=counts, minlength=len(uniq)).astype(np.int64)
        return Dataset(uniq, labels[first], total, self.games + other.games)


def transitions_dataset(
    obstacles: npt.ArrayLike, targets: npt.ArrayLike, occupancy: npt.ArrayLike, games: int
) -> Dataset:
    """Examples from recorded runs: ``obstacles``/``targets`` ``(G, H, W)``, ``occupancy``
    ``(G, L, N, H, W, 2)`` (one map per lemming); every frame ``t >= 1`` of every cell of
    every lemming's map is one example.  Empty lemming slots add only empty examples."""
    obst = np.asarray(obstacles)
    tgt = np.asarray(targets)
    occ = np.asarray(occupancy) > 0.5
    feats = neighbourhood_features(obst[:, None, None], tgt[:, None, None], occ[:, :, :-1])
    labels = occ[:, :, 1:]
    return Dataset.from_rows(feats.reshape(-1, N_FEATURES), labels.reshape(-1, 2), games)


def random_maps(
    rng: np.random.Generator,
    n: int,
    height: int = GAME_HEIGHT,
    width: int = GAME_WIDTH,
) -> tuple[BoolArray, BoolArray, npt.NDArray[np.float64]]:
    """``n`` random games: walls ``(n, H, W)``, targets ``(n, H, W)``, initial occupancy.

    Walls are scattered cells (density 15-40 %) plus a few horizontal platforms; targets
    cover 5-20 % of the free cells; 1-MAX_LEMMINGS lemmings start on other free cells.  The
    initial occupancy is per lemming: ``(n, MAX_LEMMINGS, H, W, 2)`` (unused slots are empty).
    """
    walls = np.zeros((n, height, width), dtype=bool)
    targets = np.zeros((n, height, width), dtype=bool)
    init = np.zeros((n, MAX_LEMMINGS, height, width, 2))
    for g in range(n):
        density = rng.uniform(0.15, 0.4)
        w = rng.random((height, width)) < density
        for _ in range(rng.integers(1, 4)):
            r = rng.integers(1, height)
            c0 = rng.integers(0, width)
            w[r, c0 : c0 + rng.integers(2, width)] = True
        free = ~w
        tgt = free & (rng.random((height, width)) < rng.uniform(0.05, 0.2))
        if not tgt.any():
            tgt.flat[rng.choice(np.flatnonzero(free) if free.any() else np.arange(w.size))] = True
            w &= ~tgt
        spots = np.flatnonzero(~w & ~tgt)
        if len(spots):
            n_here = min(len(spots), int(rng.integers(1, MAX_LEMMINGS + 1)))
            for k, cell in enumerate(rng.choice(spots, size=n_here, replace=False)):
                row, col = divmod(int(cell), width)
                init[g, k, row, col, int(rng.integers(0, 2))] = 1.0
        targets[g] = tgt
        walls[g] = w
    return walls, targets, init


def random_games_dataset(
    rng: np.random.Generator,
    games: int,
    *,
    height: int = GAME_HEIGHT,
    width: int = GAME_WIDTH,
    frames: int = GAME_FRAMES,
    ctx: SolveContext | None = None,
) -> Dataset:
    """Run ``games`` random games (:data:`BATCH` at a time with :func:`game.core.occupancy.simulate_occupancy`:
    the same games as all at once, the maps are drawn one after another) into one data set; ``ctx`` is
    checked before each batch."""
    data = Dataset.empty()
    for first in range(0, max(0, games), BATCH["random"]):
        if ctx is not None:
            ctx.check()
        walls, targets, init = random_maps(rng, min(BATCH["random"], games - first), height, width)
        occ = simulate_occupancy(walls.astype(float)[:, None], targets.astype(float)[:, None], init, frames)
        data = data.merge(transitions_dataset(walls, targets, occ, len(walls)))
    return data


def random_games_datasets(
    rng: np.random.Generator, games: int, **kwargs: int
) -> list[Dataset]:
    """One :class:`Dataset` per game (for sample-efficiency curves), from one batch run."""
    walls, targets, init = random_maps(rng, games, kwargs.get("height", GAME_HEIGHT), kwargs.get("width", GAME_WIDTH))
    occ = simulate_occupancy(
        walls.astype(float)[:, None], targets.astype(float)[:, None], init, kwargs.get("frames", GAME_FRAMES)
    )
    return [transitions_dataset(walls[g : g + 1], targets[g : g + 1], occ[g : g + 1], 1) for g in range(games)]


# ------------------------------------------------------------------ learning regimes
#: How the example games are made (see :func:`regime_games`).
REGIMES = ("random", "many")
#: Target density of the free cells in the ``many`` regime (random games: 5-20 %).
MANY_TARGET_DENSITY = (0.25, 0.4)


def many_lemming_maps(
    rng: np.random.Generator, n: int, height: int = GAME_HEIGHT, width: int = GAME_WIDTH
) -> tuple[BoolArray, BoolArray, npt.NDArray[np.float64]]:
    """``n`` games of the *many-lemming* regime: each observed map used fully.

    The walls are drawn as in :func:`random_maps`; targets cover 25-40 % of the free cells (random
    games rarely put a lemming on a target, and almost every error of rules learned from few
    random games is about a lemming on a target); one lemming starts on *every* free cell
    (targets included) in *each* direction, each on its own occupancy map (lemmings do not
    interact, so these are independent runs of the same map).  Initial occupancy
    ``(n, L, H, W, 2)`` with ``L = 2 * H * W`` slots (unused slots empty).
    """
    walls = np.zeros((n, height, width), dtype=bool)
    targets = np.zeros_like(walls)
    init = np.zeros((n, 2 * height * width, height, width, 2))
    for g in range(n):  # one game at a time: the first g games are the same whatever n is
        walls[g] = random_maps(rng, 1, height, width)[0][0]
        free = ~walls[g]
        targets[g] = free & (rng.random((height, width)) < rng.uniform(*MANY_TARGET_DENSITY))
        for k, cell in enumerate(np.flatnonzero(free)):
            r, c = divmod(int(cell), width)
            init[g, 2 * k, r, c, 0] = 1.0
            init[g, 2 * k + 1, r, c, 1] = 1.0
    return walls, targets, init


def regime_games(
    rng: np.random.Generator, games: int, regime: str = "random", frames: int = GAME_FRAMES
) -> tuple[BoolArray, BoolArray, npt.NDArray[np.float64]]:
    """Walls, targets and the per-lemming occupancy ``(G, L, N, H, W, 2)`` of ``games`` games."""
    if regime not in REGIMES:
        raise ValueError(f"unknown regime {regime!r}; choose from {', '.join(REGIMES)}")
    maker = random_maps if regime == "random" else many_lemming_maps
    walls, targets, init = maker(rng, games)
    occ = simulate_occupancy(walls.astype(float)[:, None], targets.astype(float)[:, None], init, frames)
    return walls, targets, occ


def regime_datasets(rng: np.random.Generator, games: int, regime: str = "random") -> list[Dataset]:
    """One :class:`Dataset` per game of ``regime`` (for learning curves)."""
    if games <= 0:
        return []
    walls, targets, occ = regime_games(rng, games, regime)
    return [transitions_dataset(walls[g : g + 1], targets[g : g + 1], occ[g : g + 1], 1) for g in range(games)]


def regime_dataset(rng: np.random.Generator, games: int, regime: str = "random",
                   ctx: SolveContext | None = None) -> Dataset:
    """Every example of ``games`` games of ``regime`` in one data set, simulated :data:`BATCH` games at a
    time (the same games as :func:`regime_datasets`, in memory that does not grow with ``games``);
    ``ctx`` is checked before each batch."""
    data = Dataset.empty()
    for first in range(0, max(0, games), BATCH[regime]):
        if ctx is not None:
            ctx.check()
        walls, targets, occ = regime_games(rng, min(BATCH[regime], games - first), regime)
        data = data.merge(transitions_dataset(walls, targets, occ, len(walls)))
    return data


def _mirror_permutation() -> IntArray:
    """Feature permutation of the left-right mirror image: columns flip, left and right swap."""
    perm = np.zeros(N_FEATURES, dtype=np.int64)
    swap = {"left": "right", "right": "left"}
    for (ch, dr, dc), f in FEATURE_INDEX.items():
        perm[f] = FEATURE_INDEX[(swap.get(ch, ch), dr, -dc)]
    assert sorted(perm.tolist()) == list(range(len(CHANNELS) * len(WINDOW)))
    return perm


def mirrored(data: Dataset) -> Dataset:
    """``data`` plus its left-right mirror images (the *mirror symmetry prior*, off by default).

    Assumes the physics look the same in a mirror: a lemming facing left next to a wall on its
    left does what a lemming facing right does next to a wall on its right.  True for this game,
    but it is knowledge given to the learner, not learned, so it is an explicit option.

    >>> ds = random_games_dataset(np.random.default_rng(0), 1)
    >>> m = mirrored(ds)
    >>> len(m) > len(ds) and bool(np.all(m.labels == reference_labels(m.features)))
    True
    """
    if len(data) == 0:
        return data
    x = data.features
    flipped = x[:, _mirror_permutation()]
    mirror = Dataset.from_rows(flipped, data.labels[:, ::-1], 0)
    return data.merge(mirror)
