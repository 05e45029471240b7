"""User text fit to print on a terminal (level titles, metadata, paths in messages).

>>> terminal_safe("a\\x1b[31mred\\x07")
'a\\\\x1b[31mred\\\\x07'
>>> terminal_safe("x" * 10, limit=4)
'xxxx...'
"""

from __future__ import annotations

import re

_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def terminal_safe(text: str, *, limit: int = 200) -> str:
    """User text (a level title, metadata) fit to print: control characters (ESC, BEL, CR, bidi
    overrides...) shown escaped, and cut at ``limit`` characters."""
    if len(text) > limit:
        text = text[:limit] + "..."
    return _UNSAFE.sub(lambda m: m.group(0).encode("unicode_escape").decode("ascii"), text)


__all__ = ["terminal_safe"]
