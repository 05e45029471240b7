"""Endless mode: generated levels whose measured difficulty rises, made while you play.

Levels are made by the UI's one way of running AI work: the app's job runner
(:class:`game.app.jobs.JobRunner`, a child process), so
generation and its exact solvers run in a child process (cancelled by killing it), never
in a thread of the game.  Each job makes the level of one step with
:func:`ai.facade.rated_level` (rated by :func:`ai.facade.rate_level`, nearest the step's
target score, not easier than the level before); up to :data:`LOOKAHEAD` levels are made
ahead.  Where the player is (step, solved, streak, best streak), the level made for that step and those
made ahead are kept in ``endless.json`` (:mod:`game.core.endless_record`), so a relaunch, or coming back from
the menu, continues the ladder on the same level at once and with the same next levels (a level is made
again only when the kept one is missing, damaged or made for another step).

Winning (then Enter or Esc) moves on to the next step; leaving a level unsolved ("Back to Endless",
which asks first) ends the streak and comes back here, where Enter retries it and Esc returns to the
menu.  Quitting to the menu keeps the streak, as closing the window does: the next visit opens the
same level.  The streak shows in the play scene's top bar; the speed chosen there carries to the next
level.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pygame

from ai.facade import SolveContext, difficulty_spec, player_label, rated_level
from game.core.endless_record import MAX_AHEAD, EndlessRecord, KeptLevel, load_record, save_record
from game.core.level import Level
from game.app import hud
from game.app.app import App, Scene
from game.app.jobs import JobEvent, JobHandle
from game.core.catalog import LevelEntry, Section
from game.app.input import Act, Action
from game.app.play_state import PlayState
from game.app.render import LevelRenderer

#: Levels generated ahead of the one being played (all of them kept in the record: at most its MAX_AHEAD).
LOOKAHEAD = min(2, MAX_AHEAD)


@dataclass(frozen=True)
class Difficulty:
    """What one difficulty step of the ladder generates (from :func:`ai.facade.difficulty_spec`)."""

    level: int
    height: int
    width: int
    bricks: int
    lemmings: int = 1
    unique: bool = False

    def describe(self) -> str:
        """E.g. ``10x12, 2 bricks, 1 lemming``."""
        text = (f"{self.height}x{self.width}, {self.bricks} brick{'s' if self.bricks != 1 else ''}, "
                f"{self.lemmings} lemming{'s' if self.lemmings != 1 else ''}")
        return text + (", unique solution" if self.unique else "")


def difficulty(level: int) -> Difficulty:
    """The generator's settings at difficulty ``level`` (1 = easiest).

    >>> difficulty(1).describe()
    '8x10, 1 brick, 1 lemming'
    """
    spec = difficulty_spec(max(1, level))
    return Difficulty(max(1, level), spec.height, spec.width, spec.bricks, spec.lemmings, spec.unique)


@dataclass(frozen=True)
class EndlessLevel:
    """One generated level: its step on the ladder, the level, its settings and measured score."""

    step: int
    level: Level
    difficulty: Difficulty
    seconds: float = 0.0
    score: float | None = None


def endless_title(step: int, name: str) -> str:
    """The title shown in play, e.g. ``Endless 4 · Mossy Ledges``.

    >>> endless_title(4, "Mossy Ledges")
    'Endless 4 \\xb7 Mossy Ledges'
    """
    return f"Endless {step} \u00b7 {name or 'Generated'}"


def _from_kept(kept: KeptLevel) -> EndlessLevel:
    """A level kept in the record, as made (its settings from its step)."""
    return EndlessLevel(kept.step, kept.level, difficulty(kept.step), 0.0, kept.score)


def make_endless_level(step: int, seed: int, previous: float | None,
                       ctx: SolveContext | None = None) -> EndlessLevel | None:
    """The level of ``step`` (runs in the job runner's child process, within ``ctx``): rated, rising by
    measure."""
    g = rated_level(step, seed=seed, previous=previous, context=ctx)
    if g is None:
        return None
    level = g.level.with_meta("title", endless_title(step, g.level.title))
    return EndlessLevel(step, level, difficulty(step), g.seconds, g.score)


#: What makes one level: ``(step, seed, previous score, job context) -> EndlessLevel``; run in the child.
LevelMaker = Callable[[int, int, "float | None", SolveContext], "EndlessLevel | None"]


class EndlessScene(Scene):
    """The endless ladder: a status card between generated levels."""

    def __init__(self, app: App, *, seed: int | None = None, make_level: LevelMaker | None = None,
                 record_path: Path | None = None) -> None:
        super().__init__(app)
        self.record_path = record_path
        self.record, problem = load_record(record_path)
        self.saved_record = self.record  #: the record as this game last read or wrote it (see save_record)
        if problem:
            app.toast(problem, 6.0)
        if seed is not None and seed != self.record.seed:
            self.record = EndlessRecord(seed=seed, best_streak=self.record.best_streak)
        self._make = make_level if make_level is not None else make_endless_level
        self.started = False  #: generating (from the first entering on)
        self.job: JobHandle | None = None  #: the level being made
        self.job_step = 0
        self.ready: list[EndlessLevel] = []
        self.current: EndlessLevel | None = None
        self.play: Scene | None = None
        self.error = ""
        self.waited = 0.0
        self.anim = 0.0
        self.auto_next = True  #: push the next level as soon as it is ready
        self.speed_index: int | None = None  #: the speed of the last level played (None: the saved default)
        self.renderer = LevelRenderer()
        kept = self.record.kept_level()
        if kept is not None:  # the level of this step, made on an earlier visit: no need to make it again
            self.current = _from_kept(kept)
        self.ready = [_from_kept(ahead) for ahead in self.record.kept_ahead()]  # and those made ahead of it

    # ---------------------------------------------------------------- state
    @property
    def solved(self) -> int:
        """Levels solved on this ladder (kept across launches)."""
        return self.record.solved

    def _save(self) -> None:
        notes: list[str] = []
        try:
            self.record = self.saved_record = save_record(self.record, self.record_path, base=self.saved_record,
                                                          notes=notes)
        except OSError as exc:
            self.app.toast(f"could not save Endless progress: {exc.strerror or exc}", 4.0)
        for note in notes:
            self.app.toast(note, 6.0)

    def _planned_steps(self) -> list[int]:
        """Steps made or being made ahead of the player."""
        steps = [lv.step for lv in self.ready]
        if self.current is not None:
            steps.append(self.current.step)
        if self.job is not None:
            steps.append(self.job_step)
        return steps

    def _previous_score(self, step: int) -> float | None:
        known = [lv.score for lv in ([self.current] if self.current else []) + self.ready
                 if lv.step == step - 1 and lv.score is not None]
        return known[0] if known else self.record.last_score

    # ---------------------------------------------------------------- the jobs
    def _submit(self, step: int) -> None:
        make, seed, previous = self._make, self.record.seed, self._previous_score(step)
        self.job_step = step
        self.job = self.app.jobs.submit(lambda ctx: make(step, seed, previous, ctx),
                                        label="endless", owner=self, lane="generate",
                                        on_done=self._made, on_error=self._failed, on_cancelled=self._ended)

    def _made(self, event: JobEvent) -> None:
        self.job = None
        if isinstance(event.payload, EndlessLevel):
            self.ready.append(event.payload)
            kept = self.record.keeping_ahead(self._ahead())
            if kept != self.record:  # saved: a later visit does not make it again
                self.record = kept
                self._save()

    def _ahead(self) -> list[tuple[int, Level, float | None]]:
        """The levels made ahead of the current one (step, level, score), for the record."""
        return [(lv.step, lv.level, lv.score) for lv in self.ready]

    def _failed(self, event: JobEvent) -> None:
        self.job = None
        self.error = event.message or "the generator failed"

    def _ended(self, event: JobEvent) -> None:
        self.job = None

    def _plan(self) -> None:
        """Start making the next level when fewer than :data:`LOOKAHEAD` wait."""
        planned = self._planned_steps()
        if self.job is None and not self.error and len(planned) < LOOKAHEAD + 1:
            nxt = max(planned, default=self.record.step - 1) + 1
            self._submit(max(nxt, self.record.step))

    # ---------------------------------------------------------------- flow
    def on_enter(self) -> None:
        """Start generating the first time; after a level, move on when it was won."""
        self.started = True
        if self.play is not None:
            play = self.play
            self.play = None
            self.speed_index = getattr(play, "speed_index", self.speed_index)
            if getattr(play, "state", None) == PlayState.WON and self.current is not None:
                self.record = self.record.won(self.current.score)
                self.current = None
                self.auto_next = True
            elif getattr(play, "suspended", False):  # quit to the menu: put aside, as closing the window
                self.auto_next = False
                return
            else:
                self.record = self.record.gave_up()
                self.auto_next = False
            self._save()

    def on_exit(self) -> None:
        """Stop generating (the child process is killed) and save."""
        if self.job is not None:
            self.job.cancel()
        self.job = None

    def start_level(self) -> None:
        """Play the current level."""
        if self.current is None:
            return
        lvl = self.current
        # A playlist ending at this level: the title card reads "Level <step>" and Enter after
        # a win comes back here.  key=None: Endless wins are kept in endless.json, not progress.json.
        entry = LevelEntry(f"endless:{lvl.step}", None, lvl.level, Section.ENDLESS)
        play = self.app.open("play", lvl.level, playlist=[entry] * lvl.step, index=lvl.step - 1,
                             key=None, title=lvl.level.title, back_label="endless")
        play.leave_warning = self._streak_warning
        streak = self.record.streak  # counting the level being played once it is won
        play.note = lambda: f"streak {streak + 1 if play.state == PlayState.WON else streak}"
        if self.speed_index is not None:
            play.speed_index = self.speed_index
        self.play = play

    def _streak_warning(self) -> str:
        """What leaving the current level unsolved costs (the pause menu asks before)."""
        streak = self.record.streak
        return f"your Endless streak of {streak} ends" if streak > 0 else ""

    def handle_event(self, action: Action) -> None:
        """Enter: play (retry); Esc: menu."""
        if action.kind == Act.BACK:
            self.app.pop()
        elif action.kind in (Act.CONFIRM, Act.TOGGLE_RUN, Act.CLICK):
            if self.current is not None:
                self.start_level()
            elif self.error:
                self.error = ""  # try the generator again
            else:
                self.auto_next = True

    def update(self, dt: float) -> None:
        """Collect ready levels; open the next one when the player is waiting for it."""
        self.anim += dt
        if not self.started or self.app.top is not self:
            return
        self._plan()
        if self.current is None:
            self.waited += dt
            self.ready.sort(key=lambda lv: lv.step)
            while self.ready and self.ready[0].step < self.record.step:
                self.ready.pop(0)  # made for a step already played
            if self.ready and self.ready[0].step == self.record.step:
                self.current = self.ready.pop(0)
                self.waited = 0.0
                self.record = self.record.keeping(self.current.level, self.current.score).keeping_ahead(self._ahead())
                self._save()  # a later visit plays this level again without making it
        if self.current is not None and self.auto_next:
            self.auto_next = False
            self.start_level()

    # ---------------------------------------------------------------- drawing
    def draw(self, surface: pygame.Surface) -> None:
        """The status card."""
        self.renderer.draw_background(surface)
        w, h = surface.get_size()
        bar = hud.top_bar(surface)
        hud.blit_text(surface, "Endless", (16, bar.centery), 36, hud.WHITE, anchor="midleft")
        rec = self.record
        hud.blit_text(surface, f"solved {rec.solved}   streak {rec.streak}   best {rec.best_streak}",
                      (w - 16, bar.centery), 28, hud.GOLD, anchor="midright")
        box = pygame.Rect(0, 0, min(620, w - 40), 260)
        box.center = (w // 2, h // 2)
        hud.panel(surface, box, edge=hud.GOLD)
        step = self.current.step if self.current is not None else rec.step
        hud.blit_text(surface, f"Level {step}", (box.centerx, box.top + 24), 56, hud.GOLD, anchor="midtop")
        if self.current is not None:
            d = self.current.difficulty
            score = f"{player_label(self.current.score)} · " if self.current.score is not None else ""
            hud.blit_text(surface, f"{score}{d.describe()}", (box.centerx, box.top + 86), 26,
                          hud.WHITE, anchor="midtop")
        if self.error:
            line, color = f"the generator failed: {self.error[:44]}  (Enter: retry)", hud.RED
        elif self.current is None:
            dots = "." * (1 + int(self.anim * 3) % 3)
            line, color = f"generating a new puzzle{dots}  {self.waited:.1f} s", hud.BLUE
        elif self.auto_next:
            line, color = "ready!", hud.GREEN
        else:
            line, color = "Enter: try it again    Esc: back to the menu", hud.WHITE
        hud.blit_text(surface, line, (box.centerx, box.top + 136), 26, color, anchor="midtop")
        hud.blit_text(surface, "each level is certified by an exact solver and rated by the AI",
                      (box.centerx, box.bottom - 44), 20, hud.MUTED, anchor="midtop")
        sp = self.renderer.sprites
        cell = 40
        x = box.left + 20 + int((self.anim * 90) % max(1, box.width - 40 - cell))
        frame = int(self.anim * 8) % 4
        surface.blit(sp.get(f"lem_walk_r_{frame}", cell), (x, box.bottom + 12 + int(math.sin(self.anim * 5) * 2)))
        hud.hint_bar(surface, [("Enter", "play"), ("Esc", "menu")])


