"""Designed-looking maps: a solid border, a ground with pits, platforms, ledges and pillars.

A layout is an ``(H, W)`` boolean wall map.  It is built from a few architectural
pieces rather than per-cell noise, so generated levels read like hand-made ones:

* the **ground**: one or two rows of floor above the bottom border, broken by pits;
* **platforms**: horizontal wall segments on tiers spaced 3 to 5 rows apart;
* **ledges**: short shelves sticking out of the side walls;
* **pillars**: vertical walls standing on the ground or on a platform;
* **curtains**: short walls hanging from a platform or the ceiling.

>>> import numpy as np
>>> walls = make_layout(np.random.default_rng(1), 10, 12)
>>> walls.shape, bool(walls[0].all() and walls[-1].all() and walls[:, 0].all() and walls[:, -1].all())
((10, 12), True)
>>> make_layout(np.random.default_rng(1), 10, 12).tolist() == walls.tolist()
True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

BoolArray = npt.NDArray[np.bool_]

#: Smallest map side the layout maker accepts.
MIN_SIDE = 6


def _segment(rng: np.random.Generator, lo: int, hi: int, min_len: int, max_len: int) -> tuple[int, int]:
    """A random ``[start, end)`` column range inside ``[lo, hi)``."""
    span = hi - lo
    length = int(rng.integers(min(min_len, span), min(max_len, span) + 1))
    start = int(rng.integers(lo, hi - length + 1))
    return start, start + length


def make_layout(rng: np.random.Generator, height: int, width: int) -> BoolArray:
    """A wall map of ``height`` x ``width`` cells with a solid border (deterministic in ``rng``)."""
    if height < MIN_SIDE or width < MIN_SIDE:
        raise ValueError(f"maps must be at least {MIN_SIDE}x{MIN_SIDE}, got {height}x{width}")
    walls = np.zeros((height, width), dtype=bool)
    walls[0, :] = walls[-1, :] = walls[:, 0] = walls[:, -1] = True
    inner_w = width - 2

    # Ground: a floor row above the border (sometimes two), with pits down to the border.
    ground = height - 2
    thick = 2 if height >= 12 and rng.random() < 0.5 else 1
    walls[ground - thick + 1 : ground + 1, 1:-1] = True
    n_pits = int(rng.integers(1, max(2, inner_w // 6) + 1))
    for _ in range(n_pits):
        a, b = _segment(rng, 2, width - 2, 1, 3)
        walls[ground - thick + 1 : ground + 1, a:b] = False
    floor_top = ground - thick + 1  # first ground row

    # Platform tiers from the floor upwards, 3 to 5 rows apart; the top tier leaves headroom.
    tiers: list[int] = []
    row = floor_top - int(rng.integers(3, 5))
    while row >= 3:
        tiers.append(row)
        row -= int(rng.integers(3, 6))
    for tier in tiers:
        _platform_row(rng, walls, tier)

    # Ledges on the side walls: short shelves for lemmings to start on or land on.
    for side in (0, 1):
        if rng.random() < 0.7:
            r = int(rng.integers(2, max(3, floor_top - 2)))
            length = int(rng.integers(2, max(3, inner_w // 4) + 1))
            if side == 0:
                walls[r, 1 : 1 + length] = True
            else:
                walls[r, width - 1 - length : width - 1] = True

    # Pillars standing on a floor (ground or platform) and curtains hanging from above.
    n_pillars = int(rng.integers(1, max(2, inner_w // 7) + 1))
    for _ in range(n_pillars):
        c = int(rng.integers(2, width - 2))
        base = _first_wall_below(walls, 1, c)
        if base is None or base < 3:
            continue
        tall = int(rng.integers(1, min(4, base - 1) + 1))
        walls[base - tall : base, c] = True
    if rng.random() < 0.5 and tiers:
        c = int(rng.integers(2, width - 2))
        top = 1
        length = int(rng.integers(1, 3))
        walls[top : top + length, c] = True

    _open_sealed_rooms(walls)
    return walls


def _platform_row(rng: np.random.Generator, walls: BoolArray, row: int) -> None:
    """Lay platforms along ``row``: runs of wall 3..W/3 long separated by gaps of 1..4 cells.

    Some runs are left out (open air) and some get a lip at one end; the row always
    keeps at least one gap, so no tier seals the map in two.
    """
    width = walls.shape[1]
    longest = max(4, (width - 2) // 3)
    col = 1 + int(rng.integers(0, 4))
    laid = []
    while col < width - 2:
        length = int(rng.integers(3, longest + 1))
        end = min(col + length, width - 1)
        if rng.random() < 0.8:
            walls[row, col:end] = True
            laid.append((col, end))
            if rng.random() < 0.25 and row - 1 > 1:
                lip = col if rng.random() < 0.5 else end - 1
                walls[row - 1, lip] = True
        col = end + int(rng.integers(1, 5))
    if walls[row, 1:-1].all() and laid:
        a, b = laid[int(rng.integers(len(laid)))]
        walls[row, (a + b) // 2] = False


def _first_wall_below(walls: BoolArray, row: int, col: int) -> int | None:
    """The first wall row at or below ``row`` in column ``col``."""
    below = np.flatnonzero(walls[row:, col])
    return int(row + below[0]) if below.size else None


def _open_sealed_rooms(walls: BoolArray) -> None:
    """Remove interior wall cells that leave a free cell with no free neighbour (a dead pocket)."""
    h, w = walls.shape
    for r in range(1, h - 1):
        for c in range(1, w - 1):
            if walls[r, c]:
                continue
            if walls[r - 1, c] and walls[r + 1, c] and walls[r, c - 1] and walls[r, c + 1]:
                if r + 1 < h - 1:
                    walls[r + 1, c] = False
                elif c + 1 < w - 1:
                    walls[r, c + 1] = False


def render(walls: BoolArray) -> str:
    """The wall map as text (``X`` and ``.``), for debugging.

    >>> print(render(np.array([[True, False], [True, True]])))
    X.
    XX
    """
    return "\n".join("".join("X" if v else "." for v in row) for row in walls)
