"""Learned rule models: decision tree, logistic regression with pairwise products, small MLP.

Every model predicts the two direction channels of a cell at frame ``t`` from the 36
neighbourhood features at ``t - 1`` (:mod:`ai.learning.features`).  Models are fitted
with scikit-learn (imported inside the fitting functions only) but stored and evaluated
as plain numpy data, so rules load from JSON without scikit-learn and without pickles.

>>> tree = TreeModel([[{"value": 0}], [{"feature": 20, "low": 1, "high": 2}, {"value": 0}, {"value": 1}]])
>>> tree.predict(np.eye(36, dtype=np.uint8)[[20, 21]]).tolist()
[[False, True], [False, False]]
>>> print(tree.render(1))
if left[t-1,i-1,j+1] == 0:
    right[t,i,j] = 0
else:
    right[t,i,j] = 1
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Protocol, Sequence

import numpy as np
import numpy.typing as npt

from ai.learning.features import LABELS, N_FEATURES, BoolArray, feature_name
from ai.learning.trees import Literal, Node, checked_tree, tree_lines, tree_nodes, tree_paths
from ai.kernel.libraries import sklearn_exceptions, sklearn_linear_model, sklearn_neural_network, sklearn_tree

MODEL_KINDS = ("tree", "logreg", "mlp")


class RuleModel(Protocol):
    """What every learned model provides."""

    kind: str

    def predict(self, features: npt.ArrayLike) -> BoolArray:
        """``(n, 36)`` 0/1 rows -> ``(n, 2)`` predicted channels."""
        ...

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data (lists and numbers)."""
        ...


def _as_rows(features: npt.ArrayLike) -> npt.NDArray[np.float64]:
    return np.asarray(features, dtype=np.float64).reshape(-1, N_FEATURES)


