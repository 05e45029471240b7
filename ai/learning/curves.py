"""Learning curves: wrong configurations against the number of games, per regime and model.

:func:`learning_curves` measures, for each seed, the exhaustive error count
(:func:`ai.learning.verify.verify_model`) of rules learned from the first ``g`` games:

* regimes (decision tree): ``random`` (a few lemmings per random map), ``many`` (one lemming
  per free cell and direction, dense targets), ``mirrored`` (``many`` plus mirror images) and
  ``active`` (one ``many`` game, then query levels: ``g - 1`` of them);
* models on the random regime: ``tree``, ``logreg`` (pairwise logistic regression), ``mlp``.

:func:`plot_curves` draws median and range over seeds on a log scale (matplotlib, Agg backend,
imported inside the function: it takes over a second to import).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

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
                    many_checkpoints: Sequence[int] = (1, 2, 3), active_checkpoints: Sequence[int] = (1, 2, 3, 4)
                    ) -> Curves:
    """Measure the curves (see the module docstring); random-regime curves at ``checkpoints``."""
    curves = Curves(tuple(checkpoints), tuple(seeds))
    for seed in seeds:
        random_games = regime_datasets(np.random.default_rng(seed), max(checkpoints), "random")
        rand = _prefixes(random_games, checkpoints)
        for name in names:
            points: list[tuple[int, int]] = []
            if name == "random" or name in MODEL_CURVES:
                kind = "tree" if name == "random" else name
                if name == "tree" and "random" in names:
                    curves.errors.setdefault(name, {})[seed] = curves.errors["random"][seed]
                    continue
                for g, d in rand:
                    points.append((g, verify_model(fit_model(kind, d.features, d.labels, random_state=seed)).total_errors))
            elif name in ("many", "mirrored"):
                many = regime_datasets(np.random.default_rng(seed), max(many_checkpoints), "many")
                for g, d in _prefixes(many, many_checkpoints):
                    if name == "mirrored":
                        d = mirrored(d)
                    points.append((g, verify_model(fit_occam_tree(d.features, d.labels)).total_errors))
            elif name == "active":
                rng = np.random.default_rng(seed)
                data = regime_datasets(rng, 1, "many")[0]
                for g in range(1, max(active_checkpoints) + 1):
                    if g > 1:
                        queries, _ = choose_queries(data, rng)
                        if len(queries):
                            data = data.merge(run_query(queries))
                    if g in active_checkpoints:
                        points.append((g, verify_model(fit_occam_tree(data.features, data.labels)).total_errors))
            else:
                raise ValueError(f"unknown curve {name!r}")
            curves.errors.setdefault(name, {})[seed] = points
    return curves


def plot_curves(curves: Curves, out: str) -> None:
    """Two panels (regimes with trees; models on random games), median line and min-max band,
    log scale (0 drawn at 0.5, labelled "exact")."""
    import matplotlib  # late: matplotlib takes over 1 s to import

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # late: as above, and after choosing Agg

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    panels = ((axes[0], REGIME_CURVES, "regimes (decision tree)"), (axes[1], MODEL_CURVES, "models (random games)"))
    floor = 0.5
    shift = {"many": 0.96, "mirrored": 1.0, "active": 1.04}  # keep overlapping curves visible
    marker = {"many": "s", "mirrored": "^", "active": "D"}
    for ax, names, title in panels:
        for name in names:
            rows = curves.median_range(name)
            if not rows:
                continue
            g = [r[0] * shift.get(name, 1.0) for r in rows]
            med = [max(r[1], floor) for r in rows]
            lo = [max(r[2], floor) for r in rows]
            hi = [max(r[3], floor) for r in rows]
            label = {"active": "active (1 many-lemming game + queries)", "many": "many lemmings per map",
                     "mirrored": "many + mirror prior", "random": "random games",
                     "logreg": "logistic regression (pairs)", "mlp": "MLP (24 hidden)", "tree": "decision tree"}[name]
            ax.plot(g, med, marker=marker.get(name, "o"), label=label)
            ax.fill_between(g, lo, hi, alpha=0.15)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.axhline(floor, color="grey", lw=0.5, ls=":")
        ax.set_xlabel("games (log scale)")
        ax.set_title(title)
        ax.legend(fontsize=8)
    axes[0].set_ylabel(f"wrong configurations (of 2 x 255,879; {floor} = exact)")
    fig.suptitle(f"Learning the rules: median and range over seeds {min(curves.seeds)}-{max(curves.seeds)}")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
