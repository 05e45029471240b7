"""The application: window, main loop and scene stack.

A :class:`Scene` gets :class:`~game.app.input.Action` objects (never raw pygame events) in
:meth:`Scene.handle_event`, advances its own clock in :meth:`Scene.update` and paints itself in :meth:`Scene.draw`
(which never changes game state).  The :class:`App` keeps a stack of scenes: only the top one receives actions
and updates; scenes below are drawn first when the top one is ``transparent`` (dialogs, overlays).

Tests drive the app without a window (``SDL_VIDEODRIVER=dummy``)::

    app = build_app(size=(1280, 800), clock=FixedClock())  # game.app.compose, game.app.display
    app.push(PlayScene(app, level))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" "))
    app.run_frames(120)     # two simulated seconds
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

import pygame

from game.core.progress import ProgressStore
from game.core.resume import ResumeStore
from game.core.settings import Settings, SettingsStore
from game.app.display import (DEFAULT_SIZE, FLASH_SECONDS, FPS, Clock, Screenshots, default_screenshot_path,
                              fit_to_desktop, open_game_window, reopen_window)
from game.app.hud import draw_toasts
from game.app.input import Act, Action, display_key, rebind, translate
from game.app.jobs import JobRunner
from game.app.play_extension import PlayExtensionFactory
from game.app.sound import Sfx, SoundPlayer
from game.app.store_reports import StoreReports


@dataclass(frozen=True)
class HelpPage:
    """What F1 shows over a scene: a title and sections of ``(key, what it does)`` rows.

    ``as_bound``: the keys are the game's default labels, shown as the player bound them
    (:func:`game.app.input.display_key`); False when the labels are already the keys to press.
    """

    title: str
    sections: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    as_bound: bool = True


#: The keys every screen shares.
ANYWHERE_KEYS: tuple[str, tuple[tuple[str, str], ...]] = ("Anywhere", (
    ("M", "sound on / off"),
    ("F1", "this help"),
    ("F12", "screenshot"),
))


class Scene:
    """Base class of every screen.  Override the three hooks; keep ``draw`` free of state changes."""

    #: When True the scene below is drawn first (dialogs and overlays).
    transparent: bool = False
    #: When True the scene takes typed text: letter keys keep no global meaning (M does not mute).
    text_entry: bool = False

    def __init__(self, app: App) -> None:
        self.app = app

    def handle_event(self, action: Action) -> None:
        """React to one action (ignore the ones the scene does not use)."""

    def update(self, dt: float) -> None:
        """Advance animations and timers by ``dt`` seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the scene on ``surface`` (any size).  Must not change game state."""

    def on_enter(self) -> None:
        """Called when the scene becomes the top of the stack (pushed, or uncovered by a pop)."""

    def on_exit(self) -> None:
        """Called when the scene is popped or replaced."""

    def help_page(self) -> HelpPage | None:
        """What F1 shows over this scene (None: every key of the game)."""
        return None


@dataclass(frozen=True)
class MenuEntry:
    """An entry of the title menu after "Levels": its label and the name of the scene it opens."""

    label: str
    scene: str


@dataclass(frozen=True)
class PuzzleEntry:
    """A side puzzle of the "More puzzles" screen; ``key`` is its command name and its scene's name."""

    key: str
    title: str
    blurb: str
    scene: type[Scene]


@dataclass(frozen=True)
class Registry:
    """What the app opens by name and what add-ons plug in, built once by the composition root
    (:func:`game.app.compose.build_app`).

    ``scenes``: name -> Scene class (``app.open(name, *args)`` builds ``cls(app, *args)``), the puzzles'
    scenes included under their keys; ``menu_entries``: the title menu's entries after "Levels";
    ``play_extensions``: called once with every new play scene; ``puzzles``: the "More puzzles" list.
    """

    scenes: Mapping[str, type[Scene]]
    menu_entries: tuple[MenuEntry, ...] = ()
    play_extensions: tuple[PlayExtensionFactory, ...] = ()
    puzzles: tuple[PuzzleEntry, ...] = ()

    def scene(self, name: str) -> type[Scene]:
        """The Scene class registered as ``name`` (KeyError naming the choices if unknown)."""
        if name not in self.scenes:
            raise KeyError(f"no scene {name!r}; registered: {', '.join(sorted(self.scenes))}")
        return self.scenes[name]


