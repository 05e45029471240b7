"""Exhaustive verification of a positions-only model (:mod:`ai.learning.hidden`) against the real rule."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ai.learning.features import ENV_OBSTACLE, ENV_TARGET, WINDOW, environments
from ai.learning.hidden import STAY, IntArray, PositionsModel
from ai.learning.verify import Verification
from game.core.physics import CLASSIC, Physics
from game.core.physics_views import step

@lru_cache(maxsize=8)
def _real_table(physics: Physics = CLASSIC) -> tuple[IntArray, IntArray, IntArray]:
    """Valid environments (centre not an obstacle) and the ground-truth ``physics``' move and next
    direction channel for each and each direction: ``(envs, move (n, 2), next (n, 2))``."""
    envs = environments()
    valid = np.flatnonzero(envs[:, STAY] != ENV_OBSTACLE)
    move = np.zeros((len(valid), 2), dtype=np.int64)
    nxt = np.zeros((len(valid), 2), dtype=np.int64)
    for i, e in enumerate(valid):
        cells = {WINDOW[k]: int(envs[e, k]) for k in range(len(WINDOW))}
        for d, direction in enumerate((-1, 1)):
            r, c, nd = step(physics, lambda rr, cc: cells.get((rr, cc), ENV_OBSTACLE) == ENV_OBSTACLE,
                                    lambda rr, cc: cells.get((rr, cc)) == ENV_TARGET, (0, 0, direction))
            move[i, d] = WINDOW.index((r, c))
            nxt[i, d] = 0 if nd < 0 else 1
    return valid, move, nxt


def verify_positions(model: PositionsModel, *, max_counterexamples: int = 5,
                     physics: Physics = CLASSIC) -> Verification:
    """Does ``model`` predict the same positions as the real rule (the ground truth ``physics``) from
    every configuration?

    A closure over coupled states ``(model state h, real direction d, env)``: start with each start
    marker's pair and any environment; in every environment the two must move the same way, and
    their next states are coupled in turn, in *any* environment after a move (a sound
    over-approximation: the next neighbourhood is really constrained by the last) and in the
    *same* environment after staying put.  Exact (0 errors) means identical trajectories on every
    map from every start, with the hidden state named however the learner chose.
    ``configurations`` counts the (coupled state, environment) pairs checked.
    """
    valid, real_move, real_next = _real_table(physics)
    envs = environments()[valid]
    base = np.concatenate([envs == ENV_OBSTACLE, envs == ENV_TARGET], axis=1)
    pred = [model.predict(np.concatenate([base, np.full((len(base), 1), h, dtype=bool)], axis=1))
            for h in range(2)]
    errors = 0
    checked = 0
    examples: list[tuple[int, ...]] = []
    start = [(model.start_state[d], d, -1) for d in range(2)]
    seen = set(start)
    queue = list(start)
    while queue:
        h, d, pin = queue.pop()
        idx = np.arange(len(valid)) if pin < 0 else np.array([pin])
        mm, mn = pred[h][idx, 0], pred[h][idx, 1]
        rm, rn = real_move[idx, d], real_next[idx, d]
        bad = mm != rm
        checked += len(idx)
        errors += int(bad.sum())
        for i in idx[bad][: max(0, max_counterexamples - len(examples))]:
            examples.append(tuple(int(v) for v in base[i]) + (h, d))
        good = ~bad
        moved = good & (rm != STAY)
        for key in set(zip(mn[moved].tolist(), rn[moved].tolist())):
            state = (key[0], key[1], -1)
            if state not in seen:
                seen.add(state)
                queue.append(state)
        for i, a, b in zip(idx[good & ~moved].tolist(), mn[good & ~moved].tolist(), rn[good & ~moved].tolist()):
            state = (a, b, i)
            if state not in seen:
                seen.add(state)
                queue.append(state)
    return Verification((errors,), checked, True, tuple(examples))
