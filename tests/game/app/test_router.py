"""The registry: scenes open each other by name; every name used resolves; no scene module imports another;
the title menu is the same whichever command built the app."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pygame
import pytest

from game.app.app import App, Scene
from game.app.compose import MENU_ENTRIES, PUZZLE_SCENES, PUZZLES, SCENES, default_registry
from game.app.scenes.menu import MenuScene
from game.cli.main import PUZZLE_COMMANDS, build_parser, main
from game.core.puzzles import SIDE_PUZZLES
from game.core.settings import SettingsStore
from tests.game.app.conftest import press

APP = Path(__file__).resolve().parents[3] / "game" / "app"
#: Parts of one screen split over modules (drawing helpers, the editor's panels and dialogs).
HELPERS = {"play_draw", "play_keys", "play_beats", "play_board", "play_resume", "play_message", "play_panels",
           "timeline", "select_cards", "editor_view", "editor_palette", "editor_panel", "editor_analysis",
           "editor_help", "editor_info", "editor_host", "editor_input", "editor_results", "editor_saving", "dialogs",
           "mystery_draw"}
#: The helpers each scene module may import.
OWN_HELPERS = {"play": {"play_draw", "play_keys", "play_beats", "play_board", "play_resume", "play_message",
                        "timeline"},
               "play_draw": {"timeline", "play_panels"}, "play_panels": {"timeline"},
               "play_board": {"play_draw", "play_panels", "timeline"},
               "select": {"select_cards"},
               "editor": {"editor_view", "editor_palette", "editor_analysis", "editor_help", "editor_info",
                          "editor_input", "editor_results", "editor_saving", "dialogs"},
               "editor_view": {"editor_palette", "editor_panel", "editor_help"},
               "editor_palette": {"editor_help", "editor_host"}, "editor_panel": {"editor_analysis", "editor_help", "editor_palette",
                                                                   "editor_results"},
               "editor_input": {"editor_host", "editor_palette", "editor_panel", "editor_results"},
               "editor_results": {"editor_analysis"}, "editor_info": {"dialogs"},
               "editor_saving": {"dialogs", "editor_host"}, "mystery": {"mystery_draw"}}


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports (``from a.b import c`` gives ``a.b`` and ``a.b.c``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def test_no_scene_module_imports_another() -> None:
    scenes = {p.stem for p in (APP / "scenes").glob("*.py") if p.stem != "__init__"}
    assert {"menu", "play", "editor", "select"} <= scenes
    for path in (APP / "scenes").glob("*.py"):
        own = {path.stem} | OWN_HELPERS.get(path.stem, set())
        others = {f"game.app.scenes.{s}" for s in scenes - own}
        assert not imported_modules(path) & others, f"{path.name} imports {imported_modules(path) & others}"
    puzzles = {f"game.app.puzzles.{p.stem}" for p in (APP / "puzzles").glob("*.py") if p.stem != "__init__"}
    for path in (APP / "puzzles").glob("*.py"):  # a puzzle's scene may use its own helpers (``mines_view``)
        puzzle = path.stem.split("_")[0]
        own = {name for name in puzzles if name.rpartition(".")[2].split("_")[0] == puzzle}
        assert not imported_modules(path) & (puzzles - own), path.name


def test_every_registered_name_resolves_to_a_scene_class() -> None:
    registry = default_registry()
    for name in registry.scenes:
        cls = registry.scene(name)
        assert isinstance(cls, type) and issubclass(cls, Scene) and cls.__name__.endswith("Scene"), name
    for entry in PUZZLES:
        assert registry.scene(entry.key) is entry.scene and entry.title and entry.blurb
    assert [entry.key for entry in registry.puzzles] == ["life", "pegs", "mines"]
    for menu_entry in MENU_ENTRIES:
        assert menu_entry.scene in registry.scenes, menu_entry
    with pytest.raises(KeyError, match="no scene 'nowhere'"):
        registry.scene("nowhere")


def test_every_side_puzzle_has_one_scene_and_one_command_under_its_key() -> None:
    keys = [puzzle.key for puzzle in SIDE_PUZZLES]
    assert len(set(keys)) == len(keys) == 3
    assert sorted(PUZZLE_SCENES) == sorted(PUZZLE_COMMANDS) == sorted(keys)
    assert [(e.key, e.title, e.blurb) for e in PUZZLES] == [(p.key, p.title, p.blurb) for p in SIDE_PUZZLES]
    help_text = build_parser().format_help()
    for puzzle in SIDE_PUZZLES:
        assert f"{puzzle.title}: " in help_text
        assert build_parser().parse_args([puzzle.key]).command == puzzle.key


def test_every_name_opened_in_the_app_is_registered() -> None:
    """Every ``app.open("...")`` / ``app.make("...")`` / ``app.showing("...")`` in game/app names a scene."""
    call = re.compile(r"""\.(?:open|make|showing)\(\s*["']([a-z_]+)["']""")
    used = {name for path in APP.rglob("*.py") for name in call.findall(path.read_text())}
    assert {"select", "play", "pause", "help", "menu", "settings"} <= used
    assert used <= set(SCENES), used - set(SCENES)


def test_app_opens_scenes_by_name_and_f1_opens_help_once(app: App) -> None:
    menu = app.open("menu")
    assert app.top is menu and app.showing("menu")
    press(app, pygame.K_F1)
    assert app.showing("help")
    press(app, pygame.K_F1)  # F1 on the help screen closes it (never a second help screen)
    assert app.top is menu


def built_by(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> App:
    """The app the command ``argv`` builds (its main loop not run)."""
    built: list[App] = []

    def start(self: App, **_: object) -> int:
        built.append(self)
        return 0

    monkeypatch.setattr(App, "start", start)
    assert main(argv) == 0
    assert len(built) == 1
    return built[0]


def menu_labels(app: App) -> list[str]:
    """The title menu's labels of ``app`` (its own title menu when the command opened one)."""
    menus = [scene for scene in app.scenes if isinstance(scene, MenuScene)]
    menu = menus[0] if menus else app.open("menu")
    return [label for label, _ in menu.items()]


def test_the_title_menu_is_the_same_whichever_command_built_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    play = menu_labels(built_by(["play", "--frames", "1"], monkeypatch))
    level = menu_labels(built_by(["play", "2", "--frames", "1"], monkeypatch))
    edit = menu_labels(built_by(["edit", "4", "--frames", "1"], monkeypatch))
    pegs = menu_labels(built_by(["pegs", "play", "--frames", "1"], monkeypatch))
    added = [entry.label for entry in MENU_ENTRIES]
    assert "What the AI has learned" in added and "More puzzles" in added and "Play a code" in added
    for labels in (play, level, edit, pegs):
        assert [label for label in labels if label != "Continue"] == ["Levels", *added, "Settings", "Quit"]
    assert play == level == edit == pegs


def test_every_command_opens_the_window_at_the_saved_size(monkeypatch: pytest.MonkeyPatch) -> None:
    SettingsStore.load().update(window_size=(800, 500))
    for argv in (["play", "--frames", "1"], ["play", "2", "--frames", "1"], ["edit", "4", "--frames", "1"],
                 ["edit", "--new", "6x8", "--frames", "1"], ["pegs", "play", "--frames", "1"]):
        assert built_by(argv, monkeypatch).screen.get_size() == (800, 500), argv
    wide = built_by(["edit", "4", "--width", "1024", "--height", "600", "--frames", "1"], monkeypatch)
    assert wide.screen.get_size() == (1024, 600)
    assert main(["edit", "--width", "100", "--frames", "1"]) == 2  # below the smallest window
