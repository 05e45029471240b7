"""Endless mode: generated levels of rising difficulty, made in the background while you play.

A daemon thread runs :func:`endless_levels` (a thin wrapper over the generator in
``ai.generation``) and keeps up to :data:`LOOKAHEAD` levels ready in a queue; the scene
shows a "generating" card while it waits and pushes a :class:`PlayScene` for each level.
Winning (then Enter or Esc) moves on to the next, harder level; leaving a level unsolved
comes back here, where Enter retries it and Esc returns to the menu.
"""

from __future__ import annotations

import math
import queue
import threading
from dataclasses import dataclass
from typing import Callable, Iterator

import pygame

from game.level import Level
from game.ui import hud
from game.ui.app import App, Scene
from game.ui.input import Act, Action
from game.ui.render import LevelRenderer

#: Levels generated ahead of the one being played.
LOOKAHEAD = 2


@dataclass(frozen=True)
class Difficulty:
    """What one difficulty step of the ladder generates (from ``ai.generation.endless``)."""

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
    from ai.generation.endless import difficulty_spec

    spec = difficulty_spec(max(1, level))
    return Difficulty(max(1, level), spec.height, spec.width, spec.bricks, spec.lemmings, spec.unique)


@dataclass(frozen=True)
class EndlessLevel:
    """One generated level: its number in this run (``step``), the level, and its difficulty."""

    step: int
    level: Level
    difficulty: Difficulty
    seconds: float = 0.0


def endless_levels(cancel: threading.Event, *, start: int = 1, seed: int = 0) -> Iterator[EndlessLevel]:
    """Certified generated levels of rising difficulty until ``cancel`` is set.

    The one place that calls the generator: ``ai.generation.endless.endless_levels``
    (two levels per difficulty step, each certified by an exact solver).
    """
    from ai.generation.endless import endless_levels as generated_levels

    for step, g in enumerate(generated_levels(start=start, seed=seed, cancel=cancel), 1):
        if cancel.is_set():
            return
        d = difficulty(g.difficulty or start)
        title = g.level.title or "Generated"
        level = g.level.with_meta("title", f"Endless {step}: {title}")
        yield EndlessLevel(step, level, d, g.seconds)


