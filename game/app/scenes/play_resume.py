"""The bricks the player left on a level, kept across visits and relaunches.

The store is the app's :class:`~game.core.resume.ResumeStore` (``app.resume``): a level opens with the
bricks left on it, every edit is remembered, and the store is saved at most once a second while the player edits,
and on leaving (the app also saves it when the window closes).  Once the AI shows a solution of the level, its wins
are AI-helped, whatever bricks are on the board, on this visit or a later one, until a win with bricks the player
placed (:attr:`LevelResume.assisted`, kept with the board until that win).  Levels without a progress key (a
play-test, a replay) keep nothing across visits.
"""

from __future__ import annotations

from typing import Sequence

from game.core.errors import GameError
from game.core.level import Brick, Level
from game.core.resume import ResumeStore
from game.core.session import PlaySession

#: The bricks on the board are saved at most this often while the player edits (and on leaving).
RESUME_SAVE_SECONDS = 1.0


class LevelResume:
    """The resumed bricks of ``level`` under the progress ``key`` (None: nothing kept) in ``store``."""

    def __init__(self, store: ResumeStore, level: Level, key: str | None) -> None:
        self.store, self.level, self.key = store, level, key
        self._timer = 0.0
        #: the AI showed a solution of the level since a win with bricks the player placed (read by :meth:`session`)
        self.assisted = False

    def session(self) -> PlaySession:
        """The session of the level with the bricks the player left on it (also across relaunches), and
        whether the AI showed a solution of it since a win with bricks the player placed (:attr:`assisted`)."""
        level, key = self.level, self.key
        session = PlaySession(level)
        if key is not None:
            try:
                session = PlaySession(level, self.store.bricks_for(key, level.puzzle_hash))
                self.assisted = self.store.assisted_for(key, level.puzzle_hash)
            except GameError:
                pass
            self.store.remember(key, level.puzzle_hash, session.bricks, assisted=self.assisted)
        return session

    def remember(self, bricks: Sequence[Brick]) -> None:
        """The bricks changed: keep them with the AI-help mark (saved within a second, on leaving, and when the
        game closes)."""
        if self.key is not None:
            self.store.remember(self.key, self.level.puzzle_hash, bricks, save=False, assisted=self.assisted)

    def mark_ai_help(self, bricks: Sequence[Brick]) -> None:
        """The AI showed a solution of the level (``bricks`` on the board): its wins are AI-helped until a win with
        bricks the player placed (kept across visits)."""
        if not self.assisted:
            self.assisted = True
            self.remember(bricks)

    def spend_ai_help(self, bricks: Sequence[Brick], placed: bool) -> bool:
        """The level is won with ``bricks``: whether the AI showed a solution since a win with bricks the player
        placed (the win is AI-helped); ``placed``: the player placed them, so the mark goes with this win."""
        helped = self.assisted
        if helped and placed:
            self.assisted = False
            self.remember(bricks)
        return helped

    def tick(self, dt: float) -> None:
        """Advance by ``dt`` seconds: save the store when changed and a second has passed."""
        self._timer += dt
        if self.store.dirty and self._timer >= RESUME_SAVE_SECONDS:
            self._timer = 0.0
            self.store.save()

    def save(self) -> None:
        """Save the store now if it changed (leaving the level)."""
        if self.store.dirty:
            self.store.save()
