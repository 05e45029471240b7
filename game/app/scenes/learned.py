"""The "What the AI has learned" screen, and the hook that lets the AI watch every release.

The composition root (:mod:`game.app.compose`) registers the menu entry (:data:`MENU_LABEL`) and the
play-scene extension :func:`observe_releases`: each time the player releases the lemmings, the run
(map, bricks, frames) is stored in the data folder (:func:`ai.facade.record_run`).  The screen learns
rules from every stored run in the job runner's child process (:func:`ai.facade.knowledge`), then shows
how many runs it has seen,
how many neighbourhood configurations it has seen and gets right, whether the rules are exact,
and each learned move as two small 3x3 pictures: the neighbourhood with the lemming, and where
the lemming is one frame later.  Once exact, the assistant can offer the learned solver with these
rules (:func:`ai.facade.offered_solvers`).
"""

from __future__ import annotations

import pygame

from ai.facade import Knowledge, RulePicture, SolveContext, knowledge, record_run
from game.core.error_log import log_error
from game.core.physics import move_words
from game.core.storage import user_data_dir
from game.app import hud
from game.app.app import App, Scene
from game.app.input import Act, Action
from game.app.jobs import JobEvent
from game.app.play_extension import ExtensionBase, PlayHost
from game.app.play_state import PlayState
from game.app.render import LevelRenderer

#: The menu label.
MENU_LABEL = "What the AI has learned"
#: Pictures per page.
PAGE = 8


class ReleaseObserver(ExtensionBase):
    """Play-scene extension: record the run each time the lemmings are released."""

    name = "release-observer"

    def __init__(self, scene: PlayHost) -> None:
        self.scene = scene
        self.last = scene.state

    def update(self, dt: float) -> None:
        """Store the run once the lemmings left their hatches."""
        scene = self.scene
        if self.last == PlayState.PLACING and scene.state != PlayState.PLACING:
            problems: list[str] = []
            try:
                record_run(user_data_dir(), scene.level, scene.bricks, problems)
            except OSError as exc:
                problems.append(f"could not store the run for the AI: {exc.strerror or exc}")
            for problem in problems:
                scene.say(problem)
                log_error("storing the run for the AI", problem)
        self.last = scene.state


def observe_releases(scene: PlayHost) -> ReleaseObserver:
    """The extension factory (registered by :mod:`game.app.compose`)."""
    return ReleaseObserver(scene)


def _caption(pic: RulePicture) -> str:
    """The move in words (``fall``, ``walk ahead``, ``turn around``, ``climb ahead``...)."""
    return move_words(pic.move, pic.new_direction != pic.direction)


def _learn_from_runs(ctx: SolveContext) -> Knowledge:
    """The job: learn from the runs stored in the data folder (:func:`ai.facade.knowledge`)."""
    return knowledge(user_data_dir())


