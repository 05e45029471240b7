"""What the peg-solitaire screen keeps of the AI's answers during one game, so that a question the AI has
already settled is answered at once, without a new job.

Two facts carry over from one position to others:

* a solution from a position gives the next jump of every position along it (the player who follows a
  hint asks again on a position of the same line);
* a position proved lost makes every position reached from it lost too (a jump from a lost position cannot
  reach a position that can still finish, or the lost one could have finished through it).

>>> from game.core.puzzles.pegs_boards import parse_board
>>> board, start = parse_board("ooo.o")  # one row; no jumps leave one peg (the AI's search proves it)
>>> memory = PegsMemory(board, None)
>>> memory.learn_lost(start, "every sequence of jumps was tried")
>>> jump = board.legal_jumps(start)[0]
>>> memory.lost_since(board.apply(start, jump), [jump])
('every sequence of jumps was tried', 1)
>>> board, start = parse_board("oo.")
>>> memory = PegsMemory(board, None)
>>> memory.learn_line(start, board.legal_jumps(start))
>>> memory.line_from(start) == board.legal_jumps(start), memory.line_from(board.apply(start, memory.next_jump[start]))
(True, [])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Sequence

from game.core.puzzles.pegs import Board, Jump


@dataclass
class PegsMemory:
    """The AI's settled answers on one board towards one goal (see the module docstring)."""

    board: Board
    goal: int | None  #: the goal position (``None``: one peg anywhere)
    next_jump: dict[int, Jump] = field(default_factory=dict)  #: positions on a solved line, and their next jump
    lost: dict[int, str] = field(default_factory=dict)  #: positions proved lost, and why (in a player's words)

    def learn(self, position: int, line: Sequence[Jump], lost: str | None) -> None:
        """Keep an answer of the AI on ``position``: the solution ``line``, or (``lost``: why) a proof that
        it is lost."""
        if lost is not None:
            self.learn_lost(position, lost)
        else:
            self.learn_line(position, line)

    def learn_line(self, position: int, line: Sequence[Jump]) -> None:
        """Keep the solution ``line`` from ``position`` (it must replay to the goal; else nothing is kept)."""
        passed = []
        try:
            for jump in line:
                passed.append(position)
                position = self.board.apply(position, jump)
        except ValueError:
            return
        if line and self.board.is_goal(position, self.goal):
            self.next_jump.update(zip(passed, line))

    def learn_lost(self, position: int, why: str) -> None:
        """Keep the proof that ``position`` cannot reach the goal."""
        self.lost[position] = why

    def line_from(self, position: int) -> list[Jump]:
        """The rest of a solved line through ``position`` (empty when none is known)."""
        line: list[Jump] = []
        while position in self.next_jump and not self.board.is_goal(position, self.goal):
            jump = self.next_jump[position]
            line.append(jump)
            position = self.board.apply(position, jump)
        return line

    def lost_since(self, position: int, history: Sequence[Jump]) -> tuple[str, int] | None:
        """Why ``position`` is lost and how many jumps ago a position proved lost was met (``history``: the
        jumps played to reach ``position``, oldest first), or ``None`` when no such proof is kept."""
        for ago, before in enumerate(self._back(position, history)):
            if before in self.lost:
                return self.lost[before], ago
        return None

    def open_positions(self, position: int, history: Sequence[Jump]) -> list[int]:
        """The positions of the game that reached ``position`` by ``history`` (oldest first) before the first
        one proved lost: where a position that can still finish may be (empty when the first is lost)."""
        positions = list(self._back(position, history))[::-1]
        lost = next((i for i, p in enumerate(positions) if p in self.lost), len(positions))
        return positions[:lost]

    def finish_back(self, position: int, history: Sequence[Jump]) -> int | None:
        """The fewest jumps to take back from ``position`` (reached by ``history``, oldest first) to a
        position a solution is known from, or ``None`` when none of them is known to finish."""
        for back, before in enumerate(self._back(position, history)):
            if before in self.next_jump or self.board.is_goal(before, self.goal):
                return back
        return None

    def _back(self, position: int, history: Sequence[Jump]) -> Iterator[int]:
        """``position``, then each position before it in the game that reached it by ``history`` (newest
        first: the jumps taken back one by one)."""
        yield position
        for jump in reversed(history):
            position = self.board.undo(position, jump)
            yield position


__all__ = ["PegsMemory"]
