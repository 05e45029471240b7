"""Shared fixtures of the exact-solver tests: the original level and its six solutions."""

from __future__ import annotations

from game.core.level import Level
from tests.conftest import ORIGINAL_PACK, REPO
from tests.conftest import ORIGINAL_SOLUTIONS as SOLUTION_SET

ORIGINAL = ORIGINAL_PACK

#: The six minimum solutions of the original level, sorted (the order the solvers return them).
ORIGINAL_SOLUTIONS = tuple(sorted(SOLUTION_SET))

#: A tiny level whose only minimum solution is one brick at (1, 2).
TINY = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)

#: A level that no brick set can win (the target is out of reach in time).
UNREACHABLE = Level.from_rows([">     T", "XXXXXXX"], frames=4, budget=2)


def original() -> Level:
    """The original level of the research notes."""
    return Level.load(ORIGINAL)


def busy_level() -> Level:
    """A 24x32, 100-frame, 3-lemming level with a 10-brick optimum (keeps solvers busy a while)."""
    return Level.load(REPO / "bench" / "suites" / "large" / "004_large.txt")


def hard_level() -> Level:
    """A 2-lemming cavern level (optimum 0) with a large model."""
    rows = ["X" * 22]
    for r in range(1, 15):
        row = ["X"] + [" "] * 20 + ["X"]
        if r % 3 == 0:
            for c in range(1, 21):
                if c % 5:
                    row[c] = "X"
        rows.append("".join(row))
    rows.append("X" * 22)
    grid = [list(r) for r in rows]
    grid[1][2] = ">"
    grid[1][10] = "<"
    grid[14][19] = "T"
    grid[14][3] = "T"
    return Level.from_rows(["".join(r) for r in grid], frames=90, budget=12)
