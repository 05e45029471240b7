"""Shared by the Minesweeper AI tests: every arrangement of a view by brute force, and small random views."""

from __future__ import annotations

import itertools

from hypothesis import strategies as st

from game.core.puzzles.mines import MinesBoard, MinesView, Pos, neighbours


def brute_arrangements(view: MinesView) -> list[frozenset[Pos]]:
    """Every placement of the mines over the unknown cells that fits every number."""
    fits = []
    for mines in itertools.combinations(view.unknown(), view.mines):
        chosen = frozenset(mines)
        if all(view.at(r, c) < 0 or view.at(r, c) == sum(1 for p in neighbours(view.width, view.height, r, c)
                                                          if p in chosen)
               for r in range(view.height) for c in range(view.width)):
            fits.append(chosen)
    return fits


@st.composite
def small_views(draw: st.DrawFn, widest: int = 5, tallest: int = 4, most_mines: int = 5) -> MinesView:
    """A random board of at most ``widest`` x ``tallest`` cells after one random first click."""
    width, height = draw(st.integers(3, widest), label="width"), draw(st.integers(2, tallest), label="height")
    mines = draw(st.integers(1, min(most_mines, width * height - 2)), label="mines")
    board = MinesBoard(width, height, mines, seed=draw(st.integers(0, 10_000), label="seed"))
    board.reveal(draw(st.integers(0, height - 1)), draw(st.integers(0, width - 1)))
    return board.view()
