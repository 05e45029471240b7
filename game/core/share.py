"""Level codes: a whole level (N, B, map, lemmings, targets and every ``# key: value`` line) as one
line of text starting ``LB``, to paste in a chat; :func:`decode` gives the same level back.

The code is ``LB`` + the base-32 text (:data:`ALPHABET`: digits and capitals without the look-alikes
0, O, 1 and I; the whole code, ``LB`` too, reads in either case) of a small bit-packed record:

* a version (4 bits), the map's height and width, N and B (4-bit groups with a "more" bit);
* one flag: the map's border is all wall (then only the inside cells follow);
* one bit per cell: wall or not (row by row);
* the targets and lemmings: how many, then each as its index among the non-wall cells and a kind
  (target, lemming facing left, lemming facing right);
* the metadata lines (byte aligned): known keys as one byte (``title``, ``author``, ``world``,
  ``physics``, ``hint``, ``generator``), any other key spelled out, each value length-prefixed
  UTF-8; deflated against a fixed dictionary of words the pack uses when that is shorter;
* one check byte (CRC-32 of the record, low 8 bits), so most typos are caught.

The dictionary belongs to the format version: changing it makes a new version (codes never
change meaning).  Codes written in base64url (the first text form, which starts ``LBE`` to ``LBH``)
still decode; a new code starts ``LB4`` or ``LB5``.

>>> from game.core.level import Level
>>> level = Level.from_rows(["XXXXX", "X> TX", "XXXXX"], frames=5, budget=1, title="Tiny")
>>> code = encode(level)
>>> code.startswith("LB"), decode(code) == level
(True, True)
>>> try:
...     decode("LB4O0I1")
... except LevelCodeError as exc:
...     print(exc)
not a level code: 'LB4O0I1' has characters a code never holds ('01IO')
"""

from __future__ import annotations

import base64
import binascii
import zlib
from typing import Iterator

from game.core.errors import GameError
from game.core.level import Level
from game.core.level_text import EMPTY, LEMMING_LEFT, LEMMING_RIGHT, MAX_FRAMES, MAX_SIDE, TARGET, WALL

#: Every code starts with these two letters.
PREFIX = "LB"
#: The format version written (4 bits).
VERSION = 1
#: Longest code :func:`decode` reads (a 256x256 map with long metadata stays far below).
MAX_CODE_CHARS = 200_000

#: Metadata keys written as one byte (index + 1; 0 means "the key is spelled out").
KNOWN_KEYS = ("title", "author", "world", "physics", "hint", "generator")
#: The fixed deflate dictionary of format version 1 (words the pack and the generator use).
DICTIONARY = (
    "seed= index= size= bricks= lemmings= frames= unique=yes rooms= solver=search "
    "Press Space. press P to preview the path. A lemming that meets a wall turns around. brick "
    "Lemmings walk until the ground ends, then drop. Click the hole to fill it with a brick, then "
    "First Steps Rising Ground Crossroads The Deep Lemming Bricks generator, hand-picked "
    "Lemming Bricks research notes The "
).encode("utf-8")

#: The 32 characters of a code after ``LB``: no 0 / O, no 1 / I / l to mistake for one another.
ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
_KINDS = (TARGET, LEMMING_LEFT, LEMMING_RIGHT)
_BASE32 = {ch: value for value, ch in enumerate(ALPHABET)}
#: The characters of the first text form (base64url) and how its codes start after ``LB``.
_OLD_ALPHABET = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
_OLD_FIRST = "EFGH"


class LevelCodeError(GameError):
    """A text that is not a valid level code (one message saying what is wrong)."""


def to_text(record: bytes) -> str:
    """``record`` in :data:`ALPHABET`, five bits a character (the last one padded with zero bits).

    >>> to_text(b"\\xff"), from_text("ZW"), from_text("zw")
    ('ZW', b'\\xff', b'\\xff')
    """
    value, bits, out = 0, 0, []
    for byte in record:
        value, bits = (value << 8) | byte, bits + 8
        while bits >= 5:
            bits -= 5
            out.append(ALPHABET[(value >> bits) & 31])
    if bits:
        out.append(ALPHABET[(value << (5 - bits)) & 31])
    return "".join(out)


def from_text(body: str) -> bytes:
    """The record :func:`to_text` wrote as ``body`` (either case); :class:`LevelCodeError` otherwise."""
    body = body.upper()
    bad = sorted(set(body) - set(ALPHABET))
    if bad:
        raise LevelCodeError(f"not a level code: it has characters a code never holds ({''.join(bad)!r})")
    if len(body) * 5 % 8 >= 5:
        raise LevelCodeError("not a level code: its length is wrong (a character is missing or extra)")
    value, bits, out = 0, 0, bytearray()
    for ch in body:
        value, bits = (value << 5) | _BASE32[ch], bits + 5
        if bits >= 8:
            bits -= 8
            out.append((value >> bits) & 0xFF)
    if value & ((1 << bits) - 1):
        raise LevelCodeError("the code does not check out: a character is wrong or missing")
    return bytes(out)


