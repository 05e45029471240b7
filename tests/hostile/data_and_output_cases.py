"""Hostile data files and outputs: rules files, observed runs, the verdict cache, solver names,
nan/inf limits, outputs that are inputs, ``-`` as an output, ``/proc`` outputs.

:func:`make_files` writes the hostile files into a folder and returns the placeholders (``{rules_deep}``...)
used by :data:`ARGV_CASES`: ``(case id, argv, fragment of the one-line error)``; each command must
exit 2 with one message holding the fragment, and no traceback.  :data:`DATA_FILE_VARIANTS` are the
contents a JSON store in the data folder may hold (the observed runs, the verdict cache).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable

from ai.learning.rules import LearnedRules
from ai.learning.models import TreeModel

LEVEL = "levels/007_the_original.txt"
SOLVE_RULES = ["solve", "7", "--solver", "learned", "--rules"]
HINT_RULES = ["hint", "7", "--rules"]


def _rules_doc(model: object) -> dict[str, object]:
    doc = LearnedRules(TreeModel([[{"value": 0}], [{"value": 0}]]), {}).to_json()
    doc["model"] = model
    return doc


def _chain(depth: int) -> list[dict[str, int]]:
    """A tree that is a chain ``depth`` tests deep (valid nodes, absurd depth)."""
    fixed: list[dict[str, int]] = []
    for i in range(depth):  # split at 2i: low = leaf 2i+1, high = next split 2i+2
        fixed.append({"feature": i % 36, "low": 2 * i + 1, "high": 2 * i + 2})
        fixed.append({"value": 0})
    fixed.append({"value": 1})
    return fixed


def _rules_files() -> dict[str, Callable[[], bytes]]:
    good = json.dumps(_rules_doc({"kind": "tree", "trees": [[{"value": 0}], [{"value": 0}]]}), indent=1)
    tree = _rules_doc({"kind": "tree", "trees": [[{"value": 0}], [{"value": 0}]]})
    return {
        "deep": lambda: b'{"format": "lemming-bricks-rules", "model": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        "bigint": lambda: good.replace('"version": 1', '"version": ' + "9" * 5000).encode(),
        "big_float": lambda: good.replace('"value": 0', '"value": 1e400', 1).encode(),
        "infinity": lambda: good.replace('"value": 0', '"value": Infinity', 1).encode(),
        "nan": lambda: good.replace('"value": 0', '"value": NaN', 1).encode(),
        "latin1": lambda: good.replace('"meta": {}', '"meta": {"by": "Ren\u00e9"}').encode("latin-1"),
        "utf16": lambda: good.encode("utf-16"),
        "utf16le": lambda: good.encode("utf-16-le"),
        "empty_trees": lambda: json.dumps(_rules_doc({"kind": "tree", "trees": [[], []]})).encode(),
        "no_trees": lambda: json.dumps(_rules_doc({"kind": "tree", "trees": []})).encode(),
        "trees_not_list": lambda: json.dumps(_rules_doc({"kind": "tree", "trees": 5})).encode(),
        "node_not_object": lambda: json.dumps(_rules_doc({"kind": "tree", "trees": [[7], [{"value": 0}]]})).encode(),
        "shared_node": lambda: json.dumps(_rules_doc({"kind": "tree", "trees": [
            [{"feature": 1, "low": 1, "high": 1}, {"value": 0}], [{"value": 0}]]})).encode(),
        "dag_explosion": lambda: json.dumps(_rules_doc({"kind": "tree", "trees": [
            [{"feature": i % 36, "low": i + 1, "high": i + 1} for i in range(60)] + [{"value": 0}],
            [{"value": 0}]]})).encode(),
        "backwards_child": lambda: json.dumps(_rules_doc({"kind": "tree", "trees": [
            [{"feature": 1, "low": 0, "high": 0}], [{"value": 0}]]})).encode(),
        "feature_out_of_range": lambda: json.dumps(_rules_doc({"kind": "tree", "trees": [
            [{"feature": 99, "low": 1, "high": 2}, {"value": 0}, {"value": 1}], [{"value": 0}]]})).encode(),
        "leaf_value_2": lambda: json.dumps(_rules_doc({"kind": "tree", "trees": [[{"value": 2}], [{"value": 0}]]})).encode(),
        "deep_tree": lambda: json.dumps(_rules_doc({"kind": "tree", "trees": [_chain(5000), [{"value": 0}]]})).encode(),
        "unreachable_node": lambda: json.dumps(_rules_doc({"kind": "tree", "trees": [
            [{"value": 0}, {"value": 1}], [{"value": 0}]]})).encode(),
        "mlp": lambda: json.dumps(_rules_doc({"kind": "mlp", "weights": [[[[0.0]] * 36], [[[0.0]] * 36]],
                                               "biases": [[[0.0]], [[0.0]]]})).encode(),
        "logreg": lambda: json.dumps(_rules_doc({"kind": "logreg", "bias": [0, 0], "linear": [[0] * 36] * 2,
                                                  "pair": [[0] * 630] * 2})).encode(),
        "unknown_kind": lambda: json.dumps(_rules_doc({"kind": "oracle"})).encode(),
        "model_missing": lambda: json.dumps({k: v for k, v in tree.items() if k != "model"}).encode(),
        "null": lambda: b"null",
        "list": lambda: b"[1, 2, 3]",
        "empty": lambda: b"",
        "not_json": lambda: b"{format: rules}",
        "wrong_format": lambda: b'{"format": "something else"}',
        "wrong_version": lambda: good.replace('"version": 1', '"version": 99').encode(),
        "binary": lambda: bytes(range(256)) * 4,
    }


def make_files(folder: Path) -> dict[str, str]:
    """Write the hostile files; the placeholders of :data:`ARGV_CASES`."""
    folder.mkdir(parents=True, exist_ok=True)
    out: dict[str, str] = {}
    for name, build in _rules_files().items():
        path = folder / f"rules_{name}.json"
        path.write_bytes(build())
        out[f"rules_{name}"] = str(path)
    huge = folder / "rules_huge.json"
    with open(huge, "wb") as f:
        f.truncate(64 * 1024 * 1024)  # sparse: refused by its size before any byte is read
    out["rules_huge"] = str(huge)
    fifo = folder / "rules_fifo.json"
    os.mkfifo(fifo)
    out["rules_fifo"] = str(fifo)
    out["rules_folder"] = str(folder)
    out["rules_missing"] = str(folder / "nope.json")
    out["rules_dev"] = "/dev/zero"
    out["level_copy"] = str(folder / "level.txt")
    (folder / "level.txt").write_text(Path(LEVEL).read_text())
    return out


#: Rules files given to ``solve --rules`` and ``hint --rules``: (placeholder, fragment).
RULES_CASES: list[tuple[str, str]] = [
    ("rules_deep", "nested too deeply"),
    ("rules_bigint", "5,000-digit number"),
    ("rules_big_float", "too large"),
    ("rules_infinity", "Infinity is not a number"),
    ("rules_nan", "NaN is not a number"),
    ("rules_latin1", "not UTF-8"),
    ("rules_utf16", "UTF-16"),
    ("rules_utf16le", "UTF-16"),
    ("rules_empty_trees", "empty tree"),
    ("rules_no_trees", "one tree per channel"),
    ("rules_trees_not_list", "not a list"),
    ("rules_node_not_object", "not an object"),
    ("rules_shared_node", "parents"),
    ("rules_dag_explosion", "parents"),
    ("rules_backwards_child", "bad tree node"),
    ("rules_feature_out_of_range", "bad tree node"),
    ("rules_leaf_value_2", "bad leaf value"),
    ("rules_deep_tree", "deeper than"),
    ("rules_unreachable_node", "not reachable"),
    ("rules_mlp", "decision-tree rules"),
    ("rules_logreg", "decision-tree rules"),
    ("rules_unknown_kind", "unknown model kind"),
    ("rules_model_missing", "rules file"),
    ("rules_null", "not a rules file"),
    ("rules_list", "not a rules file"),
    ("rules_empty", "not valid JSON"),
    ("rules_not_json", "not valid JSON"),
    ("rules_wrong_format", "not a rules file"),
    ("rules_wrong_version", "unsupported rules file version"),
    ("rules_binary", "binary data"),
    ("rules_huge", "too large"),
    ("rules_fifo", "not a regular file"),
    ("rules_folder", "is a folder"),
    ("rules_missing", "no such file"),
    ("rules_dev", "not a regular file"),
]

BRICKS = "2,1;5,4;6,6"

#: (case id, argv, fragment of the one-line error).
ARGV_CASES: list[tuple[str, list[str], str]] = [
    *[(f"solve-{p}", SOLVE_RULES + ["{" + p + "}"], frag) for p, frag in RULES_CASES],
    *[(f"hint-{p}", HINT_RULES + ["{" + p + "}"], frag) for p, frag in RULES_CASES],
    # --- solver names
    ("generate-solver-nosuch", ["generate", "--size", "8x8", "--bricks", "1", "--solver", "nosuch",
                                "--out", "{tmp}/g"], "invalid choice"),
    ("generate-solver-gradient", ["generate", "--size", "8x8", "--bricks", "1", "--solver", "gradient",
                                  "--out", "{tmp}/g"], "invalid choice"),
    ("generate-solver-empty", ["generate", "--size", "8x8", "--bricks", "1", "--solver", "",
                               "--out", "{tmp}/g"], "invalid choice"),
    ("bench-solvers-nosuch", ["bench", "--solvers", "nosuch"], "unknown solver"),
    ("bench-solvers-one-bad", ["bench", "--solvers", "cpsat,nosuch"], "unknown solver 'nosuch'"),
    ("bench-solvers-commas-only", ["bench", "--solvers", ",,"], "no solver named"),
    ("solve-solver-nosuch", ["solve", "7", "--solver", "nosuch"], "invalid choice"),
    ("solve-solver-traversal", ["solve", "7", "--solver", "../../etc/passwd"], "invalid choice"),
    # --- finite positive limits
    *[(f"{cmd}-time-limit-{bad}", argv + [f"--time-limit={bad}"], "more than 0")
      for cmd, argv in (("rate", ["rate", "7"]), ("hint", ["hint", "7"]), ("solve", ["solve", "7"]),
                        ("bench", ["bench"]),
                        ("generate", ["generate", "--size", "8x8", "--bricks", "1", "--out", "{tmp}/g"]),
                        ("export", ["export", "7", "--relaxed", "lp", "--gif", "{tmp}/x.gif"]))
      for bad in ("nan", "inf", "-inf", "0", "-1", "1e999", "NaN", "Infinity", "1e400")],
    ("edit-width-negative", ["edit", "--width", "-5"], "--width"),
    ("edit-frames-nan", ["edit", "--frames", "nan"], "--frames"),
    # --- outputs that are inputs, or that cannot be written
    ("export-gif-is-the-level", ["export", "{level_copy}", "--bricks", BRICKS, "--gif", "{level_copy}"],
     "is also the input level"),
    ("solve-gif-is-the-level", ["solve", "{level_copy}", "--gif", "{level_copy}"], "is also the input level"),
    ("learn-out-is-a-level", ["learn", "--out", "{level_copy}"], "is a level file, not a physics file"),
    ("learn-curve-is-a-level", ["learn", "--curve", "{level_copy}"], "is a level file, not a PNG"),
    ("play-screenshot-is-a-level", ["play", "7", "--frames", "1", "--screenshot", "{level_copy}"], "not a PNG"),
    ("edit-screenshot-is-a-level", ["edit", "--frames", "1", "--screenshot", "{level_copy}"], "not a PNG"),
    ("export-gif-dash", ["export", "7", "--bricks", BRICKS, "--gif", "-"], "standard output"),
    ("solve-gif-dash", ["solve", "7", "--gif", "-"], "standard output"),
    ("learn-out-dash", ["learn", "--out", "-"], "standard output"),
    ("learn-curve-dash", ["learn", "--curve", "-"], "standard output"),
    ("play-screenshot-dash", ["play", "7", "--screenshot", "-"], "standard output"),
    ("learn-curve-proc", ["learn", "--curve", "/proc/x.png"], "does not accept new files"),
    ("learn-out-proc", ["learn", "--out", "/proc/x.json"], "does not accept new files"),
    ("export-gif-proc", ["export", "7", "--bricks", BRICKS, "--gif", "/proc/x.gif"], "does not accept new files"),
    ("solve-gif-proc", ["solve", "7", "--gif", "/proc/x.gif"], "does not accept new files"),
    ("bench-results-proc", ["bench", "--results", "/proc/x.md"], "does not accept new files"),
    ("play-screenshot-proc", ["play", "7", "--screenshot", "/proc/x.png"], "does not accept new files"),
    ("generate-out-proc", ["generate", "--size", "8x8", "--bricks", "1", "--out", "/proc/x"],
     "does not accept new files"),
    ("generate-out-is-proc", ["generate", "--size", "8x8", "--bricks", "1", "--out", "/proc"],
     "does not accept new files"),
    ("export-gif-sys", ["export", "7", "--bricks", BRICKS, "--gif", "/sys/x.gif"], "does not accept new files"),
]


def _deep(n: int) -> bytes:
    return b'{"format": "x", "runs": ' + b"[" * n + b"]" * n + b"}"


#: Contents a JSON store of the data folder may hold (``None``: a FIFO; ``"folder"``: a folder).
DATA_FILE_VARIANTS: dict[str, bytes | str | None] = {
    "deep-100k": _deep(100_000),
    "deep-1000": _deep(1000),
    "bigint": b'{"format": "lemming-bricks-observed-runs", "version": ' + b"9" * 5000 + b', "runs": []}',
    "float-1e400": b'{"a": 1e400}',
    "infinity": b'{"a": Infinity}',
    "nan": b'{"a": NaN}',
    "latin1": '{"a": "Ren\u00e9"}'.encode("latin-1"),
    "utf16": '{"runs": []}'.encode("utf-16"),
    "null": b"null",
    "list": b"[]",
    "empty": b"",
    "truncated": b'{"runs": [',
    "fifo": None,
    "folder": "folder",
}
