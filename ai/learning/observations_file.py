"""Files of observed games: JSON lines, one game a line, read streaming within caps.

The documented format (see :mod:`ai.learning.observations`)::

    {"map": ["X  T", ...], "frames": N, "lemmings": [{"positions": [[r, c], ...], "directions": [1, -1, ...]}]}

A lemming may give ``"start": -1`` or ``1`` (its level's start marker, ``<`` or ``>``) instead of its
directions: positions only, with left and right named by the markers.

Every cost is bounded before it is paid: the file is read in chunks, one line at a time
(:func:`game.core.lines.read_lines`), and a line longer than :data:`MAX_LINE_BYTES` is refused once
that much of it was read; in a line, the JSON is decoded piece by piece, each key's value and each
lemming on its own and never more than :data:`MAX_PIECE_CHARS` characters at once, so one lemming's
lists are the most Python objects alive at a time and the context is checked between lemmings; the
lemming-frames of the whole file are counted while they are read and refused beyond :data:`MAX_STEPS`.

>>> game = read_observations('{"map": ["  T", "XXX"], "frames": 2, '
...                          '"lemmings": [{"positions": [[0, 0], [0, 1]], "directions": [1, 1]}]}', "g.jsonl")[0]
>>> game.frames, game.positions[0].tolist()
(2, [[0, 0], [0, 1]])
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Iterable

import numpy as np
import numpy.typing as npt

from ai.kernel.context import SolveContext
from ai.learning.observations import Game
from game.core.errors import GameError
from game.core.json_bounds import loads_bounded
from game.core.lines import LineTooLong, read_lines
from game.core.storage import UserFileError

IntArray = npt.NDArray[np.int64]

#: Limits of one observation file: games, map side, frames, lemmings per game, lemming-frames in all.
MAX_GAMES, MAX_SIDE, MAX_FRAMES, MAX_LEMMINGS, MAX_STEPS = 10_000, 256, 10_000, 20_000, 2_000_000
#: Longest line (one game) in bytes: MAX_STEPS positions with their directions fit.
MAX_LINE_BYTES = 32 * 1024 * 1024
#: Largest file read, in bytes.
MAX_FILE_BYTES = 256 * 1024 * 1024
#: Longest piece of a line decoded at once, in characters: a key's value, or one lemming
#: (MAX_FRAMES positions and directions take about 160,000).
MAX_PIECE_CHARS = 512 * 1024

_SPACE = re.compile(r"[ \t\r\n]*")
_ADVICE = "split the games, or learn from fewer games, lemmings or frames"


class ObservationError(GameError):
    """An observation that cannot be read (the message names the line and what is wrong)."""


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"a number too large to use ({text[:20]})")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


_DECODER = json.JSONDecoder(parse_float=_finite, parse_constant=_no_constant)


def _too_many_steps(where: str) -> ObservationError:
    return ObservationError(f"{where}: more than {MAX_STEPS:,} lemming-frames in all (lemmings x frames, "
                            f"summed over the games): {_ADVICE}")


def _invalid(where: str, pos: int, what: str = "") -> ObservationError:
    return ObservationError(f"{where}: not valid JSON (column {pos + 1}{'; ' + what if what else ''})")


def _skip(text: str, pos: int) -> int:
    match = _SPACE.match(text, pos)
    return match.end() if match else pos


def _decode(text: str, pos: int, where: str, what: str) -> tuple[Any, int]:
    """One JSON value starting at ``pos``, from at most :data:`MAX_PIECE_CHARS` characters."""
    piece = text[pos:pos + MAX_PIECE_CHARS]
    try:
        value, end = _DECODER.raw_decode(piece)
    except json.JSONDecodeError as exc:
        if len(piece) == MAX_PIECE_CHARS and exc.pos >= MAX_PIECE_CHARS - 4096:
            raise ObservationError(f"{where}: {what} is longer than {MAX_PIECE_CHARS:,} characters "
                                   f"(a lemming has at most {MAX_FRAMES:,} frames)") from None
        raise _invalid(where, pos + exc.pos, exc.msg) from None
    except (ValueError, RecursionError) as exc:
        raise ObservationError(f"{where}: not valid JSON ({str(exc)[:80]})") from None
    return value, pos + end


def _lemming_arrays(lem: object, here: str) -> tuple[IntArray, IntArray | None]:
    """A lemming's positions and directions as arrays (checked against the map by :func:`_game`)."""
    if not isinstance(lem, dict) or not isinstance(lem.get("positions"), list):
        raise ObservationError(f"{here}: expected an object with 'positions'")
    pos = lem["positions"]
    if len(pos) > MAX_FRAMES:
        raise ObservationError(f"{here}: {len(pos):,} positions (at most {MAX_FRAMES:,} frames)")
    if not all(type(p) is list and len(p) == 2 and type(p[0]) is int and type(p[1]) is int for p in pos):
        raise ObservationError(f"{here}: each position must be [row, col] in whole numbers")
    dirs = lem.get("directions")
    if dirs is not None and not (isinstance(dirs, list) and all(type(v) is int and v in (-1, 1) for v in dirs)):
        raise ObservationError(f"{here}: 'directions' must list -1 or 1, one for each frame")
    if dirs is not None and len(dirs) > MAX_FRAMES:
        raise ObservationError(f"{here}: {len(dirs):,} directions (at most {MAX_FRAMES:,} frames)")
    start = lem.get("start")
    if start is not None and not (type(start) is int and start in (-1, 1)):
        raise ObservationError(f"{here}: 'start' must be -1 (the level's '<' marker) or 1 ('>')")
    if start is not None and dirs is not None and dirs[:1] != [start]:
        raise ObservationError(f"{here}: 'start' and the first of 'directions' differ")
    try:
        arr = np.array(pos, dtype=np.int64).reshape(len(pos), 2)
    except OverflowError:
        raise ObservationError(f"{here}: a position lies outside the map") from None
    if dirs is None and start is not None and pos:
        dirs = [start] + [0] * (len(pos) - 1)  # 0: a direction not observed
    return arr, None if dirs is None else np.array(dirs, dtype=np.int64)


