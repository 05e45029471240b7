"""Bounded JSON for user files: every limit checked, nothing recursive before the depth is known.

:func:`parse_json_bytes` refuses, with a short reason and never an exception: text that is not UTF-8
(UTF-16 and Latin-1 named as such), nesting deeper than :data:`MAX_JSON_DEPTH` (counted by
:func:`json_depth` *before* :func:`json.loads`, so 100,000 nested brackets cost a scan, not a
RecursionError), whole numbers of more than :data:`MAX_JSON_DIGITS` digits, ``NaN``/``Infinity``
and numbers that overflow to infinity (``1e400``).  Files are read by :mod:`game.core.storage`.
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np

#: Deepest nesting of arrays and objects accepted in a user JSON file.
MAX_JSON_DEPTH = 64
#: Most digits of a whole number in a user JSON file.
MAX_JSON_DIGITS = 64


_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*+(?:"|\Z)', re.S)  # possessive, never fails: linear
_NOT_BRACKETS = bytes(c for c in range(256) if c not in b"[]{}")


class JsonLimitError(ValueError):
    """A JSON document that breaks a limit of :func:`parse_json_bytes` (its message says which)."""


def json_depth(raw: bytes | str) -> int:
    """How deeply arrays and objects nest in ``raw`` (brackets inside strings do not count).

    Linear and without recursion (strings cut out by one regular expression, then a running sum
    over the brackets left), so it runs before :func:`json.loads`.

    >>> json_depth(b'{"a": "[[[", "b": [[1], {"c": "\\\\"}], "d": "\\"]"}')
    3
    >>> json_depth(b"[" * 100000)
    100000
    """
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogatepass")
    if b"[" not in raw and b"{" not in raw:
        return 0
    brackets = _JSON_STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)
    if not brackets:
        return 0
    b = np.frombuffer(brackets, dtype=np.uint8)
    return int(max(0, np.cumsum(np.where((b == 91) | (b == 123), 1, -1).astype(np.int32)).max()))


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_JSON_DIGITS:
        raise JsonLimitError(f"a {len(text.lstrip('-')):,}-digit number (at most {MAX_JSON_DIGITS} digits)")
    return int(text)


def _json_float(text: str) -> float:
    if len(text) > 4 * MAX_JSON_DIGITS:
        raise JsonLimitError(f"a {len(text):,}-character number")
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise JsonLimitError(f"a number too large to use ({text[:20]}{'...' if len(text) > 20 else ''})")
    return value


def _json_constant(name: str) -> Any:
    raise JsonLimitError(f"{name} is not a number JSON allows")


def decode_json_text(raw: bytes) -> tuple[str | None, str | None]:
    """UTF-8 text of ``raw`` (a leading byte-order mark dropped): ``(text, None)`` or ``(None, problem)``.

    >>> decode_json_text("{}".encode("utf-16"))
    (None, 'UTF-16 text (save it as UTF-8)')
    >>> decode_json_text("{}".encode("utf-16-le"))[1]
    'UTF-16 text (save it as UTF-8)'
    >>> decode_json_text(bytes(range(256)))[1]
    'binary data, not text'
    >>> decode_json_text("caf\\xe9".encode("latin-1"))[1]
    'not UTF-8 text (byte 0xe9 at position 3; save it as UTF-8)'
    """
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None, "UTF-16 text (save it as UTF-8)"
    if b"\x00" in raw:
        head = raw[:64]
        if len(head) >= 2 and (not any(head[0::2]) or not any(head[1::2])):
            return None, "UTF-16 text (save it as UTF-8)"
        return None, "binary data, not text"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at position {exc.start}; save it as UTF-8)"
    return (text[1:] if text.startswith("\ufeff") else text), None


def parse_json_bytes(raw: bytes, *, max_depth: int = MAX_JSON_DEPTH) -> tuple[Any, str | None]:
    """Decode UTF-8 JSON (a leading byte-order mark is allowed): ``(data, None)`` or ``(None, problem)``.

    Never raises.  Bounded: nesting deeper than ``max_depth`` is refused before parsing, whole
    numbers have at most :data:`MAX_JSON_DIGITS` digits, ``NaN``/``Infinity`` and numbers that
    overflow to infinity (``1e400``) are refused.

    >>> parse_json_bytes(b'\\xef\\xbb\\xbf{"a": 1}')
    ({'a': 1}, None)
    >>> parse_json_bytes(b"[" * 100000)[1]
    'nested too deeply (100,000 levels; at most 64)'
    >>> parse_json_bytes(b"\\xff")[1]
    'not UTF-8 text (byte 0xff at position 0; save it as UTF-8)'
    >>> parse_json_bytes(b"[1e400, NaN]")[1]
    'not usable JSON: a number too large to use (1e400)'
    >>> parse_json_bytes(b"[" + b"9" * 5000 + b"]")[1]
    'not usable JSON: a 5,000-digit number (at most 64 digits)'
    """
    text, problem = decode_json_text(raw)
    if text is None:
        return None, problem
    depth = json_depth(raw)
    if depth > max_depth:
        return None, f"nested too deeply ({depth:,} levels; at most {max_depth})"
    try:
        return json.loads(text, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant), None
    except json.JSONDecodeError as exc:
        return None, f"not valid JSON (line {exc.lineno}, column {exc.colno})"
    except JsonLimitError as exc:
        return None, f"not usable JSON: {exc}"
    except RecursionError:
        return None, "nested too deeply"
    except (ValueError, MemoryError, OverflowError) as exc:  # int-digit limit and friends
        return None, f"not usable JSON ({type(exc).__name__})"


def loads_bounded(text: str, *, max_depth: int) -> Any:
    """``json.loads`` of text already decoded, with every limit of :func:`parse_json_bytes`
    (``ValueError`` says what is wrong): for JSON inside other files (a level's ``# physics:`` line,
    JSON-lines observations).

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
    if json_depth(text) > max_depth:
        raise ValueError(f"nested deeper than {max_depth} levels")
    try:
        return json.loads(text, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant)
    except JsonLimitError as exc:
        raise ValueError(str(exc)) from None
    except RecursionError:
        raise ValueError("nested too deeply") from None
