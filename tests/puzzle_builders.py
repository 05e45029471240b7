"""Side-puzzle inputs the tests (and the benchmarks) build on the fly.

>>> view = scattered_mines(5, 4, 3, revealed=4, seed=0)
>>> view.splitlines()[0], len(view.splitlines()), sum(ch != "." for ch in view.split("\\n", 1)[1] if ch != "\\n")
('mines 3', 5, 4)
"""

from __future__ import annotations

import random


def scattered_mines(width: int, height: int, mines: int, *, revealed: int, seed: int) -> str:
    """A Minesweeper view with ``revealed`` safe cells shown at random: a frontier too large to count fast."""
    rng = random.Random(seed)
    cells = [(r, c) for r in range(height) for c in range(width)]
    mined = set(rng.sample(cells, mines))
    shown = set(rng.sample([p for p in cells if p not in mined], revealed))

    def cell(r: int, c: int) -> str:
        if (r, c) not in shown:
            return "."
        return str(sum((r + dr, c + dc) in mined for dr in (-1, 0, 1) for dc in (-1, 0, 1)))

    rows = ("".join(cell(r, c) for c in range(width)) for r in range(height))
    return f"mines {mines}\n" + "\n".join(rows) + "\n"