class App:
    """The window, the main loop and the scene stack.

    Built by :func:`game.app.compose.build_app` (the one composition root: it makes the stores, the job
    runner and the :class:`Registry`).  ``screen`` may be passed in (e.g. an off-screen Surface for
    benchmarks); otherwise a resizable window is opened.  ``clock`` defaults to
    :class:`pygame.time.Clock`; pass a :class:`FixedClock` to step deterministically.
    """

    def __init__(self, *, registry: Registry, jobs: JobRunner, progress: ProgressStore, settings: SettingsStore,
                 resume: ResumeStore, size: tuple[int, int] = DEFAULT_SIZE, clock: Clock | None = None,
                 screen: pygame.Surface | None = None, sound: bool = True, title: str = "Lemming Bricks") -> None:
        pygame.display.init()
        pygame.font.init()
        #: The player's settings (``$XDG_CONFIG_HOME/lemming-bricks/settings.json``).
        self.settings_store: SettingsStore = settings
        #: Where the player was (last level, bricks per level).
        self.resume: ResumeStore = resume
        #: The scenes by name, the title menu's entries, the play-scene extensions, the side puzzles.
        self.registry = registry
        self._owns_window = screen is None
        self.screen: pygame.Surface = (open_game_window(size, self.settings.fullscreen, title) if screen is None
                                       else screen)
        self.clock: Clock = clock if clock is not None else pygame.time.Clock()
        self.scenes: list[Scene] = []
        self.running = True
        self.frame_count = 0
        self.time = 0.0  #: seconds of simulated app time (sum of dt)
        self.mouse_pos: tuple[int, int] | None = None
        self.last_frame_ms = 0.0  #: wall-clock time the last step spent updating and drawing
        self.progress: ProgressStore = progress
        #: Messages for the HUD toast (e.g. "progress file was corrupt ..."): (text, seconds left).
        self.toasts: list[list[object]] = []
        #: Called with each action before the scenes see it; return True to swallow it.
        self.action_filters: list[Callable[[Action], bool]] = []
        self.screenshots = Screenshots()  #: the one armed for a later frame, the flash after one
        #: What the progress and resume stores say, as toasts: at start, then each save that failed.
        self.store_reports = StoreReports(self.toast, [progress, resume])
        self.store_reports.at_start(settings)
        #: Effects and music (silent, but still counting requests, without an audio device).
        self.sound = SoundPlayer(self.settings, enabled=sound)
        #: The one runner of every AI job (:mod:`game.app.jobs`): pumped once per frame, a scene's jobs stop
        #: when the scene is popped or replaced.
        self.jobs = jobs
        rebind(self.settings.key_map())  # the player's keys (Settings -> Keys)

    # ------------------------------------------------------------- settings and window
    @property
    def settings(self) -> Settings:
        """The current settings."""
        return self.settings_store.settings

    def change_settings(self, **changes: object) -> Settings:
        """Validate, save and apply setting changes (volumes, mute, window: no larger than the desktop)."""
        before = self.settings
        after = self.settings_store.update(**changes)
        for message in self.settings_store.messages:
            self.toast(message, 5.0)
        self.settings_store.messages.clear()
        self.sound.apply(after)
        if before.keys != after.keys:
            rebind(after.key_map())
        if self._owns_window and (before.fullscreen, before.window_size) != (after.fullscreen, after.window_size):
            size = fit_to_desktop(after.window_size)
            if size != after.window_size and not after.fullscreen:
                self.toast(f"The screen shows at most {size[0]} x {size[1]}: the window fills it", 3.0)
            self.screen = reopen_window(size, after.fullscreen, new_display=before.fullscreen != after.fullscreen)
        return after

    def toggle_mute(self) -> None:
        """M: mute / unmute every sound (saved)."""
        muted = self.change_settings(muted=not self.settings.muted).muted
        self.toast(f"sound {'off' if muted else 'on'} ({display_key('M')})", 1.5)

    # ------------------------------------------------------------- scenes
    @property
    def top(self) -> Scene | None:
        """The active scene (top of the stack), or None."""
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> Scene:
        """Put ``scene`` on top of the stack and return it."""
        self.scenes.append(scene)
        scene.on_enter()
        return scene

    def make(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Build the scene registered as ``name`` (in :attr:`registry`) without showing it."""
        factory: Callable[..., Scene] = self.registry.scene(name)
        return factory(self, *args, **kwargs)

    def open(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Build the scene registered as ``name`` and push it (e.g. ``app.open("select")``); returns it."""
        return self.push(self.make(name, *args, **kwargs))

    def help_page(self) -> HelpPage | None:
        """What F1 shows: the page of the screen in view (under a dialog, the scene the dialog is over)."""
        for scene in reversed(self.scenes):
            if not scene.transparent:
                return scene.help_page()
        return None

    def showing(self, name: str) -> bool:
        """True when the top scene is the one registered as ``name``."""
        return self.top is not None and isinstance(self.top, self.registry.scene(name))

    def pop(self, *, uncover: bool = True) -> Scene | None:
        """Remove the top scene; the app quits when the stack becomes empty (``uncover`` False: the window
        closes, so the scene below is not told it is on top again)."""
        if not self.scenes:
            return None
        scene = self.scenes.pop()
        scene.on_exit()
        self.jobs.close_owner(scene)
        if self.scenes and uncover:
            self.scenes[-1].on_enter()
        else:
            self.running = False
        return scene

    def replace(self, scene: Scene) -> Scene:
        """Swap the top scene for ``scene``."""
        if self.scenes:
            old = self.scenes.pop()
            old.on_exit()
            self.jobs.close_owner(old)
        return self.push(scene)

    def quit(self) -> None:
        """Stop the main loop after this frame."""
        self.running = False

    def toast(self, text: str, seconds: float = 3.0) -> None:
        """Show a short message at the bottom of the screen."""
        self.toasts.append([text, seconds])

    # ------------------------------------------------------------- loop
    def dispatch(self, action: Action) -> None:
        """Send one action through the filters to the top scene (QUIT and RESIZE are handled here)."""
        if action.kind == Act.HOVER:
            self.mouse_pos = action.pos
        for filt in list(self.action_filters):
            if filt(action):
                return
        if action.kind == Act.BACK:  # Esc dismisses the messages on screen and still does its job
            self.toasts.clear()
        if action.kind == Act.MUTE and not (self.top is not None and self.top.text_entry):
            self.toggle_mute()
            return
        if action.kind == Act.HELP and not self.showing("help"):
            self.open("help", self.help_page())
            return
        if action.kind == Act.QUIT:
            self.quit()
            return
        if action.kind == Act.RESIZE and self._owns_window:
            surface = pygame.display.get_surface()
            if surface is not None:
                self.screen = surface
        if action.kind == Act.SCREENSHOT:
            try:
                self.save_screenshot(default_screenshot_path())
            except (OSError, pygame.error) as exc:
                self.toast(f"Could not save the screenshot: {exc}", 5.0)
            return
        if self.top is not None:
            self.top.handle_event(action)

    def step(self, dt: float | None = None) -> bool:
        """One frame: events -> actions -> top scene, update, draw, flip.  Returns ``running``.

        ``dt`` (seconds) overrides the clock (the clock is still ticked when None).
        """
        elapsed_ms = self.clock.tick(FPS)
        if dt is None:
            dt = min(float(elapsed_ms) / 1000.0, 0.1)
        start = time.perf_counter()
        for event in pygame.event.get():
            for action in translate(event):
                self.dispatch(action)
                if not self.running:
                    break
        if self._owns_window:
            surface = pygame.display.get_surface()
            if surface is not None:
                self.screen = surface
        self.jobs.pump()  # the AI jobs' events reach their scenes' callbacks here, on this thread
        if self.running and self.top is not None:
            self.top.update(dt)
        self.store_reports.new()  # a save that failed this frame (a full disk...) is said at once
        for toast in self.toasts:
            toast[1] = float(toast[1]) - dt  # type: ignore[arg-type]
        self.toasts = [t for t in self.toasts if float(t[1]) > 0]  # type: ignore[arg-type]
        self.screenshots.tick(dt)
        self.time += dt
        if self.running:
            self.draw(self.screen)
            if self._owns_window:
                pygame.display.flip()
        self.last_frame_ms = (time.perf_counter() - start) * 1000.0
        self.frame_count += 1
        due = self.screenshots.due(self.frame_count)
        if due is not None:
            self.save_screenshot(due, quiet=True)
        return self.running

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the visible scenes (from the lowest non-covered one up) and the toasts."""
        if not self.scenes:
            surface.fill((0, 0, 0))
            return
        first = len(self.scenes) - 1
        while first > 0 and self.scenes[first].transparent:
            first -= 1
        for scene in self.scenes[first:]:
            scene.draw(surface)
        self.screenshots.draw_flash(surface)
        if self.toasts:
            draw_toasts(surface, [str(t[0]) for t in self.toasts])

    def run_frames(self, n: int, dt: float | None = None) -> int:
        """Step at most ``n`` frames (stops early when the app quits); returns frames stepped."""
        done = 0
        while done < n and self.running:
            self.step(dt)
            done += 1
        return done

    def run(self) -> None:
        """The main loop: step until the app quits, then close the window."""
        try:
            while self.running:
                self.step()
        finally:
            while self.pop(uncover=False) is not None:  # every scene leaves, saving what it keeps on leaving
                pass
            self.jobs.shutdown(0.5)
            if self.resume.dirty:  # the window closed mid-level: keep the last bricks
                self.resume.save()
            if self._owns_window:
                pygame.display.quit()

    def start(self, *, frames: int = 0, screenshot: str = "", screenshot_frame: int = 30) -> int:
        """What the ``play``/``edit`` commands do once their scenes are pushed: arm a screenshot
        (``screenshot`` path, taken after ``screenshot_frame`` frames), then run ``frames``
        frames headless, or the main loop until the player quits.  Returns the exit code."""
        if screenshot:
            self.screenshot_after(max(1, screenshot_frame), Path(screenshot))
        if frames:
            self.run_frames(frames)
        else:
            self.run()
        return 0

    # ------------------------------------------------------------- screenshots
    def screenshot_after(self, frames: int, path: Path) -> None:
        """Save a screenshot once ``frames`` frames have been stepped."""
        self.screenshots.arm(frames, path)

    def save_screenshot(self, path: Path, *, quiet: bool = False) -> Path:
        """Save the current screen as a PNG and return its path (``quiet``: no toast)."""
        path = self.screenshots.save(self.screen, path)
        if not quiet:  # a flash, a click and where the file went
            self.screenshots.flash = FLASH_SECONDS
            self.sound.play(Sfx.CLICK)
            self.toast(f"Screenshot saved: {path.name}  (in {path.parent})", 4.0)
        return path

