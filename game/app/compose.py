"""The composition root: :func:`build_app` builds the :class:`~game.app.app.App` and everything it owns.

Every command that starts the game (``play``, ``edit``, ``pegs play``) and every test of a whole app
builds it here, so the title menu, the scenes reachable by name and the play-scene extensions are the
same whichever command started the game.  This is the one module that imports every scene: scenes open
each other by name (``app.open("select")``) through the app's :class:`~game.app.app.Registry`, never by
importing one another.

>>> [entry.key for entry in PUZZLES]
['life', 'pegs', 'mines']
>>> [entry.label for entry in MENU_ENTRIES]
['Editor', 'Endless', 'What the AI has learned', 'More puzzles', 'Play a code']
>>> {entry.scene for entry in MENU_ENTRIES} <= set(SCENES)
True
"""

from __future__ import annotations

import pygame

from game.core.progress import ProgressStore
from game.core.puzzles import SIDE_PUZZLES
from game.core.resume import ResumeStore
from game.core.settings import SettingsStore
from game.app import assistant
from game.app.app import App, MenuEntry, PuzzleEntry, Registry, Scene
from game.app.display import DEFAULT_SIZE, Clock
from game.app.jobs import Execution, JobRunner
from game.app.play_extension import PlayExtensionFactory
from game.app.puzzles import life, mines, pegs
from game.app.scenes import (
    editor,
    endless,
    keys,
    learned,
    menu,
    more_puzzles,
    mystery,
    pause,
    play,
    replays,
    select,
    settings,
    share,
)

#: Each side puzzle's scene, under its key in :data:`game.core.puzzles.SIDE_PUZZLES`.
PUZZLE_SCENES: dict[str, type[Scene]] = {"life": life.LifeScene, "pegs": pegs.PegsScene, "mines": mines.MinesScene}

#: The side puzzles of the "More puzzles" screen, in the catalogue's order.
PUZZLES: tuple[PuzzleEntry, ...] = tuple(PuzzleEntry(p.key, p.title, p.blurb, PUZZLE_SCENES[p.key])
                                         for p in SIDE_PUZZLES)

#: Every scene by name (the puzzles' scenes too, under their keys).
SCENES: dict[str, type[Scene]] = {
    "menu": menu.MenuScene,
    "select": select.LevelSelectScene,
    "play": play.PlayScene,
    "pause": pause.PauseScene,
    "help": pause.HelpScene,
    "settings": settings.SettingsScene,
    "keys": keys.KeysScene,
    "share_code": share.ShareCodeScene,
    "paste_code": share.PasteCodeScene,
    "replays": replays.ReplayScene,
    "endless": endless.EndlessScene,
    "editor": editor.EditorScene,
    "learned": learned.LearnedScene,
    "more_puzzles": more_puzzles.MorePuzzlesScene,
    mystery.CARD_SCENE: mystery.WorldCardScene,
    **{entry.key: entry.scene for entry in PUZZLES},
}

#: The title menu's entries after "Levels", in order.
MENU_ENTRIES: tuple[MenuEntry, ...] = (
    MenuEntry("Editor", "editor"),
    MenuEntry("Endless", "endless"),
    MenuEntry(learned.MENU_LABEL, "learned"),
    MenuEntry(more_puzzles.MENU_LABEL, "more_puzzles"),
    MenuEntry(share.MENU_LABEL, "paste_code"),
)

#: Made once with every new play scene: the AI assistant, the release observer of "What the AI
#: has learned" (every release is stored for the AI to learn from), then the mystery worlds' guide (their
#: card, the preview kept off until the first release, what the AI learned after each run).
PLAY_EXTENSIONS: tuple[PlayExtensionFactory, ...] = (assistant.install, learned.observe_releases,
                                                     mystery.guide_mystery)


def default_registry() -> Registry:
    """The game's registry: every scene, the title menu's entries, the play-scene extensions, the puzzles."""
    return Registry(scenes=dict(SCENES), menu_entries=MENU_ENTRIES, play_extensions=PLAY_EXTENSIONS,
                    puzzles=PUZZLES)


def build_app(
    *,
    size: tuple[int, int] = DEFAULT_SIZE,
    clock: Clock | None = None,
    screen: pygame.Surface | None = None,
    progress: ProgressStore | None = None,
    settings: SettingsStore | None = None,
    resume: ResumeStore | None = None,
    sound: bool = True,
    jobs: JobRunner | None = None,
    execution: Execution | None = None,
    registry: Registry | None = None,
) -> App:
    """The app with its stores (the player's data folder unless given), its job runner (jobs run where
    ``execution`` says; default: a child process where ``fork`` exists) and the game's registry."""
    return App(
        registry=registry if registry is not None else default_registry(),
        jobs=jobs if jobs is not None else JobRunner(execution=execution),
        progress=progress if progress is not None else ProgressStore.load_default(),
        settings=settings if settings is not None else SettingsStore.load(),
        resume=resume if resume is not None else ResumeStore.load(),
        size=size, clock=clock, screen=screen, sound=sound,
    )


__all__ = ["MENU_ENTRIES", "PLAY_EXTENSIONS", "PUZZLES", "SCENES", "build_app", "default_registry"]