# ---------------------------------------------------------------- bits
class _BitWriter:
    def __init__(self) -> None:
        self.bits: list[int] = []

    def write(self, value: int, width: int) -> None:
        for k in range(width - 1, -1, -1):
            self.bits.append((value >> k) & 1)

    def uint(self, value: int) -> None:
        """4 data bits per group, most significant group first, each after a "more" bit."""
        groups = []
        while True:
            groups.append(value & 0xF)
            value >>= 4
            if not value:
                break
        for i, g in enumerate(reversed(groups)):
            self.write(1 if i < len(groups) - 1 else 0, 1)
            self.write(g, 4)

    def to_bytes(self) -> bytes:
        bits = self.bits + [0] * (-len(self.bits) % 8)
        return bytes(int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8))


class _BitReader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def read(self, width: int) -> int:
        if self.pos + width > len(self.data) * 8:
            raise LevelCodeError("the code is cut short (some of it is missing)")
        value = 0
        for _ in range(width):
            byte = self.data[self.pos >> 3]
            value = (value << 1) | ((byte >> (7 - (self.pos & 7))) & 1)
            self.pos += 1
        return value

    def uint(self, limit: int, what: str) -> int:
        value = 0
        for _ in range(8):
            more = self.read(1)
            value = (value << 4) | self.read(4)
            if not more:
                if value > limit:
                    raise LevelCodeError(f"the code's {what} ({value}) is over {limit}")
                return value
        raise LevelCodeError(f"the code's {what} is too long")

    def rest(self) -> bytes:
        return self.data[(self.pos + 7) >> 3:]


def _bit_width(count: int) -> int:
    """Bits needed for an index below ``count``."""
    return max(1, (count - 1).bit_length())


# ---------------------------------------------------------------- meta bytes
def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def _meta_bytes(meta: tuple[tuple[str, str], ...]) -> bytes:
    out = bytearray()
    for key, value in meta:
        code = KNOWN_KEYS.index(key) + 1 if key in KNOWN_KEYS else 0
        out.append(code)
        if code == 0:
            raw = key.encode("utf-8")
            out += _varint(len(raw)) + raw
        raw = value.encode("utf-8")
        out += _varint(len(raw)) + raw
    return bytes(out)


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= len(data) or shift > 28:
            raise LevelCodeError("the code's metadata is cut short")
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, pos


def _read_text(data: bytes, pos: int) -> tuple[str, int]:
    n, pos = _read_varint(data, pos)
    if pos + n > len(data):
        raise LevelCodeError("the code's metadata is cut short")
    try:
        return data[pos:pos + n].decode("utf-8"), pos + n
    except UnicodeDecodeError:
        raise LevelCodeError("the code's metadata is not UTF-8 text") from None


def _parse_meta(data: bytes) -> Iterator[tuple[str, str]]:
    pos = 0
    while pos < len(data):
        code = data[pos]
        pos += 1
        if code > len(KNOWN_KEYS):
            raise LevelCodeError(f"the code names an unknown metadata key (#{code})")
        if code == 0:
            key, pos = _read_text(data, pos)
        else:
            key = KNOWN_KEYS[code - 1]
        value, pos = _read_text(data, pos)
        yield key, value


def _deflate(data: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, zdict=DICTIONARY)
    return packer.compress(data) + packer.flush()


def _inflate(data: bytes) -> bytes:
    unpacker = zlib.decompressobj(-15, zdict=DICTIONARY)
    try:
        out = unpacker.decompress(data, 4 * MAX_CODE_CHARS)
    except zlib.error:
        raise LevelCodeError("the code's metadata is damaged") from None
    if unpacker.unconsumed_tail:
        raise LevelCodeError("the code's metadata is too long")
    return out


# ---------------------------------------------------------------- encode / decode
def encode(level: Level) -> str:
    """The level's code: one line, ``LB`` + base64url; :func:`decode` gives ``level`` back exactly."""
    h, w = level.height, level.width
    bits = _BitWriter()
    bits.write(VERSION, 4)
    for value in (h - 1, w - 1, level.frames - 1, level.budget):
        bits.uint(value)
    border = [(r, c) for r in range(h) for c in range(w) if r in (0, h - 1) or c in (0, w - 1)]
    walled = h >= 3 and w >= 3 and all(level.grid[r][c] == WALL for r, c in border)
    bits.write(int(walled), 1)
    cells = [(r, c) for r in range(h) for c in range(w)
             if not walled or 0 < r < h - 1 and 0 < c < w - 1]
    open_cells = []
    for r, c in cells:
        wall = level.grid[r][c] == WALL
        bits.write(int(wall), 1)
        if not wall:
            open_cells.append((r, c))
    specials = [(i, _KINDS.index(level.grid[r][c])) for i, (r, c) in enumerate(open_cells)
                if level.grid[r][c] != EMPTY]
    bits.uint(len(specials))
    width = _bit_width(len(open_cells))
    for index, kind in specials:
        bits.write(index, width)
        bits.write(kind, 2)
    meta = _meta_bytes(level.meta_lines)
    packed = _deflate(meta) if meta else b""
    use_deflate = bool(meta) and len(packed) < len(meta)
    bits.write(int(use_deflate), 1)
    record = bits.to_bytes() + (packed if use_deflate else meta)
    record += bytes([zlib.crc32(record) & 0xFF])
    return PREFIX + to_text(record)


