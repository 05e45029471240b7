"""Learning curves: wrong configurations against the number of games, per regime and model.

:func:`learning_curves` measures, for each seed, the exhaustive error count
(:func:`ai.learning.verify.verify_model`) of rules learned from the first ``g`` games:

* regimes (decision tree): ``random`` (a few lemmings per random map), ``many`` (one lemming
  per free cell and direction, dense targets), ``mirrored`` (``many`` plus mirror images) and
  ``active`` (one ``many`` game, then query levels: ``g - 1`` of them);
* models on the random regime: ``tree``, ``logreg`` (pairwise logistic regression), ``mlp``.

The command line draws them (``learn --curve``: median and range over seeds, log scale).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ai.kernel.context import SolveContext
from ai.learning.active import choose_queries, run_query
from ai.learning.dataset import Dataset, mirrored, regime_datasets
from ai.learning.models import fit_model, fit_occam_tree
from ai.learning.verify import verify_model

#: Default games at which the curves are measured.
DEFAULT_CHECKPOINTS = (1, 2, 3, 5, 8, 13, 20)
#: Curve names: regimes (tree) then models (random regime).
REGIME_CURVES = ("random", "many", "mirrored", "active")
MODEL_CURVES = ("tree", "logreg", "mlp")


@dataclass
class Curves:
    """``errors[name][seed]`` = list of ``(games, wrong configurations)``."""

    checkpoints: tuple[int, ...]
    seeds: tuple[int, ...]
    errors: dict[str, dict[int, list[tuple[int, int]]]] = field(default_factory=dict)

    def median_range(self, name: str) -> list[tuple[int, float, int, int]]:
        """``(games, median, min, max)`` over seeds, per checkpoint."""
        by_g: dict[int, list[int]] = {}
        for points in self.errors.get(name, {}).values():
            for g, e in points:
                by_g.setdefault(g, []).append(e)
        return [(g, float(np.median(v)), min(v), max(v)) for g, v in sorted(by_g.items())]

    def non_monotone(self, name: str) -> list[tuple[int, int, int, int, int]]:
        """Seeds whose errors go *up* with more games: ``(seed, games a, errors a, games b, errors b)``."""
        out = []
        for seed, pts in sorted(self.errors.get(name, {}).items()):
            for (ga, ea), (gb, eb) in zip(pts, pts[1:]):
                if eb > ea:
                    out.append((seed, ga, ea, gb, eb))
                    break
        return out

def _prefixes(per_game: list[Dataset], checkpoints: Sequence[int]) -> list[tuple[int, Dataset]]:
    out = []
    data = Dataset.empty()
    for g, d in enumerate(per_game, start=1):
        data = data.merge(d)
        if g in checkpoints:
            out.append((g, data))
    return out


def learning_curves(seeds: Sequence[int] = range(8), checkpoints: Sequence[int] = DEFAULT_CHECKPOINTS,
                    *, names: Sequence[str] = REGIME_CURVES + MODEL_CURVES,
                    many_checkpoints: Sequence[int] = (1, 2, 3), active_checkpoints: Sequence[int] = (1, 2, 3, 4),
                    ctx: SolveContext | None = None) -> Curves:
    """Measure the curves (see the module docstring); random-regime curves at ``checkpoints``.  ``ctx``
    (default: no limit) is checked between curves and inside each verification."""
    ctx = ctx if ctx is not None else SolveContext.create(solver="learn")
    curves = Curves(tuple(checkpoints), tuple(seeds))
    for seed in seeds:
        random_games = regime_datasets(np.random.default_rng(seed), max(checkpoints), "random")
        rand = _prefixes(random_games, checkpoints)
        for name in names:
            ctx.check()
            points: list[tuple[int, int]] = []
            if name == "random" or name in MODEL_CURVES:
                kind = "tree" if name == "random" else name
                if name == "tree" and "random" in names:
                    curves.errors.setdefault(name, {})[seed] = curves.errors["random"][seed]
                    continue
                for g, d in rand:
                    points.append((g, verify_model(fit_model(kind, d.features, d.labels, random_state=seed), ctx=ctx).total_errors))
            elif name in ("many", "mirrored"):
                many = regime_datasets(np.random.default_rng(seed), max(many_checkpoints), "many")
                for g, d in _prefixes(many, many_checkpoints):
                    if name == "mirrored":
                        d = mirrored(d)
                    points.append((g, verify_model(fit_occam_tree(d.features, d.labels), ctx=ctx).total_errors))
            elif name == "active":
                rng = np.random.default_rng(seed)
                data = regime_datasets(rng, 1, "many")[0]
                for g in range(1, max(active_checkpoints) + 1):
                    if g > 1:
                        queries, _ = choose_queries(data, rng)
                        if len(queries):
                            data = data.merge(run_query(queries))
                    if g in active_checkpoints:
                        points.append((g, verify_model(fit_occam_tree(data.features, data.labels), ctx=ctx).total_errors))
            else:
                raise ValueError(f"unknown curve {name!r}")
            curves.errors.setdefault(name, {})[seed] = points
    return curves
