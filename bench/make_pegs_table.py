"""Write ``ai/puzzles/pegs/english_winnable.bin``: the winnable classes of the English central game with at least
:data:`ai.puzzles.pegs.table.MIN_PEGS` pegs (:func:`ai.puzzles.pegs.table.build_table`; about two minutes on 2 cores).

Usage: ``python3 -m bench.make_pegs_table``
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai.puzzles.pegs.table import MIN_PEGS, TABLE_PATH, build_table, encode  # noqa: E402
from game.core.puzzles.pegs_boards import english  # noqa: E402


def main() -> None:
    board, start = english()
    goal = board.goal_position()
    assert goal is not None
    t0 = time.perf_counter()
    classes = build_table(board, start, goal, MIN_PEGS)
    data = encode(classes)
    TABLE_PATH.write_bytes(data)
    print(f"{len(classes):,} classes with at least {MIN_PEGS} pegs, {len(data):,} bytes, "
          f"{time.perf_counter() - t0:.0f} s -> {TABLE_PATH}")


if __name__ == "__main__":
    main()