def decode(code: str) -> Level:
    """The level a code holds; :class:`LevelCodeError` (one message) for anything else."""
    bits = _BitReader(_record(code))
    version = bits.read(4)
    if version != VERSION:
        raise LevelCodeError(f"the code is of format version {version}; this game reads version {VERSION}")
    h = bits.uint(MAX_SIDE - 1, "map height") + 1
    w = bits.uint(MAX_SIDE - 1, "map width") + 1
    frames = bits.uint(MAX_FRAMES - 1, "frame count") + 1
    budget = bits.uint(MAX_SIDE * MAX_SIDE, "brick budget")
    grid = _read_map(bits, h, w)
    deflated = bits.read(1)
    meta = bits.rest()
    if deflated:
        meta = _inflate(meta)
    pairs = tuple(_parse_meta(meta))
    try:
        level = Level.from_rows(["".join(row) for row in grid], frames, budget, meta=pairs)
        same = Level.from_text(level.to_text(), "<code>") == level  # what a level file can hold
    except (ValueError, GameError) as exc:
        raise LevelCodeError(f"the code does not hold a playable level: {exc}") from None
    if not same:
        raise LevelCodeError("the code's metadata cannot be written in a level file")
    return level


def _record(code: str) -> bytes:
    """The bit-packed record of a code, its check byte verified and dropped."""
    text = "".join(code.split())  # spaces and line breaks from a chat are ignored
    shown = code if len(code) <= 40 else code[:37] + "..."
    if text[:len(PREFIX)].upper() != PREFIX:
        raise LevelCodeError(f"not a level code: {shown!r} does not start with {PREFIX}")
    if len(text) > MAX_CODE_CHARS:
        raise LevelCodeError(f"not a level code: {len(text):,} characters is longer than any level's code")
    body = text[len(PREFIX):]
    if body[:1].isascii() and body[:1].upper() in _OLD_FIRST and body[:1] not in _OLD_FIRST:
        raise LevelCodeError(f"{shown!r} looks like a level code of the first text form (LBE... to LBH...) "
                             "in lower case: its letters' case matters, paste it as it was written")
    old = body[:1] in _OLD_FIRST
    bad = sorted(set(body) - (_OLD_ALPHABET if old else set(ALPHABET + ALPHABET.lower())))
    if bad:
        raise LevelCodeError(f"not a level code: {shown!r} has characters a code never holds "
                             f"({''.join(bad)!r})")
    record = _old_record(body) if old else from_text(body)
    if len(record) < 3 or zlib.crc32(record[:-1]) & 0xFF != record[-1]:
        raise LevelCodeError("the code does not check out: a character is wrong or missing")
    return record[:-1]


def _old_record(body: str) -> bytes:
    """The record of a code in the first text form (base64url, no padding)."""
    if len(body) % 4 == 1:
        raise LevelCodeError("not a level code: its length is wrong (a character is missing or extra)")
    try:
        return base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise LevelCodeError("not a level code: it does not decode") from None


def _read_map(bits: _BitReader, h: int, w: int) -> list[list[str]]:
    """The ``h`` x ``w`` map: the walled border flag, the walls, then the targets and lemmings."""
    walled = bool(bits.read(1))
    if walled and (h < 3 or w < 3):
        raise LevelCodeError("the code is damaged (a walled border on a map under 3x3)")
    grid = [[WALL if walled and (r in (0, h - 1) or c in (0, w - 1)) else EMPTY for c in range(w)]
            for r in range(h)]
    open_cells = []
    for r in range(h):
        for c in range(w):
            if walled and not (0 < r < h - 1 and 0 < c < w - 1):
                continue
            if bits.read(1):
                grid[r][c] = WALL
            else:
                open_cells.append((r, c))
    count = bits.uint(len(open_cells), "number of targets and lemmings")
    width = _bit_width(len(open_cells))
    for _ in range(count):
        index, kind = bits.read(width), bits.read(2)
        if index >= len(open_cells) or kind >= len(_KINDS):
            raise LevelCodeError("the code is damaged (a target or lemming off the map)")
        r, c = open_cells[index]
        grid[r][c] = _KINDS[kind]
    return grid


__all__ = ["ALPHABET", "DICTIONARY", "KNOWN_KEYS", "LevelCodeError", "MAX_CODE_CHARS", "PREFIX", "VERSION", "decode", "encode", "from_text", "to_text"]
