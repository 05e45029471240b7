"""The core and the solver contract type-check under ``mypy --strict``."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO

STRICT_MODULES = [
    "main.py",
    "game/__init__.py",
    "game/errors.py",
    "game/level.py",
    "game/rules.py",
    "game/simulation.py",
    "game/occupancy.py",
    "game/batch.py",
    "game/storage.py",
    "game/pack.py",
    "game/commands.py",
    "ai/base.py",
]


@pytest.mark.slow
def test_core_is_mypy_strict_clean() -> None:
    pytest.importorskip("mypy")
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *STRICT_MODULES],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
