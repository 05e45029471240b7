"""Decision trees as plain data: nodes, validation of trees read from files, paths, printing, and the
conversion of a fitted scikit-learn tree (used by :mod:`ai.learning.models` and :mod:`ai.learning.hidden`)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

Node = dict[str, int]
"""A tree node: ``{"value": 0|1}`` (leaf) or ``{"feature": f, "low": i, "high": j}``
(go to node ``low`` when feature ``f`` is 0, to ``high`` when it is 1)."""

Literal = tuple[int, int]
"""``(feature, value)``: the test "feature f equals value"."""

#: Most nodes in one learned tree read from a file.
MAX_TREE_NODES = 65_536
#: Deepest learned tree read from a file (root-to-leaf tests).
MAX_TREE_DEPTH = 128


def checked_tree(nodes: Any, n_features: int, n_values: int | None = None) -> list[Node]:
    """Validate a tree read from a file: a non-empty list of at most :data:`MAX_TREE_NODES` nodes
    (``{"value"}`` leaves, ``{"feature", "low", "high"}`` splits whose children come later), every
    node but the root the child of exactly one split (a tree, not a graph with shared parts whose
    paths could explode), depth at most :data:`MAX_TREE_DEPTH`.  Raises ``ValueError``.

    >>> checked_tree([{"feature": 3, "low": 1, "high": 2}, {"value": 0}, {"value": 1}], 36)
    [{'feature': 3, 'low': 1, 'high': 2}, {'value': 0}, {'value': 1}]
    >>> checked_tree([{"feature": 3, "low": 1, "high": 1}, {"value": 0}], 36)
    Traceback (most recent call last):
    ...
    ValueError: tree node 1 has 2 parents (a tree node has one)
    >>> checked_tree([], 36)
    Traceback (most recent call last):
    ...
    ValueError: empty tree
    """
    if not isinstance(nodes, list):
        raise ValueError("a tree is not a list of nodes")
    if not nodes:
        raise ValueError("empty tree")
    if len(nodes) > MAX_TREE_NODES:
        raise ValueError(f"a tree of {len(nodes):,} nodes (at most {MAX_TREE_NODES:,})")
    out: list[Node] = []
    parents = [0] * len(nodes)
    depth = [0] * len(nodes)
    for i, n in enumerate(nodes):
        if not isinstance(n, dict):
            raise ValueError(f"tree node {i} is not an object")
        if "value" in n:
            v = int(n["value"])
            if (n_values is not None and not 0 <= v < n_values) or (n_values is None and v not in (0, 1)):
                raise ValueError(f"bad leaf value {v} at tree node {i}")
            out.append({"value": v})
            continue
        f, lo, hi = int(n["feature"]), int(n["low"]), int(n["high"])
        if not (0 <= f < n_features and i < lo < len(nodes) and i < hi < len(nodes)):
            raise ValueError(f"bad tree node {i}: {str(n)[:100]}")
        for child in (lo, hi):
            parents[child] += 1
            depth[child] = depth[i] + 1
            if parents[child] > 1:
                raise ValueError(f"tree node {child} has {parents[child]} parents (a tree node has one)")
            if depth[child] > MAX_TREE_DEPTH:
                raise ValueError(f"a tree deeper than {MAX_TREE_DEPTH} tests")
        out.append({"feature": f, "low": lo, "high": hi})
    orphans = [i for i in range(1, len(nodes)) if parents[i] == 0]
    if orphans:
        raise ValueError(f"tree node {orphans[0]} is not reachable from the root")
    return out


def tree_paths(nodes: list[Node]) -> list[tuple[list[Literal], int]]:
    """Every root-to-leaf path of a tree: ``(literals (feature, 0 or 1), leaf value)``.

    >>> tree_paths([{"feature": 3, "low": 1, "high": 2}, {"value": 0}, {"value": 1}])
    [([(3, 0)], 0), ([(3, 1)], 1)]
    """
    out: list[tuple[list[Literal], int]] = []

    def walk(i: int, lits: list[Literal]) -> None:
        node = nodes[i]
        if "value" in node:
            out.append((lits, int(node["value"])))
            return
        walk(node["low"], lits + [(node["feature"], 0)])
        walk(node["high"], lits + [(node["feature"], 1)])

    walk(0, [])
    return out


def tree_lines(nodes: list[Node], feature: Callable[[int], str], leaf: Callable[[int], str]) -> list[str]:
    """A tree as nested ``if <feature> == 0: / else:`` lines (four spaces a level), leaves as ``leaf(value)``.

    >>> tree_lines([{"feature": 3, "low": 1, "high": 2}, {"value": 0}, {"value": 1}], str, lambda v: f"= {v}")
    ['if 3 == 0:', '    = 0', 'else:', '    = 1']
    """
    lines: list[str] = []

    def walk(i: int, depth: int) -> None:
        pad = "    " * depth
        node = nodes[i]
        if "value" in node:
            lines.append(f"{pad}{leaf(int(node['value']))}")
            return
        lines.append(f"{pad}if {feature(node['feature'])} == 0:")
        walk(node["low"], depth + 1)
        lines.append(f"{pad}else:")
        walk(node["high"], depth + 1)

    walk(0, 0)
    return lines


def tree_nodes(clf: Any, leaf_value: Callable[[Any], int]) -> list[Node]:
    """A fitted scikit-learn decision tree as :data:`Node` dicts in depth-first order (root first):
    ``{"feature", "low", "high"}`` for a split, ``{"value": leaf_value(majority class)}`` for a leaf."""
    t = clf.tree_
    classes = list(clf.classes_)
    order: list[int] = []
    mapping: dict[int, int] = {}

    def visit(i: int) -> None:
        mapping[i] = len(order)
        order.append(i)
        if t.children_left[i] != -1:
            visit(int(t.children_left[i]))
            visit(int(t.children_right[i]))

    visit(0)
    nodes: list[Node] = []
    for i in order:
        if t.children_left[i] == -1:
            nodes.append({"value": leaf_value(classes[int(np.argmax(t.value[i][0]))])})
        else:
            nodes.append({"feature": int(t.feature[i]), "low": mapping[int(t.children_left[i])],
                          "high": mapping[int(t.children_right[i])]})
    return nodes