class _Producer:
    """The background thread filling a bounded queue from a level source."""

    def __init__(self, source: Callable[[threading.Event], Iterator[EndlessLevel]]) -> None:
        self.cancel = threading.Event()
        self.ready: queue.Queue[EndlessLevel] = queue.Queue(maxsize=LOOKAHEAD)
        self.error = ""
        self._source = source
        self.thread = threading.Thread(target=self._run, name="endless-generator", daemon=True)
        self.thread.start()
        import atexit

        atexit.register(self.stop)

    def _run(self) -> None:
        try:
            for item in self._source(self.cancel):
                while not self.cancel.is_set():
                    try:
                        self.ready.put(item, timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if self.cancel.is_set():
                    return
        except Exception as exc:  # never take the game down
            self.error = f"{type(exc).__name__}: {exc}"

    def take(self) -> EndlessLevel | None:
        """The next ready level, or None (never blocks)."""
        try:
            return self.ready.get_nowait()
        except queue.Empty:
            return None

    def stop(self) -> None:
        """Ask the thread to stop (it checks between candidates and inside the solver)."""
        self.cancel.set()


class EndlessScene(Scene):
    """The endless ladder: a status card between generated levels."""

    def __init__(self, app: App, *, seed: int | None = None,
                 source: Callable[[threading.Event], Iterator[EndlessLevel]] | None = None) -> None:
        super().__init__(app)
        import random

        self.seed = random.randrange(1_000_000) if seed is None else seed
        self._source = source if source is not None else (lambda cancel: endless_levels(cancel, seed=self.seed))
        self.producer: _Producer | None = None
        self.current: EndlessLevel | None = None
        self.play: Scene | None = None
        self.solved = 0
        self.waited = 0.0
        self.anim = 0.0
        self.auto_next = True  #: push the next level as soon as it is ready
        self.renderer = LevelRenderer()

    # ---------------------------------------------------------------- flow
    def on_enter(self) -> None:
        """Start the generator the first time; after a level, move on when it was won."""
        if self.producer is None:
            self.producer = _Producer(self._source)
        if self.play is not None:
            from game.ui.scenes.play import PlayScene, PlayState

            play = self.play
            self.play = None
            if isinstance(play, PlayScene) and play.state == PlayState.WON:
                self.solved += 1
                self.current = None
                self.auto_next = True
            else:
                self.auto_next = False

    def on_exit(self) -> None:
        """Stop generating."""
        if self.producer is not None:
            self.producer.stop()

    def start_level(self) -> None:
        """Play the current level."""
        from game.ui.scenes.play import PlayScene

        if self.current is None:
            return
        lvl = self.current
        self.play = self.app.push(PlayScene(self.app, lvl.level, key=None, title=lvl.level.title))

    def handle_event(self, action: Action) -> None:
        """Enter: play (retry); Esc: menu."""
        if action.kind == Act.BACK:
            self.app.pop()
        elif action.kind in (Act.CONFIRM, Act.TOGGLE_RUN, Act.CLICK):
            if self.current is not None:
                self.start_level()
            else:
                self.auto_next = True

    def update(self, dt: float) -> None:
        """Collect a ready level; open it when the player is waiting for it."""
        self.anim += dt
        if self.current is None and self.producer is not None:
            self.waited += dt
            nxt = self.producer.take()
            if nxt is not None:
                self.current = nxt
                self.waited = 0.0
        if self.current is not None and self.auto_next and self.app.top is self:
            self.auto_next = False
            self.start_level()

    # ---------------------------------------------------------------- drawing
    def draw(self, surface: pygame.Surface) -> None:
        """The status card."""
        self.renderer.draw_background(surface)
        w, h = surface.get_size()
        bar = hud.top_bar(surface)
        hud.blit_text(surface, "Endless", (16, bar.centery), 36, hud.WHITE, anchor="midleft")
        hud.blit_text(surface, f"solved {self.solved}", (w - 16, bar.centery), 28, hud.GOLD, anchor="midright")
        box = pygame.Rect(0, 0, min(620, w - 40), 260)
        box.center = (w // 2, h // 2)
        hud.panel(surface, box, edge=hud.GOLD)
        step = self.current.step if self.current is not None else self.solved + 1
        hud.blit_text(surface, f"Level {step}", (box.centerx, box.top + 24), 56, hud.GOLD, anchor="midtop")
        if self.current is not None:
            d = self.current.difficulty
            hud.blit_text(surface, f"difficulty {d.level}: {d.describe()}", (box.centerx, box.top + 86), 28,
                          hud.WHITE, anchor="midtop")
        err = self.producer.error if self.producer is not None else ""
        if err:
            line, color = f"the generator failed: {err[:48]}", hud.RED
        elif self.current is None:
            dots = "." * (1 + int(self.anim * 3) % 3)
            line, color = f"generating a new puzzle{dots}  {self.waited:.1f} s", hud.BLUE
        elif self.auto_next:
            line, color = "ready!", hud.GREEN
        else:
            line, color = "Enter: try it again    Esc: back to the menu", hud.WHITE
        hud.blit_text(surface, line, (box.centerx, box.top + 136), 26, color, anchor="midtop")
        hud.blit_text(surface, "every level is certified by an exact solver", (box.centerx, box.bottom - 44), 20,
                      hud.MUTED, anchor="midtop")
        sp = self.renderer.sprites
        cell = 40
        x = box.left + 20 + int((self.anim * 90) % max(1, box.width - 40 - cell))
        frame = int(self.anim * 8) % 4
        surface.blit(sp.get(f"lem_walk_r_{frame}", cell), (x, box.bottom + 12 + int(math.sin(self.anim * 5) * 2)))
        hud.hint_bar(surface, [("Enter", "play"), ("Esc", "menu")])
