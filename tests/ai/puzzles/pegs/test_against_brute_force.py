"""The solver against an exhaustive search on small random boards: same verdict, every solution replays."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ai.puzzles.pegs import IpUse, PegsStatus, solve
from game.core.puzzles.pegs import Board
from game.core.puzzles.pegs_boards import parse_board


def reachable_goal(board: Board, start: int, goal: int | None) -> bool:
    """Whether any sequence of jumps reaches ``goal`` (plain depth-first enumeration, no pruning)."""
    seen = {start}
    stack = [start]
    while stack:
        position = stack.pop()
        if board.is_goal(position, goal):
            return True
        for jump in board.legal_jumps(position):
            nxt = board.apply(position, jump)
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return False


@st.composite
def small_boards(draw: st.DrawFn) -> str:
    """Boards of at most 5x5 cells, mostly holes-with-pegs (``o``), some holes and gaps."""
    h = draw(st.integers(1, 5))
    w = draw(st.integers(3, 5))
    rows = ["".join(draw(st.lists(st.sampled_from("ooooo.. "), min_size=w, max_size=w))) for _ in range(h)]
    text = "\n".join(row.rstrip() for row in rows).rstrip()
    return text if "o" in text else "o" + text[1:]


@settings(max_examples=60, deadline=None)
@given(small_boards(), st.sampled_from(["default", "any"]), st.sampled_from(list(IpUse)))
def test_solver_agrees_with_exhaustive_search(text: str, which: str, ip: IpUse) -> None:
    board, start = parse_board(text)
    goal = board.goal_position() if which == "default" else None
    result = solve(board, start, goal, ip=ip)
    assert result.status in (PegsStatus.SOLVED, PegsStatus.IMPOSSIBLE)
    assert (result.status == PegsStatus.SOLVED) == reachable_goal(board, start, goal)
    if result.status == PegsStatus.SOLVED:
        assert board.is_goal(board.replay(start, result.moves), goal)
