"""Shared fixtures of the exact-solver tests: the original level and its six solutions."""

from __future__ import annotations

from pathlib import Path

from game.level import Level

ROOT = Path(__file__).resolve().parents[2]
ORIGINAL = ROOT / "levels" / "001_original.txt"

#: The six minimum solutions of the original level.
ORIGINAL_SOLUTIONS = (
    ((2, 1), (5, 4), (6, 6)),
    ((2, 1), (6, 4), (6, 6)),
    ((4, 1), (5, 4), (6, 6)),
    ((4, 1), (6, 4), (6, 6)),
    ((5, 1), (5, 4), (6, 6)),
    ((5, 1), (6, 4), (6, 6)),
)

#: A tiny level whose only minimum solution is one brick at (1, 2).
TINY = Level.from_rows(["> .T", "XX.X"], frames=5, budget=1)

#: A level that no brick set can win (the target is out of reach in time).
UNREACHABLE = Level.from_rows([">     T", "XXXXXXX"], frames=4, budget=2)


def original() -> Level:
    """The original level of the research notes."""
    return Level.load(ORIGINAL)


def busy_level() -> Level:
    """A 24x32, 100-frame, 3-lemming level with a 10-brick optimum (keeps solvers busy a while)."""
    return Level.load(ROOT / "bench" / "suites" / "large" / "004_large.txt")


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