# ------------------------------------------------------------------------- tree
@dataclass
class TreeModel:
    """One binary decision tree per output channel (``trees[c]`` is a list of nodes, root first)."""

    trees: list[list[Node]]
    kind: str = "tree"

    def predict(self, features: npt.ArrayLike) -> BoolArray:
        """Evaluate both trees on ``(n, 36)`` rows."""
        x = np.asarray(features).reshape(-1, N_FEATURES).astype(bool)
        out = np.zeros((len(x), len(self.trees)), dtype=bool)
        for c, nodes in enumerate(self.trees):
            feat = np.array([n.get("feature", 0) for n in nodes], dtype=np.int64)
            low = np.array([n.get("low", i) for i, n in enumerate(nodes)], dtype=np.int64)
            high = np.array([n.get("high", i) for i, n in enumerate(nodes)], dtype=np.int64)
            leaf = np.array(["value" in n for n in nodes])
            value = np.array([bool(n.get("value", 0)) for n in nodes])
            idx = np.zeros(len(x), dtype=np.int64)
            rows = np.arange(len(x))
            for _ in range(len(nodes)):
                active = ~leaf[idx]
                if not active.any():
                    break
                bit = x[rows, feat[idx]]
                idx = np.where(active, np.where(bit, high[idx], low[idx]), idx)
            out[:, c] = value[idx]
        return out

    def paths(self, channel: int) -> list[tuple[list[Literal], int]]:
        """Every root-to-leaf path of a channel's tree: ``(literals, leaf value)``."""
        return tree_paths(self.trees[channel])

    def render(self, channel: int) -> str:
        """The tree as nested ``if`` tests, e.g. ``if obstacle[t-1,i+1,j] == 0: ...``."""
        target = f"{LABELS[channel]}[t,i,j]"
        return "\n".join(tree_lines(self.trees[channel], feature_name, lambda v: f"{target} = {v}"))

    def cnf(self, channel: int) -> list[list[tuple[str, bool]]]:
        """The tree as CNF clauses over named variables, one clause per path to a leaf.

        The path ``l1 and ... and lk -> y = v`` becomes ``not l1 or ... or not lk or (y == v)``.
        Each literal is ``(variable name, polarity)``.
        """
        target = f"{LABELS[channel]}[t,i,j]"
        clauses = []
        for lits, value in self.paths(channel):
            clause = [(feature_name(f), not bool(v)) for f, v in lits]
            clause.append((target, bool(value)))
            clauses.append(clause)
        return clauses

    def render_cnf(self, channel: int) -> str:
        """The CNF of one channel, one clause per line."""
        out = []
        for clause in self.cnf(channel):
            out.append("(" + " or ".join(name if pol else f"not {name}" for name, pol in clause) + ")")
        return " and\n".join(out)

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "tree", "trees": [[node, ...], [node, ...]]}``."""
        return {"kind": self.kind, "trees": [[dict(n) for n in nodes] for nodes in self.trees]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TreeModel:
        """Inverse of :meth:`to_json` (validates the node structure)."""
        raw = data["trees"]
        if not isinstance(raw, list):
            raise ValueError("trees is not a list")
        trees = [checked_tree(nodes, N_FEATURES) for nodes in raw]
        if len(trees) != len(LABELS):
            raise ValueError("a tree model needs one tree per channel")
        return cls(trees)


def fit_tree(features: npt.ArrayLike, labels: npt.ArrayLike, *, random_state: int = 0,
             criterion: str = "entropy", splitter: str = "best") -> TreeModel:
    """Fit one unpruned decision tree per channel (scikit-learn), converted to :class:`TreeModel`.

    Unpruned trees fit every (deterministic) example, so any ``splitter``/``random_state``
    gives a hypothesis consistent with the data; they differ only where data is missing.
    """
    x = _as_rows(features)
    y = np.asarray(labels, dtype=bool).reshape(-1, len(LABELS))
    trees = []
    for c in range(len(LABELS)):
        if len(x) == 0 or y[:, c].all() or not y[:, c].any():
            trees.append([{"value": int(len(x) > 0 and bool(y[:, c].all()))}])
            continue
        clf = sklearn_tree.DecisionTreeClassifier(criterion=criterion, splitter=splitter, random_state=random_state)
        clf.fit(x, y[:, c])
        nodes = tree_nodes(clf, lambda label: int(bool(label)))
        trees.append(nodes)
    return TreeModel(trees)


# ------------------------------------------------------------- logistic regression
@dataclass
class LogRegModel:
    """Logistic regression on the features and all their pairwise products, per channel.

    ``score = bias + linear . x + sum_{a<b} pair[a, b] x_a x_b``; predicted 1 when > 0.
    ``pair`` is stored upper-triangular ``(36, 36)``.
    """

    bias: list[float]
    linear: list[list[float]]
    pair: list[list[list[float]]]
    kind: str = "logreg"

    def scores(self, features: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Decision values ``(n, 2)``."""
        x = _as_rows(features)
        out = np.empty((len(x), len(self.bias)))
        for c in range(len(self.bias)):
            w = np.asarray(self.linear[c])
            p = np.asarray(self.pair[c])
            out[:, c] = self.bias[c] + x @ w + ((x @ p) * x).sum(axis=1)
        return out

    def predict(self, features: npt.ArrayLike) -> BoolArray:
        """Predicted channels ``(n, 2)``."""
        return self.scores(features) > 0

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {"kind": self.kind, "bias": self.bias, "linear": self.linear, "pair": self.pair}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LogRegModel:
        """Inverse of :meth:`to_json`."""
        return cls([float(b) for b in data["bias"]], data["linear"], data["pair"])


