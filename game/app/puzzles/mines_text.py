"""What the Minesweeper screen (:class:`game.app.puzzles.mines.MinesScene`) says about a game: who played
it and how its end is told, the board size's records, and the custom board's keys (what they do, and what
they say on a fixed board).

A move is a reveal that opened at least one cell (or a mine), counted for the player or for the assistant.
The timer runs from the game's first move to its last, whoever made them; the title and the message say
who played, so a game the assistant played by itself never reads as the player's time.

>>> outcome_words(True, "0.8 s", Moves(assistant=12), assisted=True)
'the assistant won in 0.8 s'
>>> outcome_words(True, "9.5 s", Moves(player=3, assistant=12), assisted=True)
'won in 9.5 s, assisted'
>>> outcome_words(False, "2.0 s", Moves(player=2), assisted=False)
'lost after 2.0 s'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from game.core.puzzles.mines import AREA_CELLS, MAX_SIDE, MIN_CUSTOM_SIDE, Difficulty
from game.core.settings import MINES_CUSTOM, Settings
from game.core.puzzles.mines_records import BoardRecord, format_time
from game.app.input import display_key

class BoardChoice(enum.Enum):
    """The board a new Minesweeper screen opens on when no difficulty is given."""

    LAST = "last"  #: the board chosen last (kept in the settings: :func:`remembered_board`)


def remembered_board(settings: Settings) -> tuple[Difficulty | None, tuple[int, int, int]]:
    """The board chosen last: its difficulty (``None``: the custom board) and the custom board (width, height, mines).

    >>> remembered_board(Settings()), remembered_board(Settings(mines_board="custom", mines_custom=(20, 20, 50)))
    ((<Difficulty.BEGINNER: 'beginner'>, (12, 10, 20)), (None, (20, 20, 50)))
    """
    name = settings.mines_board
    return (None if name == MINES_CUSTOM else Difficulty(name)), settings.mines_custom


def board_setting(difficulty: Difficulty | None, custom: tuple[int, int, int]) -> dict[str, object]:
    """The settings that remember a choice of board (``None``: the ``custom`` one), read by :func:`remembered_board`.

    >>> board_setting(None, (20, 20, 50))
    {'mines_board': 'custom', 'mines_custom': (20, 20, 50)}
    """
    return {"mines_board": difficulty.value if difficulty is not None else MINES_CUSTOM, "mines_custom": custom}


def new_board() -> str:
    """The end of every message of a finished game, naming the restart key as the player bound it."""
    return f"{display_key('R')} starts a new board."
#: What +/- and [ ] say on a fixed board (they change the custom board only).
CUSTOM_KEYS = "+ and - size the custom board, [ and ] set its mines: press 4 to play it."


@dataclass
class Moves:
    """The moves of one game, by who made them."""

    player: int = 0
    assistant: int = 0

    def count(self, by_assistant: bool) -> None:
        """One move more, the assistant's or the player's."""
        if by_assistant:
            self.assistant += 1
        else:
            self.player += 1

    @property
    def assistant_alone(self) -> bool:
        """True when the assistant made every move of the game."""
        return self.assistant > 0 and self.player == 0


def plural_moves(count: int) -> str:
    """``count`` moves in words.

    >>> plural_moves(1), plural_moves(40)
    ('1 move', '40 moves')
    """
    return f"{count} move" if count == 1 else f"{count} moves"


def outcome_words(won: bool, took: str, moves: Moves, *, assisted: bool) -> str:
    """The end of the title of a finished game: the outcome, the time (``took``) and who played
    (``assisted``: the assistant opened a cell or showed its odds)."""
    if moves.assistant_alone:
        return f"the assistant won in {took}" if won else f"the assistant lost after {took}"
    helped = ", assisted" if assisted else ""
    return f"won in {took}{helped}" if won else f"lost after {took}{helped}"


def win_message(took: str, moves: Moves, assisted: bool, new_best: bool) -> str:
    """What the band under the board says after a win (``assisted``: the assistant opened a cell or showed
    its odds; ``new_best``: the time is the board's new best).

    >>> win_message("0.8 s", Moves(assistant=5), True, False)
    'The assistant played this board by itself: cleared in 0.8 s, 5 moves (not counted in your record). R starts a new board.'
    >>> win_message("12.3 s", Moves(player=2, assistant=40), True, False)
    'Cleared in 12.3 s: you made 2 moves, the assistant 40 (best times count only games without it). R starts a new board.'
    """
    if moves.assistant_alone:
        return (f"The assistant played this board by itself: cleared in {took}, {plural_moves(moves.assistant)} "
                f"(not counted in your record). {new_board()}")
    if moves.assistant:
        return (f"Cleared in {took}: you made {plural_moves(moves.player)}, the assistant {moves.assistant} (best "
                f"times count only games without it). {new_board()}")
    if assisted:
        return f"Cleared in {took} with the assistant's help (best times count only games without it). {new_board()}"
    if new_best:
        return f"Cleared in {took}: a new best time! {new_board()}"
    return f"Cleared in {took}. {new_board()}"


def changed_custom(custom: tuple[int, int, int], dsize: int, dmines: int) -> tuple[int, int, int]:
    """The custom board (width, height, mines) after ``dsize`` more on each side and ``dmines`` more mines,
    kept from :data:`MIN_CUSTOM_SIDE` to half the largest side, with room for the first click's area.

    >>> changed_custom((12, 10, 20), 1, 0), changed_custom((4, 4, 7), -1, 1)
    ((13, 11, 20), (4, 4, 7))
    """
    w, h, m = custom
    w = max(MIN_CUSTOM_SIDE, min(MAX_SIDE // 2, w + dsize))
    h = max(MIN_CUSTOM_SIDE, min(MAX_SIDE // 2, h + dsize))
    return w, h, max(1, min(w * h - AREA_CELLS, m + dmines))


def records_words(record: BoardRecord) -> str:
    """A board size's records, for the top bar.

    >>> records_words(BoardRecord(2, 1, 61.5)), records_words(BoardRecord())
    ('This board: best time 1:01.5, 2 won, 1 lost', 'This board: no best time yet, 0 won, 0 lost')
    """
    best = f"best time {format_time(record.best_seconds)}" if record.best_seconds is not None else "no best time yet"
    return f"This board: {best}, {record.wins} won, {record.losses} lost"


__all__ = ["AREA_CELLS", "BoardChoice", "CUSTOM_KEYS", "MIN_CUSTOM_SIDE", "Moves", "board_setting", "changed_custom",
           "new_board", "outcome_words", "plural_moves", "records_words", "remembered_board", "win_message"]
