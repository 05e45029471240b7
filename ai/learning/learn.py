"""The learning pipeline: random (or query) games -> data -> models -> verified rules; and
sample-efficiency curves.

>>> report = learn_rules(games=2, seed=0, model="tree")
>>> report.rules.verification.exact
False
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ai.kernel.context import SolveContext
from ai.learning.active import DEFAULT_TILES, active_learning
from ai.learning.dataset import Dataset, mirrored, random_games_dataset, regime_dataset
from ai.learning.hidden import learn_positions_model
from ai.learning.positions_verify import verify_positions
from ai.learning.models import MODEL_KINDS, fit_model, fit_occam_tree
from ai.learning.rules import LearnedRules
from ai.learning.verify import Verification, verify_model

#: Random games used by default (passive learning): every seed tried in the bench is exact
#: well before this.
DEFAULT_GAMES = 100
#: Most query levels active learning may play.
DEFAULT_ACTIVE_GAMES = 30
#: Seed of the shipped rules.
DEFAULT_SEED = 0


@dataclass
class LearnReport:
    """The kept rules and, when several models were compared, each model's figures."""

    rules: LearnedRules
    comparison: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, int]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Machine-readable summary (printed by ``learn --json``)."""
        ver = self.rules.verification
        return {
            "model": self.rules.model.kind,
            "meta": self.rules.meta,
            "exact": bool(ver and ver.exact),
            "errors": ver.total_errors if ver else None,
            "configurations": ver.configurations if ver else None,
            "comparison": self.comparison,
            "history": self.history,
        }

    def summary(self) -> str:
        """Lines for the terminal."""
        m = self.rules.meta
        lines = [
            f"learned from {_games_phrase(m)} "
            f"({m.get('examples')} distinct examples), seed {m.get('seed')}, model {self.rules.model.kind}"
        ]
        for row in self.comparison:
            lines.append(
                f"  {row['model']:>6}: {row['errors']:,} wrong predictions, fitted in {row['seconds']:.2f} s"
            )
        ver = self.rules.verification
        if ver is not None:
            lines.append(ver.summary())
            if not ver.exact:
                lines.append("the learned rules are WRONG on some configurations: learn from more games "
                             "(or use --active)")
        return "\n".join(lines)


def _games_phrase(meta: dict[str, Any]) -> str:
    """``100 random games``, ``1 many-lemming game + 2 query levels``... for the summary line."""
    games = int(meta.get("games") or 0)
    regime = meta.get("regime", "random")
    if regime == "many":
        queries = int(meta.get("queries") or 0) if meta.get("active") else 0
        text = f"{games - queries} many-lemming game{'s' if games - queries != 1 else ''}"
        if meta.get("active"):
            text += f" + {queries} query level{'s' if queries != 1 else ''}"
    else:
        text = f"{games} {'query' if meta.get('active') else 'random'} game{'s' if games != 1 else ''}"
    if meta.get("observations") == "positions":
        text += " (positions only)"
    if meta.get("mirror"):
        text += " + mirror images"
    return text


def learn_rules(
    *,
    games: int | None = None,
    seed: int = DEFAULT_SEED,
    model: str = "tree",
    active: bool = False,
    tiles: int = DEFAULT_TILES,
    regime: str = "random",
    mirror: bool = False,
    queries: int | None = None,
    context: SolveContext | None = None,
) -> LearnReport:
    """Learn rules from ``games`` games of ``regime`` (``random``: a few lemmings per random map;
    ``many``: one lemming per free cell and direction, dense targets, see
    :func:`ai.learning.dataset.many_lemming_maps`).

    ``mirror`` adds the left-right mirror image of every example (an explicit prior, off by
    default).  With ``active`` and the random regime: at most ``games`` query levels from
    scratch (the original active learner).  With ``active`` and the many regime: ``games``
    many-lemming games first, then at most ``queries`` query levels (default 3).
    ``model`` is ``tree``, ``logreg``, ``mlp`` or ``best`` (fit all three on the same data,
    verify each, keep the one with the fewest errors; ties favour the tree, then logreg).  In the
    many regime the tree is the smallest of several consistent trees
    (:func:`ai.learning.models.fit_occam_tree`).  ``context`` (default: no limit) is checked between
    games, query rounds and models, and inside the verification (:class:`ai.kernel.context.SolveStopped`).
    """
    ctx = context if context is not None else SolveContext.create(solver="learn")
    rng = np.random.default_rng(seed)
    data, history = _gather(rng, games=games, active=active, tiles=tiles, regime=regime, mirror=mirror,
                            queries=queries, ctx=ctx)
    kinds = list(MODEL_KINDS) if model == "best" else [model]
    if any(k not in MODEL_KINDS for k in kinds):
        raise ValueError(f"unknown model {model!r}; choose from {', '.join(MODEL_KINDS)} or best")
    fitted, ver, comparison = _fit_best(kinds, data, regime=regime, seed=seed, ctx=ctx)
    meta = {
        "games": data.games,
        "seed": seed,
        "active": active,
        "regime": regime,
        "mirror": mirror,
        "queries": len(history),
        "examples": len(data),
        "model": fitted.kind,
    }
    rules = LearnedRules(fitted, meta, ver)
    return LearnReport(rules, comparison if len(kinds) > 1 else [], history)


def _gather(rng: np.random.Generator, *, games: int | None, active: bool, tiles: int, regime: str, mirror: bool,
            queries: int | None, ctx: SolveContext) -> tuple[Dataset, list[dict[str, int]]]:
    """The examples :func:`learn_rules` fits (its docstring) and the active learner's query history."""
    history: list[dict[str, int]] = []
    if regime == "many":
        n_games = 1 if games is None else games
        data = regime_dataset(rng, n_games, "many", ctx)
        if mirror:
            data = mirrored(data)
        if active:
            budget = 3 if queries is None else queries
            result = active_learning(rng, max_games=data.games + budget, tiles=tiles, initial=data, patience=1,
                                     ctx=ctx)
            data = result.data
            history = result.history
    elif active:
        result = active_learning(rng, max_games=DEFAULT_ACTIVE_GAMES if games is None else games, tiles=tiles,
                                 ctx=ctx)
        data = result.data
        history = result.history
    else:
        data = random_games_dataset(rng, DEFAULT_GAMES if games is None else games, ctx=ctx)
        if mirror:
            data = mirrored(data)
    return data, history


