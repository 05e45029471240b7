"""Neighbourhood features for learning the rules, and the exact reference table used to verify them.

A training example is one map cell ``(i, j)`` at one frame ``t >= 1``.  Its features
describe the 3x3 neighbourhood of the cell at frame ``t - 1``, in four binary
channels (9 cells each, 36 features):

* ``obstacle``: wall or brick (outside the map counts as wall);
* ``target``: a target cell (a lemming on a target stays, so the rule needs it);
* ``left`` / ``right``: some lemming facing left / right stands there.

The labels are the two direction channels of the centre cell at frame ``t``.

Occupancy maps are *per lemming* (one map per lemming, as in the design notes, which
learn from single-lemming games): the game's statement is that lemmings do not interact,
so a level with several lemmings is several independent single-lemming runs that must
all end on a target.  A window therefore holds at most one lemming feature, and the
configurations that can occur are: every obstacle/target/empty assignment of the 9
cells (``3**9``), with no lemming or with one lemming on one non-obstacle cell facing
left or right.  :func:`all_configurations` enumerates them (255,879: 19,683 environments, each
with no lemming or one on each of its non-obstacle cells in each direction), which makes
exhaustive verification cheap for every model kind.

Feature ``f`` is channel ``f // 9`` at window offset ``WINDOW[f % 9]`` (``(dr, dc)``,
row-major from the top-left).  Rows are packed into 36-bit integers (bit ``f`` set when
feature ``f`` is 1) so data sets can be de-duplicated cheaply.

>>> feature_name(FEATURE_INDEX["left", 0, 1])
'left[t-1,i,j+1]'
>>> N_FEATURES
36
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from game.core.physics import CLASSIC, Physics
from game.core.physics_views import step

#: Offsets ``(dr, dc)`` of the 3x3 window, row-major.
WINDOW: tuple[tuple[int, int], ...] = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))
#: Feature channels, in feature order.
CHANNELS: tuple[str, ...] = ("obstacle", "target", "left", "right")
#: Number of features per example.
N_FEATURES = len(CHANNELS) * len(WINDOW)
#: ``(channel, dr, dc) -> feature index``.
FEATURE_INDEX: dict[tuple[str, int, int], int] = {
    (ch, dr, dc): c * len(WINDOW) + k for c, ch in enumerate(CHANNELS) for k, (dr, dc) in enumerate(WINDOW)
}
#: Names of the two predicted channels (label columns).
LABELS: tuple[str, ...] = ("left", "right")

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
UInt8Array = npt.NDArray[np.uint8]


def feature_name(index: int) -> str:
    """Readable name of feature ``index``, e.g. ``obstacle[t-1,i+1,j]``."""
    channel = CHANNELS[index // len(WINDOW)]
    dr, dc = WINDOW[index % len(WINDOW)]

    def off(axis: str, d: int) -> str:
        return axis if d == 0 else f"{axis}{d:+d}"

    return f"{channel}[t-1,{off('i', dr)},{off('j', dc)}]"


def neighbourhood_features(
    obstacles: npt.ArrayLike, targets: npt.ArrayLike, occupancy: npt.ArrayLike
) -> UInt8Array:
    """Features of every cell: ``(..., H, W, 36)`` uint8.

    ``obstacles`` and ``targets`` are ``(..., H, W)``, ``occupancy`` is ``(..., H, W, 2)``
    (binary; values > 0.5 count as occupied).  Outside the map is obstacle, not target,
    and holds no lemming.
    """
    obst = np.asarray(obstacles) > 0.5
    occ = np.asarray(occupancy) > 0.5
    lead = np.broadcast_shapes(obst.shape[:-2], occ.shape[:-3])
    height, width = obst.shape[-2:]
    obst = np.broadcast_to(obst, lead + (height, width))
    tgt = np.broadcast_to(np.asarray(targets) > 0.5, obst.shape)
    occ = np.broadcast_to(occ, lead + (height, width, 2))
    pad = [(0, 0)] * len(lead) + [(1, 1), (1, 1)]
    planes = [
        np.pad(obst, pad, constant_values=True),
        np.pad(np.broadcast_to(tgt, obst.shape), pad, constant_values=False),
        np.pad(occ[..., 0], pad, constant_values=False),
        np.pad(occ[..., 1], pad, constant_values=False),
    ]
    out = np.empty(lead + (height, width, N_FEATURES), dtype=np.uint8)
    for c, plane in enumerate(planes):
        for k, (dr, dc) in enumerate(WINDOW):
            out[..., c * len(WINDOW) + k] = plane[..., 1 + dr : 1 + dr + height, 1 + dc : 1 + dc + width]
    return out


def pack_rows(features: npt.ArrayLike) -> IntArray:
    """Pack ``(n, 36)`` 0/1 rows into int64 keys (bit ``f`` = feature ``f``)."""
    x = np.asarray(features, dtype=np.int64).reshape(-1, N_FEATURES)
    weights = np.left_shift(np.int64(1), np.arange(N_FEATURES, dtype=np.int64))
    return x @ weights


def unpack_keys(keys: npt.ArrayLike) -> UInt8Array:
    """Inverse of :func:`pack_rows`: ``(n,)`` keys to ``(n, 36)`` uint8 rows."""
    k = np.asarray(keys, dtype=np.int64).reshape(-1, 1)
    return ((k >> np.arange(N_FEATURES, dtype=np.int64)) & 1).astype(np.uint8)


# ----------------------------------------------------------------- the reference table
#: Per-cell environment states used by the exhaustive verifier.
ENV_EMPTY, ENV_OBSTACLE, ENV_TARGET = 0, 1, 2


@lru_cache(maxsize=1)
def environments() -> npt.NDArray[np.int8]:
    """All ``3**9`` obstacle/target environments of the window: ``(19683, 9)`` of ``ENV_*``."""
    idx = np.arange(3 ** len(WINDOW))
    return np.stack([(idx // 3**k) % 3 for k in range(len(WINDOW))], axis=1).astype(np.int8)


@lru_cache(maxsize=8)
def reference_table(physics: Physics = CLASSIC) -> BoolArray:
    """``R[env, p, d, c]``: does one lemming at window cell ``p`` with direction ``d``
    (0 = left, 1 = right) land on the centre with direction channel ``c`` after one step?

    Computed by the ground-truth rule ``physics`` (:func:`game.core.physics_views.step`) on every
    environment.  Cells outside the window are tried both blocked and free, and the table is only
    built if both agree: this checks, from the rule itself, that the centre's next state depends on
    the 3x3 window only (a :class:`ValueError` says when a physics reads further than this learner's
    features see).  Entries for a lemming on an obstacle are False (that cannot occur).
    """
    envs = environments()
    table = np.zeros((len(envs), len(WINDOW), 2, 2), dtype=bool)
    for e, env in enumerate(envs):
        cells = {WINDOW[k]: int(env[k]) for k in range(len(WINDOW))}

        def on_target(r: int, c: int) -> bool:
            return cells.get((r, c), ENV_EMPTY) == ENV_TARGET

        for p, (pr, pc) in enumerate(WINDOW):
            if cells[(pr, pc)] == ENV_OBSTACLE:
                continue
            for d, direction in enumerate((-1, 1)):
                outcomes = []
                for outside_blocked in (True, False):

                    def blocked(r: int, c: int, ob: bool = outside_blocked) -> bool:
                        state = cells.get((r, c))
                        return ob if state is None else state == ENV_OBSTACLE

                    r, c, nd = step(physics, blocked, on_target, (pr, pc, direction))
                    outcomes.append((r, c, nd) if (r, c) == (0, 0) else None)
                if outcomes[0] != outcomes[1]:
                    raise ValueError(f"under physics {physics.name!r} the centre's next state depends on cells "
                                     "outside the 3x3 window, which this learner's features do not see")
                if outcomes[0] is not None:
                    table[e, p, d, 0 if outcomes[0][2] < 0 else 1] = True
    return table


def env_planes(envs: npt.ArrayLike) -> tuple[BoolArray, BoolArray]:
    """Obstacle and target feature planes ``(n, 9)`` of environments ``(n, 9)``."""
    e = np.asarray(envs)
    return e == ENV_OBSTACLE, e == ENV_TARGET


def reference_labels(features: npt.ArrayLike, physics: Physics = CLASSIC) -> BoolArray:
    """The true next centre channels ``(n, 2)`` of feature rows ``(n, 36)`` under ``physics``.

    Rows must describe configurations that can occur (no lemming on an obstacle, no
    target on an obstacle).
    """
    x = np.asarray(features).reshape(-1, N_FEATURES).astype(bool)
    obst = x[:, 0:9]
    tgt = x[:, 9:18]
    env_index = (np.where(obst, ENV_OBSTACLE, np.where(tgt, ENV_TARGET, ENV_EMPTY)) * 3 ** np.arange(9)).sum(axis=1)
    table = reference_table(physics)[env_index]  # (n, 9, 2, 2)
    lem = np.stack([x[:, 18:27], x[:, 27:36]], axis=2)  # (n, 9, 2)
    hit: BoolArray = np.any(table & lem[..., None], axis=(1, 2))
    return hit


def reference_relevant(channel: int, physics: Physics = CLASSIC) -> list[int]:
    """Lemming features that can influence label ``channel`` under ``physics`` (from the table)."""
    table = reference_table(physics)
    out = []
    for p in range(len(WINDOW)):
        for d in range(2):
            if table[:, p, d, channel].any():
                out.append((2 + d) * len(WINDOW) + p)
    return out


def consistent(features: npt.ArrayLike) -> BoolArray:
    """Which rows ``(n, 36)`` can occur: no lemming or target on an obstacle, at most one lemming."""
    x = np.asarray(features).reshape(-1, N_FEATURES).astype(bool)
    obst = x[:, 0:9]
    clash = np.any(obst & (x[:, 9:18] | x[:, 18:27] | x[:, 27:36]), axis=1)
    ok: BoolArray = ~clash & (x[:, 18:36].sum(axis=1) <= 1)
    return ok


@lru_cache(maxsize=1)
def all_configurations() -> UInt8Array:
    """Every feature row that can occur (see the module docstring): ``(n, 36)`` uint8, read-only."""
    envs = environments()
    obst, tgt = env_planes(envs)
    n_lem = 2 * len(WINDOW)
    rows = np.zeros((len(envs), n_lem + 1, N_FEATURES), dtype=np.uint8)
    rows[:, :, 0:9] = obst[:, None, :]
    rows[:, :, 9:18] = tgt[:, None, :]
    for s in range(n_lem):
        rows[:, s, 18 + s] = 1
    flat: UInt8Array = rows.reshape(-1, N_FEATURES)
    flat = flat[consistent(flat)]
    flat.flags.writeable = False
    return flat


