"""No dead code: vulture finds nothing unused in game/, ai/ and main.py (names used where vulture cannot see
are listed, each with its reason, in ``tests/vulture_whitelist.py``)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO

#: What is checked, and the names vulture cannot see used.
PATHS = ["game", "ai", "main.py", "tests/vulture_whitelist.py"]


def test_vulture_finds_no_unused_code() -> None:
    pytest.importorskip("vulture")
    proc = subprocess.run([sys.executable, "-m", "vulture", *PATHS, "--min-confidence", "60"],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