def _fit_best(kinds: list[str], data: Dataset, *, regime: str, seed: int, ctx: SolveContext
              ) -> tuple[Any, Verification, list[dict[str, Any]]]:
    """Fit and verify each model kind; the one with the fewest errors (ties: the earlier kind), its
    verification and every kind's figures."""
    best: tuple[int, int, Any, Verification] | None = None
    comparison = []
    for rank, kind in enumerate(kinds):
        ctx.check()
        start = time.perf_counter()
        if kind == "tree" and regime == "many":  # Occam: the smallest consistent tree
            fitted: Any = fit_occam_tree(data.features, data.labels)
        else:
            fitted = fit_model(kind, data.features, data.labels, random_state=seed)
        seconds = time.perf_counter() - start
        ver = verify_model(fitted, ctx=ctx)
        comparison.append({"model": kind, "errors": ver.total_errors, "seconds": round(seconds, 3),
                           "exact": ver.exact})
        if best is None or (ver.total_errors, rank) < (best[0], best[1]):
            best = (ver.total_errors, rank, fitted, ver)
    assert best is not None
    return best[2], best[3], comparison


def learn_positions(*, games: int | None = None, seed: int = DEFAULT_SEED, regime: str = "many",
                    ctx: SolveContext | None = None) -> LearnReport:
    """Positions-only learning (:mod:`ai.learning.hidden`): the direction is never observed.  ``ctx`` (default:
    no limit) is checked between the stages (:class:`ai.kernel.context.SolveStopped`)."""
    ctx = ctx if ctx is not None else SolveContext.create(solver="learn")
    result = learn_positions_model(games=3 if games is None else games, seed=seed, regime=regime, context=ctx)
    ctx.check()
    ver = verify_positions(result.model)
    meta = {
        "games": result.games,
        "seed": seed,
        "active": False,
        "regime": regime,
        "mirror": False,
        "observations": "positions",
        "lemmings": result.lemmings,
        "examples": result.examples,
        "hidden_state_changes": result.state_changes,
        "model": result.model.kind,
    }
    return LearnReport(LearnedRules(result.model, meta, ver))
