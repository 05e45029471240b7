"""The project's own scripts outside the packages (``docs/screenshots/*.py``, ``bench/*.py``) name only modules and
names that exist: a move inside ``game/`` or ``ai/`` updates them too.

Checked statically (each script's ``from game... import`` and ``from ai... import`` lines resolved against the
packages), so nothing of ``bench/`` is imported and no screenshot is taken.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from tests.conftest import REPO

SCRIPTS = sorted([*REPO.glob("docs/screenshots/*.py"), *REPO.glob("bench/*.py")])
PACKAGES = ("game", "ai")


def project_imports(script: Path) -> list[tuple[str, str]]:
    """``(module, name)`` for each name a script imports from the project's packages (``name`` '' for ``import m``)."""
    found: list[tuple[str, str]] = []
    for node in ast.walk(ast.parse(script.read_text(), filename=str(script))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.split(".")[0] in PACKAGES:
            found.extend((node.module, alias.name) for alias in node.names)
        elif isinstance(node, ast.Import):
            found.extend((alias.name, "") for alias in node.names if alias.name.split(".")[0] in PACKAGES)
    return found


def test_there_are_scripts_to_check() -> None:
    assert any(p.parent.name == "screenshots" for p in SCRIPTS) and any(p.parent.name == "bench" for p in SCRIPTS)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_project_import_of_a_script_resolves(script: Path) -> None:
    missing = []
    for module_name, name in project_imports(script):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            missing.append(module_name)
            continue
        if name and not hasattr(module, name):
            try:
                importlib.import_module(f"{module_name}.{name}")
            except ModuleNotFoundError:
                missing.append(f"{module_name}.{name}")
    assert missing == [], f"{script.relative_to(REPO)} imports names that no longer exist: {missing}"
