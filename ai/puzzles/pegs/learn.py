"""Learn the move rule of peg solitaire from example games.

Each observed move is a pair of positions ``(before, after)``.  The cells that changed, taken
relative to the first of them in reading order, with their value before and after, form a
*pattern* (for a jump to the right: ``((0, 0, 1, 0), (0, 1, 1, 0), (0, 2, 0, 1))``, peg-peg-hole
becomes hole-hole-peg).  The learned rule is the set of patterns seen: a move is legal where the
before-values of a pattern match the board.  :func:`verify` then compares the learned rule with the
reference rule of :mod:`game.core.puzzles.pegs` on every local pattern: every placement of every learned window
on the board with every peg/hole filling, and every jump of the board.

>>> from game.core.puzzles.pegs_boards import english
>>> board, start = english()
>>> rule = learn(board, random_games(board, start, games=20, seed=1))
>>> len(rule.patterns), sorted(rule.patterns)[0]
(4, ((0, 0, 0, 1), (0, 1, 1, 0), (0, 2, 1, 0)))
>>> report = verify(board, rule)
>>> report.agrees, report.windows_checked > 0, report.missing
(True, True, 0)
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

from ai.kernel.context import SolveContext
from game.core.puzzles.pegs import Board
from game.core.puzzles.pegs_boards import parse_board
from game.core.errors import GameError

Pattern = tuple[tuple[int, int, int, int], ...]
"""Changed cells of one move: ``(dr, dc, before, after)`` relative to the first changed cell."""


@dataclass
class LearnedRule:
    """The patterns seen, and how many observed moves each explains."""

    patterns: dict[Pattern, int] = field(default_factory=dict)
    pairs: int = 0

    def successors(self, board: Board, position: int) -> set[int]:
        """Every position the learned rule allows after ``position``."""
        out = set()
        for pattern in self.patterns:
            for r, c in board.cells:
                nxt = position
                for dr, dc, before, after in pattern:
                    cell = (r + dr, c + dc)
                    if not board.on_board(cell) or board.has_peg(position, cell) != bool(before):
                        break
                    if before != after:
                        nxt ^= board.bit(cell)
                else:
                    out.add(nxt)
        return out

    def to_json(self) -> dict[str, object]:
        """The patterns as JSON (before/after as strings of o and .)."""
        return {"pairs": self.pairs, "patterns": [
            {"cells": [[dr, dc] for dr, dc, _, _ in p], "before": "".join("o" if b else "." for _, _, b, _ in p),
             "after": "".join("o" if a else "." for _, _, _, a in p), "seen": n}
            for p, n in sorted(self.patterns.items())]}


def pattern_of(board: Board, before: int, after: int) -> Pattern:
    """The pattern of one observed move (``GameError`` when nothing changed)."""
    changed = board.pegs(before ^ after)
    if not changed:
        raise GameError("an example move changes nothing")
    r0, c0 = changed[0]
    return tuple((r - r0, c - c0, int(board.has_peg(before, (r, c))), int(board.has_peg(after, (r, c))))
                 for r, c in changed)


def learn(board: Board, games: list[list[int]], ctx: SolveContext | None = None) -> LearnedRule:
    """The rule behind the consecutive positions of ``games`` (``ctx`` checked after every game: a stop
    raises :class:`ai.kernel.context.SolveStopped`; a move that changes nothing is a :class:`GameError`
    naming its game and move, counted from 1)."""
    rule = LearnedRule()
    for number, game in enumerate(games, 1):
        if ctx is not None:
            ctx.check()
        for move, (before, after) in enumerate(zip(game, game[1:]), 1):
            try:
                p = pattern_of(board, before, after)
            except GameError as exc:  # which example: the games come from a file the user wrote
                raise GameError(f"game {number}, move {move}: {exc}") from None
            rule.patterns[p] = rule.patterns.get(p, 0) + 1
            rule.pairs += 1
    return rule


@dataclass
class Verification:
    """How the learned rule compares with the reference rule."""

    agrees: bool
    windows_checked: int
    mismatches: list[str]
    missing: int  #: reference jumps of the board no learned pattern allows

    def to_json(self) -> dict[str, object]:
        """The verification as JSON."""
        return {"agrees": self.agrees, "windows_checked": self.windows_checked, "missing": self.missing,
                "mismatches": self.mismatches[:10]}


def _reference(board: Board, filled: dict[tuple[int, int], int], cells: list[tuple[int, int]]) -> set[int]:
    """Positions (restricted to ``cells``) the reference rule allows after the local filling."""
    position = sum(board.bit(c) for c, v in filled.items() if v)
    out = set()
    for j in board.jumps:
        if {j.start, j.over, j.end} <= set(cells) and board.is_legal(position, j):
            out.add(board.apply(position, j))
    return out


def verify(board: Board, rule: LearnedRule, ctx: SolveContext | None = None) -> Verification:
    """Compare ``rule`` with the reference rule on every local pattern (see the module text); ``ctx`` is
    checked at every placement of a window (a stop raises :class:`ai.kernel.context.SolveStopped`)."""
    checked = 0
    mismatches: list[str] = []
    shapes = {tuple((dr, dc) for dr, dc, _, _ in p) for p in rule.patterns}
    for shape in sorted(shapes):
        for r, c in sorted(board.cells):
            if ctx is not None:
                ctx.check()
            cells = [(r + dr, c + dc) for dr, dc in shape]
            if not all(board.on_board(x) for x in cells):
                continue
            for values in itertools.product((0, 1), repeat=len(cells)):
                filled = dict(zip(cells, values))
                position = sum(board.bit(x) for x, v in filled.items() if v)
                learned = {p for p in rule.successors(board, position) if p & ~board.position_of(cells) == 0}
                checked += 1
                if learned - _reference(board, filled, cells):
                    mismatches.append(f"at {cells} filled {''.join('o' if v else '.' for v in values)}")
    missing = 0
    for j in board.jumps:
        before = board.bit(j.start) | board.bit(j.over)
        if board.apply(before, j) not in rule.successors(board, before):
            missing += 1
    return Verification(not mismatches and missing == 0, checked, mismatches, missing)


def random_games(board: Board, start: int, *, games: int, seed: int,
                 ctx: SolveContext | None = None) -> list[list[int]]:
    """``games`` random games from ``start`` played by the reference rule until no jump is left (``ctx``
    checked before every game: a stop raises :class:`ai.kernel.context.SolveStopped`).  A start without a
    jump raises :class:`GameError`: its games would show no move to learn from."""
    if not board.legal_jumps(start):
        raise GameError(f"{board.name}: no jump is possible from the start, so its games show no move to learn "
                        "from (give a board with a peg that can jump)")
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        if ctx is not None:
            ctx.check()
        position, game = start, [start]
        while True:
            legal = board.legal_jumps(position)
            if not legal:
                break
            position = board.apply(position, rng.choice(legal))
            game.append(position)
        out.append(game)
    return out


def parse_games(text: str, *, path: str = "<games>") -> tuple[Board, list[list[int]]]:
    """Example games: boards separated by blank lines, games separated by a line ``---``.

    Every board must have the same cells as the first one.

    >>> board, games = parse_games("ooo\\n\\n..o\\n---\\n.oo\\n\\no..")
    >>> [len(g) for g in games], pattern_of(board, games[1][0], games[1][1])
    ([2, 2], ((0, 0, 0, 1), (0, 1, 1, 0), (0, 2, 1, 0)))
    """
    games: list[list[int]] = [[]]
    board: Board | None = None
    block: list[str] = []
    first_line = 1

    def flush() -> None:
        nonlocal board
        if not block:
            return
        text = "\n".join(block)
        if "o" in text:
            b, position = parse_board(text, path=path)
        else:  # no peg left: read the cells as if full
            b, position = parse_board(text.replace(".", "o"), path=path)[0], 0
        if board is None:
            board = b
        elif b.cells != board.cells:
            raise GameError(f"{path}: the board ending before line {first_line + len(block)} "
                            "has other cells than the first board")
        games[-1].append(position)
        block.clear()

    for n, line in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        if line.strip() == "---":
            flush()
            games.append([])
        elif not line.strip():
            flush()
        else:
            if not block:
                first_line = n
            block.append(line)
    flush()
    games = [g for g in games if g]
    if board is None or not any(len(g) > 1 for g in games):
        raise GameError(f"{path}: no example move (write boards separated by blank lines)")
    return board, games


__all__ = ["LearnedRule", "Pattern", "Verification", "learn", "parse_games", "pattern_of", "random_games",
           "verify"]
