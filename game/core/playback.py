"""The play scene's playback, as a pure model: where the playhead is over the precomputed run.

The run for the current bricks is computed by the reference simulator (:func:`game.core.simulation.simulate`,
through :class:`~game.core.session.PlaySession`); :class:`Playback` only moves a playhead ``t`` (in frames)
over it, so stepping back is exact.  States: ``placing`` (lemmings waiting) -> ``running`` <->
``paused`` -> ``won`` / ``lost`` (at :attr:`Playback.end_frame`: the last frame, or earlier once the
outcome cannot change, :func:`game.core.outcome.settled_at`; the later frames can still be scrubbed).  Every method that moves the playhead returns
the :class:`Beat` s it passed (the lemmings left their hatches, the run ended, a lemming landed, turned
or got home), which the scene turns into sounds and records; the model has no pygame, no sound, no
progress file.

>>> from game.core.level import Level
>>> from game.core.session import PlaySession
>>> level = Level.from_rows(["> ..T", "XX.XX"], frames=9, budget=1)
>>> playback = Playback(PlaySession(level, [(1, 2)]))
>>> playback.state.value, playback.toggle()
('placing', [<Beat.RELEASED: 'released'>])
>>> beats = playback.advance(10.0)             # ten seconds at 1x: the lemming is home at frame 4
>>> playback.state.value, playback.frame, Beat.WON in beats
('won', 4, True)
>>> playback.step(-3), playback.state.value, playback.frame
([], 'paused', 1)
>>> playback.seek(8), playback.state.value, playback.frame   # the frames after it can still be scrubbed
([<Beat.WON: 'won'>], 'won', 8)
"""

from __future__ import annotations

import enum
import math

from game.core.outcome import settled_at
from game.core.session import PlaySession
from game.core.settings import SPEEDS
from game.core.simulation import Run

#: Simulation frames shown per second at 1x.
BASE_FPS = 5.0


class PlayState(str, enum.Enum):
    """Where the playback is."""

    PLACING = "placing"
    RUNNING = "running"
    PAUSED = "paused"
    WON = "won"
    LOST = "lost"


class Beat(enum.Enum):
    """Something the playhead passed (the scene plays a sound, records an attempt or a win)."""

    RELEASED = "released"  #: the lemmings left their hatches
    WON = "won"  #: the run ended at its last frame with every lemming home
    LOST = "lost"  #: the run ended at its last frame without
    EXIT = "exit"  #: a lemming got home
    LAND = "land"  #: a lemming landed after a fall
    TURN = "turn"  #: a lemming turned round


#: The sound beats, in the order they are played when several fall on one step.
CUES = (Beat.EXIT, Beat.LAND, Beat.TURN)


