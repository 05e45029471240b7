"""Property tests of the bounded JSON parser (game/core/json_bounds.py)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.json_bounds import MAX_JSON_DEPTH, json_depth, loads_bounded, parse_json_bytes

#: JSON values whose strings are full of brackets, quotes and backslashes (the depth scan must skip them).
TRICKY_TEXT = st.text(alphabet='[]{}"\\ab\n\u00e9', max_size=12)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**18, 10**18) | st.floats(allow_nan=False, allow_infinity=False)
    | TRICKY_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TRICKY_TEXT, inner, max_size=4),
    max_leaves=30,
)


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


@given(VALUES, st.booleans())
@settings(max_examples=150, deadline=None)
def test_depth_scan_agrees_with_the_structure(value: Any, ascii_only: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert json_depth(text.encode("utf-8")) == _depth(value)
    assert json_depth(text) == _depth(value)


@given(VALUES)
@settings(max_examples=150, deadline=None)
def test_what_json_writes_reads_back(value: Any) -> None:
    raw = json.dumps(value).encode("utf-8")
    data, problem = parse_json_bytes(raw, max_depth=64)
    assert problem is None and data == value
    assert loads_bounded(raw.decode("utf-8"), max_depth=64) == value


@given(st.binary(max_size=200))
@settings(max_examples=300, deadline=None)
def test_any_bytes_give_data_or_one_reason(raw: bytes) -> None:
    data, problem = parse_json_bytes(raw)
    assert (problem is None) or (data is None and isinstance(problem, str) and "\n" not in problem)


@given(st.integers(MAX_JSON_DEPTH + 1, 5000), st.sampled_from(["[", '{"a":']))
@settings(max_examples=30, deadline=None)
def test_too_deep_is_refused_before_parsing(depth: int, opener: str) -> None:
    closer = "]" if opener == "[" else "}"
    raw = (opener * depth + "1" + closer * depth).encode()
    assert parse_json_bytes(raw)[1] == f"nested too deeply ({depth:,} levels; at most {MAX_JSON_DEPTH})"