def pairwise_features(features: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """``(n, 36 + 630)``: the features and every product of two different features."""
    x = _as_rows(features)
    a, b = np.triu_indices(N_FEATURES, k=1)
    return np.concatenate([x, x[:, a] * x[:, b]], axis=1)


def fit_logreg(features: npt.ArrayLike, labels: npt.ArrayLike, *, c_value: float = 1e4) -> LogRegModel:
    """Fit the pairwise logistic regression (scikit-learn, nearly unregularised)."""
    x = pairwise_features(features)
    y = np.asarray(labels, dtype=bool).reshape(-1, len(LABELS))
    a, b = np.triu_indices(N_FEATURES, k=1)
    bias, linear, pair = [], [], []
    for c in range(len(LABELS)):
        p = np.zeros((N_FEATURES, N_FEATURES))
        if len(x) == 0 or y[:, c].all() or not y[:, c].any():
            bias.append(10.0 if len(x) and y[:, c].all() else -10.0)
            linear.append([0.0] * N_FEATURES)
            pair.append(p.tolist())
            continue
        clf = sklearn_linear_model.LogisticRegression(C=c_value, max_iter=3000)
        clf.fit(x, y[:, c])
        coef = clf.coef_[0]
        p[a, b] = coef[N_FEATURES:]
        bias.append(float(clf.intercept_[0]))
        linear.append(coef[:N_FEATURES].tolist())
        pair.append(p.tolist())
    return LogRegModel(bias, linear, pair)


# ------------------------------------------------------------------------- MLP
@dataclass
class MlpModel:
    """A small multi-layer perceptron per channel (ReLU hidden layers, logistic output)."""

    weights: list[list[list[list[float]]]]
    biases: list[list[list[float]]]
    kind: str = "mlp"

    def predict(self, features: npt.ArrayLike) -> BoolArray:
        """Predicted channels ``(n, 2)``."""
        x0 = _as_rows(features)
        out = np.zeros((len(x0), len(self.weights)), dtype=bool)
        for c, (ws, bs) in enumerate(zip(self.weights, self.biases)):
            h = x0
            for k, (w, b) in enumerate(zip(ws, bs)):
                h = h @ np.asarray(w) + np.asarray(b)
                if k < len(ws) - 1:
                    h = np.maximum(h, 0.0)
            out[:, c] = h[:, 0] > 0
        return out

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data."""
        return {"kind": self.kind, "weights": self.weights, "biases": self.biases}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MlpModel:
        """Inverse of :meth:`to_json`."""
        return cls(data["weights"], data["biases"])


def fit_mlp(features: npt.ArrayLike, labels: npt.ArrayLike, *, hidden: Sequence[int] = (24,),
            random_state: int = 0) -> MlpModel:
    """Fit a small MLP per channel (scikit-learn ``MLPClassifier``, Adam)."""
    x = _as_rows(features)
    y = np.asarray(labels, dtype=bool).reshape(-1, len(LABELS))
    weights, biases = [], []
    for c in range(len(LABELS)):
        if len(x) == 0 or y[:, c].all() or not y[:, c].any():
            const = 10.0 if len(x) and y[:, c].all() else -10.0
            weights.append([np.zeros((N_FEATURES, 1)).tolist()])
            biases.append([[const]])
            continue
        clf = sklearn_neural_network.MLPClassifier(hidden_layer_sizes=tuple(hidden), max_iter=400, tol=1e-6,
                            random_state=random_state, alpha=1e-5)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", sklearn_exceptions.ConvergenceWarning)
            clf.fit(x, y[:, c])
        weights.append([w.tolist() for w in clf.coefs_])
        biases.append([b.tolist() for b in clf.intercepts_])
    return MlpModel(weights, biases)


def fit_model(kind: str, features: npt.ArrayLike, labels: npt.ArrayLike, *, random_state: int = 0) -> RuleModel:
    """Fit a model of ``kind`` (``tree``, ``logreg`` or ``mlp``)."""
    if kind == "tree":
        return fit_tree(features, labels, random_state=random_state)
    if kind == "logreg":
        return fit_logreg(features, labels)
    if kind == "mlp":
        return fit_mlp(features, labels, random_state=random_state)
    raise ValueError(f"unknown model {kind!r}; choose from {', '.join(MODEL_KINDS)}")


def model_from_json(data: dict[str, Any]) -> RuleModel:
    """Rebuild a model from its JSON form."""
    kind = data.get("kind")
    if kind == "tree":
        return TreeModel.from_json(data)
    if kind == "logreg":
        return LogRegModel.from_json(data)
    if kind == "mlp":
        return MlpModel.from_json(data)
    raise ValueError(f"unknown model kind {kind!r}")


def fit_occam_tree(features: npt.ArrayLike, labels: npt.ArrayLike, *, tries: int = 6) -> TreeModel:
    """Occam's razor over consistent trees: per channel, the smallest of the unpruned trees fitted with
    both split criteria and ``tries`` random states (every one fits the data; they differ only in how
    they break ties between equally good splits, i.e. where data is missing).  Ties keep the first."""
    fits = [fit_tree(features, labels, random_state=rs, criterion=crit)
            for crit in ("entropy", "gini") for rs in range(tries)]
    return TreeModel([min((f.trees[c] for f in fits), key=len) for c in range(len(LABELS))])
