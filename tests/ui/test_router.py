"""The router: scenes open each other by name; no scene module imports another; no import cycle in game.app."""

from __future__ import annotations

import ast
from pathlib import Path

import pygame

from game.app.app import App
from game.app.router import SCENES, scene_class
from tests.ui.conftest import press

UI = Path(__file__).resolve().parents[2] / "game" / "app"
#: Parts of one screen split over modules (drawing helpers, the editor's panels and dialogs).
HELPERS = {"play_draw", "timeline", "editor_view", "editor_analysis", "dialogs"}


def runtime_imports(path: Path) -> set[str]:
    """Modules imported by ``path`` when it runs (anywhere in the file, except under TYPE_CHECKING)."""
    tree = ast.parse(path.read_text())
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for child in node.body for n in ast.walk(child))
    found = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def module_name(path: Path) -> str:
    rel = path.relative_to(UI.parents[1]).with_suffix("")
    return ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)


def test_no_scene_module_imports_another() -> None:
    scenes = {p.stem for p in (UI / "scenes").glob("*.py") if p.stem != "__init__"}
    for path in (UI / "scenes").glob("*.py"):
        if path.stem in HELPERS or path.stem == "__init__":
            continue
        own = {path.stem} | {h for h in HELPERS if h.startswith(path.stem)} | (
            {"play_draw", "timeline"} if path.stem == "play" else set()) | (
            {"editor_view", "editor_analysis", "dialogs"} if path.stem == "editor" else set())
        others = {f"game.app.scenes.{s}" for s in scenes - own}
        assert not runtime_imports(path) & others, f"{path.name} imports {runtime_imports(path) & others}"


def test_no_import_cycle_in_the_ui() -> None:
    paths = [p for p in UI.rglob("*.py")]
    names = {module_name(p): p for p in paths}
    graph = {name: {m for m in runtime_imports(p) if m in names and m != name} for name, p in names.items()}
    state: dict[str, int] = {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for nxt in graph[node]:
            if state.get(nxt) == 1:
                raise AssertionError("import cycle: " + " -> ".join(stack[stack.index(nxt):] + [nxt]))
            if nxt not in state:
                visit(nxt, stack + [nxt])
        state[node] = 2

    for name in graph:
        if name not in state:
            visit(name, [name])


def test_app_opens_scenes_by_name_and_f1_opens_help_once(app: App) -> None:
    for name in SCENES:
        assert scene_class(name).__name__.endswith("Scene")
    menu = app.open("menu")
    assert app.top is menu and app.showing("menu")
    press(app, pygame.K_F1)
    assert app.showing("help")
    press(app, pygame.K_F1)  # F1 on the help screen closes it (never a second help screen)
    assert app.top is menu
    assert "__class__.__name__" not in (UI / "app.py").read_text()
