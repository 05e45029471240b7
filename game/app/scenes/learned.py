"""The "What the AI has learned" screen, and the hook that lets the AI watch every release.

The composition root (:mod:`game.app.compose`) registers the menu entry (:data:`MENU_LABEL`) and the play-scene
extension :func:`observe_releases`: each time the player releases the lemmings on bricks of their own (not an AI
solution applied as it was), the run (map, bricks, frames) is stored in the data folder
(:func:`ai.facade.record_run`).  The screen learns rules from every stored run in the job runner's child process
(:func:`ai.facade.knowledge`), then shows how many runs it has seen, what it knows (:func:`summary_lines`: the
situations the runs showed, the rules checked against the game, what it cannot be sure of yet), and each learned
rule as a sentence
(:mod:`game.core.rule_words`) beside two 3x3 pictures: the neighbourhood with the lemming, and where the
lemming is one frame later.  While it learns, the screen shows the step the learning job last reported.
Once exact, the assistant can offer the learned solver with these rules (:func:`ai.facade.offered_solvers`).
"""

from __future__ import annotations

import pygame

from ai.facade import Knowledge, RulePicture, SolveContext, knowledge, record_run
from game.core.error_log import log_error
from game.core.rule_words import physics_sentences
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
#: Smallest and largest side of a cell of a rule picture, in pixels.
MIN_CELL = 28
MAX_CELL = 40
#: Pixels between two rows of rule pictures.
ROW_GAP = 12


class ReleaseObserver(ExtensionBase):
    """Play-scene extension: record the run each time the lemmings are released."""

    name = "release-observer"

    def __init__(self, scene: PlayHost) -> None:
        self.scene = scene
        self.last = scene.state

    def update(self, dt: float) -> None:
        """Store the run once the lemmings left their hatches (the player's: not an AI solution applied as it was,
        so that what is learned "from your runs" is)."""
        scene = self.scene
        if self.last == PlayState.PLACING and scene.state != PlayState.PLACING and not scene.ai_bricks:
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


def _learn_from_runs(ctx: SolveContext) -> Knowledge:
    """The job: learn from the runs stored in the data folder (:func:`ai.facade.knowledge`), reporting
    each step to ``ctx``."""
    return knowledge(user_data_dir(), ctx=ctx)


