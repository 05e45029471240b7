"""The bricks the player left on a level, kept across visits and relaunches.

The store is the app's :class:`~game.core.resume.ResumeStore` (``app.resume``): a level opens with the
bricks left on it, every edit is remembered, and the store is saved at most once a second while the
player edits, and on leaving (the app also saves it when the window closes).  Bricks placed with the help
of an AI solution keep that mark across visits (:attr:`LevelResume.assisted`: a win with them is AI-helped,
as within the visit the solution was applied in).  Levels without a progress key (a play-test, a replay)
keep nothing.
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
        #: the bricks left on the level came with the help of an AI solution (read by :meth:`session`)
        self.assisted = False

    def session(self) -> PlaySession:
        """The session of the level with the bricks the player left on it (also across relaunches), and
        whether they came with the help of an AI solution (:attr:`assisted`)."""
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

    def remember(self, bricks: Sequence[Brick], assisted: bool) -> None:
        """The bricks changed: keep them and whether an AI solution helped place them (saved within a second,
        on leaving, and when the game closes)."""
        if self.key is not None:
            self.store.remember(self.key, self.level.puzzle_hash, bricks, save=False, assisted=assisted)

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
