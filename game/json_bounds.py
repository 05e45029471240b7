"""Bounded JSON text: nesting depth checked before parsing, no NaN or Infinity.

>>> json_depth('{"a": [1, {"b": "]]"}]}')
3
>>> loads_bounded('[1, 2]', max_depth=2)
[1, 2]
>>> loads_bounded('[[[1]]]', max_depth=2)
Traceback (most recent call last):
...
ValueError: nested deeper than 2 levels
>>> loads_bounded('NaN', max_depth=2)
Traceback (most recent call last):
...
ValueError: NaN is not a number JSON allows
"""

from __future__ import annotations

import json
from typing import Any


def json_depth(text: str) -> int:
    """The deepest bracket nesting of ``text`` outside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > 18:
        raise ValueError(f"a {len(text.lstrip('-'))}-digit number")
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text[:20]} is too large")
    return value


def loads_bounded(text: str, *, max_depth: int) -> Any:
    """``json.loads`` with a depth limit, whole numbers of at most 18 digits, finite numbers only
    (``ValueError`` says what is wrong)."""
    if json_depth(text) > max_depth:
        raise ValueError(f"nested deeper than {max_depth} levels")
    return json.loads(text, parse_constant=_no_constant, parse_int=_bounded_int, parse_float=_finite_float)
