"""The whole code base type-checks under ``mypy --strict``."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO

#: Everything the game and the AI are made of: the whole of game/ (UI included), ai/ and main.py.
STRICT_MODULES = ["main.py", "game", "ai"]


@pytest.mark.slow
def test_code_base_is_mypy_strict_clean() -> None:
    pytest.importorskip("mypy")
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *STRICT_MODULES],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
