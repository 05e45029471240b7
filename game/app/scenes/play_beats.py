"""What the play scene makes of the beats its playhead passes (:class:`game.core.playback.Beat`).

Each beat has its sound; the release counts an attempt, a win is recorded (a new best; a save that failed
is toasted by the app, :class:`game.app.store_reports.StoreReports`) and starts the search for the level's
minimum when it is unknown (:class:`~game.app.par.ParFinder`, in the background), and a loss explains each
missed lemming (:func:`game.core.outcome.explain`).  A win that opens the pack's next world says so, and the
playlist goes on into it (:mod:`game.app.world_unlock`).
"""

from __future__ import annotations

from typing import Protocol

from game.core.catalog import LevelEntry, Section
from game.core.level import Brick, Level
from game.core.outcome import LemmingFailure, explain
from game.core.playback import Beat
from game.core.simulation import Run
from game.app.app import App
from game.app.par import ParFinder
from game.app.sound import Sfx
from game.app.world_unlock import WorldUnlock, continue_into

#: The sound of each beat of the playback.
BEAT_SOUNDS = {Beat.RELEASED: Sfx.RELEASE, Beat.EXIT: Sfx.EXIT, Beat.LAND: Sfx.LAND, Beat.TURN: Sfx.TURN,
               Beat.WON: Sfx.WIN, Beat.LOST: Sfx.LOSE}


class BeatHost(Protocol):
    """What the beats read and write of the play scene."""

    new_best: bool
    failures: list[LemmingFailure]
    playlist: list[LevelEntry]

    @property
    def app(self) -> App: ...
    @property
    def key(self) -> str | None: ...
    @property
    def level(self) -> Level: ...
    @property
    def bricks(self) -> tuple[Brick, ...]: ...
    @property
    def assisted(self) -> bool: ...
    def spend_ai_help(self) -> bool:
        """The level is won: whether the win is AI-helped (it spends the mark of an AI solution shown)."""
    @property
    def run(self) -> Run: ...


class BeatEffects:
    """The sounds, records and explanations of one play scene's beats (``host``), and its par search."""

    def __init__(self, host: BeatHost) -> None:
        self.host = host
        self._par: ParFinder | None = None  #: the background par search

    def take(self, beats: list[Beat]) -> None:
        """What the playhead passed: sounds, the attempt when the lemmings leave, the win or the loss."""
        host, app = self.host, self.host.app
        for beat in beats:
            app.sound.play(BEAT_SOUNDS[beat])
            if beat == Beat.RELEASED and host.key is not None:
                app.progress.record_attempt(host.key)
            elif beat == Beat.WON:
                self._won()
            elif beat == Beat.LOST:
                host.failures = explain(host.run)

    def _won(self) -> None:
        """A win: AI-helped or not (it spends the mark of an AI solution shown), recorded under the level's key
        (a world it opens is said), then the par search."""
        host, app = self.host, self.host.app
        assisted = host.spend_ai_help()
        if host.key is None:
            return
        on_pack = any(e.key == host.key and e.section == Section.PACK for e in host.playlist)
        unlock = WorldUnlock(app.progress) if on_pack else None
        host.new_best = app.progress.record_win(host.key, host.level, host.bricks, assisted=assisted)
        self._start_par_search(host.key)
        for label, world in unlock.opened() if unlock is not None else ():
            app.toast(f"{label} is open now!", 6.0)
            continue_into(host.playlist, world)

    def _start_par_search(self, key: str) -> None:
        """After the player's own win: find the level's minimum in the background if unknown."""
        host = self.host
        if host.assisted or host.app.progress.par(key, host.level) is not None:
            return
        if self._par is None:
            self._par = ParFinder(host.app.jobs, host, host.app.progress, key, host.level)
        self._par.start()

    def shutdown(self) -> None:
        """Stop the par search (leaving the level)."""
        if self._par is not None:
            self._par.shutdown()