class LearnedScene(Scene):
    """What the AI has learned from the player's runs (see the module docstring)."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.renderer = LevelRenderer()
        self.knowledge: Knowledge | None = None
        self.error = ""
        self.page = 0
        self.anim = 0.0
        # the learning runs in a child process, like every AI job of the UI (the app's job runner)
        self._job = app.jobs.submit(_learn_from_runs, label="learn-from-runs", owner=self, lane="learn",
                                    on_done=self._learned, on_error=self._failed)

    @property
    def ready(self) -> bool:
        """True once the learning finished (or failed)."""
        return self.knowledge is not None or bool(self.error)

    def wait(self, timeout: float = 60.0) -> None:
        """Block until the background learning is done (tests), then take its result."""
        self._job.wait(timeout)
        self.app.jobs.pump()

    def handle_event(self, action: Action) -> None:
        """Esc back; Left/Right (or Up/Down) page through the pictures."""
        pages = self._pages()
        if action.kind == Act.BACK:
            self.app.pop()  # the app cancels this scene's job
        elif action.kind in (Act.RIGHT, Act.DOWN) and pages:
            self.page = (self.page + 1) % pages
        elif action.kind in (Act.LEFT, Act.UP) and pages:
            self.page = (self.page - 1) % pages

    def _pages(self) -> int:
        return 0 if self.knowledge is None else max(1, -(-len(self.knowledge.pictures) // PAGE))

    def update(self, dt: float) -> None:
        """Animate (the background result comes through the runner's callbacks)."""
        self.anim += dt

    def _learned(self, event: JobEvent) -> None:
        if event.payload is not None:
            self.knowledge = event.payload

    def _failed(self, event: JobEvent) -> None:
        """Shown to the player in one line, details in errors.log."""
        log_error("learning from your runs", event.message, event.detail)
        self.error = "could not learn from your runs (details in errors.log)"

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """Summary on top, the rule pictures below."""
        self.renderer.draw_background(surface)
        w, h = surface.get_size()
        hud.top_bar(surface)
        hud.blit_text(surface, MENU_LABEL, (20, hud.TOP_BAR // 2), 36, hud.GOLD, anchor="midleft")
        hud.hint_bar(surface, [("Esc", "back")] + ([("Left/Right", "more rules")] if self._pages() > 1 else []))
        box = pygame.Rect(20, hud.TOP_BAR + 14, w - 40, 150)
        hud.panel(surface, box)
        k = self.knowledge
        if self.error:
            hud.blit_text(surface, self.error, (box.x + 16, box.y + 16), 26, hud.RED)
            return
        if k is None:
            dots = "." * (1 + int(self.anim * 3) % 3)
            hud.blit_text(surface, f"Learning from your runs{dots}", (box.x + 16, box.y + 16), 30, hud.WHITE)
            return
        if k.runs == 0:
            hud.blit_text(surface, "No runs yet: every time you release the lemmings, the AI watches and learns.",
                          (box.x + 16, box.y + 16), 28, hud.WHITE)
            return
        lines = [
            (f"{k.world}: {hud.plural(k.runs, 'run')} watched, {k.examples:,} of {k.configurations:,} neighbourhoods seen",
             hud.WHITE),
            (f"Its rules move a lemming right in {k.right:,} of {k.configurations:,} neighbourhoods"
             + (" (sure: it saw every one)" if k.sure else ""), hud.WHITE),
            (("Exact, checked against the game's engine: the assistant can solve with "
              "\"learned from your runs\".", hud.GREEN) if k.exact else
             ("Not exact yet: watch the lemmings on more levels of this world (release them without bricks).",
              hud.GOLD)),
        ]
        if k.physics is not None:  # the learned physics in its JSON form, the exchange format
            lines.append((k.physics.to_text(), hud.MUTED))
        size = 28 if w >= 1000 else 22  # on a narrow window each line wraps (never cut)
        rows = [(part, color) for line, color in lines for part in hud.wrap_text(line, size, box.width - 32, 3)]
        pitch = size + 8
        box.height = max(box.height, 16 + pitch * len(rows))
        hud.panel(surface, box)
        for i, (line, color) in enumerate(rows):
            hud.blit_text(surface, line, (box.x + 16, box.y + 12 + pitch * i), size, color)
        self._draw_pictures(surface, pygame.Rect(20, box.bottom + 14, w - 40, h - box.bottom - 14 - hud.BOTTOM_BAR - 10))

    def _draw_pictures(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        k = self.knowledge
        assert k is not None
        pics = k.pictures[self.page * PAGE : (self.page + 1) * PAGE]
        hud.blit_text(surface, f"How a lemming moves, as the AI learned it ({len(k.pictures)} moves, "
                      f"page {self.page + 1}/{self._pages()})", (area.x, area.y), 24, hud.MUTED)
        hud.blit_text(surface, "?  any cell      dark  free      wall  obstacle      door  target      "
                      "red corner  not a target", (area.x, area.bottom - 22), 22, hud.MUTED)
        cols = 4
        cw = area.width // cols
        ch = (area.height - 60) // 2
        cell = max(10, min(cw // 8, ch // 4))
        for i, pic in enumerate(pics):
            x = area.x + (i % cols) * cw
            y = area.y + 30 + (i // cols) * ch
            self._draw_picture(surface, pic, x + 6, y + 6, cell)

    def _draw_picture(self, surface: pygame.Surface, pic: RulePicture, x: int, y: int, cell: int) -> None:
        sp = self.renderer.sprites
        for side in (0, 1):
            ox = x + side * (3 * cell + cell + 4)
            for r in range(3):
                for c in range(3):
                    rect = pygame.Rect(ox + c * cell, y + r * cell, cell, cell)
                    v = pic.cells[r][c]
                    if v == "X":
                        surface.blit(sp.get("wall_0", cell), rect)
                    else:
                        pygame.draw.rect(surface, (44, 38, 70) if v != "?" else (70, 66, 84), rect)
                        if v == "T":
                            surface.blit(sp.get("target_0", cell), rect)
                        elif v == "?":
                            hud.blit_text(surface, "?", rect.center, max(12, cell - 4), hud.MUTED, anchor="center")
                        elif v == "t":  # not a target: a small red slash in the corner
                            q = max(4, cell // 4)
                            pygame.draw.line(surface, hud.RED, (rect.right - q - 2, rect.top + 2),
                                             (rect.right - 2, rect.top + q + 2), 2)
                    pygame.draw.rect(surface, hud.PANEL_EDGE, rect, 1)
            if side == 0:
                lr, lc, d = 1, 1, pic.direction
            else:
                lr, lc, d = 1 + pic.move[0], 1 + pic.move[1], pic.new_direction
            name = "lem_fall_0" if side == 1 and pic.move[0] > 0 else f"lem_walk_{'r' if d > 0 else 'l'}_0"
            surface.blit(sp.get(name, cell), (ox + lc * cell, y + lr * cell))
            if side == 1:
                hud.blit_text(surface, _caption(pic), (ox + 3 * cell // 2, y + 3 * cell + 4), 22, hud.WHITE,
                              anchor="midtop")
            if side == 0:
                ax = ox + 3 * cell + 4
                pygame.draw.polygon(surface, hud.GOLD, [(ax, y + cell + cell // 3), (ax + cell - 8, y + 3 * cell // 2),
                                                         (ax, y + 2 * cell - cell // 3)])