def picture_layout(area: pygame.Rect) -> tuple[int, int, int]:
    """``(columns, rows, cell)``: how many rule pictures fit in ``area`` (a page) and the side of one of
    their cells in pixels: as many rows as keep cells at least :data:`MIN_CELL` (at most :data:`MAX_CELL`),
    two columns on a wide window."""
    cols = 2 if area.width >= 1100 else 1
    for rows in (4, 3, 2):
        cell = (area.height // rows - ROW_GAP) // 3
        if cell >= MIN_CELL:
            return cols, rows, min(MAX_CELL, cell)
    return cols, 1, max(MIN_CELL // 2, min(MAX_CELL, (area.height - ROW_GAP) // 3))


def summary_lines(k: Knowledge) -> list[tuple[str, tuple[int, int, int]]]:
    """What the screen says of ``k`` (some runs watched), in lines and colours.

    Two figures count the same situations (the walls around a lemming, ``k.configurations`` of them) from
    two sides: ``k.examples``, those the runs showed (in the others the rules guess), and ``k.right``, those
    in which the rules move a lemming as the game does (checked against the game's own rules, which the AI
    does not read).  A guess can be right before the runs let the AI be sure of it: the lines say which is
    which, so "correct in all" and "not sure yet" do not read as a contradiction."""
    guessed = k.configurations - k.examples
    seen = (f"It has seen all {k.configurations:,} situations a lemming can be in." if not guessed else
            f"It has seen {k.examples:,} of the {k.configurations:,} situations a lemming can be in.")
    if k.right == k.configurations:
        guesses = f"its {guessed:,} guess{'es' if guessed != 1 else ''}"
        checked = f"correct in all {k.configurations:,} situations" + (f", {guesses} included." if guessed else ".")
    else:
        checked = f"correct in {k.right:,} of the {k.configurations:,} situations" + (
            f" (it guesses {guessed:,} of them)." if guessed else ".")
    lines = [
        (f"{k.world}: {hud.plural(k.runs, 'run')} watched. {seen}", hud.WHITE),
        (f"Checked against the game, its rules are {checked}", hud.WHITE),
        (("Exact: the assistant can solve with \"learned from your runs\".", hud.GREEN) if k.exact else
         ("Not exact yet: watch the lemmings on more levels of this world (release them without bricks).",
          hud.GOLD)),
    ]
    if k.physics is not None:  # what an exit does (the last sentence; the rules are the pictures)
        lines.append((physics_sentences(k.physics)[-1], hud.MUTED))
    if k.unsure:  # what the runs never showed
        where = k.unsure[0] if len(k.unsure) == 1 else ", ".join(k.unsure[:-1]) + " or " + k.unsure[-1]
        why = " (its guess there is right, the check says)" if k.exact else ", so it guesses there"
        lines.append((f"Not sure yet what a lemming does {where}: your runs never showed one{why}.", hud.GOLD))
    return lines


class LearnedScene(Scene):
    """What the AI has learned from the player's runs (see the module docstring)."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.renderer = LevelRenderer()
        self.knowledge: Knowledge | None = None
        self.error = ""
        self.page = 0
        self.per_page = 4  #: pictures per page, set by the layout of the last drawing
        self.progress = ""  #: the learning job's latest step, in words
        self.anim = 0.0
        # the learning runs in a child process, like every AI job of the UI (the app's job runner)
        self._job = app.jobs.submit(_learn_from_runs, label="learn-from-runs", owner=self, lane="learn",
                                    on_done=self._learned, on_error=self._failed, on_progress=self._progressed)

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
        return 0 if self.knowledge is None else max(1, -(-len(self.knowledge.pictures) // self.per_page))

    def update(self, dt: float) -> None:
        """Animate (the background result comes through the runner's callbacks)."""
        self.anim += dt

    def _progressed(self, event: JobEvent) -> None:
        self.progress = str(getattr(event.payload, "message", "") or "")

    def _learned(self, event: JobEvent) -> None:
        if event.payload is not None:
            self.knowledge = event.payload

    def _failed(self, event: JobEvent) -> None:
        """Shown to the player in one line, details in errors.log."""
        log_error("learning from your runs", event.message, event.detail)
        self.error = "could not learn from your runs (details in errors.log)"

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """Summary on top, the rules (sentences and pictures) below."""
        self.renderer.draw_background(surface)
        w, h = surface.get_size()
        hud.top_bar(surface)
        hud.blit_text(surface, MENU_LABEL, (20, hud.TOP_BAR // 2), 36 if w >= 1000 else 30, hud.GOLD,
                      anchor="midleft")
        hud.hint_bar(surface, [("Esc", "back")] + ([("Left/Right", "more rules")] if self._pages() > 1 else []))
        size = 26 if w >= 1000 else 20  # on a narrow window each line wraps (never cut)
        box = pygame.Rect(20, hud.TOP_BAR + 12, w - 40, 0)
        rows = [(part, color) for line, color in self._summary()
                for part in hud.wrap_text(line, size, box.width - 32, 3)]
        pitch = size + 6
        box.height = 20 + pitch * len(rows)
        hud.panel(surface, box)
        for i, (line, color) in enumerate(rows):
            hud.blit_text(surface, line, (box.x + 16, box.y + 10 + pitch * i), size, color)
        if self.knowledge is None and not self.error:
            self._draw_progress(surface, pygame.Rect(box.x + 16, box.bottom + 16, box.width - 32, 18))
        if self.knowledge is not None and self.knowledge.runs and self.knowledge.pictures:
            top = box.bottom + 10
            self._draw_pictures(surface, pygame.Rect(20, top, w - 40, h - top - hud.BOTTOM_BAR - 6))

    def _summary(self) -> list[tuple[str, tuple[int, int, int]]]:
        """The summary's lines and colours (what was learned, or what the learning is doing)."""
        k = self.knowledge
        if self.error:
            return [(self.error, hud.RED)]
        if k is None:
            dots = "." * (1 + int(self.anim * 3) % 3)
            seconds = f" ({int(self._job.elapsed)} s)" if self._job.elapsed >= 1 else ""
            return [(f"Learning from your runs{dots}", hud.WHITE),
                    (f"{self.progress or 'Reading your runs'}{seconds}", hud.MUTED)]
        if k.runs == 0:
            return [("No runs yet: every time you release the lemmings, the AI watches and learns.", hud.WHITE)]
        return summary_lines(k)

    def _draw_progress(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """A bar sweeping while the learning runs (its step is the summary's second line)."""
        pygame.draw.rect(surface, (44, 38, 70), rect, border_radius=6)
        span = max(40, rect.width // 5)
        x = rect.x + int((self.anim * 0.5 % 1.0) * (rect.width - span))
        pygame.draw.rect(surface, hud.GOLD, pygame.Rect(x, rect.y, span, rect.height), border_radius=6)
        pygame.draw.rect(surface, hud.PANEL_EDGE, rect, 1, border_radius=6)

    def _draw_pictures(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The rules of the page: number, the two pictures, the sentence."""
        k = self.knowledge
        assert k is not None
        narrow = area.width < 1000
        size = 22 if narrow else 24
        legend = ("In each picture the lemming faces ahead (to the right). ?: any cell; dark: empty; "
                  "wall: a wall or brick.")
        legend_rows = hud.wrap_text(legend, 18 if narrow else 20, area.width, 2)
        title_h, legend_h = size + 8, (20 if narrow else 22) * len(legend_rows)
        grid = pygame.Rect(area.x, area.y + title_h, area.width, area.height - title_h - legend_h)
        cols, rows, cell = picture_layout(grid)
        self.per_page = cols * rows
        self.page = min(self.page, self._pages() - 1)
        first = self.page * self.per_page
        pics = k.pictures[first : first + self.per_page]
        hud.blit_text(surface, f"How a lemming moves, as the AI learned it: {hud.plural(len(k.pictures), 'rule')}, "
                      f"tried in order (page {self.page + 1} of {self._pages()})", (area.x, area.y), size, hud.MUTED)
        for i, row in enumerate(legend_rows):
            hud.blit_text(surface, row, (area.x, grid.bottom + 2 + i * (legend_h // len(legend_rows))),
                          18 if narrow else 20, hud.MUTED)
        cw, ch = grid.width // cols, grid.height // rows
        for i, pic in enumerate(pics):
            x, y = grid.x + (i // rows) * cw, grid.y + (i % rows) * ch
            hud.blit_text(surface, f"{first + i + 1}.", (x, y + 4), size, hud.GOLD)
            px = x + 36
            self._draw_picture(surface, pic, px, y, cell)
            tx = px + 7 * cell + 4 + 18
            for j, line in enumerate(hud.wrap_text(pic.words, size, x + cw - tx - 16, max(1, (3 * cell) // (size + 4)))):
                hud.blit_text(surface, line, (tx, y + 4 + j * (size + 4)), size, hud.WHITE)

    def _draw_picture(self, surface: pygame.Surface, pic: RulePicture, x: int, y: int, cell: int) -> None:
        """The neighbourhood before, an arrow, and where the lemming is one frame later."""
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
                            hud.blit_text(surface, "?", rect.center, max(12, cell - 6), hud.MUTED, anchor="center")
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
            if side == 0:
                ax = ox + 3 * cell + 4
                pygame.draw.polygon(surface, hud.GOLD, [(ax, y + cell + cell // 3), (ax + cell - 8, y + 3 * cell // 2),
                                                         (ax, y + 2 * cell - cell // 3)])
