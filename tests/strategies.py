"""Hypothesis strategies shared by the tests: random levels and legal brick sets."""

from __future__ import annotations

from hypothesis import strategies as st

from game.core.level import Brick, Level

CELL_CHARS = "X T<>"
CELL_WEIGHTS = (30, 52, 8, 5, 5)


@st.composite
def levels(
    draw: st.DrawFn,
    max_height: int = 7,
    max_width: int = 8,
    max_frames: int = 30,
    max_budget: int = 3,
) -> Level:
    """A random valid level (at least one lemming and one target)."""
    height = draw(st.integers(1, max_height))
    width = draw(st.integers(2, max_width))
    population = "".join(ch * w for ch, w in zip(CELL_CHARS, CELL_WEIGHTS))
    cells = draw(
        st.lists(st.sampled_from(population), min_size=height * width, max_size=height * width)
    )
    n_cells = height * width
    lem_at = draw(st.integers(0, n_cells - 1))
    tgt_at = draw(st.integers(0, n_cells - 1).filter(lambda i: i != lem_at))
    cells[lem_at] = draw(st.sampled_from("<>"))
    cells[tgt_at] = "T"
    rows = ["".join(cells[r * width:(r + 1) * width]) for r in range(height)]
    frames = draw(st.integers(1, max_frames))
    budget = draw(st.integers(0, max_budget))
    return Level.from_rows(rows, frames, budget)


@st.composite
def level_and_bricks(draw: st.DrawFn, **kwargs: int) -> tuple[Level, tuple[Brick, ...]]:
    """A random level with a random legal brick set within its budget."""
    level = draw(levels(**kwargs))
    cells = level.brickable_cells
    k = draw(st.integers(0, min(level.budget, len(cells))))
    chosen = draw(st.lists(st.sampled_from(cells), min_size=k, max_size=k, unique=True)) if cells and k else []
    return level, tuple(sorted(chosen))
