"""The steps that go into the learner's CP-SAT models and replays: bounded by design, whatever the games.

A CP-SAT model of the steps (:func:`ai.learning.hidden_directions.direction_model`) holds a few
variables and clauses per step, and a replay (:class:`ai.learning.hidden_directions.Layout`) a grid of
lemmings x frames; neither may grow with the input.  Two rules keep them small:

* **Fully observed** steps are independent of one another (every direction is known), so each
  distinct step is kept once, as a lemming of its own (:func:`distinct_steps`).  Nothing is lost: the
  models and replays of the distinct steps accept exactly the rule lists those of all the steps accept,
  and there are at most 256 x 2 x 9 x 2 x 2 distinct steps.
* **Positions only** (some direction hidden), a lemming's steps are chained by its hidden direction and
  cannot be taken apart; when the lemmings x frames grid exceeds :data:`MODEL_STEPS`, the learner takes
  the first ``F`` steps of every lemming, ``F = MODEL_STEPS // lemmings`` (the first
  :data:`MODEL_STEPS` lemmings when there are more), and says so (:func:`sample_steps`).

>>> from ai.learning.observations import random_game, steps_of
>>> from game.core.physics_catalog import SHIPPED
>>> steps = steps_of([random_game(np.random.default_rng(0), SHIPPED["classic"], lemmings=200, frames=60)])
>>> steps.count, distinct_steps(steps).count
(11800, 234)
>>> sample, note = sample_steps(steps, most=1000)
>>> sample.count, note
(1000, 'positions only: the directions were inferred from the first 5 steps of each lemming (1,000 of 11,800 steps; the hidden-direction models take at most 1,000)')
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ai.learning.observations import Steps

IntArray = npt.NDArray[np.int64]

#: Most steps (lemmings x frames) the hidden-direction models and replays take.
MODEL_STEPS = 10_000


def distinct_steps(steps: Steps) -> Steps:
    """Each distinct step of ``steps`` once, each as a lemming of its own (in a fixed order: by
    configuration, then on a target, move and directions): for fully observed steps, a model or replay
    of these accepts exactly what one of all the steps accepts.  Linear time, fixed memory beyond the key."""
    key = (steps.config | steps.on_target.astype(np.int64) << 8 | (steps.moves[:, 0] + 1) << 9
           | (steps.moves[:, 1] + 1) << 11 | (steps.direction + 1) << 13 | (steps.next_direction + 1) << 15)
    present = np.flatnonzero(np.bincount(key, minlength=1 << 17)).astype(np.int64)
    moves = np.stack([(present >> 9 & 3) - 1, (present >> 11 & 3) - 1], axis=1)
    return Steps(present & 255, (present >> 8 & 1).astype(bool), moves, (present >> 13 & 3) - 1,
                 (present >> 15 & 3) - 1, np.arange(present.size, dtype=np.int64))


def sample_steps(steps: Steps, most: int | None = None) -> tuple[Steps, str | None]:
    """``steps`` when their lemmings x frames grid holds at most ``most`` cells (default
    :data:`MODEL_STEPS`), else the first ``most // lemmings`` steps of every lemming (the first ``most``
    lemmings when there are more), with a note saying so.  Steps of one lemming are consecutive in ``steps``."""
    most = MODEL_STEPS if most is None else most
    if not steps.count:
        return steps, None
    starts = np.flatnonzero(np.r_[True, steps.lemming[1:] != steps.lemming[:-1]])  # linear: no sort
    counts = np.diff(np.r_[starts, steps.count])
    if counts.size * int(counts.max()) <= most:
        return steps, None
    lemmings = counts.size
    keep = max(1, most // lemmings)
    starts, counts = starts[:most], np.minimum(counts[:most], keep)
    rows = (np.repeat(starts, counts) + np.arange(int(counts.sum()))
            - np.repeat(np.cumsum(counts) - counts, counts)).astype(np.int64)
    sample = Steps(steps.config[rows], steps.on_target[rows], steps.moves[rows], steps.direction[rows],
                   steps.next_direction[rows], steps.lemming[rows])
    which = "each lemming" if lemmings <= most else f"each of the first {most:,} lemmings"
    note = (f"positions only: the directions were inferred from the first {keep:,} step{'s' * (keep > 1)} of "
            f"{which} ({sample.count:,} of {steps.count:,} steps; the hidden-direction models take at most "
            f"{most:,})")
    return sample, note


__all__ = ["MODEL_STEPS", "distinct_steps", "sample_steps"]