def _lemmings(text: str, pos: int, where: str, room: int,
              ctx: SolveContext | None) -> tuple[list[tuple[IntArray, IntArray | None]], int]:
    """The lemmings of the array starting at ``pos`` (``[``), one decoded at a time, at most ``room``
    lemming-frames in all; and the position after the array."""
    out: list[tuple[IntArray, IntArray | None]] = []
    pos = _skip(text, pos + 1)
    if text.startswith("]", pos):
        return out, pos + 1
    total = 0
    while True:
        if ctx is not None:
            ctx.check()
        if len(out) >= MAX_LEMMINGS:
            raise ObservationError(f"{where}: 'lemmings' must be a list of 1-{MAX_LEMMINGS:,} lemmings")
        here = f"{where}: lemming {len(out) + 1}"
        lem, pos = _decode(text, pos, here, "the lemming")
        arrays = _lemming_arrays(lem, here)
        total += max(len(arrays[0]), 0 if arrays[1] is None else len(arrays[1]))
        if total > room:
            raise _too_many_steps(where)
        out.append(arrays)
        pos = _skip(text, pos)
        if text.startswith(",", pos):
            pos = _skip(text, pos + 1)
        elif text.startswith("]", pos):
            return out, pos + 1
        else:
            raise _invalid(where, pos, "expected ',' or ']' after a lemming")


def parse_line(text: str, where: str, *, room: int = MAX_STEPS, ctx: SolveContext | None = None) -> Game:
    """The game of one line (at most ``room`` lemming-frames), decoded piece by piece (see the module)."""
    pos = _skip(text, 0)
    if not text.startswith("{", pos):  # not an object: say what it is, from a bounded piece
        data = None
        if len(text) <= MAX_PIECE_CHARS:
            try:
                data = loads_bounded(text, max_depth=6)
            except (ValueError, RecursionError) as exc:
                raise ObservationError(f"{where}: not valid JSON ({str(exc)[:80]})") from None
        return parse_game(data, where)
    fields: dict[str, Any] = {}
    lemmings: list[tuple[IntArray, IntArray | None]] | None = None
    pos = _skip(text, pos + 1)
    closed = text.startswith("}", pos)
    pos += closed
    while not closed:
        if not text.startswith('"', pos):
            raise _invalid(where, pos, "expected a key")
        key, pos = _decode(text, pos, where, "a key")
        pos = _skip(text, pos)
        if not text.startswith(":", pos):
            raise _invalid(where, pos, "expected ':'")
        pos = _skip(text, pos + 1)
        if key == "lemmings" and (lemmings is not None or "lemmings" in fields):
            raise ObservationError(f"{where}: 'lemmings' given twice")
        if key == "lemmings" and text.startswith("[", pos):
            lemmings, pos = _lemmings(text, pos, where, room, ctx)
        else:
            fields[str(key)], pos = _decode(text, pos, where, f"the value of {str(key)[:20]!r}")
        pos = _skip(text, pos)
        if text.startswith(",", pos):
            pos = _skip(text, pos + 1)
        elif text.startswith("}", pos):
            pos, closed = pos + 1, True
        else:
            raise _invalid(where, pos, "expected ',' or '}'")
    if _skip(text, pos) != len(text):
        raise _invalid(where, _skip(text, pos), "extra data after the game")
    return _game(fields, lemmings, where)


def parse_game(data: object, where: str) -> Game:
    """One game from its decoded JSON object; :class:`ObservationError` names what is wrong."""
    if not isinstance(data, dict):
        raise ObservationError(f"{where}: expected a JSON object with map, frames and lemmings")
    fields = {k: v for k, v in data.items() if k != "lemmings"}
    raw = data.get("lemmings")
    if not isinstance(raw, list) or len(raw) > MAX_LEMMINGS:
        return _game(fields, None, where)
    return _game(fields, [_lemming_arrays(lem, f"{where}: lemming {k + 1}") for k, lem in enumerate(raw)], where)