class Playback:
    """The playhead over ``session``'s run (see the module docstring); ``speed_index`` into :data:`SPEEDS`."""

    def __init__(self, session: PlaySession, *, speed_index: int = 0) -> None:
        self.session = session
        self.state = PlayState.PLACING
        self.t = 0.0  #: the playhead, in frames (fractional while running)
        self.speed_index = max(0, min(len(SPEEDS) - 1, speed_index))
        self._cue_frame = 0  #: the last frame whose sounds were given
        self._settled: tuple[Run, int] | None = None  #: the run last asked about and its end frame

    # ------------------------------------------------------------------ queries
    @property
    def run(self) -> Run:
        """The precomputed run for the current bricks."""
        return self.session.run

    @property
    def frames(self) -> int:
        """N, the level's frames."""
        return self.session.level.frames

    @property
    def last_frame(self) -> int:
        """N-1."""
        return self.frames - 1

    @property
    def end_frame(self) -> int:
        """Where playing stops with the result: the first frame from which the outcome cannot change
        (every lemming home on a target that stops it, or lost in a loop), else the last frame."""
        run = self.run
        if self._settled is None or self._settled[0] is not run:
            self._settled = (run, settled_at(run))
        return self._settled[1]

    @property
    def frame(self) -> int:
        """The current whole frame (0..N-1)."""
        return int(math.floor(self.t + 1e-9))

    @property
    def speed(self) -> int:
        """The playback speed multiplier."""
        return SPEEDS[self.speed_index]

    @property
    def released(self) -> bool:
        """True once the lemmings are out (any state but placing)."""
        return self.state != PlayState.PLACING

    @property
    def ended(self) -> bool:
        """True at the end of the run (won or lost)."""
        return self.state in (PlayState.WON, PlayState.LOST)

    # ------------------------------------------------------------------ moving the playhead
    def toggle(self) -> list[Beat]:
        """Space: release the lemmings, pause, resume, or replay after the end."""
        if self.state == PlayState.PLACING:
            beats = self._release()
            self.state, self.t = PlayState.RUNNING, 0.0
            if self.end_frame == 0:
                beats += self._finish()
            return beats
        if self.state == PlayState.RUNNING:
            self.state = PlayState.PAUSED
            return []
        if self.state == PlayState.PAUSED:
            if self.t >= self.end_frame:
                return self._finish()
            self.state = PlayState.RUNNING
            return []
        self.t, self._cue_frame, self.state = 0.0, 0, PlayState.RUNNING  # won / lost: replay from the start
        return []

    def step(self, delta: int) -> list[Beat]:
        """Pause and move ``delta`` whole frames (exact; forward from placing releases the lemmings)."""
        beats = self._release() if self.state == PlayState.PLACING and delta > 0 else []
        if delta > 0:
            target = min(self.frame + delta, self.last_frame)
        else:
            target = max(math.ceil(self.t - 1e-9) + delta, 0)
        self.t, self._cue_frame, self.state = float(target), target, PlayState.PAUSED
        if delta > 0 and self.t >= self.end_frame:
            beats += self._finish()
        return beats

    def seek(self, frame: int) -> list[Beat]:
        """Pause at ``frame`` (clamped to 0..N-1; releases the lemmings if waiting)."""
        beats = self._release() if self.state == PlayState.PLACING else []
        self.t = float(max(0, min(self.last_frame, frame)))
        self._cue_frame, self.state = self.frame, PlayState.PAUSED
        if self.frame >= self.end_frame:
            beats += self._finish()
        return beats

    def pause(self) -> None:
        """Pause a running playback (no-op otherwise)."""
        if self.state == PlayState.RUNNING:
            self.state = PlayState.PAUSED

    def restart(self) -> None:
        """Back to frame 0, lemmings waiting."""
        self.state, self.t = PlayState.PLACING, 0.0

    def change_speed(self, delta: int) -> int:
        """The next/previous speed of :data:`SPEEDS` (clamped); returns the new multiplier."""
        self.speed_index = max(0, min(len(SPEEDS) - 1, self.speed_index + delta))
        return self.speed

    def advance(self, dt: float) -> list[Beat]:
        """``dt`` seconds of playing time (only while running)."""
        if self.state != PlayState.RUNNING:
            return []
        self.t += dt * BASE_FPS * self.speed
        if self.t >= self.end_frame:
            return self._finish()
        return self._cues(self.frame)

    # ------------------------------------------------------------------ internals
    def _release(self) -> list[Beat]:
        self._cue_frame = 0
        return [Beat.RELEASED]

    def _finish(self) -> list[Beat]:
        """The result: at the end frame when playing reached it, where the playhead is when it was
        moved past it."""
        self.t = float(max(self.end_frame, self.frame if self.state == PlayState.PAUSED else 0))
        beats = self._cues(self.frame)
        self.state = PlayState.WON if self.run.won else PlayState.LOST
        return beats + [Beat.WON if self.run.won else Beat.LOST]

    def _cues(self, upto: int) -> list[Beat]:
        """Exit / land / turn for the frames the playhead passed (one of each per step)."""
        start, self._cue_frame = self._cue_frame, max(self._cue_frame, upto)
        if upto <= start:
            return []
        kinds: set[Beat] = set()
        for track in self.run.tracks:
            path = track.path
            for f in range(start + 1, min(upto, len(path) - 1) + 1):
                (r0, c0, d0), (r1, c1, d1) = path[f - 1], path[f]
                if track.reached_at == f:
                    kinds.add(Beat.EXIT)
                elif r1 == r0 and c1 == c0 and d1 != d0:
                    kinds.add(Beat.TURN)
                elif f >= 2 and r0 > path[f - 2][0] and r1 == r0:
                    kinds.add(Beat.LAND)
        return [beat for beat in CUES if beat in kinds]


__all__ = ["BASE_FPS", "Beat", "CUES", "PlayState", "Playback"]