def _count(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def _game(fields: dict[str, Any], lemmings: list[tuple[IntArray, IntArray | None]] | None, where: str) -> Game:
    """The game of a line's fields and lemmings, every lemming checked against the map and the frames."""
    rows = fields.get("map")
    if (not isinstance(rows, list) or not rows or len(rows) > MAX_SIDE
            or not all(isinstance(r, str) and len(r) <= MAX_SIDE for r in rows)):
        raise ObservationError(f"{where}: 'map' must be a list of 1-{MAX_SIDE} strings of at most {MAX_SIDE} cells")
    width = max(len(r) for r in rows)
    if width == 0:
        raise ObservationError(f"{where}: the map is empty")
    grid = [r.ljust(width) for r in rows]
    solid = np.array([[ch == "X" for ch in r] for r in grid], dtype=bool)
    target = np.array([[ch == "T" for ch in r] for r in grid], dtype=bool)
    frames = fields.get("frames")
    if type(frames) is not int or not 1 <= frames <= MAX_FRAMES:
        raise ObservationError(f"{where}: 'frames' must be a whole number from 1 to {MAX_FRAMES:,}")
    if not lemmings:
        raise ObservationError(f"{where}: 'lemmings' must be a list of 1-{MAX_LEMMINGS:,} lemmings")
    for k, (arr, dirs) in enumerate(lemmings):
        here = f"{where}: lemming {k + 1}"
        if arr.shape[0] != frames:
            raise ObservationError(f"{here}: {_count(arr.shape[0], 'position')}, expected one per frame ({frames})")
        if dirs is not None and dirs.shape[0] != frames:
            raise ObservationError(f"{here}: {_count(dirs.shape[0], 'direction')}, expected one per frame ({frames})")
        if (arr < 0).any() or (arr[:, 0] >= solid.shape[0]).any() or (arr[:, 1] >= width).any():
            raise ObservationError(f"{here}: a position lies outside the {solid.shape[0]}x{width} map")
        if solid[arr[:, 0], arr[:, 1]].any():
            raise ObservationError(f"{here}: a position is on a solid cell")
        if (np.abs(np.diff(arr, axis=0)) > 1).any():
            raise ObservationError(f"{here}: a lemming moved more than one cell in one frame")
    return Game(solid, target, tuple(arr for arr, _ in lemmings), tuple(dirs for _, dirs in lemmings))


def read_games(lines: Iterable[tuple[int, str]], path: str, ctx: SolveContext | None = None) -> list[Game]:
    """Every game of numbered JSON lines (blank lines skipped), within the caps; errors name ``path:line``."""
    games: list[Game] = []
    steps = 0
    for lineno, line in lines:
        if ctx is not None:
            ctx.check()
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        if len(games) >= MAX_GAMES:
            raise ObservationError(f"{where}: more than {MAX_GAMES:,} games: {_ADVICE}")
        game = parse_line(line, where, room=MAX_STEPS - steps, ctx=ctx)
        steps += game.frames * len(game.positions)
        games.append(game)
    if not games:
        raise ObservationError(f"{path}: no game (expected one JSON object per line)")
    return games


def read_observations(text: str, path: str, ctx: SolveContext | None = None) -> list[Game]:
    """Every game of a JSON lines text (see :func:`read_games`)."""
    return read_games(enumerate(text.splitlines(), 1), path, ctx)


def _decoded(raw_lines: Iterable[tuple[int, bytes]], path: str) -> Iterable[tuple[int, str]]:
    """The lines as UTF-8 text (a byte-order mark at the start dropped)."""
    for lineno, raw in raw_lines:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ObservationError(f"{path}:{lineno}: not UTF-8 text (byte {exc.start + 1})") from None
        yield lineno, text[1:] if lineno == 1 and text.startswith("\ufeff") else text


def load_observations(path: str, ctx: SolveContext | None = None) -> list[Game]:
    """Read a JSON lines file of games streaming (regular files only, every cap of the module, ``ctx``
    checked while reading and decoding)."""
    try:
        raw = read_lines(path, max_line=MAX_LINE_BYTES, max_bytes=MAX_FILE_BYTES,
                         check=ctx.check if ctx is not None else None)
        return read_games(_decoded(raw, path), path, ctx)
    except LineTooLong as exc:
        raise ObservationError(f"{path}:{exc.lineno}: a game longer than {MAX_LINE_BYTES // (1 << 20)} MB "
                               f"(at most {MAX_STEPS:,} lemming-frames in all): {_ADVICE}") from None
    except FileNotFoundError:
        raise ObservationError(f"{path}: no such file") from None
    except (ObservationError, UserFileError):
        raise
    except OSError as exc:
        raise ObservationError(f"{path}: {exc}") from None


__all__ = ["MAX_FILE_BYTES", "MAX_FRAMES", "MAX_GAMES", "MAX_LEMMINGS", "MAX_LINE_BYTES", "MAX_PIECE_CHARS",
           "MAX_SIDE", "MAX_STEPS", "ObservationError", "load_observations", "parse_game", "parse_line",
           "read_games", "read_observations"]
